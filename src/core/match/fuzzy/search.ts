// Tier 10: fuzzy search for the document region a SEARCH block most likely meant.
//
// Two stages, so the cost stays linear in the document size:
//  1. Prefilter: every window of as many non-blank lines as SEARCH has gets a cheap bag-of-bigrams
//     Dice estimate, kept up to date with a sliding sum (each line's bigrams are added once and
//     removed once). Whitespace is skipped, so indentation and spacing drift cost nothing; bigrams
//     are hashed to 16 bits; for large blocks only every 2nd/3rd line is hashed and only a
//     content-defined sample of bigrams is kept.
//  2. Full scoring of the best window of each of a few regions: half whole-window text Dice (robust
//     to fused or split lines, dropped commas, typos), half an in-order line alignment (so a window
//     that merely shares vocabulary with SEARCH scores low). Lines equal to SEARCH lines vote to
//     realign a seed in repetitive code, and a small hill-climb on the edges lets a dropped or added
//     first/last line still land on the true region.
// Blank lines are ignored: windows are runs of non-blank lines, mapped back to document lines.
// A deterministic work counter (operations, not wall-clock) bounds the cost of any input; when it
// runs out the search returns what it has and says it was truncated.
// The loops that run per document line or per exact-line match are indexed, not for-of: until V8
// optimises them, which a CLI run does not last long enough for, a for-of allocates an iterator result
// per step (and a destructured pair, an iterator of its own), and the collector has to clear it all.

import { Budget, untilCapReached } from './budget';
import { FuzzyScratch } from './estimate';
import { evidenceSeeds, ExactLines, MAX_VOTES_PER_LINE } from './exactLines';
import { scanExactLines, scanTrimmedLines, trimmedForms } from './exactPass';
import { lineKey, normalizeLine } from './lineText';
import { type MeasuredLines, measureLines } from './measure';
import { prefilter } from './prefilter';
import { WindowScorer } from './scorer';
import { byScoreThenStart, type FuzzyWindow, overlapOf } from './window';

export { FuzzyScratch } from './estimate';
export type { FuzzyWindow } from './window';

export interface FuzzyResult {
  /** Best first, non-overlapping; the best region's twins (same lines) right after it. */
  windows: FuzzyWindow[];
  /** The work cap stopped the search: closer matches may exist. */
  truncated: boolean;
  /** Operations counted (see FuzzyOptions.workCap); absent when the search had nothing to do. */
  work?: number;
  /**
   * The best region's strongest rival: the best-scoring other window that overlaps it by at most half
   * of its lines, whether listed or not (candidates never overlap, so a rival sharing a line with the
   * best is not in windows). Placing without the user needs a clear lead over it.
   */
  rival?: FuzzyWindow;
}

export interface FuzzyOptions {
  maxCandidates: number;
  minScore: number;
  /** Upper bound on counted operations (character visits, table updates, alignment cells). */
  workCap?: number;
  /** Tables reused from an earlier search (one per batch of blocks); without it, the search allocates its own. */
  scratch?: FuzzyScratch;
  /**
   * Look for look-alike regions across the whole file even when exact evidence already settles the
   * best one (see SETTLED_SHARE). Placing a block without the user (autoApplyAbove) needs the best
   * region's strongest rival; a list of candidates for a person or a model does not.
   */
  everyRival?: boolean;
  /** Called before the search reads every line of the document (the key scan, the look-alike pass). */
  onDocumentScan?: () => void;
}

/** Calibrated so the worst input stays well under ~200 ms on a slow machine (see bench/bench.ts). */
export const DEFAULT_FUZZY_WORK_CAP = 20_000_000;

/** Most that a few edge moves can raise the score of a window of n lines; weaker seeds are not refined. */
function refineReach(n: number): number {
  return Math.min(0.3, MAX_REFINE_STEPS / n + 0.02);
}
/** Edge moves per refined seed (bigger misplacements are the exact-line votes' job). */
const MAX_REFINE_STEPS = 3;

/** How many of the best scored windows settle on their exact evidence (each costs about its length). */
const SETTLED_WINDOWS = 16;
/**
 * A region holding at least this share of SEARCH's lines exactly (ExactEvidence.exactShare), with a
 * score of at least SETTLED_SCORE, is the answer without the look-alike pass over the whole file: a
 * region with fewer than two exact lines would need bigram similarity above that score to outrank it.
 */
const SETTLED_SHARE = 0.5;
const SETTLED_SCORE = 0.8;

export function findFuzzyCandidates(docLines: readonly string[], searchLines: readonly string[], options: FuzzyOptions): FuzzyResult {
  const maxCandidates = Math.max(0, Math.floor(options.maxCandidates));
  const workCap = options.workCap ?? DEFAULT_FUZZY_WORK_CAP;
  if (maxCandidates === 0) {
    return { windows: [], truncated: false };
  }

  const search: string[] = [];
  // SEARCH's non-blank lines trimmed as they came (search[i] has its inner spaces collapsed as well).
  const trimmed: string[] = [];
  for (const line of searchLines) {
    const norm = normalizeLine(line);
    if (norm !== '') {
      search.push(norm);
      trimmed.push(line.trim());
    }
  }
  if (search.length === 0 || docLines.length === 0) {
    return { windows: [], truncated: false };
  }

  const budget = new Budget(workCap);
  // Normalising SEARCH and hashing it for the prefilter are linear in its size: count them too.
  for (const line of search) {
    budget.used += 2 * line.length;
  }
  const searchKeys = search.map(lineKey);
  // The quick exact-line pass is read along with the lines; a search that needs every rival skips it.
  const quick = options.everyRival ? undefined : new ExactLines(searchKeys);
  const lines = measureLines(docLines, budget, quick && trimmedForms(search, trimmed, quick));
  if (lines.nonBlank.length === 0) {
    return { windows: [], truncated: budget.truncated };
  }

  const scorer = new WindowScorer(docLines, lines.nonBlank, search, searchKeys, budget);
  let windows = new ScoredWindows(scorer, lines.nonBlank.length);
  // The exact-line pass's findings, also where findTwins looks for the best region's twins.
  let exact: ExactLines | undefined;
  untilCapReached(() => {
    // Regions that lines equal to SEARCH lines support: the usual near miss is settled by them alone,
    // most often by the lines equal once trimmed (the quick pass).
    const quickly = quick && settledByTrimmedLines(lines, quick, scorer, budget);
    let seeds: FuzzyWindow[];
    let settled: boolean;
    if (quickly) {
      ({ exact, windows, seeds } = quickly);
      settled = true;
    } else {
      options.onDocumentScan?.();
      exact = scanExactLines(docLines, lines, searchKeys, budget);
      seeds = exact ? evidenceRegions(exact, searchKeys.length, windows, scorer, budget) : [];
      settled = settles(seeds, scorer);
    }
    if (options.everyRival || !settled) {
      const scratch = options.scratch ?? new FuzzyScratch();
      seeds.push(...lookAlikeRegions(prefilter(docLines, lines, search, maxCandidates, budget, scratch), windows, scorer));
    }
    seeds.sort(byScoreThenStart);
    // A search the exact lines settled skips the climb: its regions take their edges from that
    // evidence (settleLeading), and the climb would score a dozen windows more for no better first candidate.
    if (!settled) {
      refineEdges(seeds.slice(0, maxCandidates + 1), windows, search.length, options.minScore);
    }
  });
  const all = settleLeading(windows, scorer);
  const taken = pickCandidates(all, findTwinsOf(docLines, lines.nonBlank, budget, exact), maxCandidates, options.minScore);
  const toDoc = (w: FuzzyWindow): FuzzyWindow => ({
    start: lines.nonBlank[w.start],
    end: lines.nonBlank[w.end - 1] + 1,
    score: w.score,
  });
  const result: FuzzyResult = { windows: taken.map(toDoc), truncated: budget.truncated, work: budget.used };
  const rival = strongestRival(all, taken);
  if (rival) {
    result.rival = toDoc(rival);
  }
  return result;
}

/**
 * The regions of the quick exact-line pass (scanTrimmedLines), scored on windows of their own, when they
 * settle the search; otherwise undefined, and the search goes on as if the quick pass had not run.
 */
function settledByTrimmedLines(
  lines: MeasuredLines,
  quick: ExactLines,
  scorer: WindowScorer,
  budget: Budget,
): { exact: ExactLines; windows: ScoredWindows; seeds: FuzzyWindow[] } | undefined {
  const found = scanTrimmedLines(lines, quick, budget);
  if (!found || !lines.trimmedMatches) {
    return undefined;
  }
  scorer.knowKeys(lines.trimmedMatches, found);
  const windows = new ScoredWindows(scorer, lines.nonBlank.length);
  const seeds = evidenceRegions(found, found.keyOf.length, windows, scorer, budget);
  return settles(seeds, scorer) ? { exact: found, windows, seeds } : undefined;
}

/** Whether one of the exact-line regions is the answer on its own (SETTLED_SCORE, SETTLED_SHARE). */
function settles(seeds: readonly FuzzyWindow[], scorer: WindowScorer): boolean {
  return seeds.some((w) => w.score >= SETTLED_SCORE && scorer.exactShare(w.start, w.end) >= SETTLED_SHARE);
}

/** Every window scored so far (non-blank coordinates), each scored once. */
class ScoredWindows {
  private readonly byKey = new Map<number, FuzzyWindow>(); // key: start * (M + 1) + end

  constructor(
    private readonly scorer: WindowScorer,
    /** Non-blank document lines. */
    readonly M: number,
  ) {}

  score(a: number, b: number): number {
    const key = a * (this.M + 1) + b;
    const known = this.byKey.get(key);
    if (known) {
      return known.score;
    }
    const score = this.scorer.score(a, b);
    this.byKey.set(key, { start: a, end: b, score });
    return score;
  }

  all(): FuzzyWindow[] {
    return [...this.byKey.values()];
  }
}

/**
 * The regions the exact lines support (evidenceSeeds), each with the window of SEARCH's size where they
 * put SEARCH's first line: the span of the agreeing lines leaves out SEARCH's edge lines that match only loosely.
 */
function evidenceRegions(exact: ExactLines, n: number, windows: ScoredWindows, scorer: WindowScorer, budget: Budget): FuzzyWindow[] {
  const seeds: FuzzyWindow[] = [];
  for (const region of evidenceSeeds(exact, n, budget)) {
    seeds.push({ ...region, score: windows.score(region.start, region.end) });
    const whole = scorer.realign(region.start, region.end);
    if (whole && (whole.start !== region.start || whole.end !== region.end)) {
      seeds.push({ ...whole, score: windows.score(whole.start, whole.end) });
    }
  }
  return seeds;
}

/**
 * The prefilter's look-alike regions, scored. In repetitive code the bag-of-bigrams prefilter can sit a
 * few lines off the true region; lines that equal SEARCH lines vote for where it really starts.
 */
function lookAlikeRegions(
  regions: ReadonlyArray<{ start: number; end: number }>,
  windows: ScoredWindows,
  scorer: WindowScorer,
): FuzzyWindow[] {
  const seeds: FuzzyWindow[] = [];
  for (const seed of regions) {
    let best: FuzzyWindow = { start: seed.start, end: seed.end, score: windows.score(seed.start, seed.end) };
    const voted = scorer.realign(seed.start, seed.end);
    if (voted && (voted.start !== best.start || voted.end !== best.end)) {
      const score = windows.score(voted.start, voted.end);
      if (score > best.score) {
        best = { ...voted, score };
      }
    }
    seeds.push(best);
  }
  return seeds;
}

/** Moves each edge of the seeds by one line while the score improves (first improvement wins, a few steps). */
function refineEdges(seeds: readonly FuzzyWindow[], windows: ScoredWindows, n: number, minScore: number): void {
  const minSize = Math.max(1, n - 3);
  const maxSize = n + 3;
  for (const seed of seeds) {
    let { start: a, end: b, score: best } = seed;
    // Edge moves shift a score by little; a region far below minScore will not make it.
    if (best + refineReach(n) < minScore) {
      continue;
    }
    // A few steps fix a dropped or added first or last line.
    for (let step = 0; step < MAX_REFINE_STEPS; step++) {
      let moved = false;
      for (const [da, db] of EDGE_MOVES) {
        const na = a + da;
        const nb = b + db;
        if (na < 0 || nb > windows.M || nb - na < minSize || nb - na > maxSize) {
          continue;
        }
        const sc = windows.score(na, nb);
        if (sc > best + 1e-9) {
          best = sc;
          a = na;
          b = nb;
          moved = true;
          break;
        }
      }
      if (!moved) {
        break;
      }
    }
  }
}

/** Every scored window, best first, the leading ones settled on their exact evidence (WindowScorer.settle). */
function settleLeading(windows: ScoredWindows, scorer: WindowScorer): FuzzyWindow[] {
  let all = windows.all().sort(byScoreThenStart);
  untilCapReached(() => {
    const settled: FuzzyWindow[] = [];
    for (const w of all.slice(0, SETTLED_WINDOWS)) {
      const r = scorer.settle(w.start, w.end);
      settled.push(r && (r.start !== w.start || r.end !== w.end) ? { ...r, score: windows.score(r.start, r.end) } : w);
    }
    const keys = new Set<number>();
    all = [...settled, ...all.slice(SETTLED_WINDOWS)]
      .filter((w) => {
        const key = w.start * (windows.M + 1) + w.end;
        if (keys.has(key)) {
          return false;
        }
        keys.add(key);
        return true;
      })
      .sort(byScoreThenStart);
  });
  return all;
}

/**
 * The candidates: best first, after taking a window every window overlapping it dropped. The best
 * region's twins (the same lines, up to indentation and trailing whitespace) score the same: they are
 * listed right after it, so a twin is never hidden behind its neighbour.
 */
function pickCandidates(
  all: readonly FuzzyWindow[],
  twinsOf: (w: FuzzyWindow) => FuzzyWindow[],
  maxCandidates: number,
  minScore: number,
): FuzzyWindow[] {
  const taken: FuzzyWindow[] = [];
  const top = all[0];
  if (top && top.score >= minScore) {
    taken.push(top);
    for (const twin of twinsOf(top)) {
      if (taken.length >= maxCandidates) {
        break;
      }
      if (!taken.some((t) => twin.start < t.end && t.start < twin.end)) {
        taken.push(twin);
      }
    }
  }
  for (const w of all) {
    if (taken.length >= maxCandidates || w.score < minScore) {
      break;
    }
    if (taken.some((t) => overlapOf(w, t) > 0)) {
      continue;
    }
    taken.push(w);
  }
  return taken.sort(byScoreThenStart);
}

/**
 * The strongest rival of the best region: any scored window that is mostly elsewhere (it overlaps the
 * best by at most half), listed or not. Placing without the user needs a clear lead over it.
 */
function strongestRival(all: readonly FuzzyWindow[], taken: readonly FuzzyWindow[]): FuzzyWindow | undefined {
  const top = all[0];
  if (!top) {
    return undefined;
  }
  let rival: FuzzyWindow | undefined;
  const half = (top.end - top.start) / 2;
  for (const w of [...taken, ...all]) {
    if (w !== top && overlapOf(w, top) <= half && (!rival || w.score > rival.score)) {
      rival = w;
    }
  }
  return rival;
}

/** findTwins bound to this search's document and exact-line lists. */
function findTwinsOf(
  docLines: readonly string[],
  nonBlank: Int32Array,
  budget: Budget,
  exact: ExactLines | undefined,
): (w: FuzzyWindow) => FuzzyWindow[] {
  return (w) => findTwins(docLines, nonBlank, w, budget, exact);
}

/**
 * Other places holding the same non-blank lines as window [a, b) (non-blank coordinates), compared
 * trimmed, so they score exactly as it does; taken left to right, each clear of the one before. Where
 * the exact-line pass has a complete list of the lines sharing a key with one of the window's lines,
 * only the starts that list implies are tried (see twinStarts); otherwise one pass over the non-blank
 * lines. Counted as work; a pass the budget cannot afford is cut short (and the result marked truncated).
 */
function findTwins(docLines: readonly string[], nonBlank: Int32Array, w: FuzzyWindow, budget: Budget, exact?: ExactLines): FuzzyWindow[] {
  const len = w.end - w.start;
  const want: string[] = [];
  for (let j = w.start; j < w.end; j++) {
    want.push(docLines[nonBlank[j]].trim());
  }
  const out: FuzzyWindow[] = [];
  const M = nonBlank.length;
  // The full pass tries at most M - len + 1 starts of up to len + 1 work each: a search that could not
  // afford that takes the full pass, which is cut short exactly where it always was.
  const starts = exact && budget.used + (M - len + 1) * (len + 1) <= budget.cap ? twinStarts(exact, w.start, w.end) : undefined;
  // Whether the lines from j on are the window's lines (trimmed), counting each line compared as work.
  const twinAt = (j: number): boolean => {
    let k = 0;
    while (k < len && trimmedEquals(docLines[nonBlank[j + k]], want[k])) {
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
    const first = docLines[nonBlank[j]];
    const last = first.charCodeAt(first.length - 1);
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

/** line.trim() === want, without building the trimmed string (most lines differ in their first characters). */
function trimmedEquals(line: string, want: string): boolean {
  if (line.length < want.length) {
    return false;
  }
  // Most lines end without trailing space: their last character rules them out at once.
  const last = line.charCodeAt(line.length - 1);
  if (want.length > 0 && last !== want.charCodeAt(want.length - 1) && !isTrimmed(last)) {
    return false;
  }
  // Equal lengths: trimming could only make the line shorter, so it is equal as it is or not at all.
  if (line.length === want.length) {
    return line === want;
  }
  let lo = 0;
  while (lo < line.length && isTrimmed(line.charCodeAt(lo))) {
    lo++;
  }
  let hi = line.length;
  while (hi > lo && isTrimmed(line.charCodeAt(hi - 1))) {
    hi--;
  }
  return hi - lo === want.length && line.startsWith(want, lo);
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

const EDGE_MOVES: ReadonlyArray<readonly [number, number]> = [
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
  [-1, -1],
  [1, 1],
];
