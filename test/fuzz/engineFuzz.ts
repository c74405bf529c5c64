// Generative testing of the parser and applyBlocks: seeded, real-looking source files (TypeScript's
// lib .d.ts files and JavaScript from node_modules, synthesised Python, Markdown and tab-indented C),
// hostile shapes (huge lines, 100k empty lines, BOM, mixed line endings, marker lines inside code,
// unterminated markers, huge batches) and blocks (exact copies, perturbations, twins, garbage).
// Invariants checked on every call are listed in checkResult. Case k of seed s is fully determined
// by (s, k), so a failure prints the command that reruns just that case.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { runBatch } from '../../src/core/engine';
import { BlockParseError, parseBlocks } from '../../src/core/formats/parser';
import { isPlaceholderLine } from '../../src/core/formats/placeholders';
import { type ApplyOptions, type ApplyResult, type SearchReplaceBlock } from '../../src/core/types';
import { seededRandom } from '../shared/seededRandom';

export interface FuzzOptions {
  seed: number;
  /** Stop after this many cases ... */
  cases: number;
  /** ... or after this many seconds, whichever comes first. */
  seconds: number;
  /** Run only this case (to reproduce a failure). */
  only?: number;
  /** CPU milliseconds one applyBlocks call may take before the case counts as slow. */
  capMs: number;
  log?: (line: string) => void;
}

export interface FuzzFailure {
  seed: number;
  caseNo: number;
  kind: string;
  message: string;
}

export interface FuzzSummary {
  cases: number;
  calls: number;
  blocks: number;
  failures: FuzzFailure[];
  slow: Array<{ caseNo: number; ms: number; what: string }>;
  maxCallMs: number;
  statuses: Record<string, number>;
  seconds: number;
}

// ---- randomness -------------------------------------------------------------------------------------

function caseSeed(seed: number, caseNo: number): number {
  return (Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(caseNo + 1, 0xc2b2ae35)) >>> 0;
}

class Gen {
  constructor(readonly next: () => number) {}
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  /** Log-uniform integer in [1, max]: mostly small, sometimes large. */
  size(max: number): number {
    return Math.max(1, Math.floor(Math.exp(this.next() * Math.log(max))));
  }
}

// ---- corpus -----------------------------------------------------------------------------------------

let corpusCache: string[][] | undefined;

/** Real text: TypeScript's lib declarations and JavaScript sources shipped in node_modules. */
function corpus(): string[][] {
  if (corpusCache) {
    return corpusCache;
  }
  const root = path.resolve(__dirname, '../../../node_modules');
  const files = [
    'typescript/lib/lib.es5.d.ts',
    'typescript/lib/lib.dom.d.ts',
    'typescript/lib/lib.es2015.promise.d.ts',
    'fastest-levenshtein/mod.js',
    'mocha/lib/runner.js',
    'mocha/lib/suite.js',
    'esbuild/lib/main.js',
  ];
  const out: string[][] = [];
  for (const f of files) {
    try {
      const text = fs.readFileSync(path.join(root, f), 'utf8');
      out.push(text.split(/\r?\n/).slice(0, 40_000));
    } catch {
      // A missing package only narrows the corpus.
    }
  }
  if (out.length === 0) {
    throw new Error(`no corpus files found under ${root} (run npm ci)`);
  }
  corpusCache = out;
  return out;
}

const PY_NAMES = ['load', 'save', 'parse', 'render', 'total', 'items', 'config', 'user', 'value', 'result'];

function python(g: Gen, n: number): string[] {
  const out: string[] = [];
  while (out.length < n) {
    const name = g.pick(PY_NAMES);
    out.push(`def ${name}_${g.int(0, 30)}(self, ${g.pick(PY_NAMES)}):`);
    out.push(`    """${g.pick(['Return', 'Compute', 'Load'])} the ${g.pick(PY_NAMES)}."""`);
    for (let k = g.int(1, 6); k > 0; k--) {
      out.push(
        g.chance(0.3)
          ? `    if ${g.pick(PY_NAMES)} is None:`
          : `    ${g.pick(PY_NAMES)} = ${g.pick(PY_NAMES)}.get('${g.pick(PY_NAMES)}', ${g.int(0, 9)})`,
      );
      if (out[out.length - 1].endsWith(':')) {
        out.push(`        return ${g.pick(PY_NAMES)}`);
      }
    }
    out.push(`    return ${g.pick(PY_NAMES)}`);
    out.push('');
  }
  return out.slice(0, n);
}

function markdown(g: Gen, n: number): string[] {
  const out: string[] = [];
  while (out.length < n) {
    out.push(`## ${g.pick(['Install', 'Usage', 'Options', 'Notes'])} ${g.int(1, 9)}`, '');
    out.push(`The ${g.pick(PY_NAMES)} option sets the “${g.pick(PY_NAMES)}” — see below…  `);
    out.push(`- ${g.pick(PY_NAMES)}: \`${g.pick(PY_NAMES)}\``, `- ${g.pick(PY_NAMES)}: ${g.int(0, 99)}`, '');
    if (g.chance(0.3)) {
      out.push('```ts', `const ${g.pick(PY_NAMES)} = ${g.int(0, 9)};`, '```', '');
    }
    if (g.chance(0.2)) {
      out.push('---', '');
    }
  }
  return out.slice(0, n);
}

function cTabs(g: Gen, n: number): string[] {
  const out: string[] = [];
  while (out.length < n) {
    out.push(`static int ${g.pick(PY_NAMES)}_${g.int(0, 20)}(struct ctx *c)`, '{');
    for (let k = g.int(1, 5); k > 0; k--) {
      out.push(`\tif (c->${g.pick(PY_NAMES)} > ${g.int(0, 9)}) {`, `\t\treturn -E${g.pick(['INVAL', 'NOMEM', 'IO'])};`, '\t}');
    }
    out.push(`\treturn 0;`, '}', '');
  }
  return out.slice(0, n);
}

function sourceLines(g: Gen): string[] {
  const kind = g.int(0, 9);
  const n = g.size(2_000);
  if (kind <= 5) {
    const file = g.pick(corpus());
    const start = g.int(0, Math.max(0, file.length - n));
    return file.slice(start, start + n);
  }
  if (kind === 6) {
    return python(g, n);
  }
  if (kind === 7) {
    return markdown(g, n);
  }
  if (kind === 8) {
    return cTabs(g, n);
  }
  // Repetitive code: many identical short lines make ambiguity and twins common.
  return Array.from({ length: n }, (_, i) => g.pick(['}', '  return x;', '', `  x += ${i % 3};`, '  // ...']));
}

// ---- documents --------------------------------------------------------------------------------------

interface Doc {
  text: string;
  lines: string[];
  shape: string;
}

function makeDoc(g: Gen): Doc {
  let lines = sourceLines(g);
  const shapes: string[] = [];
  if (g.chance(0.003)) {
    lines = [...lines.slice(0, 5), ...Array.from({ length: 100_000 }, () => ''), ...lines.slice(5)];
    shapes.push('100k empty lines');
  }
  if (g.chance(0.005)) {
    const at = g.int(0, lines.length);
    lines.splice(at, 0, `const blob = "${'ab'.repeat(g.int(10_000, 150_000))}";`);
    shapes.push('huge line');
  }
  if (g.chance(0.05)) {
    const at = g.int(0, lines.length);
    lines.splice(at, 0, g.pick(['<<<<<<< SEARCH', '=======', '>>>>>>> REPLACE', '------- SEARCH', '+++++++ REPLACE']));
    shapes.push('marker in code');
  }
  if (g.chance(0.1)) {
    lines = lines.map((l) => (g.chance(0.1) ? `${l}${g.pick([' ', '  ', '\t'])}` : l));
    shapes.push('trailing whitespace');
  }
  if (g.chance(0.08)) {
    // Twins: a region copied elsewhere, sometimes with invisible differences only.
    const len = g.int(1, 8);
    const from = g.int(0, Math.max(0, lines.length - len));
    const copy = lines.slice(from, from + len).map((l) => (g.chance(0.3) ? `${l} ` : l));
    lines.splice(g.int(0, lines.length), 0, ...copy);
    shapes.push('twin region');
  }
  const eolMode = g.int(0, 9);
  let text = '';
  if (g.chance(0.08)) {
    text = '\uFEFF';
    shapes.push('BOM');
  }
  const crlfAll = eolMode === 0;
  const mixed = eolMode === 1;
  if (crlfAll) {
    shapes.push('CRLF');
  }
  if (mixed) {
    shapes.push('mixed EOL');
  }
  const finalEol = g.chance(0.8);
  const parts: string[] = [text];
  for (let i = 0; i < lines.length; i++) {
    parts.push(lines[i]);
    if (i < lines.length - 1 || finalEol) {
      parts.push(crlfAll || (mixed && g.chance(0.5)) ? '\r\n' : '\n');
    }
  }
  text = parts.join('');
  if (g.chance(0.01)) {
    text = '';
    shapes.push('empty');
  }
  return { text, lines: text.replace(/^\uFEFF/, '').split(/\r?\n/), shape: shapes.join(', ') || 'plain' };
}

// ---- blocks -----------------------------------------------------------------------------------------

function perturb(g: Gen, lines: string[]): string[] {
  switch (g.int(0, 7)) {
    case 0:
      return lines.map((l) => (l.trim() === '' ? l : `  ${l}`));
    case 1:
      return lines.map((l) => l.replace(/^\t/, '    '));
    case 2:
      return lines.map((l) => l.replace(/"/g, "'"));
    case 3:
      return lines.map((l) => l.trimEnd());
    case 4: {
      const out = [...lines];
      const k = g.int(0, out.length - 1);
      out[k] = out[k].replace(/[A-Za-z]{3,}/, (w) => `${w}X`);
      return out;
    }
    case 5:
      return lines.map((l) => l.replace(/, /g, ','));
    case 6:
      return lines.length > 2 ? [...lines.slice(0, 1), ...lines.slice(2)] : lines;
    default:
      return lines.map((l, i) => `${i + 1} | ${l}`);
  }
}

function garbage(g: Gen): string {
  const chars = 'abc{}();=<>"\'\t \\\u00a0\u200b\u2014\u201c\r\n=======<<<<<<<';
  let s = '';
  for (let n = g.size(200); n > 0; n--) {
    s += chars[g.int(0, chars.length - 1)];
  }
  return s;
}

function makeBlocks(g: Gen, doc: Doc): SearchReplaceBlock[] {
  const count = g.chance(0.005) ? g.int(500, 4_000) : g.size(12);
  const blocks: SearchReplaceBlock[] = [];
  const n = doc.lines.length;
  for (let b = 0; b < count; b++) {
    const len = Math.min(n, g.size(8));
    const s = g.int(0, Math.max(0, n - len));
    const region = doc.lines.slice(s, s + len);
    const kind = count > 100 ? (g.chance(0.97) ? 0 : g.int(1, 4)) : g.int(0, 9);
    let search: string[];
    if (kind <= 4) {
      search = region;
    } else if (kind <= 6) {
      search = perturb(g, region);
    } else if (kind === 7) {
      search = garbage(g).split('\n');
    } else if (kind === 8) {
      search = g.chance(0.5) ? [] : ['   '];
    } else {
      search = [doc.lines[g.int(0, n - 1)]];
    }
    let replace: string[];
    const r = g.int(0, 5);
    if (r === 0) {
      replace = [];
    } else if (r === 1) {
      replace = garbage(g).split('\n');
    } else {
      replace = search.map((l) => (g.chance(0.4) ? `${l} // edit ${b}` : l));
    }
    if (g.chance(0.05)) {
      replace.push('=======');
    }
    const block: SearchReplaceBlock = {
      index: b + 1,
      sourceLine: 1,
      search: search.join('\n'),
      replace: replace.join('\n'),
    };
    if (g.chance(0.1)) {
      block.startLine = g.pick([s + 1, g.int(1, n + 5), 1e23, 0, 2.5]);
    }
    blocks.push(block);
  }
  return blocks;
}

/** The blocks in the marker format, sometimes damaged (unterminated, stray markers). */
function markerText(g: Gen, blocks: SearchReplaceBlock[]): string {
  const out: string[] = [];
  for (const b of blocks.slice(0, 50)) {
    if (g.chance(0.3)) {
      out.push('src/file.ts');
    }
    out.push(g.chance(0.9) ? '<<<<<<< SEARCH' : '------- SEARCH');
    if (b.startLine !== undefined) {
      out.push(`:start_line:${g.chance(0.5) ? b.startLine : '100000000000000000000000'}`, '-------');
    }
    out.push(b.search, '=======', b.replace);
    if (g.chance(0.95)) {
      out.push('>>>>>>> REPLACE');
    }
    out.push('');
  }
  if (g.chance(0.1)) {
    out.push('>>>>>>> REPLACE');
  }
  return out.join(g.chance(0.2) ? '\r\n' : '\n');
}

// ---- invariants -------------------------------------------------------------------------------------

function lineStarts(text: string): number[] {
  const starts = [text.charCodeAt(0) === 0xfeff ? 1 : 0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    starts.push(i + 1);
  }
  return starts;
}

/** Occurrences of SEARCH's lines up to what a model cannot see (CR, trailing spaces and tabs). */
function invisibleOccurrences(doc: Doc, search: string, limit: number): number {
  const want = search.split('\n').map((l) => l.replace(/[ \t\r]+$/, ''));
  const have = doc.lines.map((l) => l.replace(/[ \t\r]+$/, ''));
  let found = 0;
  for (let s = 0; s + want.length <= have.length && found < limit; s++) {
    let k = 0;
    while (k < want.length && have[s + k] === want[k]) {
      k++;
    }
    if (k === want.length) {
      found++;
    }
  }
  return found;
}

function fail(kind: string, message: string): never {
  throw Object.assign(new Error(message), { fuzzKind: kind });
}

/** Every invariant of one result; throws a tagged error naming the one broken. */
function checkResult(doc: Doc, blocks: SearchReplaceBlock[], options: ApplyOptions, r: ApplyResult): void {
  const text = doc.text;
  const starts = lineStarts(text);
  const lineCount = starts.length;
  if (typeof r.message !== 'string' || r.message.length === 0) {
    fail('message', 'empty message');
  }
  if (r.status !== 'applied') {
    if (r.content !== undefined || r.edits.length > 0) {
      fail('atomic', `status ${r.status} but content or edits present`);
    }
  } else {
    if (r.content === undefined) {
      fail('atomic', 'applied without content');
    }
    // Edits sorted, apart, inside the text, and they turn the original into content.
    let out = '';
    let pos = 0;
    for (const e of r.edits) {
      if (!(e.start >= pos && e.end >= e.start && e.end <= text.length)) {
        fail('edits', `bad edit order/bounds ${JSON.stringify([e.start, e.end])}`);
      }
      out += text.slice(pos, e.start) + e.newText;
      pos = e.end;
    }
    out += text.slice(pos);
    if (out !== r.content) {
      fail('edits', 'edits applied to the original do not give content');
    }
    // Bytes outside reported ranges unchanged: every edit lies inside the applied blocks' ranges
    // (whole lines, plus the line break before them, which a deletion at the end of the file takes).
    const allowed = r.blocks
      .filter((b) => b.range)
      .map((b) => {
        const first = b.range!.startLine - 1;
        const last = b.range!.endLine - 1;
        const from = first > 0 ? starts[first] - 2 : 0;
        const to = last + 1 < lineCount ? starts[last + 1] : text.length;
        return [Math.max(0, from), to] as const;
      });
    // Blocks side by side give one joined edit: compare with the union of the ranges.
    allowed.sort((x, y) => x[0] - y[0]);
    const union: Array<[number, number]> = [];
    for (const [a, b] of allowed) {
      const top = union[union.length - 1];
      if (top && a <= top[1]) {
        top[1] = Math.max(top[1], b);
      } else {
        union.push([a, b]);
      }
    }
    for (const e of r.edits) {
      if (!union.some(([a, b]) => a <= e.start && e.end <= b)) {
        fail('outside', `edit ${e.start}-${e.end} outside every reported range ${JSON.stringify(r.blocks.map((b) => b.range))}`);
      }
    }
    const content = r.content;
    if (
      text.startsWith('\uFEFF') !== content.startsWith('\uFEFF') ||
      content.startsWith('\uFEFF\uFEFF') !== text.startsWith('\uFEFF\uFEFF')
    ) {
      fail('bom', 'BOM not kept');
    }
    const replaceHasCr = blocks.some((b) => b.replace.includes('\r'));
    if (!text.includes('\r') && content.includes('\r\n') && !replaceHasCr) {
      fail('eol', 'CRLF written into an LF file');
    }
    if (text.includes('\n') && !/(^|[^\r])\n/.test(text) && /(^|[^\r])\n/.test(content)) {
      fail('eol', 'bare LF written into a CRLF file');
    }
  }
  // Candidates inside the file.
  for (const b of r.blocks) {
    for (const c of b.candidates) {
      if (!(c.startLine >= 1 && c.endLine >= c.startLine && c.endLine <= lineCount)) {
        fail('candidate', `lines ${c.startLine}-${c.endLine} of ${lineCount}`);
      }
      if (!(c.start >= 0 && c.start <= c.end && c.end <= text.length)) {
        fail('candidate', `offsets ${c.start}-${c.end} of ${text.length}`);
      }
    }
    if (b.range && !(b.range.startLine >= 1 && b.range.endLine <= lineCount)) {
      fail('range', `range ${JSON.stringify(b.range)} of ${lineCount} lines`);
    }
  }
  // A SEARCH that occurs twice, up to what the model cannot see, is never applied without a hint.
  // (Block 1 sees the original text, so the count is taken there.)
  const first = blocks[0];
  const outcome = r.blocks[0];
  if (
    first &&
    outcome &&
    first.search.trim() !== '' &&
    first.startLine === undefined &&
    options.lineHint === undefined &&
    (outcome.status === 'applied' || outcome.status === 'held_back') &&
    invisibleOccurrences(doc, first.search, 2) >= 2
  ) {
    fail('ambiguity', `block 1 placed (tier ${outcome.tier}) although SEARCH occurs twice up to invisible differences`);
  }
}

// ---- the run ----------------------------------------------------------------------------------------

function cpuMs(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

interface CaseStats {
  calls: number;
  blocks: number;
  maxMs: number;
  slow: Array<{ ms: number; what: string }>;
  statuses: string[];
}

/** One case: parse its marker text, apply its blocks, check; then the inverse and the differential run. */
export function runCase(seed: number, caseNo: number, capMs: number): CaseStats {
  const g = new Gen(seededRandom(caseSeed(seed, caseNo)));
  const doc = makeDoc(g);
  const blocks = makeBlocks(g, doc);
  const stats: CaseStats = { calls: 0, blocks: 0, maxMs: 0, slow: [], statuses: [] };
  const timed = <T>(what: string, fn: () => T): T => {
    const t0 = cpuMs();
    const out = fn();
    const ms = cpuMs() - t0;
    stats.maxMs = Math.max(stats.maxMs, ms);
    if (ms > capMs) {
      stats.slow.push({ ms, what: `${what} (${doc.shape}, ${doc.lines.length} lines, ${blocks.length} blocks)` });
    }
    return out;
  };

  // Parser: only BlockParseError, and hints are safe positive integers.
  const input = markerText(g, blocks);
  try {
    const parsed = timed('parseBlocks', () => parseBlocks(input));
    for (const b of parsed) {
      if (b.startLine !== undefined && !(Number.isSafeInteger(b.startLine) && b.startLine >= 1)) {
        fail('parser', `startLine ${b.startLine} accepted`);
      }
    }
  } catch (e) {
    if (!(e instanceof BlockParseError)) {
      throw e;
    }
  }

  const options: ApplyOptions = {};
  if (g.chance(0.2)) {
    options.autoApplyNormalized = false;
  }
  if (g.chance(0.1)) {
    options.autoApplyAbove = g.pick([0.6, 0.77, 0.9]);
  }
  if (g.chance(0.05)) {
    options.lineHint = g.pick([1, doc.lines.length, 1e23, Number.NaN]);
  }
  if (g.chance(0.2)) {
    options.maxCandidates = g.int(1, 10);
  }
  if (g.chance(0.1)) {
    options.languageId = 'markdown';
  }

  const large = blocks.length >= 16;
  const result = timed('applyBlocks', () => finish(runBatch(doc.text, blocks, options, large)));
  stats.calls++;
  stats.blocks += blocks.length;
  stats.statuses.push(result.status);
  checkResult(doc, blocks, options, result);

  // Both working-text representations give the same result (bounded: it runs the batch again).
  if (blocks.length <= 300 && doc.text.length <= 2_000_000) {
    const other = timed('applyBlocks (other representation)', () => finish(runBatch(doc.text, blocks, options, !large)));
    stats.calls++;
    if (JSON.stringify(other) !== JSON.stringify(result)) {
      fail('differential', 'line-array and one-string batches differ');
    }
  }

  // Inverse: an exact single-block apply undone by the inverse block restores the original.
  const only = blocks[0];
  const outcome = result.blocks[0];
  if (
    blocks.length === 1 &&
    result.status === 'applied' &&
    outcome.tier === 'exact' &&
    // A whitespace-only SEARCH is an empty SEARCH (fill an empty file): no inverse of that form.
    only.replace.trim() !== '' &&
    only.search.trim() !== '' &&
    options.languageId !== 'markdown' &&
    !only.replace.includes('\r') &&
    // Written lines lose trailing whitespace (outside Markdown), so such a SEARCH cannot come back;
    // in a mixed-EOL file new lines take the break of the line they replace, which may differ.
    !/[ \t]$/m.test(only.search) &&
    !(doc.text.includes('\r\n') && /(^|[^\r])\n/.test(doc.text)) &&
    // The inverse's REPLACE is the original SEARCH: a placeholder line there (`// ...`) stands for file
    // lines by design (issue 19), so the inverse keeps them instead of writing the placeholder back.
    !only.search.split('\n').some((line) => isPlaceholderLine(line, { languageId: options.languageId, fileName: options.fileName }))
  ) {
    const inverse: SearchReplaceBlock = { index: 1, sourceLine: 1, search: only.replace, replace: only.search };
    const back = timed('applyBlocks (inverse)', () => finish(runBatch(result.content!, [inverse], {}, false)));
    stats.calls++;
    if (back.status === 'applied' && back.blocks[0].tier === 'exact' && back.content !== doc.text) {
      fail('inverse', 'applying the inverse block did not restore the original');
    }
  }
  return stats;
}

function finish(run: Generator<void, ApplyResult>): ApplyResult {
  for (let step = run.next(); ; step = run.next()) {
    if (step.done) {
      return step.value;
    }
  }
}

export function runFuzz(opts: FuzzOptions): FuzzSummary {
  const log = opts.log ?? (() => undefined);
  const summary: FuzzSummary = { cases: 0, calls: 0, blocks: 0, failures: [], slow: [], maxCallMs: 0, statuses: {}, seconds: 0 };
  const t0 = Date.now();
  const first = opts.only ?? 0;
  const last = opts.only !== undefined ? opts.only + 1 : opts.cases;
  let lastReport = t0;
  for (let caseNo = first; caseNo < last; caseNo++) {
    if (opts.only === undefined && Date.now() - t0 > opts.seconds * 1000) {
      break;
    }
    try {
      const stats = runCase(opts.seed, caseNo, opts.capMs);
      summary.calls += stats.calls;
      summary.blocks += stats.blocks;
      summary.maxCallMs = Math.max(summary.maxCallMs, stats.maxMs);
      for (const s of stats.slow) {
        summary.slow.push({ caseNo, ...s });
      }
      for (const s of stats.statuses) {
        summary.statuses[s] = (summary.statuses[s] ?? 0) + 1;
      }
    } catch (e) {
      const err = e as Error & { fuzzKind?: string };
      const failure: FuzzFailure = {
        seed: opts.seed,
        caseNo,
        kind: err.fuzzKind ?? 'threw',
        message: err.fuzzKind ? err.message : String(err.stack ?? err),
      };
      summary.failures.push(failure);
      log(`FAIL seed ${opts.seed} case ${caseNo} [${failure.kind}]: ${failure.message}`);
      log(`  rerun: npm run fuzz -- --seed ${opts.seed} --case ${caseNo}`);
    }
    summary.cases++;
    if (Date.now() - lastReport > 10_000) {
      lastReport = Date.now();
      log(`  ... ${summary.cases} cases, ${summary.failures.length} failures, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    }
  }
  summary.seconds = (Date.now() - t0) / 1000;
  return summary;
}
