// Code blocks (issue 20) in `npm run bench`: the first load of the tree-sitter runtime and a grammar, then
// applySnippet of one rewritten function on a 10,000-line slice of typescript.js (budget 50 ms once the
// grammar is loaded). Printed, never asserted.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applySnippet } from '../src/core';
import { GRAMMARS } from '../src/core/match/structure/languages';
import { parseOutline, prepareGrammar } from '../src/core/match/structure/treeSitter';
import { testGrammars } from '../test/shared/grammars';

const BUDGET_MS = 50;
const RUNS = 15;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

export async function printSnippetBench(): Promise<void> {
  console.log('\nCode blocks (applySnippet, tree-sitter)');
  for (const id of ['typescript', 'python']) {
    const t0 = performance.now();
    await prepareGrammar(GRAMMARS[id], testGrammars);
    console.log(
      `  first load of ${id === 'typescript' ? 'the runtime and ' : ''}the ${id} grammar: ${(performance.now() - t0).toFixed(1)} ms`,
    );
  }
  await prepareGrammar(GRAMMARS.javascript, testGrammars);
  const source = fs
    .readFileSync(path.join(__dirname, '..', '..', 'node_modules', 'typescript', 'lib', 'typescript.js'), 'utf8')
    .split('\n');
  const lines = source.slice(20_000, 30_000);
  const text = lines.join('\n');
  // A top-level function declared once in the slice, with a body of a few lines.
  const outline = parseOutline(GRAMMARS.javascript, text);
  const counts = new Map<string, number>();
  for (const d of outline.decls) {
    counts.set(d.name, (counts.get(d.name) ?? 0) + 1);
  }
  const target = outline.decls.find((d) => d.kind === 'function' && counts.get(d.name) === 1 && d.end - d.start >= 4 && d.start > 5_000);
  if (!target) {
    console.log('  (no function to rewrite in the slice)');
    return;
  }
  const code = [...lines.slice(target.start, target.end), '  // changed by the benchmark', lines[target.end]].join('\n');
  const times: number[] = [];
  let status = '';
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const result = await applySnippet(text, { code, languageId: 'javascript' }, { grammars: testGrammars, fileName: 'typescript.js' });
    times.push(performance.now() - t0);
    status = `${result.status} (${result.snippet.parts.map((p) => `${p.action} ${p.what}`).join(', ')})`;
  }
  const ms = median(times);
  console.log(
    `  one function (${target.end - target.start + 1} lines) on a 10,000-line file: first ${times[0].toFixed(1)} ms, median ${ms.toFixed(1)} ms ` +
      `of ${RUNS}; budget ${BUDGET_MS} ms: ${ms <= BUDGET_MS ? 'met' : 'NOT met'}; ${status}`,
  );
}
