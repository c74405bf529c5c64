// The changed regions (hunks) of an apply, for reviewing them one by one in the editor (issue 27): which
// runs of lines an apply changed, where each one is now after the user typed elsewhere, and the one edit
// that puts back exactly one hunk's original lines. Lines keep their line endings, so a hunk restores
// the bytes it replaced, the last line's missing newline included.

import { alignEqual } from '../write/align';

/** A run of changed lines: what the apply replaced and what it wrote. */
export interface ChangeHunk {
  /** First line (0-based) of `newLines` in the text after the apply; for a pure deletion, the line the removed lines stood before. */
  newStart: number;
  /** The lines the apply wrote, each with its line ending (the text's last line may have none). Empty for a pure deletion. */
  newLines: string[];
  /** First line (0-based) of `oldLines` in the text before the apply. */
  oldStart: number;
  /** The lines the apply replaced, with their line endings. Empty for a pure insertion. */
  oldLines: string[];
  /** The line just above the hunk in the text after the apply (undefined at the start of the text). */
  above?: string;
  /** The line just below the hunk in the text after the apply (undefined at the end of the text). */
  below?: string;
}

/** A text's lines, each with its line ending ("\n" or "\r\n"); the last one has none unless the text ends with one. */
export function linesWithEnds(text: string): string[] {
  const lines: string[] = [];
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', start)) {
    lines.push(text.slice(start, i + 1));
    start = i + 1;
  }
  if (start < text.length) {
    lines.push(text.slice(start));
  }
  return lines;
}

/** Below this many lines on each side a gap between anchors is aligned by the LCS table directly. */
const SMALL_GAP = 64;

/**
 * Matched line pairs [i, j] (a[i] === b[j]), increasing in both: the common head and tail, then lines
 * that occur once on each side as anchors (their longest increasing run), each gap between anchors
 * aligned the same way, small gaps by the one LCS (write/align.ts). A 10,000-line file with a few dozen
 * changed places aligns in linear time, where one LCS table over it would be too large.
 */
function matchedPairs(a: readonly string[], b: readonly string[]): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  alignRange(a, b, 0, a.length, 0, b.length, pairs);
  return pairs;
}

function alignRange(
  a: readonly string[],
  b: readonly string[],
  a0: number,
  a1: number,
  b0: number,
  b1: number,
  out: Array<[number, number]>,
): void {
  let lo = 0;
  while (a0 + lo < a1 && b0 + lo < b1 && a[a0 + lo] === b[b0 + lo]) {
    out.push([a0 + lo, b0 + lo]);
    lo++;
  }
  let hi = 0;
  while (a1 - hi > a0 + lo && b1 - hi > b0 + lo && a[a1 - hi - 1] === b[b1 - hi - 1]) {
    hi++;
  }
  const [x0, x1, y0, y1] = [a0 + lo, a1 - hi, b0 + lo, b1 - hi];
  if (x1 > x0 && y1 > y0) {
    const anchors = x1 - x0 <= SMALL_GAP && y1 - y0 <= SMALL_GAP ? [] : uniqueAnchors(a, b, x0, x1, y0, y1);
    if (anchors.length === 0) {
      for (const [i, j] of alignEqual(a.slice(x0, x1), b.slice(y0, y1))) {
        out.push([x0 + i, y0 + j]);
      }
    } else {
      let [pi, pj] = [x0, y0];
      for (const [i, j] of anchors) {
        alignRange(a, b, pi, i, pj, j, out);
        out.push([i, j]);
        [pi, pj] = [i + 1, j + 1];
      }
      alignRange(a, b, pi, x1, pj, y1, out);
    }
  }
  for (let k = hi; k > 0; k--) {
    out.push([a1 - k, b1 - k]);
  }
}

/** Lines found exactly once in a[x0, x1) and once in b[y0, y1), the longest run of them in the same order on both sides. */
function uniqueAnchors(
  a: readonly string[],
  b: readonly string[],
  x0: number,
  x1: number,
  y0: number,
  y1: number,
): Array<[number, number]> {
  const count = new Map<string, { a: number; b: number; i: number; j: number }>();
  for (let i = x0; i < x1; i++) {
    const c = count.get(a[i]) ?? { a: 0, b: 0, i, j: -1 };
    c.a++;
    count.set(a[i], c);
  }
  for (let j = y0; j < y1; j++) {
    const c = count.get(b[j]);
    if (c) {
      c.b++;
      c.j = j;
    }
  }
  const candidates = [...count.values()].filter((c) => c.a === 1 && c.b === 1).sort((p, q) => p.i - q.i);
  // Longest increasing subsequence of j (patience sorting), so the anchors never cross.
  const tails: number[] = [];
  const previous: number[] = new Array<number>(candidates.length).fill(-1);
  for (let k = 0; k < candidates.length; k++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (candidates[tails[mid]].j < candidates[k].j) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    previous[k] = lo > 0 ? tails[lo - 1] : -1;
    tails[lo] = k;
  }
  const anchors: Array<[number, number]> = [];
  for (let k = tails.length > 0 ? tails[tails.length - 1] : -1; k !== -1; k = previous[k]) {
    anchors.push([candidates[k].i, candidates[k].j]);
  }
  return anchors.reverse();
}

/** The hunks that turn `before` into `after`, top to bottom. */
export function changeHunks(before: string, after: string): ChangeHunk[] {
  return regionHunks({ firstLine: 0, before, after });
}

/**
 * The run of whole lines of a text that an apply could change, as it was and as it is: the lines outside
 * it are the same before and after (the lines below moved by the difference in line count).
 */
export interface ChangedRegion {
  /** Its first line (0-based), the same in both texts. */
  firstLine: number;
  /** Its lines before the apply, with their line endings. */
  before: string;
  /** Its lines after the apply, with their line endings. */
  after: string;
  /** The text's line just above it, with its line ending (undefined at the top). */
  above?: string;
  /** The text's line just below it after the apply, with its line ending (undefined at the end). */
  below?: string;
}

/**
 * The hunks of a changed region of a text, numbered as lines of the whole text: the same hunks as
 * changeHunks of the whole texts, without reading them (an apply's edits say where the region is).
 */
export function regionHunks(region: ChangedRegion): ChangeHunk[] {
  // Every apply of the extension is reviewed this way: an edit of a few lines in a 10,000-line file must
  // not split both texts into lines. The lines the texts share at their head and tail are found on the
  // strings; only the lines between are aligned. The hunks are the same as aligning all the lines, since
  // that alignment pairs the common head and tail lines first too.
  const { before, after } = region;
  const head = sharedHeadLines(before, after);
  const tail = sharedTailLines(before, after, head.chars);
  const a = linesWithEnds(before.slice(head.chars, before.length - tail.chars));
  const b = linesWithEnds(after.slice(head.chars, after.length - tail.chars));
  const hunks = lineHunks(a, b);
  const offset = region.firstLine + head.lines;
  if (hunks.length === 0 || (offset === 0 && tail.chars === 0 && region.below === undefined)) {
    return hunks;
  }
  const lineAbove = head.lines > 0 ? after.slice(lineStartBefore(after, head.chars), head.chars) : region.above;
  const tailStart = after.length - tail.chars;
  const lineBelow = tail.chars > 0 ? after.slice(tailStart, after.indexOf('\n', tailStart) + 1 || after.length) : region.below;
  return hunks.map((h) => ({
    ...h,
    newStart: h.newStart + offset,
    oldStart: h.oldStart + offset,
    above: h.newStart === 0 ? lineAbove : h.above,
    below: h.newStart + h.newLines.length === b.length ? lineBelow : h.below,
  }));
}

/** Chars at which two strings first differ, compared a slice at a time (native comparisons). */
function sharedPrefixChars(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let at = 0;
  let step = 4096;
  while (at < n) {
    const len = Math.min(step, n - at);
    if (a.slice(at, at + len) === b.slice(at, at + len)) {
      at += len;
    } else if (len > 8) {
      step = len >> 1;
    } else {
      while (at < n && a.charCodeAt(at) === b.charCodeAt(at)) {
        at++;
      }
      break;
    }
  }
  return at;
}

/** Chars two strings share at their end, up to `limit`. */
function sharedSuffixChars(a: string, b: string, limit: number): number {
  let shared = 0;
  let step = 4096;
  while (shared < limit) {
    const len = Math.min(step, limit - shared);
    if (a.slice(a.length - shared - len, a.length - shared) === b.slice(b.length - shared - len, b.length - shared)) {
      shared += len;
    } else if (len > 8) {
      step = len >> 1;
    } else {
      while (shared < limit && a.charCodeAt(a.length - shared - 1) === b.charCodeAt(b.length - shared - 1)) {
        shared++;
      }
      break;
    }
  }
  return shared;
}

/** Where the line ending just before `end` (a line start after a newline) starts. */
function lineStartBefore(text: string, end: number): number {
  return end >= 2 ? text.lastIndexOf('\n', end - 2) + 1 : 0;
}

/** The whole lines both texts start with: their count and length in chars (ending at a line start). */
function sharedHeadLines(a: string, b: string): { lines: number; chars: number } {
  const prefix = sharedPrefixChars(a, b);
  // lastIndexOf reads a negative start as 0: a text starting with a newline would count it as shared.
  const chars = prefix === 0 ? 0 : a.lastIndexOf('\n', prefix - 1) + 1;
  return { lines: countNewlines(a, 0, chars), chars };
}

/**
 * The whole lines both texts end with, after their first `headChars`: their length in chars, starting
 * just after a newline both texts share (so the lines before them split alike).
 */
function sharedTailLines(a: string, b: string, headChars: number): { chars: number } {
  const shared = sharedSuffixChars(a, b, Math.min(a.length, b.length) - headChars);
  const newline = a.indexOf('\n', a.length - shared);
  return { chars: newline === -1 ? 0 : a.length - newline - 1 };
}

function countNewlines(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) {
    n++;
  }
  return n;
}

/** The hunks that turn lines `a` into lines `b` (each with its line ending), top to bottom. */
export function lineHunks(a: readonly string[], b: readonly string[]): ChangeHunk[] {
  const hunks: ChangeHunk[] = [];
  let i = 0;
  let j = 0;
  for (const [pi, pj] of [...matchedPairs(a, b), [a.length, b.length] as [number, number]]) {
    if (pi > i || pj > j) {
      hunks.push({
        newStart: j,
        newLines: b.slice(j, pj),
        oldStart: i,
        oldLines: a.slice(i, pi),
        above: j > 0 ? b[j - 1] : undefined,
        below: pj < b.length ? b[pj] : undefined,
      });
    }
    i = pi + 1;
    j = pj + 1;
  }
  return hunks;
}

function linesAt(lines: readonly string[], hunk: ChangeHunk, start: number): boolean {
  if (start < 0 || start + hunk.newLines.length > lines.length) {
    return false;
  }
  return hunk.newLines.every((line, k) => lines[start + k] === line);
}

function contextAt(lines: readonly string[], hunk: ChangeHunk, start: number): boolean {
  const end = start + hunk.newLines.length;
  const above = start > 0 ? lines[start - 1] : undefined;
  const below = end < lines.length ? lines[end] : undefined;
  return above === hunk.above && below === hunk.below;
}

/**
 * Whether `lines` hold the hunk as applied or as undone at `line` (after an editor undo or redo walked
 * through the apply or a hunk's Undo), or neither (typed in).
 */
export function hunkStateAt(hunk: ChangeHunk, lines: readonly string[], line: number): 'applied' | 'undone' | undefined {
  const holds = (want: readonly string[]) => {
    if (line < 0 || line + want.length > lines.length || !want.every((l, k) => lines[line + k] === l)) {
      return false;
    }
    // An empty side is told by the lines around it.
    return (
      want.length > 0 ||
      ((line > 0 ? lines[line - 1] : undefined) === hunk.above && (line < lines.length ? lines[line] : undefined) === hunk.below)
    );
  };
  if (holds(hunk.newLines)) {
    return 'applied';
  }
  return holds(hunk.oldLines) ? 'undone' : undefined;
}

/** How far (in lines) from where the editor's changes moved a hunk it is looked for when it is not there. */
export const RELOCATE_WINDOW = 200;

/**
 * Where the hunk's lines are in `lines` now: at `expected` (where the editor's changes moved it) if they
 * are there; else, when `search` allows it, the one place within RELOCATE_WINDOW lines that holds them
 * with the same lines around them. A pure deletion is found by the lines around it. Undefined when the
 * hunk cannot be found once: it was edited, or its text is no longer unique. A hunk the user typed in
 * is not searched for (search = false): a copy of its lines elsewhere is not the hunk.
 */
export function locateHunk(hunk: ChangeHunk, lines: readonly string[], expected: number, search = true): number | undefined {
  const deletion = hunk.newLines.length === 0;
  const at = (start: number) => (deletion || linesAt(lines, hunk, start)) && contextAt(lines, hunk, start);
  if (deletion ? contextAt(lines, hunk, expected) : linesAt(lines, hunk, expected)) {
    return expected;
  }
  if (!search) {
    return undefined;
  }
  const places: number[] = [];
  const first = Math.max(0, expected - RELOCATE_WINDOW);
  const last = Math.min(lines.length - hunk.newLines.length, expected + RELOCATE_WINDOW);
  for (let start = first; start <= last; start++) {
    if (start !== expected && at(start)) {
      places.push(start);
    }
  }
  return places.length === 1 ? places[0] : undefined;
}

/** A replacement of text[start, end) by newText (offsets in UTF-16 code units). */
export interface RestoreEdit {
  start: number;
  end: number;
  newText: string;
  /** The line (0-based) the restored lines start on. */
  line: number;
}

/** The edit that puts back the hunk's original lines in `text`, or undefined when the hunk cannot be found (see locateHunk). */
export function restoreEdit(hunk: ChangeHunk, text: string, expected: number, search = true): RestoreEdit | undefined {
  const lines = linesWithEnds(text);
  const line = locateHunk(hunk, lines, expected, search);
  if (line === undefined) {
    return undefined;
  }
  let start = 0;
  for (let k = 0; k < line; k++) {
    start += lines[k].length;
  }
  const end = start + hunk.newLines.reduce((n, l) => n + l.length, 0);
  return { start, end, newText: hunk.oldLines.join(''), line };
}

/** An edit of the text in line terms: it replaced from (startLine, startCharacter) to (endLine, endCharacter). */
export interface LineChange {
  startLine: number;
  startCharacter: number;
  endLine: number;
  endCharacter: number;
  /** Line breaks in the text it wrote. */
  lineBreaks: number;
  /** Whether the line that followed the replaced range still starts a line (the text written ends with a line break, or nothing was written at a line start). */
  keepsNextLine: boolean;
}

/** A LineChange from a replaced range and the text written there. */
export function lineChange(startLine: number, startCharacter: number, endLine: number, endCharacter: number, text: string): LineChange {
  let lineBreaks = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    lineBreaks++;
  }
  const keepsNextLine = text.endsWith('\n') || (text === '' && startCharacter === 0);
  return { startLine, startCharacter, endLine, endCharacter, lineBreaks, keepsNextLine };
}

/** Whether the change ends before line `line` starts and leaves that line whole. */
function endsBefore(c: LineChange, line: number): boolean {
  return c.endLine < line || (c.endLine === line && c.endCharacter === 0 && c.keepsNextLine);
}

/**
 * Where a hunk that stood at `line` (its lines [line, line + length)) is after `changes` (all relative to
 * the text before them, as an editor's change event gives them): moved by every change that ends before
 * it starts; `touched` when a change reached into its lines (for a pure deletion, length 0, into the line
 * above or below it). A touched hunk is never searched for elsewhere (locateHunk).
 */
export function followChanges(line: number, length: number, changes: readonly LineChange[]): { line: number; touched: boolean } {
  let moved = line;
  let touched = false;
  const [top, bottom] = length === 0 ? [line - 1, line + 1] : [line, line + length];
  for (const c of changes) {
    if (endsBefore(c, line)) {
      moved += c.lineBreaks - (c.endLine - c.startLine);
    }
    if (!endsBefore(c, top) && c.startLine < bottom) {
      touched = true;
    }
  }
  return { line: moved, touched };
}

/** "line 8", "lines 8 and 40", "lines 8, 40 and 112" (1-based). */
export function hunkLinesPhrase(hunks: readonly ChangeHunk[]): string {
  const numbers = hunks.map((h) => String(h.newStart + 1));
  if (numbers.length <= 1) {
    return `line ${numbers.join('')}`;
  }
  return `lines ${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
}
