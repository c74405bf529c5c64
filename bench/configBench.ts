// Configuration snippets (issue 26) in `npm run bench`: a snippet merged by key into a package-lock.json of
// at least 10,000 lines (this repository's own lockfile, its `packages` entries repeated under new names
// until it is that long), budget 50 ms, printed beside a plain jsonc-parser parse of the same text in the
// same run (the floor: the merge parses the file, and the result again for its audit). Printed, never asserted.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseTree } from 'jsonc-parser';
import { applySnippet } from '../src/core';

const BUDGET_MS = 50;
const RUNS = 15;
const ROOT = path.join(__dirname, '..', '..');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The repository's package-lock.json, grown to at least 10,000 lines with copies of its own entries. */
function bigLockfile(): string {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
  const entries = Object.entries(lock.packages).filter(([name]) => name !== '');
  let lines = JSON.stringify(lock, null, 2).split('\n').length;
  for (let k = 0; lines < 10_000; k++) {
    const [name, value] = entries[k % entries.length];
    lock.packages[`${name}-copy${Math.floor(k / entries.length) + 1}`] = value;
    // The entry's own lines, indented under packages (its key line included).
    lines += JSON.stringify(value, null, 2).split('\n').length;
  }
  return `${JSON.stringify(lock, null, 2)}\n`;
}

async function timed(run: () => Promise<unknown> | unknown): Promise<number> {
  for (let i = 0; i < 3; i++) {
    await run();
  }
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    await run();
    times.push(performance.now() - t0);
  }
  return median(times);
}

export async function printConfigBench(): Promise<void> {
  const text = bigLockfile();
  const lines = text.split('\n').length - 1;
  const parseMs = await timed(() => parseTree(text));
  const cases = [
    { name: 'a new top-level key (whole object)', code: '{\n  "lockfileVersion": 3,\n  "requires": false\n}' },
    { name: 'one entry deep in packages (bare fragment, found by key)', code: '"node_modules/jsonc-parser": {\n  "version": "3.3.2"\n},' },
  ];
  console.log(
    `\nConfiguration snippets: package-lock.json of ${lines.toLocaleString('en-US')} lines (${(text.length / 1024).toFixed(0)} KB); jsonc-parser parseTree ${parseMs.toFixed(2)} ms (the floor)`,
  );
  console.log(['case', 'outcome', 'median ms', 'x parse', `budget ${BUDGET_MS} ms`].join(' | '));
  for (const c of cases) {
    let outcome = '';
    const ms = await timed(async () => {
      const r = await applySnippet(text, { code: c.code }, { fileName: 'package-lock.json', languageId: 'json' });
      outcome = r.message.split(';')[0];
    });
    console.log([c.name, outcome, ms.toFixed(2), (ms / parseMs).toFixed(1), ms < BUDGET_MS ? 'met' : 'MISSED'].join(' | '));
  }
}

if (require.main === module) {
  void printConfigBench();
}
