// What the code-block audit costs (issue 25; part of `npm run bench`, or alone: `node out/bench/auditBench.js`
// after `npx tsc -p ./`): applySnippet with the audit against the same apply without it, in the same run,
// on 10,000-line files, one rewritten function (a declaration) and one lazy snippet (the function inside
// placeholders), the file never parsed before (no documentKey: the result is the file's tree reparsed)
// and the file kept (documentKey: the kept tree reparsed). Printed as a ratio to the unaudited apply
// (budget 1.2x), never asserted.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applySnippetWith } from '../src/core/batch/snippet';
import { GRAMMARS } from '../src/core/match/structure/languages';
import { parseOutline, prepareGrammar } from '../src/core/match/structure/treeSitter';
import { clearTreeCache } from '../src/core/match/structure/treeCache';
import type { Decl } from '../src/core/match/structure/outline';
import { testGrammars } from '../test/shared/grammars';

const RATIO_BUDGET = 1.2;
const RUNS = 9;
const ROOT = path.join(__dirname, '..', '..');

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** This repository's TypeScript sources (src/), whole files, concatenated to about 10,000 lines. */
function repositoryTypeScript(): string[] {
  const lines: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else if (entry.name.endsWith('.ts') && lines.length < 10_000) {
        lines.push(...fs.readFileSync(full, 'utf8').replace(/\r\n/g, '\n').split('\n'));
      }
    }
  };
  walk(path.join(ROOT, 'src'));
  return lines;
}

/** typescript.js from its first top-level function after line 20,000, 10,000 lines cut at a closing `}`. */
function typescriptSlice(): string[] {
  const all = fs.readFileSync(path.join(ROOT, 'node_modules', 'typescript', 'lib', 'typescript.js'), 'utf8').split('\n');
  const start = all.findIndex((l, i) => i >= 20_000 && l.startsWith('function '));
  const end = all.slice(0, start + 10_000).lastIndexOf('}');
  return all.slice(start, end + 1);
}

/** A top-level function declared once, 5-60 lines long, in the second half of the file. */
function target(languageId: string, text: string, lines: readonly string[]): Decl | undefined {
  const decls = parseOutline(GRAMMARS[languageId], text).decls;
  return decls.find(
    (d) =>
      d.kind === 'function' &&
      decls.filter((o) => o.name === d.name).length === 1 &&
      d.end - d.start >= 4 &&
      d.end - d.start < 60 &&
      d.start > lines.length / 2,
  );
}

async function timed(
  text: string,
  code: string,
  languageId: string,
  audit: boolean,
  documentKey?: string,
): Promise<{ ms: number; status: string }> {
  const t0 = performance.now();
  const result = await applySnippetWith(
    text,
    { code, languageId },
    { grammars: testGrammars, fileName: 'file', documentKey },
    undefined,
    audit,
  );
  return { ms: performance.now() - t0, status: result.status };
}

async function row(title: string, text: string, code: string, languageId: string, keyed: boolean): Promise<void> {
  const withAudit: number[] = [];
  const without: number[] = [];
  let status = '';
  // Interleaved, so that the machine's load falls on both alike; the first pair warms up.
  for (let i = 0; i <= RUNS; i++) {
    const key = keyed ? `bench:audit:${title}` : undefined;
    const a = await timed(text, code, languageId, true, key);
    const b = await timed(text, code, languageId, false, key);
    if (i > 0) {
      withAudit.push(a.ms);
      without.push(b.ms);
    }
    status = `${a.status}/${b.status}`;
  }
  const ratio = median(withAudit) / median(without);
  console.log(
    `    ${title}: with the audit ${median(withAudit).toFixed(1)} ms, without ${median(without).toFixed(1)} ms: ${ratio.toFixed(2)}x (budget ${RATIO_BUDGET}x: ${ratio <= RATIO_BUDGET ? 'met' : 'NOT met'}; ${status})`,
  );
}

export async function printAuditBench(): Promise<void> {
  console.log('\nCode blocks with the audit, as a ratio to the same apply without it (medians of 9, interleaved)');
  for (const [name, languageId, lines] of [
    ["this repository's TypeScript", 'typescript', repositoryTypeScript()],
    ['typescript.js (whole top-level functions)', 'javascript', typescriptSlice()],
  ] as const) {
    await prepareGrammar(GRAMMARS[languageId], testGrammars);
    const text = lines.join('\n');
    const decl = target(languageId, text, lines);
    if (!decl) {
      console.log(`  ${name}: no function to rewrite`);
      continue;
    }
    const changed = [...lines.slice(decl.start, decl.end), '  // changed by the benchmark', lines[decl.end]];
    const lazy = ['// ... existing code ...', ...changed, '// ... existing code ...'];
    console.log(`  ${name} (${lines.length.toLocaleString('en-US')} lines), function ${decl.name}:`);
    for (const keyed of [false, true]) {
      const how = keyed ? 'file kept (documentKey)' : 'file never parsed before';
      await row(`the declaration, ${how}`, text, changed.join('\n'), languageId, keyed);
      await row(`inside placeholders, ${how}`, text, lazy.join('\n'), languageId, keyed);
    }
  }
  clearTreeCache();
}

if (require.main === module) {
  void printAuditBench();
}
