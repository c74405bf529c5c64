// Generative property test of placeholders (issue 19, rule 6), on real source text.
//
// A case: a file F (a slice of a source from node_modules or a fixture), a region of it (SEARCH), and a
// random edit of the region written out in full (REPLACE): lines kept, changed (one token, so the line
// stays similar to its original), deleted, and new lines inserted (lines from elsewhere in the source
// that are like no SEARCH line). Then runs of kept lines are replaced by placeholder lines of random
// styles ("// ... existing code ...", "# rest unchanged", a bare "...", in the file's comment syntax):
// runs whose neighbours in REPLACE are the lines around them in SEARCH (or the edge of both), as the
// rules say a placeholder is read; sometimes a placeholder that stands for no lines. Sometimes the file
// is CRLF or SEARCH and REPLACE are re-indented, so the kept lines must come from the file's bytes.
// Properties: when the engine applies the elided block, the result is the fully written edit's, byte for
// byte; when it does not, it refused the block (invalid, naming "REPLACE line") and wrote nothing; no
// placeholder line is in any result unless the file had it.
//
// What a changed or new line is follows the rules' reading (decide/elisions.ts pairingCandidates): a
// changed line pairs with its original, a new line with no SEARCH line. A model that writes a "new" line
// equal or similar to a line it elided is not read as the model meant, by design.

import { applyBlocks } from '../../src/core/engine';
import { auditElisions } from '../../src/core/decide/audit/elisionAudit';
import { pairingCandidates } from '../../src/core/decide/elisions';
import { commentSyntaxesFor, isPlaceholderLine, type PlaceholderContext } from '../../src/core/formats/placeholders';
import { foldQuotes, isBlank, leadingWhitespace } from '../../src/core/match/normalize';
import { loadSources } from './fidelity';
import { type Random, seededRandom } from '../shared/seededRandom';

const int = (rng: Random, n: number) => Math.floor(rng() * n);
const pick = <T>(rng: Random, list: readonly T[]): T => list[int(rng, list.length)];

/** One line of the fully written REPLACE and where it came from. */
interface ReplaceItem {
  text: string;
  kind: 'keep' | 'change' | 'new';
  /** The SEARCH line it keeps or changes. */
  search?: number;
}

export type ElisionCaseResult =
  | { kind: 'skipped' }
  | { kind: 'certain' | 'refused'; placeholders: number; styles: string[]; aider: boolean; failure?: string; audited?: boolean };

/** Words placeholders are written with (the comment syntax comes from the file's language). */
const WORDS = [
  '...',
  '… existing code …',
  '... existing code ...',
  'rest of the code unchanged',
  'existing code',
  '(omitted for brevity)',
  '... unchanged ...',
  'same as before',
  '…',
];

function changeToken(rng: Random, line: string): string | undefined {
  const tokens = [...line.matchAll(/[A-Za-z_]\w*|\d+/g)];
  if (tokens.length === 0) {
    return undefined;
  }
  const t = pick(rng, tokens);
  const replaced = /^\d+$/.test(t[0]) ? String(Number(t[0]) + 1 + int(rng, 9)) : t[0] + pick(rng, ['X', '2', 'Alt', '_new']);
  return line.slice(0, t.index) + replaced + line.slice(t.index! + t[0].length);
}

function newLine(
  rng: Random,
  source: readonly string[],
  search: readonly string[],
  lead: string,
  context: PlaceholderContext,
): string | undefined {
  for (let attempt = 0; attempt < 6; attempt++) {
    const from = pick(rng, source).trim();
    if (from === '' || from.length > 200) {
      continue;
    }
    const line = lead + from;
    if (pairingCandidates(line, search).length === 0 && !isPlaceholderLine(line, context)) {
      return line;
    }
  }
  return undefined;
}

/** The fully written edit of the region, line by line with provenance; undefined when it changes nothing. */
function randomEdit(
  rng: Random,
  search: readonly string[],
  source: readonly string[],
  context: PlaceholderContext,
): ReplaceItem[] | undefined {
  const out: ReplaceItem[] = [];
  let changed = false;
  const insert = (lead: string) => {
    const text = newLine(rng, source, search, lead, context);
    if (text !== undefined) {
      out.push({ text, kind: 'new' });
      changed = true;
    }
  };
  for (let s = 0; s < search.length; s++) {
    const line = search[s];
    if (rng() < 0.1) {
      insert(leadingWhitespace(line));
    }
    const roll = rng();
    if (roll < 0.08) {
      changed = true;
      continue;
    }
    if (roll < 0.2 && !isBlank(line)) {
      const text = changeToken(rng, line);
      if (text !== undefined && text !== line && pairingCandidates(text, search).includes(s) && !isPlaceholderLine(text, context)) {
        out.push({ text, kind: 'change', search: s });
        changed = true;
        continue;
      }
    }
    out.push({ text: line, kind: 'keep', search: s });
  }
  if (rng() < 0.1) {
    insert(leadingWhitespace(search[search.length - 1]));
  }
  return changed ? out : undefined;
}

/** Where placeholders may go: runs [first, last] of kept lines read as the rules read them, or empty (last = first - 1). */
function anchoredRuns(items: readonly ReplaceItem[], searchCount: number): Array<[number, number]> {
  const paired = (i: number) => (i >= 0 && i < items.length && items[i].kind !== 'new' ? items[i].search! : undefined);
  const runs: Array<[number, number]> = [];
  for (let a = 0; a < items.length; a++) {
    for (let b = a; b < items.length && items[b].kind === 'keep' && items[b].search === items[a].search! + (b - a); b++) {
      const before = a === 0 ? items[a].search === 0 : paired(a - 1) === items[a].search! - 1;
      const after = b === items.length - 1 ? items[b].search === searchCount - 1 : paired(b + 1) === items[b].search! + 1;
      if (before && after) {
        runs.push([a, b]);
      }
    }
  }
  // A placeholder that stands for no lines: between two lines that pair with neighbouring SEARCH lines.
  for (let a = 1; a < items.length; a++) {
    const p = paired(a - 1);
    if (p !== undefined && paired(a) === p + 1) {
      runs.push([a, a - 1]);
    }
  }
  return runs;
}

function placeholderStyle(rng: Random, context: PlaceholderContext, search: readonly string[], lead: string): string | undefined {
  const inSearch = new Set(search.map((l) => l.trim()));
  const syntaxes = commentSyntaxesFor(context);
  for (let attempt = 0; attempt < 6; attempt++) {
    const words = pick(rng, WORDS);
    let text: string;
    if (rng() < 0.2) {
      text = pick(rng, ['...', '…']);
    } else {
      const syntax = pick(rng, syntaxes);
      text = syntax.close === undefined ? `${syntax.open} ${words}` : `${syntax.open} ${words} ${syntax.close}`;
    }
    const line = lead + text;
    if (isPlaceholderLine(line, context) && !inSearch.has(line.trim())) {
      return line;
    }
  }
  return undefined;
}

function placeholderLines(text: string, context: PlaceholderContext): string[] {
  return text
    .split(/\r?\n/)
    .filter((l) => isPlaceholderLine(l, context))
    .map((l) => l.trim())
    .sort();
}

/** Whether every line of `sub` (a sorted list) is in `all` (sorted), as many times. */
function isSubMultiset(sub: readonly string[], all: readonly string[]): boolean {
  const left = new Map<string, number>();
  for (const l of all) {
    left.set(l, (left.get(l) ?? 0) + 1);
  }
  for (const l of sub) {
    const n = left.get(l) ?? 0;
    if (n === 0) {
      return false;
    }
    left.set(l, n - 1);
  }
  return true;
}

export function runElisionCase(seed: number, index: number): ElisionCaseResult {
  const rng = seededRandom((seed * 1_000_003) ^ (index * 2_654_435_761) ^ 0x5eed);
  const all = loadSources();
  const fixtures = all.filter((src) => src.name.startsWith('test/'));
  const source = rng() < 0.5 ? pick(rng, fixtures) : pick(rng, all);
  const context: PlaceholderContext = { fileName: source.name };
  const sliceStart = source.lines.length > 120 ? int(rng, source.lines.length - 120) : 0;
  const file = source.lines.slice(sliceStart, sliceStart + 120);
  const len = 3 + int(rng, 18);
  if (file.length < len + 1) {
    return { kind: 'skipped' };
  }
  const start = int(rng, file.length - len + 1);
  let search = file.slice(start, start + len);
  if (search.some((l) => l.length > 300) || search.filter((l) => !isBlank(l)).length < 2) {
    return { kind: 'skipped' };
  }
  const items = randomEdit(rng, search, source.lines, context);
  if (items === undefined) {
    return { kind: 'skipped' };
  }
  const runs = anchoredRuns(items, search.length);
  if (runs.length === 0) {
    return { kind: 'skipped' };
  }
  // Up to three placeholders, in REPLACE order, none overlapping or touching another.
  const chosen: Array<[number, number]> = [];
  for (const run of [...runs].sort(() => rng() - 0.5).slice(0, 1 + int(rng, 3))) {
    if (chosen.every(([a, b]) => run[1] + 1 < a || run[0] > b + 1)) {
      chosen.push(run);
    }
  }
  chosen.sort((x, y) => x[0] - y[0]);
  let replace: string[] = [];
  const styles: string[] = [];
  let next = 0;
  for (const [a, b] of chosen) {
    replace.push(...items.slice(next, a).map((i) => i.text));
    const lead = leadingWhitespace(items[b >= a ? a : Math.max(0, a - 1)].text);
    const line = placeholderStyle(rng, context, search, lead);
    if (line === undefined) {
      return { kind: 'skipped' };
    }
    styles.push(line.trim());
    replace.push(line);
    next = b + 1;
  }
  replace.push(...items.slice(next).map((i) => i.text));
  let full = items.map((i) => i.text);
  let fullSearch = search;
  // aider's style: the same runs elided from SEARCH too (a run that stands for no lines, between its neighbours).
  const aider = rng() < 0.4;
  if (aider) {
    const elidedSearch: string[] = [];
    let from = 0;
    for (const [a, b] of chosen) {
      const first = b >= a ? items[a].search! : items[a - 1].search! + 1;
      const last = b >= a ? items[b].search! : first - 1;
      elidedSearch.push(...search.slice(from, first));
      const line = placeholderStyle(rng, context, search, leadingWhitespace(search[Math.min(first, search.length - 1)]));
      if (line === undefined) {
        return { kind: 'skipped' };
      }
      elidedSearch.push(line);
      from = last + 1;
    }
    elidedSearch.push(...search.slice(from));
    search = elidedSearch;
  }
  // The model's view: sometimes re-indented; the file sometimes CRLF.
  if (rng() < 0.25) {
    const shift = (l: string) => (isBlank(l) ? l : '  ' + l);
    search = search.map(shift);
    fullSearch = fullSearch.map(shift);
    replace = replace.map(shift);
    full = full.map(shift);
    if (file.join('\n').includes(fullSearch.join('\n'))) {
      // Re-indented, SEARCH is another place's text (mocha's runner.js has the same lines two spaces deeper).
      return { kind: 'skipped' };
    }
  }
  const eol = rng() < 0.25 ? '\r\n' : '\n';
  const text = file.join(eol) + eol;
  const options = { fileName: source.name };
  const written = applyBlocks(text, [{ index: 1, sourceLine: 1, search: fullSearch.join('\n'), replace: full.join('\n') }], options);
  if (written.status !== 'applied') {
    return { kind: 'skipped' };
  }
  const elided = applyBlocks(text, [{ index: 1, sourceLine: 1, search: search.join('\n'), replace: replace.join('\n') }], options);
  const what = () =>
    `source ${source.name}, file lines ${sliceStart + 1}+, region ${start + 1}-${start + len}, placeholders ${JSON.stringify(styles)}\nSEARCH:\n${search.join('\n')}\nREPLACE:\n${replace.join('\n')}`;
  const result = { placeholders: chosen.length, styles, aider };
  if (!aider) {
    // The audit as oracle (decide/audit/elisionAudit.ts): it passes the fully written edit's lines.
    const resultLines = (written.content ?? '').split(eol);
    const writtenRegion = resultLines.slice(start, start + len + resultLines.length - (file.length + 1));
    const failure = auditElisions({ region: file.slice(start, start + len), replaceLines: replace, written: writtenRegion, context });
    if (failure !== undefined && elided.status === 'applied') {
      return { kind: 'certain', ...result, failure: `${what()}\napplied, although the audit refuses the fully written edit: ${failure}` };
    }
    if (failure !== undefined) {
      // Stricter than the expansion: a placeholder beside a line the block drops without showing it.
      return { kind: 'refused', ...result, audited: true };
    }
  }
  if (elided.status === 'applied') {
    // In both halves each piece is written against its own lines, so a new line's quote characters
    // follow that piece's lines, not the whole region's: compared with quotes folded (nothing else).
    const same = aider ? foldQuotes(elided.content ?? '') === foldQuotes(written.content ?? '') : elided.content === written.content;
    if (!same) {
      return {
        kind: 'certain',
        ...result,
        failure: `${what()}\napplied, but not as the fully written edit:\n${firstDifference(elided.content ?? '', written.content ?? '')}`,
      };
    }
    if (!isSubMultiset(placeholderLines(elided.content ?? '', context), placeholderLines(text, context))) {
      return { kind: 'certain', ...result, failure: `${what()}\na placeholder line was written into the file` };
    }
    return { kind: 'certain', ...result };
  }
  // Placeholders in REPLACE only: refused naming the placeholder. In both halves a piece may also be
  // ambiguous or not found (each piece must be unique after the previous one): never written either way.
  const refusedRight = aider ? true : elided.status === 'invalid' && /REPLACE lines? \d+/.test(elided.message);
  if (!refusedRight || elided.content !== undefined || elided.edits.length > 0) {
    return {
      kind: 'refused',
      ...result,
      failure: `${what()}\nnot applied, but not refused naming the placeholder: ${elided.status}: ${elided.message}`,
    };
  }
  return { kind: 'refused', ...result };
}

function firstDifference(got: string, want: string): string {
  const g = got.split('\n');
  const w = want.split('\n');
  for (let i = 0; i < Math.max(g.length, w.length); i++) {
    if (g[i] !== w[i]) {
      return `line ${i + 1}: got ${JSON.stringify(g[i])}, want ${JSON.stringify(w[i])}`;
    }
  }
  return 'texts differ';
}

export interface ElisionSummary {
  cases: number;
  skipped: number;
  certain: number;
  refused: number;
  placeholders: number;
  /** Cases with placeholders in both halves (aider's style), and how many of those applied. */
  aider: number;
  aiderCertain: number;
  /** Cases where the audit (decide/audit/elisionAudit.ts) refuses the fully written edit: refused, never applied. */
  audited: number;
  failures: Array<{ index: number; message: string }>;
}

export function runElisionProperty(options: { cases: number; seed: number; maxFailures?: number }): ElisionSummary {
  const summary: ElisionSummary = {
    cases: options.cases,
    skipped: 0,
    certain: 0,
    refused: 0,
    placeholders: 0,
    aider: 0,
    aiderCertain: 0,
    audited: 0,
    failures: [],
  };
  for (let i = 0; i < options.cases; i++) {
    const r = runElisionCase(options.seed, i);
    if (r.kind === 'skipped') {
      summary.skipped++;
      continue;
    }
    summary[r.kind]++;
    summary.audited += r.audited ? 1 : 0;
    summary.placeholders += r.placeholders;
    if (r.aider) {
      summary.aider++;
      summary.aiderCertain += r.kind === 'certain' ? 1 : 0;
    }
    if (r.failure !== undefined) {
      summary.failures.push({ index: i, message: r.failure });
      if (summary.failures.length >= (options.maxFailures ?? 20)) {
        break;
      }
    }
  }
  return summary;
}
