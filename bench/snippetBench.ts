// Code blocks (issue 20) in `npm run bench`: the first load of the tree-sitter runtime and the grammars,
// then applySnippet of one rewritten function on 10,000-line files (budget 50 ms once the grammar is
// loaded), in the three situations an editor meets:
//   cold       the file was never parsed (a full parse: the first code block for that file)
//   unchanged  a second code block on the same text (the kept outline is reused)
//   edited     the file was edited elsewhere since the last code block (the kept tree reparses the change)
// on typescript.js lines ~20,001-30,000 cut at top-level functions (it parses), the same lines cut
// mid-function (syntax errors: the kept tree is not reused, every apply parses from scratch), and 10,000
// lines of this repository's own TypeScript. Printed, never asserted.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { applySnippet } from '../src/core';
import { GRAMMARS } from '../src/core/match/structure/languages';
import { parseOutline, prepareGrammar } from '../src/core/match/structure/treeSitter';
import { clearTreeCache, treeCacheStats } from '../src/core/match/structure/treeCache';
import type { Decl } from '../src/core/match/structure/outline';
import { testGrammars } from '../test/shared/grammars';
import { printAuditBench } from './auditBench';

const BUDGET_MS = 50;
const RUNS = 9;
const ROOT = path.join(__dirname, '..', '..');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

interface BenchFile {
  title: string;
  languageId: 'javascript' | 'typescript';
  lines: string[];
}

/** typescript.js lines 20,001-30,000, or (clean) from the first top-level function there to the last `}` closing one. */
function typescriptSlice(clean: boolean): BenchFile {
  const all = fs.readFileSync(path.join(ROOT, 'node_modules', 'typescript', 'lib', 'typescript.js'), 'utf8').split('\n');
  if (!clean) {
    return {
      title: 'typescript.js lines 20,001-30,000 (cut mid-declaration: syntax errors)',
      languageId: 'javascript',
      lines: all.slice(20_000, 30_000),
    };
  }
  const start = all.findIndex((l, i) => i >= 20_000 && l.startsWith('function '));
  const end = all.slice(0, start + 10_000).lastIndexOf('}');
  return {
    title: `typescript.js lines ${(start + 1).toLocaleString('en-US')}-${(end + 1).toLocaleString('en-US')} (whole top-level functions)`,
    languageId: 'javascript',
    lines: all.slice(start, end + 1),
  };
}

/** This repository's TypeScript sources (src/, then test/), whole files, concatenated to about 10,000 lines. */
function repositoryTypeScript(): BenchFile {
  const files: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else if (entry.name.endsWith('.ts')) {
        files.push(full);
      }
    }
  };
  walk(path.join(ROOT, 'src'));
  walk(path.join(ROOT, 'test'));
  const lines: string[] = [];
  for (const file of files) {
    const more = fs.readFileSync(file, 'utf8').replace(/\r\n/g, '\n').split('\n');
    if (lines.length + more.length > 10_000) {
      break;
    }
    lines.push(...more);
  }
  return { title: "this repository's own TypeScript (src/ and test/ files concatenated)", languageId: 'typescript', lines };
}

/** Two top-level functions declared once, 5-60 lines long, in the second half of the file (the edits below go in the first half). */
function targets(file: BenchFile, text: string): Decl[] {
  const outline = parseOutline(GRAMMARS[file.languageId], text);
  const counts = new Map<string, number>();
  for (const d of outline.decls) {
    counts.set(d.name, (counts.get(d.name) ?? 0) + 1);
  }
  return outline.decls
    .filter(
      (d) =>
        d.kind === 'function' &&
        counts.get(d.name) === 1 &&
        d.end - d.start >= 4 &&
        d.end - d.start < 60 &&
        d.start > file.lines.length / 2,
    )
    .slice(0, 2);
}

/** The function as a code block with one line added to its body. */
function rewritten(lines: readonly string[], target: Decl): string {
  return [...lines.slice(target.start, target.end), '  // changed by the benchmark', lines[target.end]].join('\n');
}

interface Timing {
  ms: number;
  cpuMs: number;
  status: string;
}

async function timeApply(text: string, code: string, file: BenchFile, documentKey?: string): Promise<Timing> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await applySnippet(text, { code, languageId: file.languageId }, { grammars: testGrammars, fileName: 'file', documentKey });
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  return {
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    status: `${result.status} (${result.snippet.parts.map((p) => `${p.action} ${p.what}`).join(', ')})`,
  };
}

function verdict(timings: readonly Timing[]): string {
  const ms = median(timings.map((t) => t.ms));
  const cpuMs = median(timings.map((t) => t.cpuMs));
  const busy = os.loadavg()[0] > os.cpus().length;
  return (
    `median ${ms.toFixed(1)} ms (cpu ${cpuMs.toFixed(1)} ms) of ${timings.length}; budget ${BUDGET_MS} ms: ${ms <= BUDGET_MS ? 'met' : 'NOT met'}` +
    (busy ? ` (by cpu ms: ${cpuMs <= BUDGET_MS ? 'met' : 'NOT met'})` : '')
  );
}

async function benchFile(file: BenchFile): Promise<void> {
  const text = file.lines.join('\n');
  const fresh = parseOutline(GRAMMARS[file.languageId], text);
  console.log(
    `  ${file.title}: ${file.lines.length.toLocaleString('en-US')} lines, ${Math.round(text.length / 1024)} KB, ` +
      `${fresh.decls.length} top-level declarations, ${fresh.errors} syntax errors`,
  );
  const [target, second] = targets(file, text);
  if (!target || !second) {
    console.log('    (no two functions to rewrite)');
    return;
  }
  const code = rewritten(file.lines, target);
  // The first call also warms the JIT on this file's shape (reported apart), so that "cold" below means
  // the file, not the code.
  const first = await timeApply(text, code, file);
  const full = Array.from({ length: 5 }, () => {
    const t0 = performance.now();
    parseOutline(GRAMMARS[file.languageId], text);
    return performance.now() - t0;
  });
  const cold: Timing[] = [];
  for (let i = 0; i < RUNS; i++) {
    cold.push(await timeApply(text, code, file, `bench:cold:${file.title}:${i}`));
  }
  const coldMet = median(cold.map((t) => t.ms)) <= BUDGET_MS;
  console.log(
    `    cold: the file never parsed before (full parse): first call ${first.ms.toFixed(1)} ms, then ${verdict(cold)}` +
      (coldMet ? '' : `; a full parse of this text alone takes ${median(full).toFixed(1)} ms`),
  );
  const key = `bench:${file.title}`;
  await timeApply(text, code, file, key);
  const unchanged: Timing[] = [];
  for (let i = 0; i < RUNS; i++) {
    unchanged.push(await timeApply(text, rewritten(file.lines, i % 2 ? target : second), file, key));
  }
  console.log(`    unchanged file, another code block (outline kept): ${verdict(unchanged)}`);
  const before = { ...treeCacheStats };
  const edited: Timing[] = [];
  const lines = [...file.lines];
  for (let i = 0; i < RUNS; i++) {
    // A line added far from the function, a little further each time: every apply sees a new text.
    lines.splice(1_000 + 300 * i, 0, `// edited elsewhere ${i}`);
    edited.push(await timeApply(lines.join('\n'), code, file, key));
  }
  const reparsed = treeCacheStats.reparsed - before.reparsed;
  const how =
    reparsed >= RUNS
      ? 'the kept tree reparsed incrementally'
      : `parsed from scratch ${RUNS - reparsed} of ${RUNS} times: a text with syntax errors is never read from a reparsed tree`;
  console.log(`    edited elsewhere since the last code block (${how}): ${verdict(edited)}; ${edited[edited.length - 1].status}`);
}

export async function printSnippetBench(): Promise<void> {
  console.log('\nCode blocks (applySnippet, tree-sitter; a 10,000-line file, one rewritten function)');
  for (const id of ['typescript', 'python', 'javascript']) {
    const t0 = performance.now();
    await prepareGrammar(GRAMMARS[id], testGrammars);
    console.log(
      `  first load of ${id === 'typescript' ? 'the runtime and ' : ''}the ${id} grammar: ${(performance.now() - t0).toFixed(1)} ms`,
    );
  }
  for (const file of [typescriptSlice(true), typescriptSlice(false), repositoryTypeScript()]) {
    await benchFile(file);
  }
  clearTreeCache();
  await printAuditBench();
}

if (require.main === module) {
  void printSnippetBench();
}
