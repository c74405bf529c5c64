// Regions the file has grown lines inside since SEARCH was written (issue 19, rule 7). The exact
// evidence settles a window on one diagonal (give or take a quarter of SEARCH), so a block of lines
// inserted in the middle of the region splits it: each part is a window of its own and the candidate
// stops short. Here SEARCH's lines are paired in order with the lines around a leading window, and when
// its first and last lines both pair, the region from the one to the other takes the window's place, so
// the model is shown (and copies) the whole region. Such a region is flagged (FuzzyWindow.grown): a
// candidate to show, never placed without the user (engine.ts).

import { type Budget } from './budget';
import { byScoreThenStart, type FuzzyWindow } from './window';

/** SEARCH blocks longer than this are not spanned: their evidence already bridges a gap of n / 4 lines. */
const MAX_SPANNED_SEARCH = 64;
/** SEARCH lines a grown region must pair beyond those its window pairs on its own. */
const MIN_GAIN = 2;
/** At most this many of the leading windows are spanned. */
const SPANNED_WINDOWS = 3;

/** A window the file has grown lines inside: `grown` lines of it pair with no SEARCH line. */
export interface GrownSpan {
  start: number;
  end: number;
  grown: number;
  /** Both its edge lines equal SEARCH's, one of them beyond the window it was found from. */
  proven: boolean;
}

/**
 * Most lines the file may have grown inside a region of n SEARCH lines: half as many again (at least
 * 8 lines, so short blocks still find a few inserted lines).
 */
function mostGrown(n: number): number {
  return Math.max(8, Math.ceil(n / 2));
}

/** How SEARCH line i relates to document line j: it looks like it, it is equal (by lineKey), and is a line with words. */
export interface LinePairing {
  pairs(i: number, j: number): boolean;
  /** Equal by lineKey; `evidence` when the line has words (not a lone closing brace). */
  equal(i: number, j: number): 'no' | 'punctuation' | 'evidence';
  /** Document line j equals some SEARCH line with words (by lineKey). */
  hasEvidence(j: number): boolean;
}

/**
 * The region around window w (non-blank coordinates, M lines) from the line pairing with SEARCH's first
 * line to the one pairing with its last, when SEARCH's lines pair with it in order (the most pairs, then
 * the shortest region), at most a quarter of them unpaired, the file has 1 to mostGrown(n) lines inside
 * it that pair with none, it pairs at least MIN_GAIN SEARCH lines more than w can on its own, and what
 * it adds to w is proof, not resemblance: at least half of the SEARCH lines it pairs outside w are equal
 * to their lines, one of them a line with words. A look-alike line beyond a whole region (an invented
 * edge line, the half of a split line, a twin next to it) does not stretch it.
 */
export function grownSpan(
  w: { start: number; end: number },
  n: number,
  M: number,
  pairing: LinePairing,
  budget: Budget,
): GrownSpan | undefined {
  if (n < 3 || n > MAX_SPANNED_SEARCH) {
    return undefined;
  }
  // Lines grown right after SEARCH's first line (or right before its last) push that line out of w:
  // the file has it, equal, just beyond w, and w holds only look-alikes of it.
  const edgeOut = edgeBeyond(w, n, M, mostGrown(n) + 1, pairing);
  // A window from a line like SEARCH's first to one like its last does not stop short.
  if (!edgeOut && pairing.pairs(0, w.start) && pairing.pairs(n - 1, w.end - 1)) {
    return undefined;
  }
  // The region must pair lines w cannot: a whole region (twins side by side) is not stretched over its
  // neighbour. A region reaching an edge line out of w may pair no more than w (w paired a look-alike).
  const gain = edgeOut ? 0 : MIN_GAIN;
  // The region reaches at most mostGrown(n) + n lines beyond w and must add a line equal to one of
  // SEARCH's (checked again, on the exact reach, below): most windows of a SEARCH the file does not hold
  // have none that near, and the in-order pairing within w, which compares every pair of lines, is spared.
  const farthest = mostGrown(n) + n;
  if (!hasEvidence(Math.max(0, w.start - farthest), w.start, pairing) && !hasEvidence(w.end, Math.min(M, w.end + farthest), pairing)) {
    return undefined;
  }
  budget.spend(n * (w.end - w.start));
  const within = pairedWithin(n, w, (i, j) => pairing.pairs(i, j));
  const missing = n - within;
  if (missing < gain) {
    return undefined;
  }
  const reach = mostGrown(n) + Math.max(1, missing);
  const lo = Math.max(0, w.start - reach);
  const hi = Math.min(M, w.end + reach);
  // What the region adds must hold a line equal to one of SEARCH's (checked on the pairing below).
  if (!hasEvidence(lo, w.start, pairing) && !hasEvidence(w.end, hi, pairing)) {
    return undefined;
  }
  const width = hi - lo;
  budget.spend(2 * n * width);
  // A line equal to its SEARCH line weighs twice a look-alike: in repetitive code (debug(...) lines
  // between calls) a chain of look-alikes is shorter than the region's own lines.
  const chain = inOrderPairs(n, width, (i, c) => (!pairing.pairs(i, lo + c) ? 0 : pairing.equal(i, lo + c) === 'evidence' ? 2 : 1));
  if (!chain || chain.length < n - Math.floor(n / 4)) {
    return undefined;
  }
  const start = lo + chain[0][1];
  const end = lo + chain[chain.length - 1][1] + 1;
  const grown = end - start - chain.length;
  // The region holds w; or, when an edge line is out of w, it shares lines with w and both its edge
  // lines are SEARCH's, equal (w was a look-alike shifted towards the grown lines and beyond them).
  const holds = start <= w.start && end >= w.end;
  const shifted =
    edgeOut && start < w.end && end > w.start && pairing.equal(0, start) === 'evidence' && pairing.equal(n - 1, end - 1) === 'evidence';
  if (grown < 1 || grown > mostGrown(n) || !(holds || shifted)) {
    return undefined;
  }
  if (chain.length - within < gain) {
    return undefined;
  }
  let outside = 0;
  let equal = 0;
  let evidence = 0;
  for (const [i, c] of chain) {
    if (lo + c < w.start || lo + c >= w.end) {
      outside++;
      const e = pairing.equal(i, lo + c);
      equal += e === 'no' ? 0 : 1;
      evidence += e === 'evidence' ? 1 : 0;
    }
  }
  return evidence >= 1 && 2 * equal >= outside ? { start, end, grown, proven: shifted } : undefined;
}

/**
 * Whether SEARCH's first line is equal (with words) to none of w's lines but to one of the `reach` lines
 * before w, or the same of its last line and the lines after w.
 */
function edgeBeyond(w: { start: number; end: number }, n: number, M: number, reach: number, pairing: LinePairing): boolean {
  const equalIn = (i: number, a: number, b: number): boolean => {
    for (let j = Math.max(0, a); j < Math.min(M, b); j++) {
      if (pairing.equal(i, j) === 'evidence') {
        return true;
      }
    }
    return false;
  };
  return (
    (equalIn(0, w.start - reach, w.start) && !equalIn(0, w.start, w.end)) ||
    (equalIn(n - 1, w.end, w.end + reach) && !equalIn(n - 1, w.start, w.end))
  );
}

/** Whether one of the document lines [a, b) equals a SEARCH line with words. */
function hasEvidence(a: number, b: number, pairing: LinePairing): boolean {
  for (let j = a; j < b; j++) {
    if (pairing.hasEvidence(j)) {
      return true;
    }
  }
  return false;
}

/** Most SEARCH lines that pair in order with the lines of w (a longest common subsequence). */
function pairedWithin(n: number, w: { start: number; end: number }, pairs: (i: number, j: number) => boolean): number {
  let prev = new Int32Array(w.end - w.start + 1);
  for (let i = 0; i < n; i++) {
    const row = new Int32Array(prev.length);
    for (let c = 1; c < row.length; c++) {
      row[c] = Math.max(row[c - 1], prev[c], pairs(i, w.start + c - 1) ? prev[c - 1] + 1 : 0);
    }
    prev = row;
  }
  return prev[prev.length - 1];
}

/**
 * The in-order pairing of SEARCH lines 0..n-1 with columns 0..width-1 (weight(i, c) > 0: they pair)
 * that pairs both line 0 and line n-1, with the most weight, then the shortest span: [line, column]
 * pairs in order, or undefined when there is none. A heaviest common subsequence where every cell
 * carries the best chain so far: its weight, where it starts, and its last pair.
 */
function inOrderPairs(n: number, width: number, weight: (i: number, c: number) => number): Array<[number, number]> | undefined {
  // Per cell (i, c): the best chain of lines 0..i within columns 0..c that pairs line 0 (count -1: none),
  // its first column and its last pair cell; per pair cell, the last pair cell of the chain before it.
  const count = new Int32Array(n * width).fill(-1);
  const first = new Int32Array(n * width);
  const lastPair = new Int32Array(n * width);
  const before = new Int32Array(n * width).fill(-1);
  let best = -1; // the last pair cell of the best chain that pairs line n - 1
  let bestCount = 0;
  let bestSpan = 0;
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < width; c++) {
      const at = i * width + c;
      // The chain carried from the left or from above (a cell without one has count -1, first 0, last -1).
      const carried = betterChain(c > 0 ? at - 1 : -1, i > 0 ? at - width : -1, count, first);
      let k = carried < 0 ? -1 : count[carried];
      let from = carried < 0 ? 0 : first[carried];
      let last = carried < 0 ? -1 : lastPair[carried];
      const diagonal = i === 0 ? 0 : c > 0 ? count[at - width - 1] : -1;
      const w = diagonal >= 0 ? weight(i, c) : 0;
      if (w > 0) {
        const here = diagonal + w;
        const start = i === 0 ? c : first[at - width - 1];
        before[at] = i === 0 ? -1 : lastPair[at - width - 1];
        if (i === n - 1 && (best < 0 || here > bestCount || (here === bestCount && c - start < bestSpan))) {
          best = at;
          bestCount = here;
          bestSpan = c - start;
        }
        if (here > k || (here === k && start > from)) {
          k = here;
          from = start;
          last = at;
        }
      }
      count[at] = k;
      first[at] = from;
      lastPair[at] = last;
    }
  }
  if (best < 0) {
    return undefined;
  }
  const chain: Array<[number, number]> = [];
  for (let cell = best; cell >= 0; cell = before[cell]) {
    chain.push([Math.floor(cell / width), cell % width]);
  }
  return chain.reverse();
}

/** Of two cells (-1: none), the one whose chain has the most weight, then starts later; `a` on a tie. */
function betterChain(a: number, b: number, count: Int32Array, first: Int32Array): number {
  if (a < 0 || b < 0) {
    return a < 0 ? b : a;
  }
  return count[b] > count[a] || (count[b] === count[a] && first[b] > first[a]) ? b : a;
}

/**
 * All windows with each leading one that its grown region (grownSpan) holds replaced by that region,
 * flagged with its grown lines, best first. The leading window is then only a part of the region, so the
 * region keeps the better of the two scores. A region scored before (the evidence already bridged the
 * gap) is left as it was. `windows` scores a window (and remembers it) and says whether it has one.
 */
export function withGrownRegions(
  all: readonly FuzzyWindow[],
  n: number,
  M: number,
  pairing: LinePairing,
  windows: { score(a: number, b: number): number; known(a: number, b: number): boolean },
  budget: Budget,
): FuzzyWindow[] {
  const out = [...all];
  const spans: FuzzyWindow[] = [];
  for (const w of all.slice(0, SPANNED_WINDOWS)) {
    const span = grownSpan(w, n, M, pairing, budget);
    if (!span) {
      continue;
    }
    const { start, end, grown } = span;
    const same = spans.find((f) => f.start === start && f.end === end);
    const scored = out.find((f) => f.start === start && f.end === end);
    if (same) {
      same.score = Math.max(same.score, w.score);
    } else if (!windows.known(start, end)) {
      spans.push({ start, end, grown, score: Math.max(w.score, windows.score(start, end)) });
    } else if (span.proven && scored && scored !== w) {
      // A proven region scored before, below the look-alike it was found from, takes its place too.
      out.splice(out.indexOf(scored), 1);
      spans.push({ start, end, grown, score: Math.max(w.score, scored.score) });
    } else {
      continue;
    }
    out.splice(out.indexOf(w), 1);
  }
  return spans.length === 0 ? out : [...out, ...spans].sort(byScoreThenStart);
}
