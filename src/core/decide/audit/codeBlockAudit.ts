// The audit of a code block's planned result (issue 25): an independent check, between the plan and the
// write, that the result loses nothing the block did not show. It reads only the file, the block, the
// result and their outlines (the parser's declarations); it never uses the planner's pairing or
// placement code (snippetPlan, snippetScope, snippetIndent, write/align), so a planner bug cannot vouch
// for itself. Each rule is a function of its own that returns the first failure it finds, naming the
// rule and the closest places (file lines, 0-based, [start, end)).

import { type Decl, describeDecl, type Outline } from '../../match/structure/outline';
import { foldQuotes, foldUnicode } from '../../match/normalize';
import { keyEquals, lineKey, lineKeys } from './lineKeys';
import type { AuditFailure, AuditInput, AuditRule } from './auditTypes';
import { keptLines, sharedEnds } from './lineDiff';
import { listDecls, rewriteAllowed } from './wholeFile';
import { noSecondDeclaration } from './secondDeclaration';
import { writtenInPlace } from './writtenInPlace';

export type { AuditFailure, AuditInput, AuditRule } from './auditTypes';
export { noSecondDeclaration } from './secondDeclaration';

/** What each rule checks, as the refusal names it. */
export const RULE_TEXT: Record<AuditRule, string> = {
  'block-lines-kept': 'every line the code block shows is in the result, in order',
  'removed-lines-shown': 'nothing the code block does not show is removed',
  'unshown-declarations-kept': 'every declaration the code block does not show is kept byte for byte, once',
  'no-new-syntax-errors': 'the result has no more syntax errors than the file',
  'no-second-declaration': 'no scope gains a second declaration of a name the code block shows',
  'written-in-place':
    'each line written from the code block stands between its neighbours in the block, at the depth the block gives it, and never beside a copy of itself',
  'whole-file-rewrite': 'a whole-file rewrite shows every top-level declaration of the file',
};

/** The first rule the planned result breaks, or undefined when it passes them all. */
export function auditCodeBlock(input: AuditInput): AuditFailure | undefined {
  return (
    wholeFileRewriteAllowed(input) ??
    blockLinesKept(input) ??
    removedLinesShown(input) ??
    unshownDeclarationsKept(input) ??
    writtenInPlace(input) ??
    noNewSyntaxErrors(input) ??
    noSecondDeclaration(input)
  );
}

// ---- keys and declarations ------------------------------------------------------------------------

export { lineKey } from './lineKeys';

const blank = (line: string): boolean => line.trim() === '';

class Entry {
  private madePath?: string[];
  constructor(
    readonly decl: Decl,
    readonly parent?: Entry,
  ) {}

  /** Enclosing names, outermost first, then its own (made when first read: few declarations need theirs). */
  get path(): string[] {
    return (this.madePath ??= [...(this.parent?.path ?? []), this.decl.name]);
  }
}

/** Every declaration of an outline's list with its path, depth first (made once per list: several rules read the file's). */
const entriesCache = new WeakMap<readonly Decl[], Entry[]>();
function entries(decls: readonly Decl[]): Entry[] {
  let list = entriesCache.get(decls);
  if (!list) {
    list = [];
    collectEntries(decls, undefined, list);
    entriesCache.set(decls, list);
  }
  return list;
}

function collectEntries(decls: readonly Decl[], parent: Entry | undefined, out: Entry[]): void {
  for (const decl of decls) {
    const entry = new Entry(decl, parent);
    out.push(entry);
    collectEntries(decl.children, entry, out);
  }
}

/** The block's declaration shown for a file declaration: same family and name, enclosing names a suffix of the file's, parameters when the name is overloaded. */
function shownFor(file: Entry, block: readonly Entry[], overloaded: boolean): Entry | undefined {
  return block.find((b) => {
    if (b.decl.family !== file.decl.family || b.path.length > file.path.length) {
      return false;
    }
    const offset = file.path.length - b.path.length;
    if (!b.path.every((name, i) => name === file.path[offset + i])) {
      return false;
    }
    return !overloaded || b.decl.params === undefined || file.decl.params === undefined || b.decl.params === file.decl.params;
  });
}

/** Whether the block's lines [from, to] hold a placeholder. */
function hasPlaceholder(placeholders: readonly boolean[], from: number, to: number): boolean {
  for (let i = Math.max(0, from); i <= to && i < placeholders.length; i++) {
    if (placeholders[i]) {
      return true;
    }
  }
  return false;
}

interface Shown {
  file: Entry;
  block: Entry;
  /** The block shows it whole (no placeholder inside): it replaces the file's. */
  whole: boolean;
}

/** The file's declarations the block shows, each with the block's (computed once per input: two rules read it). */
const shownCache = new WeakMap<AuditInput, Map<Decl, Shown>>();
function shownDecls(input: AuditInput): Map<Decl, Shown> {
  let shown = shownCache.get(input);
  if (!shown) {
    shown = findShown(input);
    shownCache.set(input, shown);
  }
  return shown;
}

function findShown(input: AuditInput): Map<Decl, Shown> {
  const block = entries(input.blockOutline.decls);
  // Only a declaration with the name of one the block shows can be shown (the block's path ends in its name).
  const names = new Set(block.map((b) => b.decl.name));
  const file = entries(input.fileOutline.decls).filter((e) => names.has(e.decl.name));
  const byPath = new Map<string, number>();
  for (const e of file) {
    const key = `${e.decl.family}:${e.path.join('.')}`;
    byPath.set(key, (byPath.get(key) ?? 0) + 1);
  }
  const shown = new Map<Decl, Shown>();
  for (const e of file) {
    const overloaded = (byPath.get(`${e.decl.family}:${e.path.join('.')}`) ?? 0) > 1;
    const b = shownFor(e, block, overloaded);
    if (b) {
      shown.set(e.decl, { file: e, block: b, whole: !hasPlaceholder(input.placeholders, b.decl.lead, b.decl.end) });
    }
  }
  return shown;
}

const placeOf = (decl: Decl): { start: number; end: number } => ({ start: decl.lead, end: decl.end + 1 });

const linesText = (from: number, to: number): string => (to - from <= 1 ? `line ${from + 1}` : `lines ${from + 1}-${to}`);

// ---- rule 2: the whole-file rewrite ---------------------------------------------------------------

/** A rewrite only when the block shows every top-level declaration of the file, never for a configuration file. */
export function wholeFileRewriteAllowed(input: AuditInput): AuditFailure | undefined {
  if (!input.wholeFile) {
    return undefined;
  }
  const q = {
    fileTop: input.fileOutline.decls,
    blockTop: input.blockOutline.decls,
    placeholders: input.placeholders.some(Boolean),
    config: input.config,
  };
  if (rewriteAllowed(q)) {
    return undefined;
  }
  if (q.config) {
    return {
      rule: 'whole-file-rewrite',
      reason:
        'a code block of a configuration file is never a rewrite of the whole file: it would drop every key it does not show; re-send the whole file, or the change as SEARCH/REPLACE blocks',
      places: [],
    };
  }
  const missing = input.fileOutline.decls.filter((d) => !input.blockOutline.decls.some((b) => b.family === d.family && b.name === d.name));
  return {
    rule: 'whole-file-rewrite',
    reason: `the result rewrites the whole file, but the code block does not show ${listDecls(missing)}${q.placeholders ? ' (and it has placeholder lines)' : ''}`,
    places: missing.map(placeOf),
  };
}

// ---- rule: every line of the block is in the result -----------------------------------------------

/**
 * Where each non-placeholder, non-blank block line is in the result (earliest in order), or the index of
 * the first block line the result lacks (as `missing`).
 */
export function blockLinePositions(
  blockLines: readonly string[],
  placeholders: readonly boolean[],
  resultLines: readonly string[],
  headers?: ReadonlySet<number>,
): { positions: Int32Array; missing?: number } {
  const positions = new Int32Array(blockLines.length).fill(-1);
  const resultKeys = lineKeys(resultLines);
  const count = resultLines.length;
  let r = 0;
  for (let k = 0; k < blockLines.length; k++) {
    if (placeholders[k] || blank(blockLines[k])) {
      continue;
    }
    const key = lineKey(blockLines[k]);
    let at = r;
    while (at < count && !keyEquals(resultLines[at], key)) {
      at++;
    }
    if (at >= count && headers?.has(k)) {
      // A declaration's first line shown without the file's modifiers (`class A {` for `export class A {`):
      // the file's own first line is kept.
      at = r;
      while (at < count && !(resultKeys.at(at).length > key.length && resultKeys.at(at).endsWith(key))) {
        at++;
      }
    }
    if (at >= count) {
      return { positions, missing: k };
    }
    positions[k] = at;
    r = at + 1;
  }
  return { positions };
}

/** The block lines that are a declaration's first line. */
function headerLines(outline: Outline): Set<number> {
  return new Set(entries(outline.decls).map((e) => e.decl.start));
}

/** blockLinePositions of the audit's input, computed once (two rules read it). */
const positionsCache = new WeakMap<AuditInput, ReturnType<typeof blockLinePositions>>();
function inputPositions(input: AuditInput): ReturnType<typeof blockLinePositions> {
  let found = positionsCache.get(input);
  if (!found) {
    found = blockLinePositions(input.blockLines, input.placeholders, input.resultLines, headerLines(input.blockOutline));
    positionsCache.set(input, found);
  }
  return found;
}

export function blockLinesKept(input: AuditInput): AuditFailure | undefined {
  const { missing } = inputPositions(input);
  if (missing === undefined) {
    return undefined;
  }
  return {
    rule: 'block-lines-kept',
    reason: `line ${missing + 1} of the code block (${JSON.stringify(input.blockLines[missing].trim())}) is not in the result where the block puts it`,
    places: [],
  };
}

// ---- rule: every removed line is one the block shows and replaces ---------------------------------

/** The file's non-blank lines the result lacks, each unexplained by the block, as ranges. */
export function removedLinesShown(input: AuditInput): AuditFailure | undefined {
  if (input.wholeFile) {
    // Allowed by rule 2 (checked first): every top-level declaration is shown, the rest may change.
    return undefined;
  }
  const kept = keptLines(input.fileLines, input.resultLines);
  if (kept === undefined) {
    return {
      rule: 'removed-lines-shown',
      reason: 'the result differs from the file in too many lines to check line by line',
      places: [],
    };
  }
  const shown = shownDecls(input);
  const owners = ownersByLine(input.fileLines.length, input.fileOutline.decls);
  const { positions } = inputPositions(input);
  const resultToBlock = new Int32Array(input.resultLines.length).fill(-1);
  positions.forEach((r, k) => {
    if (r >= 0) {
      resultToBlock[r] = k;
    }
  });
  const unexplained: number[] = [];
  for (let line = 0; line < input.fileLines.length; line++) {
    if (kept[line] >= 0 || blank(input.fileLines[line])) {
      continue;
    }
    if (!replacedByShown(line, owners[line], shown, input.placeholders) && !spelledOut(line, owners, input, kept, resultToBlock)) {
      unexplained.push(line);
    }
  }
  if (unexplained.length === 0) {
    return undefined;
  }
  const ranges = toRanges(unexplained, input.fileLines);
  const named = ranges.slice(0, 4).map((r) => {
    const owner = owners[r.start];
    return `${linesText(r.start, r.end)}${owner ? ` (in ${describeDecl(owner.decl)})` : ''}`;
  });
  return {
    rule: 'removed-lines-shown',
    reason: `the result removes ${named.join(', ')}${ranges.length > 4 ? ` and ${ranges.length - 4} more ranges` : ''}, which the code block neither shows nor replaces`,
    places: ranges,
  };
}

/** The innermost declaration of the file holding each line (its lead included). */
function ownersByLine(count: number, decls: readonly Decl[]): Array<Entry | undefined> {
  const owners = new Array<Entry | undefined>(count).fill(undefined);
  // Depth first, so an inner declaration's lines are marked after its enclosing one's.
  for (const e of entries(decls)) {
    for (let i = e.decl.lead; i <= e.decl.end && i < count; i++) {
      owners[i] = e;
    }
  }
  return owners;
}

/**
 * A removed line inside a declaration the block shows: the whole declaration when the block shows it
 * whole (its comments only when the block shows comments above it), else its own header or closing
 * lines when the block spells those out.
 */
function replacedByShown(
  line: number,
  owner: Entry | undefined,
  shown: ReadonlyMap<Decl, Shown>,
  placeholders: readonly boolean[],
): boolean {
  for (let e = owner; e; e = e.parent) {
    const decl = e.decl;
    const s = shown.get(decl);
    if (!s) {
      continue;
    }
    const b = s.block.decl;
    if (line < decl.start) {
      // Comments and decorators above it: replaced only when the block shows some of its own.
      if (b.lead < b.start && !hasPlaceholder(placeholders, b.lead, b.start - 1)) {
        return true;
      }
      continue;
    }
    if (s.whole) {
      return true;
    }
    const interior = decl.interior;
    const blockInterior = b.interior;
    if (!interior || !blockInterior) {
      continue;
    }
    if (line < interior.start && !hasPlaceholder(placeholders, b.start, blockInterior.start - 1)) {
      return true;
    }
    if (line >= interior.end && !hasPlaceholder(placeholders, blockInterior.end, b.end)) {
      return true;
    }
  }
  return false;
}

/**
 * A removed line between two lines the block shares with the file, both within its own declaration (kept in the result), where the block
 * spells out the text between: the result's lines between those two are the block's, with no placeholder.
 * The file's start and end count as shared lines when the block starts or ends there.
 */
function spelledOut(
  line: number,
  owners: ReadonlyArray<Entry | undefined>,
  input: AuditInput,
  kept: Int32Array,
  resultToBlock: Int32Array,
): boolean {
  const { fileLines, resultLines, placeholders, blockLines } = input;
  let above = line - 1;
  while (above >= 0 && (kept[above] < 0 || blank(fileLines[above]))) {
    above--;
  }
  let below = line + 1;
  while (below < fileLines.length && (kept[below] < 0 || blank(fileLines[below]))) {
    below++;
  }
  // The lines removed between the shared lines lie in one declaration: a removal never spans a
  // declaration's edge on the strength of lines outside it (which of two equal lines a diff keeps is a guess).
  const owner = owners[line]?.decl;
  for (let l = above + 1; l < below; l++) {
    if (kept[l] < 0 && !blank(fileLines[l]) && owners[l]?.decl !== owner) {
      return false;
    }
  }
  const resultFrom = above >= 0 ? kept[above] : -1;
  const resultTo = below < fileLines.length ? kept[below] : resultLines.length;
  // The block lines the result's lines between the anchors (anchors included) came from.
  const blockFrom = resultFrom >= 0 ? resultToBlock[resultFrom] : firstCode(blockLines, placeholders) - 1;
  const blockTo = resultTo < resultLines.length ? resultToBlock[resultTo] : lastCode(blockLines, placeholders) + 1;
  if ((resultFrom >= 0 && blockFrom < 0) || (resultTo < resultLines.length && blockTo < 0) || blockTo <= blockFrom) {
    return changedInPlace(input, above, below, resultFrom, resultTo, resultToBlock);
  }
  if (hasPlaceholder(placeholders, blockFrom + 1, blockTo - 1)) {
    return changedInPlace(input, above, below, resultFrom, resultTo, resultToBlock);
  }
  // Every non-blank result line between the anchors is the next non-blank block line between them.
  let k = blockFrom + 1;
  for (let r = resultFrom + 1; r < resultTo; r++) {
    if (blank(resultLines[r])) {
      continue;
    }
    while (k < blockTo && blank(blockLines[k])) {
      k++;
    }
    if (k >= blockTo || resultToBlock[r] !== k) {
      return false;
    }
    k++;
  }
  return true;
}

/**
 * The lines removed between two kept lines, replaced there by consecutive lines of the block (no
 * placeholder between them), each removed line paired in order with a similar one: lines changed in place
 * (a changed line next to a placeholder, which has no shared line on that side).
 */
function changedInPlace(
  input: AuditInput,
  above: number,
  below: number,
  resultFrom: number,
  resultTo: number,
  resultToBlock: Int32Array,
): boolean {
  const removed = input.fileLines.slice(above + 1, below).filter((l) => !blank(l));
  const inserted: number[] = [];
  for (let r = resultFrom + 1; r < resultTo; r++) {
    if (!blank(input.resultLines[r])) {
      if (resultToBlock[r] < 0) {
        return false;
      }
      inserted.push(resultToBlock[r]);
    }
  }
  if (removed.length === 0 || inserted.length < removed.length) {
    return false;
  }
  if (hasPlaceholder(input.placeholders, inserted[0], inserted[inserted.length - 1])) {
    return false;
  }
  let k = 0;
  for (const line of removed) {
    while (k < inserted.length && lineSimilarity(line, input.blockLines[inserted[k]]) < SIMILAR_LINE) {
      k++;
    }
    if (k >= inserted.length) {
      return false;
    }
    k++;
  }
  return true;
}

/** A changed line this similar (by its tokens) to a removed one is that line changed. */
const SIMILAR_LINE = 0.6;

/** Dice coefficient of two lines' tokens (words and single punctuation characters), 0..1. */
export function lineSimilarity(a: string, b: string): number {
  const tokens = (line: string): string[] => foldUnicode(foldQuotes(line)).match(/\w+|[^\s\w]/g) ?? [];
  const ta = tokens(a);
  const tb = tokens(b);
  if (ta.length + tb.length === 0) {
    return 1;
  }
  const counts = new Map<string, number>();
  for (const t of ta) {
    counts.set(t, (counts.get(t) ?? 0) + 1);
  }
  let common = 0;
  for (const t of tb) {
    const left = counts.get(t) ?? 0;
    if (left > 0) {
      common++;
      counts.set(t, left - 1);
    }
  }
  return (2 * common) / (ta.length + tb.length);
}

const firstCode = (lines: readonly string[], placeholders: readonly boolean[]): number => {
  const i = lines.findIndex((l, k) => !placeholders[k] && !blank(l));
  return i < 0 ? lines.length : i;
};

const lastCode = (lines: readonly string[], placeholders: readonly boolean[]): number => {
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!placeholders[i] && !blank(lines[i])) {
      return i;
    }
  }
  return -1;
};

/** Sorted line numbers as ranges [start, end), blank lines between two of them joined in. */
function toRanges(lines: readonly number[], fileLines: readonly string[]): Array<{ start: number; end: number }> {
  const ranges: Array<{ start: number; end: number }> = [];
  for (const line of lines) {
    const last = ranges[ranges.length - 1];
    if (last && fileLines.slice(last.end, line).every(blank)) {
      last.end = line + 1;
    } else {
      ranges.push({ start: line, end: line + 1 });
    }
  }
  return ranges;
}

// ---- rule: every declaration the block does not show is kept, once --------------------------------

/**
 * Occurrences of the needle (whole lines: `source` [needleFrom, needleTo)) in `lines`, starting at `from`
 * up to `to` (exclusive).
 */
function countIn(
  lines: readonly string[],
  source: readonly string[],
  needleFrom: number,
  needleTo: number,
  from: number,
  to: number,
): number {
  const length = needleTo - needleFrom;
  let count = 0;
  const last = Math.min(to, lines.length - length + 1);
  for (let i = Math.max(0, from); i < last; i++) {
    let k = 0;
    while (k < length && lines[i + k] === source[needleFrom + k]) {
      k++;
    }
    if (k === length) {
      count++;
    }
  }
  return count;
}

/** Where each line stands, by its text (computed once per array). */
const positionCache = new WeakMap<readonly string[], Map<string, number[]>>();
function positionsOf(lines: readonly string[]): Map<string, number[]> {
  let positions = positionCache.get(lines);
  if (!positions) {
    positions = new Map();
    lines.forEach((line, i) => {
      const list = positions!.get(line);
      if (list) {
        list.push(i);
      } else {
        positions!.set(line, [i]);
      }
    });
    positionCache.set(lines, positions);
  }
  return positions;
}

/** Occurrences of `needle` (whole lines) in `lines`. */
function countBlock(lines: readonly string[], needle: readonly string[]): number {
  if (needle.length === 0) {
    return 0;
  }
  let count = 0;
  for (const i of positionsOf(lines).get(needle[0]) ?? []) {
    if (i + needle.length <= lines.length && needle.every((l, k) => lines[i + k] === l)) {
      count++;
    }
  }
  return count;
}

/** Above this many lines between the file's and the result's shared head and tail, occurrences are counted in the whole texts. */
const WINDOW_LIMIT = 500;

/**
 * How many more times the result has the file's lines [start, end) than the file. The file and the result
 * share a head and a tail (the same lines): an occurrence within either is in both, so only those that
 * reach into the lines between count, a short window when the change is small.
 */
function gained(
  fileLines: readonly string[],
  resultLines: readonly string[],
  ends: { head: number; tail: number },
  start: number,
  end: number,
): number {
  if (end <= start) {
    return 0;
  }
  const fileTo = fileLines.length - ends.tail;
  const resultTo = resultLines.length - ends.tail;
  if (Math.max(fileTo, resultTo) - ends.head > WINDOW_LIMIT) {
    const needle = fileLines.slice(start, end);
    return countBlock(resultLines, needle) - countBlock(fileLines, needle);
  }
  const from = ends.head - (end - start) + 1;
  return countIn(resultLines, fileLines, start, end, from, resultTo) - countIn(fileLines, fileLines, start, end, from, fileTo);
}

export function unshownDeclarationsKept(input: AuditInput): AuditFailure | undefined {
  if (input.wholeFile) {
    return undefined;
  }
  const shown = shownDecls(input);
  const touched = new Set<Decl>();
  for (const s of shown.values()) {
    for (let e: Entry | undefined = s.file; e; e = e.parent) {
      touched.add(e.decl);
    }
  }
  const ends = sharedEnds(input.fileLines, input.resultLines);
  let blockKeys: string[] | undefined;
  const failures: Decl[] = [];
  const visit = (decls: readonly Decl[]) => {
    for (const decl of decls) {
      const s = shown.get(decl);
      if (s?.whole) {
        continue;
      }
      if (touched.has(decl)) {
        visit(decl.children);
        continue;
      }
      // Kept once: the result has it as often as the file, or more only where the block shows it again.
      const more = gained(input.fileLines, input.resultLines, ends, decl.lead, Math.min(decl.end + 1, input.fileLines.length));
      if (more < 0) {
        failures.push(decl);
      } else if (more > 0) {
        blockKeys ??= input.blockLines.map((l) => l.trim());
        const inBlock = countBlock(
          blockKeys,
          input.fileLines.slice(decl.lead, decl.end + 1).map((l) => l.trim()),
        );
        if (more > inBlock) {
          failures.push(decl);
        }
      }
    }
  };
  visit(input.fileOutline.decls);
  if (failures.length === 0) {
    return undefined;
  }
  return {
    rule: 'unshown-declarations-kept',
    reason: `${listDecls(failures)} ${failures.length === 1 ? 'is' : 'are'} not in the result exactly as in the file, although the code block does not show ${failures.length === 1 ? 'it' : 'them'}`,
    places: failures.map(placeOf),
  };
}

// ---- rules read by a grammar: syntax errors, a second declaration ---------------------------------

/**
 * Where no grammar reads the file (JSON, YAML, C, ...): the brackets a line opens minus those it closes,
 * outside quoted strings, summed per kind. A correct edit replaces balanced code with balanced code.
 */
export function bracketBalance(lines: readonly string[]): [number, number, number] {
  const balance: [number, number, number] = [0, 0, 0];
  for (const line of lines) {
    const code = line.replace(/"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*'/g, '');
    for (let i = 0; i < code.length; i++) {
      const c = code[i];
      const kind = '{}[]()'.indexOf(c);
      if (kind >= 0) {
        balance[kind >> 1] += kind % 2 === 0 ? 1 : -1;
      }
    }
  }
  return balance;
}

export function noNewSyntaxErrors(input: AuditInput): AuditFailure | undefined {
  if (input.resultOutline.reader === 'outline') {
    const before = bracketBalance(input.fileLines);
    const after = bracketBalance(input.resultLines);
    const kind = [0, 1, 2].find((k) => before[k] !== after[k]);
    if (kind === undefined) {
      return undefined;
    }
    const [open, close] = [
      ['{', '}'],
      ['[', ']'],
      ['(', ')'],
    ][kind];
    const opened = (b: number) =>
      b === 0 ? 'balanced' : b > 0 ? `${b} more \`${open}\` than \`${close}\`` : `${-b} more \`${close}\` than \`${open}\``;
    return {
      rule: 'no-new-syntax-errors',
      reason: `the result's brackets would not balance as the file's do (the file has ${opened(before[kind])}, the result ${opened(after[kind])})`,
      places: [],
    };
  }
  if (input.resultOutline.errors <= input.fileOutline.errors) {
    return undefined;
  }
  const row = input.resultOutline.firstError;
  return {
    rule: 'no-new-syntax-errors',
    reason: `the result would not parse as ${input.resultOutline.reader} (${input.resultOutline.errors} syntax errors, the file has ${input.fileOutline.errors}${row !== undefined ? `; the first near line ${row + 1} of the result: ${JSON.stringify(input.resultLines[row]?.trim() ?? '')}` : ''})`,
    places: [],
  };
}
