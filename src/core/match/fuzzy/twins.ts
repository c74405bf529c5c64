// Twins: other places holding the same lines as the best region, which score exactly as it does and
// are listed right after it. Read from the exact-line lists when those are complete, else one pass over
// the non-blank lines; apart from ranking as it is a search of its own. Its loops are indexed, not
// for-of (see the note at the top of search.ts).

import { type LineSource } from '../lineSource';
import { type Budget } from './budget';
import { type ExactLines, MAX_VOTES_PER_LINE } from './exactLines';
import { type FuzzyWindow } from './window';

/** findTwins bound to this search's document and exact-line lists. */
export function findTwinsOf(
  doc: LineSource,
  nonBlank: Int32Array,
  budget: Budget,
  exact: ExactLines | undefined,
): (w: FuzzyWindow) => FuzzyWindow[] {
  return (w) => findTwins(doc, nonBlank, w, budget, exact);
}

/**
 * Other places holding the same non-blank lines as window [a, b) (non-blank coordinates), compared
 * trimmed, so they score exactly as it does; taken left to right, each clear of the one before. Where
 * the exact-line pass has a complete list of the lines sharing a key with one of the window's lines,
 * only the starts that list implies are tried (see twinStarts); otherwise one pass over the non-blank
 * lines. Counted as work; a pass the budget cannot afford is cut short (and the result marked truncated).
 */
function findTwins(doc: LineSource, nonBlank: Int32Array, w: FuzzyWindow, budget: Budget, exact?: ExactLines): FuzzyWindow[] {
  const { ends } = doc;
  const lineStarts = doc.starts;
  const len = w.end - w.start;
  const want: string[] = [];
  for (let j = w.start; j < w.end; j++) {
    want.push(doc.line(nonBlank[j]).trim());
  }
  const out: FuzzyWindow[] = [];
  const M = nonBlank.length;
  // The full pass tries at most M - len + 1 starts of up to len + 1 work each: a search that could not
  // afford that takes the full pass, which is cut short exactly where it always was.
  const starts = exact && budget.used + (M - len + 1) * (len + 1) <= budget.cap ? twinStarts(exact, w.start, w.end) : undefined;
  // Whether the lines from j on are the window's lines (trimmed), counting each line compared as work.
  const twinAt = (j: number): boolean => {
    let k = 0;
    while (k < len && trimmedEquals(doc.textOf(nonBlank[j + k]), lineStarts[nonBlank[j + k]], ends[nonBlank[j + k]], want[k])) {
      k++;
    }
    budget.used += k;
    return k === len;
  };
  if (starts) {
    let next = 0; // the first start clear of the last twin taken
    for (const j of starts) {
      if (j < next || j === w.start || j + len > M) {
        continue;
      }
      budget.used++;
      if (twinAt(j)) {
        out.push({ start: j, end: j + len, score: w.score });
        next = j + len;
      }
    }
    return out;
  }
  // want[0] is non-empty (a non-blank line, trimmed): a line that ends in neither its last character
  // nor white space is ruled out here, before the call (most lines are).
  const wantLast = want[0].charCodeAt(want[0].length - 1);
  for (let j = 0; j + len <= M; j++) {
    if (j === w.start) {
      continue;
    }
    if (++budget.used > budget.cap) {
      budget.truncated = true;
      break;
    }
    const last = doc.textOf(nonBlank[j]).charCodeAt(ends[nonBlank[j]] - 1);
    if (last !== wantLast && ((last > 32 && last < 0xa0) || !isTrimmed(last))) {
      continue;
    }
    if (twinAt(j)) {
      out.push({ start: j, end: j + len, score: w.score });
      j += len - 1;
    }
  }
  return out;
}

/**
 * Every start (non-blank coordinates, ascending, possibly negative) at which a twin of window [a, b)
 * could begin, from the exact-line pass: if line a + k of the window has a key whose list of document
 * lines is complete, a twin at j has the same trimmed line, hence the same key, at j + k, so j is one
 * of that list's lines minus k. The shortest such list; undefined when no line of the window has one.
 */
function twinStarts(exact: ExactLines, a: number, b: number): number[] | undefined {
  let best: readonly number[] | undefined;
  let offset = 0;
  for (let k = 0; k < exact.docLines.length; k++) {
    const docs = exact.docLines[k];
    if (docs.length > MAX_VOTES_PER_LINE || (best && docs.length >= best.length)) {
      continue; // past the vote limit the list stops growing: not complete
    }
    for (let d = 0; d < docs.length; d++) {
      const j = docs[d];
      if (j >= a && j < b) {
        best = docs;
        offset = j - a;
        break;
      }
    }
  }
  return best?.map((j) => j - offset);
}

/**
 * The line text[ls, le), trimmed, === want, without building the trimmed string (most lines differ in
 * their first characters).
 */
function trimmedEquals(text: string, ls: number, le: number, want: string): boolean {
  const length = le - ls;
  if (length < want.length || length === 0) {
    return length === want.length;
  }
  // Most lines end without trailing space: their last character rules them out at once.
  const last = text.charCodeAt(le - 1);
  if (want.length > 0 && last !== want.charCodeAt(want.length - 1) && !isTrimmed(last)) {
    return false;
  }
  // Equal lengths: trimming could only make the line shorter, so it is equal as it is or not at all.
  if (length === want.length) {
    return text.startsWith(want, ls);
  }
  let lo = ls;
  while (lo < le && isTrimmed(text.charCodeAt(lo))) {
    lo++;
  }
  let hi = le;
  while (hi > lo && isTrimmed(text.charCodeAt(hi - 1))) {
    hi--;
  }
  return hi - lo === want.length && text.startsWith(want, lo);
}

/** What String.prototype.trim removes: white space (Zs, tab, VT, FF, BOM) and line terminators. */
function isTrimmed(c: number): boolean {
  return c <= 32
    ? c === 32 || (c >= 9 && c <= 13)
    : c >= 0xa0 &&
        (c === 0xa0 ||
          c === 0x1680 ||
          (c >= 0x2000 && c <= 0x200a) ||
          c === 0x2028 ||
          c === 0x2029 ||
          c === 0x202f ||
          c === 0x205f ||
          c === 0x3000 ||
          c === 0xfeff);
}
