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

import { distance } from 'fastest-levenshtein';
import { Budget, untilCapReached } from './budget';
import { FuzzyScratch } from './estimate';
import { evidenceSeeds, ExactLines, MAX_VOTES_PER_LINE } from './exactLines';
import { scanExactLines, scanTrimmedLines, trimmedForms } from './exactPass';
import { LINE_START, lineKey, normalizeLine } from './lineText';
import { type MeasuredLines, measureLines } from './measure';
import { prefilter } from './prefilter';
import { SHORT_STRING } from './similarity';
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

/** Line pairs scoring below this get no alignment credit (shared vocabulary is not a match). */
const LINE_CREDIT_FLOOR = 0.5;
/** A fused/split pairing must beat the best single-line pairing by this much to count double. */
const FUSE_GAIN = 0.1;
/** Most that a few edge moves can raise the score of a window of n lines; weaker seeds are not refined. */
function refineReach(n: number): number {
  return Math.min(0.3, MAX_REFINE_STEPS / n + 0.02);
}
/** Edge moves per refined seed (bigger misplacements are the exact-line votes' job). */
const MAX_REFINE_STEPS = 3;
/** Windows whose text Dice is below this are aligned without slack (see WindowScorer.score). */
const TIGHT_BAND_BELOW = 0.6;

/** How much of the gap between look-alike similarity and 1 the share of exactly equal lines closes. */
const EXACT_WEIGHT = 0.5;
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

/** What the full scorer knows about one non-blank document line (computed on first use). */
interface DocLine {
  norm: string;
  /** Dense ids of the line's bigrams (-1: a bigram SEARCH does not have). */
  ids: Int32Array;
  /** Id of the (line start, first character) bigram. */
  startId: number;
  /** SimTable row: similarity to SEARCH line i. */
  simRow: number;
  /** SimTable row: this line joined with the next, against SEARCH line i (-1: none yet). */
  fusedDocRow: number;
  /** SimTable row: SEARCH lines i-1 and i joined, against this line, at index i (-1: none yet). */
  fusedSearchRow: number;
}

/** WindowScorer.keyIndex for a line with no evidence key: one of letters and digits, one of punctuation only, one not yet looked at. */
const NO_EVIDENCE = -1;
const PUNCTUATION_ONLY = -2;
const KEY_UNKNOWN = -3;

/** Does the text have two ASCII word characters ([A-Za-z0-9_$])? Lines without are punctuation ("}", "});"). */
function hasTwoWordChars(text: string): boolean {
  let seen = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c >= 97 && c <= 122) || (c >= 65 && c <= 90) || (c >= 48 && c <= 57) || c === 95 || c === 36) {
      if (++seen === 2) {
        return true;
      }
    }
  }
  return false;
}

/** Largest SEARCH (in lines) whose similarity caches are dense rows. */
const DENSE_SIM_LIMIT = 1024;

/**
 * Cached similarities of document lines to SEARCH lines (NaN: not computed). Each document line
 * that needs a cache gets a row; rows of ordinary blocks live in one growing array (allocating a
 * typed array per line costs more than the similarities it saves), huge blocks use a sparse map,
 * as the banded alignment touches only a few cells of each row.
 */
class SimTable {
  private dense: Float32Array;
  private readonly sparse: Map<number, number> | undefined;
  private rows = 0;

  constructor(private readonly n: number) {
    if (n <= DENSE_SIM_LIMIT) {
      this.dense = new Float32Array(n * 64).fill(NaN);
    } else {
      this.dense = new Float32Array(0);
      this.sparse = new Map();
    }
  }

  newRow(): number {
    const row = this.rows++;
    if (!this.sparse && this.rows * this.n > this.dense.length) {
      const grown = new Float32Array(this.dense.length * 2).fill(NaN);
      grown.set(this.dense);
      this.dense = grown;
    }
    return row;
  }

  get(row: number, i: number): number {
    return this.sparse ? (this.sparse.get(row * this.n + i) ?? NaN) : this.dense[row * this.n + i];
  }

  set(row: number, i: number, v: number): void {
    if (this.sparse) {
      this.sparse.set(row * this.n + i, v);
    } else {
      this.dense[row * this.n + i] = v;
    }
  }
}

/**
 * Full score of a window of non-blank document lines [a, b) against the non-blank SEARCH lines:
 * the mean of whole-window bigram Dice and an in-order line alignment that also lets one SEARCH
 * line stand for two document lines (fused) and the reverse (split), raised by the share of
 * lines that are exactly SEARCH's.
 */
class WindowScorer {
  private readonly bag: WindowBag;
  private readonly aligner: LineAligner;
  private readonly evidence: ExactEvidence;

  constructor(docLines: readonly string[], nonBlank: Int32Array, search: readonly string[], searchKeys: readonly string[], budget: Budget) {
    const sims = new SimTable(search.length);
    const bigrams = searchBigrams(search);
    const lines = new DocLineCache(docLines, nonBlank, bigrams.ids, sims, search.length, budget);
    this.bag = new WindowBag(bigrams, lines, budget);
    this.aligner = new LineAligner(search, bigrams.searchIds, bigrams.ids.size, sims, lines, budget);
    this.evidence = new ExactEvidence(search, searchKeys, nonBlank.length, lines, this.aligner, budget);
    // Preparing SEARCH is linear in its size and always completes; it still counts against the cap.
    let chars = 0;
    for (const line of search) {
      chars += line.length + 1;
    }
    budget.used += 3 * chars;
  }

  score(a: number, b: number): number {
    const text = this.bag.textDice(a, b);
    // A window whose text is far from SEARCH is a decoy: align it on the tightest band, which
    // still credits every line that matches in order, at a fraction of the comparisons.
    const look = (text + this.aligner.lineAlignment(a, b, text >= TIGHT_BAND_BELOW ? 1 : 0)) / 2;
    // Lines equal to SEARCH lines are proof, not resemblance: the share of lines that are exactly
    // SEARCH's closes half of what look-alike similarity leaves open.
    const exact = this.evidence.exactShare(a, b);
    return look + EXACT_WEIGHT * exact * (1 - look);
  }

  /** See ExactEvidence.exactShare. */
  exactShare(a: number, b: number): number {
    return this.evidence.exactShare(a, b);
  }

  /** See ExactEvidence.realign. */
  realign(a: number, b: number): { start: number; end: number } | undefined {
    return this.evidence.realign(a, b);
  }

  /** See ExactEvidence.knowKeys. */
  knowKeys(found: { lines: readonly number[]; keys: readonly number[] }, exact: ExactLines): void {
    this.evidence.knowKeys(found, exact);
  }

  /** See ExactEvidence.settle. */
  settle(a: number, b: number): { start: number; end: number } | undefined {
    return this.evidence.settle(a, b);
  }
}

/** SEARCH's bigrams as dense ids (only bigrams SEARCH has get one: any other is never in common) and its bag. */
interface SearchBigrams {
  ids: PairIds;
  /** Per SEARCH line: its bigrams' ids. */
  searchIds: Int32Array[];
  /** Per id: how often SEARCH has it (line-start bigrams included). */
  bagCount: Int32Array;
  /** Bigrams in SEARCH's bag. */
  bagSize: number;
}

function searchBigrams(search: readonly string[]): SearchBigrams {
  const ids = new PairIds();
  const searchIds = search.map((line) => {
    const out = new Int32Array(Math.max(0, line.length - 1));
    for (let i = 0; i < out.length; i++) {
      out[i] = ids.intern(line.charCodeAt(i), line.charCodeAt(i + 1));
    }
    return out;
  });
  const startIds = search.map((line) => ids.intern(LINE_START, line.charCodeAt(0)));
  const bagCount = new Int32Array(ids.size);
  let bagSize = 0;
  for (let i = 0; i < search.length; i++) {
    const lineIds = searchIds[i];
    for (let p = 0; p < lineIds.length; p++) {
      bagCount[lineIds[p]]++;
    }
    bagCount[startIds[i]]++;
    bagSize += searchIds[i].length + 1;
  }
  return { ids, searchIds, bagCount, bagSize };
}

/**
 * The scorer's view of the non-blank document lines, each worked out on first use and kept:
 * normalised text (normalizeLine) and bigram ids (DocLine).
 */
class DocLineCache {
  private readonly norms = new Map<number, string>();
  private readonly lines = new Map<number, DocLine>();

  constructor(
    private readonly docLines: readonly string[],
    private readonly nonBlank: Int32Array,
    private readonly ids: PairIds,
    private readonly sims: SimTable,
    /** SEARCH's line count. */
    private readonly n: number,
    private readonly budget: Budget,
  ) {}

  norm(j: number): string {
    let s = this.norms.get(j);
    if (s === undefined) {
      s = normalizeLine(this.docLines[this.nonBlank[j]]);
      this.norms.set(j, s);
      this.budget.spend(s.length);
    }
    return s;
  }

  line(j: number): DocLine {
    let info = this.lines.get(j);
    if (info === undefined) {
      const norm = this.norm(j);
      const ids = new Int32Array(Math.max(0, norm.length - 1));
      const table = this.ids;
      for (let i = 0; i < ids.length; i++) {
        ids[i] = table.get(norm.charCodeAt(i), norm.charCodeAt(i + 1));
      }
      info = {
        norm,
        ids,
        startId: this.ids.get(LINE_START, norm.charCodeAt(0)),
        simRow: this.sims.newRow(),
        fusedDocRow: -1,
        fusedSearchRow: -1,
      };
      this.lines.set(j, info);
      this.budget.spend(norm.length + Math.min(this.n, DENSE_SIM_LIMIT));
    }
    return info;
  }
}

/**
 * The bag of bigrams of the last window asked for (lines [bagFrom, bagTo)): per-id counts and their
 * overlap with SEARCH's bag.
 */
class WindowBag {
  private readonly counts: Int32Array;
  private bagFrom = 0;
  private bagTo = 0;
  private common = 0;
  private windowSize = 0;

  constructor(
    private readonly search: SearchBigrams,
    private readonly lines: DocLineCache,
    private readonly budget: Budget,
  ) {
    this.counts = new Int32Array(search.ids.size);
  }

  /**
   * Whole-window bag-of-bigrams Dice. The bag of the last window asked for is kept, and a nearby
   * window is reached by adding and removing edge lines, so refining edges costs a few lines each.
   */
  textDice(a: number, b: number): number {
    if (b <= this.bagFrom || a >= this.bagTo || Math.abs(a - this.bagFrom) + Math.abs(b - this.bagTo) > 8) {
      // Start afresh: clearing the bag costs less than removing its lines one by one, and is
      // counted as that removal would be (windowSize is what the lines' moves added).
      if (this.windowSize > 0) {
        this.budget.spend(this.windowSize);
      }
      this.counts.fill(0);
      this.common = 0;
      this.windowSize = 0;
      this.bagFrom = this.bagTo = a;
    }
    while (this.bagFrom > a) {
      this.moveLine(--this.bagFrom, 1);
    }
    while (this.bagTo < b) {
      this.moveLine(this.bagTo++, 1);
    }
    while (this.bagFrom < a) {
      this.moveLine(this.bagFrom++, -1);
    }
    while (this.bagTo > b) {
      this.moveLine(--this.bagTo, -1);
    }
    const size = this.search.bagSize + this.windowSize;
    return (2 * this.common) / size;
  }

  /** Add (+1) or remove (-1) document line j's bigrams to/from the window bag. */
  private moveLine(j: number, sign: 1 | -1): void {
    const { ids, startId } = this.lines.line(j);
    const used = this.counts;
    const bag = this.search.bagCount;
    let common = this.common;
    if (sign > 0) {
      for (let p = 0; p < ids.length; p++) {
        const id = ids[p];
        if (id >= 0 && ++used[id] <= bag[id]) {
          common++;
        }
      }
      if (startId >= 0 && ++used[startId] <= bag[startId]) {
        common++;
      }
    } else {
      for (let p = 0; p < ids.length; p++) {
        const id = ids[p];
        if (id >= 0 && used[id]-- <= bag[id]) {
          common--;
        }
      }
      if (startId >= 0 && used[startId]-- <= bag[startId]) {
        common--;
      }
    }
    this.common = common;
    this.windowSize += sign * (ids.length + 1);
    this.budget.spend(ids.length + 1);
  }
}

/**
 * In-order alignment of SEARCH's lines with a window's lines, on cached line similarities; one SEARCH
 * line may stand for two document lines (fused) and the reverse (split).
 */
class LineAligner {
  /** Per-id counts of SEARCH line `counted` (see textSim); zero elsewhere between calls. */
  private readonly counts: Int32Array;
  private counted: Int32Array = new Int32Array(0);
  /** The ids one similarity consumed, to give them back. */
  private taken = new Int32Array(64);
  /** Scratch for the alignment DP, reused across windows. */
  private dp = new Float64Array(0);

  constructor(
    private readonly search: readonly string[],
    private readonly searchIds: readonly Int32Array[],
    idCount: number,
    private readonly sims: SimTable,
    private readonly lines: DocLineCache,
    private readonly budget: Budget,
  ) {
    this.counts = new Int32Array(idCount);
  }

  /** Similarity of the texts; Levenshtein ratio when short, else Dice over the id arrays. */
  private textSim(
    sText: string,
    dText: string,
    s1: Int32Array,
    s2: Int32Array | undefined,
    d1: Int32Array,
    d2: Int32Array | undefined,
  ): number {
    if (sText === dText) {
      return 1;
    }
    const longer = Math.max(sText.length, dText.length);
    // Both measures are at most about shorter/longer; below a third no pair can earn credit.
    if (3 * Math.min(sText.length, dText.length) < longer) {
      return 0;
    }
    if (longer < SHORT_STRING) {
      this.budget.spend(longer);
      return 1 - distance(sText, dText) / longer;
    }
    // Multiset intersection via a scratch table: SEARCH's ids counted, consumed by the document's,
    // given back. The alignment asks about one SEARCH line against several document lines in a
    // row, so the counts of the last SEARCH line stay in the table until another one is asked about.
    const counts = this.counts;
    if (this.counted !== s1) {
      const old = this.counted;
      for (let p = 0; p < old.length; p++) {
        counts[old[p]] = 0;
      }
      for (let p = 0; p < s1.length; p++) {
        counts[s1[p]]++;
      }
      this.counted = s1;
    }
    if (s2) {
      for (let p = 0; p < s2.length; p++) {
        counts[s2[p]]++;
      }
    }
    const s2Length = s2 ? s2.length : 0;
    if (this.taken.length < s1.length + s2Length) {
      this.taken = new Int32Array(2 * (s1.length + s2Length));
    }
    const taken = this.taken;
    let common = 0;
    for (let p = 0; p < d1.length; p++) {
      const id = d1[p];
      if (id >= 0 && counts[id] > 0) {
        counts[id]--;
        taken[common++] = id;
      }
    }
    if (d2) {
      for (let p = 0; p < d2.length; p++) {
        const id = d2[p];
        if (id >= 0 && counts[id] > 0) {
          counts[id]--;
          taken[common++] = id;
        }
      }
    }
    for (let p = 0; p < common; p++) {
      counts[taken[p]]++;
    }
    if (s2) {
      for (let p = 0; p < s2.length; p++) {
        counts[s2[p]]--;
      }
    }
    // The joint between fused lines is not counted on either side.
    const total = s1.length + (s2 ? s2.length : 0) + d1.length + (d2 ? d2.length : 0);
    this.budget.spend(total + s1.length + (s2 ? s2.length : 0));
    return total === 0 ? 0 : (2 * common) / total;
  }

  sim(i: number, d: DocLine): number {
    let v = this.sims.get(d.simRow, i);
    if (v !== v) {
      v = this.textSim(this.search[i], d.norm, this.searchIds[i], undefined, d.ids, undefined);
      this.sims.set(d.simRow, i, v);
    }
    return v;
  }

  /** SEARCH line i against document lines d1 + d2 (the model fused two lines into one). */
  private simFusedDoc(i: number, d1: DocLine, d2: DocLine): number {
    if (d1.fusedDocRow < 0) {
      d1.fusedDocRow = this.sims.newRow();
    }
    let v = this.sims.get(d1.fusedDocRow, i);
    if (v !== v) {
      const dText = `${d1.norm} ${d2.norm}`;
      v = this.textSim(this.search[i], dText, this.searchIds[i], undefined, d1.ids, d2.ids);
      this.sims.set(d1.fusedDocRow, i, v);
    }
    return v;
  }

  /** SEARCH lines i-1 + i against document line d (the model split one line in two). */
  private simFusedSearch(i: number, d: DocLine): number {
    if (d.fusedSearchRow < 0) {
      d.fusedSearchRow = this.sims.newRow();
    }
    let v = this.sims.get(d.fusedSearchRow, i);
    if (v !== v) {
      const sText = `${this.search[i - 1]} ${this.search[i]}`;
      v = this.textSim(sText, d.norm, this.searchIds[i - 1], this.searchIds[i], d.ids, undefined);
      this.sims.set(d.fusedSearchRow, i, v);
    }
    return v;
  }

  lineAlignment(a: number, b: number, slack: number): number {
    const search = this.search;
    const n = search.length;
    const m = b - a;
    const cols: DocLine[] = [];
    for (let j = a; j < b; j++) {
      cols.push(this.lines.line(j));
    }
    // Banded DP: dp(i, j) = best credit aligning SEARCH[0, i) with window lines [0, j), in order.
    const band = Math.abs(m - n) + slack;
    const width = 2 * band + 1;
    const cells = (n + 1) * width;
    if (this.dp.length < cells) {
      this.dp = new Float64Array(cells);
    }
    const dp = this.dp;
    dp.fill(-1, 0, cells);
    // Cell (i, j) lives at i * width + (j - i + band); a cell outside the band reads as -1 (unreachable).
    for (let i = 0; i <= n; i++) {
      const jLo = Math.max(0, i - band);
      const jHi = Math.min(m, i + band);
      const row = i * width - i + band; // + j: cell (i, j)
      const up = row - width + 1; // + j: cell (i - 1, j)
      for (let j = jLo; j <= jHi; j++) {
        const d = j - i + band;
        let v = i === 0 && j === 0 ? 0 : -1;
        if (i > 0 && d + 1 < width) {
          v = Math.max(v, dp[up + j]);
        }
        if (j > 0 && d > 0) {
          v = Math.max(v, dp[row + j - 1]);
        }
        // A pair can add at most 1 (2 for fused pairs): compute a similarity only when that could win.
        if (i > 0 && j > 0) {
          const prev = dp[up + j - 1]; // (i - 1, j - 1): same diagonal, always in the band
          if (prev >= 0 && prev + 1 > v) {
            v = Math.max(v, prev + credit(this.sim(i - 1, cols[j - 1])));
          }
        }
        if (i > 0 && j > 1 && d > 0) {
          const prev = dp[up + j - 2]; // (i - 1, j - 2)
          const d1 = cols[j - 2];
          const d2 = cols[j - 1];
          if (prev >= 0 && prev + 2 > v && plausiblyFused(search[i - 1].length, d1.norm.length, d2.norm.length)) {
            // Counts as two lines only when joining explains SEARCH better than either part alone;
            // otherwise any short neighbour (a lone brace) could ride along with a long line.
            const fused = this.simFusedDoc(i - 1, d1, d2);
            if (fused > Math.max(this.sim(i - 1, d1), this.sim(i - 1, d2)) + FUSE_GAIN) {
              v = Math.max(v, prev + 2 * credit(fused));
            }
          }
        }
        if (i > 1 && j > 0 && d + 1 < width) {
          const prev = dp[up - width + 1 + j - 1]; // (i - 2, j - 1)
          const line = cols[j - 1];
          if (prev >= 0 && prev + 2 > v && plausiblyFused(line.norm.length, search[i - 2].length, search[i - 1].length)) {
            const fused = this.simFusedSearch(i - 1, line);
            if (fused > Math.max(this.sim(i - 2, line), this.sim(i - 1, line)) + FUSE_GAIN) {
              v = Math.max(v, prev + 2 * credit(fused));
            }
          }
        }
        dp[row + j] = v;
      }
      this.budget.spend(jHi - jLo + 1);
    }
    // (n, m) is in the band: band >= |m - n|.
    return Math.max(0, dp[n * width + m - n + band]) / Math.max(n, m);
  }
}

/**
 * Exact evidence: document lines equal to SEARCH lines (by lineKey), which realign seeds, settle
 * windows on the lines they share with SEARCH, and raise a window's score.
 */
class ExactEvidence {
  /** Evidence keys: SEARCH's line keys (lineKey) that are not punctuation only. */
  private readonly evidenceKeys: string[] = [];
  /** Per evidence key: the SEARCH lines that have it. */
  private readonly evidenceSearchLines: number[][] = [];
  /** Per non-blank document line: its evidence key, NO_EVIDENCE, PUNCTUATION_ONLY or KEY_UNKNOWN (not looked at yet). */
  private readonly keyOf: Int32Array;
  /** SEARCH lines that can be evidence (not punctuation only). */
  private evidenceLines = 0;
  /** SEARCH line text -> its indexes, for exact-line votes. */
  private readonly searchIndex = new Map<string, number[]>();
  /** Evidence key -> its index in evidenceKeys. */
  private readonly evidenceIndex = new Map<string, number>();

  constructor(
    private readonly search: readonly string[],
    /** lineKey of each SEARCH line. */
    searchKeys: readonly string[],
    /** Non-blank document lines. */
    private readonly M: number,
    private readonly lines: DocLineCache,
    private readonly aligner: LineAligner,
    private readonly budget: Budget,
  ) {
    this.keyOf = new Int32Array(M).fill(KEY_UNKNOWN);
    const evidenceIndex = this.evidenceIndex;
    for (const [i, line] of search.entries()) {
      // A line of punctuation ("}", "*/", "});") occurs everywhere: it proves nothing.
      if (!hasTwoWordChars(line)) {
        continue;
      }
      const key = searchKeys[i];
      let e = evidenceIndex.get(key);
      if (e === undefined) {
        e = this.evidenceKeys.length;
        evidenceIndex.set(key, e);
        this.evidenceKeys.push(key);
        this.evidenceSearchLines.push([]);
      }
      this.evidenceSearchLines[e].push(i);
      this.evidenceLines++;
    }
    search.forEach((line, i) => {
      const list = this.searchIndex.get(line);
      if (list) {
        list.push(i);
      } else {
        this.searchIndex.set(line, [i]);
      }
    });
  }

  /**
   * The window that document lines equal to SEARCH lines vote for, looking half a block (at most
   * 16 lines) beyond [a, b) on each side: each such line votes for the start it implies (weighted
   * down when the line occurs several times in SEARCH). Undefined when fewer than two lines agree.
   */
  realign(a: number, b: number): { start: number; end: number } | undefined {
    const n = this.search.length;
    const M = this.M;
    const reach = Math.min((n >> 1) + 2, 16);
    const votes = new Map<number, number>();
    for (let j = Math.max(0, a - reach); j < Math.min(M, b + reach); j++) {
      const list = this.searchIndex.get(this.lines.norm(j));
      if (!list) {
        continue;
      }
      for (let s = 0; s < list.length; s++) {
        const i = list[s];
        votes.set(j - i, (votes.get(j - i) ?? 0) + 1 / list.length);
      }
    }
    let bestOffset = 0;
    let bestVotes = 0;
    for (const [offset, v] of votes) {
      if (v > bestVotes || (v === bestVotes && Math.abs(offset - a) < Math.abs(bestOffset - a))) {
        bestOffset = offset;
        bestVotes = v;
      }
    }
    if (bestVotes < 2) {
      return undefined;
    }
    const start = Math.max(0, bestOffset);
    const end = Math.min(M, bestOffset + n);
    return end > start ? { start, end } : undefined;
  }

  /** SEARCH's lines found (by lineKey, each at most as often as SEARCH has it) among [a, b), 0..1. */
  exactShare(a: number, b: number): number {
    const used = new Int32Array(this.evidenceKeys.length);
    let found = 0;
    let neutral = 0;
    for (let j = a; j < b; j++) {
      const k = this.keyIndex(j);
      if (k === PUNCTUATION_ONLY) {
        neutral++;
      } else if (k >= 0 && used[k] < this.evidenceSearchLines[k].length) {
        used[k]++;
        found++;
      }
    }
    this.budget.spend(b - a);
    // Every SEARCH line found counts; a window line that matches nothing costs half a line.
    const evidence = this.evidenceLines;
    return evidence === 0 ? 0 : found / (evidence + (b - a - found - neutral) / 2);
  }

  /**
   * Window [a, b) settled on its exact evidence: the span from the first to the last document line
   * equal to a SEARCH line on the window's diagonal (give or take a few dropped or invented lines),
   * widened line by line over SEARCH lines before the first and after the last of them only where the
   * document line looks like the SEARCH line it would pair with. Invented edge lines and stray fences
   * are so left out, and an interior gap is bridged. Undefined without two such lines.
   */
  settle(a: number, b: number): { start: number; end: number } | undefined {
    const n = this.search.length;
    const M = this.M;
    const slack = Math.max(2, Math.ceil(n / 4));
    const offsets: number[] = [];
    // Match m pairs SEARCH line matchSearch[m] with document line matchDoc[m].
    const matchSearch: number[] = [];
    const matchDoc: number[] = [];
    const reach = Math.min(n, 64) + slack;
    for (let j = Math.max(0, a - reach); j < Math.min(M, b + reach); j++) {
      const k = this.keyIndex(j);
      if (k < 0) {
        continue;
      }
      const list = this.evidenceSearchLines[k];
      // A line SEARCH has several times ("return;") pairs with any of them: it votes, but marks no edge.
      for (let s = 0; s < list.length; s++) {
        const i = list[s];
        if (list.length === 1) {
          matchSearch.push(i);
          matchDoc.push(j);
        }
        if (j >= a && j < b) {
          offsets.push(j - i);
        }
      }
    }
    this.budget.spend(b - a + 2 * reach + matchDoc.length);
    if (offsets.length < 2) {
      return undefined;
    }
    offsets.sort((x, y) => x - y);
    const diagonal = offsets[offsets.length >> 1];
    let first = -1; // the matches with the first and the last document line on the diagonal
    let last = -1;
    for (let m = 0; m < matchDoc.length; m++) {
      if (Math.abs(matchDoc[m] - matchSearch[m] - diagonal) > slack) {
        continue;
      }
      if (first < 0 || matchDoc[m] < matchDoc[first]) {
        first = m;
      }
      if (last < 0 || matchDoc[m] > matchDoc[last]) {
        last = m;
      }
    }
    if (first < 0 || first === last) {
      return undefined;
    }
    // Each step may pass over one SEARCH line the file lacks (invented, or half of a split line), one
    // file line SEARCH lacks,
    const pairs = (i: number, j: number) => i >= 0 && i < n && this.aligner.sim(i, this.lines.line(j)) >= LINE_CREDIT_FLOOR;
    // or one changed line, when the lines beyond it pair again.
    let start = matchDoc[first];
    for (let i = matchSearch[first] - 1; i >= 0 && start > 0; i--) {
      if (pairs(i, start - 1)) {
        start--;
      } else if (pairs(i - 1, start - 1)) {
        i--;
        start--;
      } else if (start > 1 && pairs(i - 1, start - 2)) {
        i--;
        start -= 2;
      } else if (start > 1 && pairs(i, start - 2)) {
        start -= 2;
      } // a file line SEARCH lacks
      else {
        break;
      }
    }
    let end = matchDoc[last] + 1;
    for (let i = matchSearch[last] + 1; i < n && end < M; i++) {
      if (pairs(i, end)) {
        end++;
      } else if (pairs(i + 1, end)) {
        i++;
        end++;
      } else if (end + 1 < M && pairs(i + 1, end + 1)) {
        i++;
        end += 2;
      } else if (end + 1 < M && pairs(i, end + 1)) {
        end += 2;
      } // a file line SEARCH lacks
      else {
        break;
      }
    }
    return { start, end };
  }

  /**
   * Tells what the quick exact-line pass found (scanTrimmedLines): non-blank line found.lines[m] has
   * the SEARCH key exact.keys[found.keys[m]]. keyIndex then has the answer without reading those lines:
   * the evidence key, or PUNCTUATION_ONLY for a SEARCH key that is not one (same key, same letters).
   */
  knowKeys(found: { lines: readonly number[]; keys: readonly number[] }, exact: ExactLines): void {
    const evidenceOf = exact.keys.map((key) => this.evidenceIndex.get(key) ?? PUNCTUATION_ONLY);
    for (let m = 0; m < found.lines.length; m++) {
      this.keyOf[found.lines[m]] = evidenceOf[found.keys[m]];
    }
  }

  /** The evidence key line j has (by lineKey), or why it has none. */
  private keyIndex(j: number): number {
    let k = this.keyOf[j];
    if (k === KEY_UNKNOWN) {
      const norm = this.lines.norm(j);
      // A key has the line's letters and digits: only a line with two of them can have an evidence key.
      k = hasTwoWordChars(norm) ? (this.evidenceIndex.get(lineKey(norm)) ?? NO_EVIDENCE) : PUNCTUATION_ONLY;
      this.keyOf[j] = k;
    }
    return k;
  }
}

/** Line pairs below the floor get no alignment credit: shared vocabulary alone is not a match. */
function credit(s: number): number {
  return s >= LINE_CREDIT_FLOOR ? s : 0;
}

/** Could `whole` be the two parts joined (lengths roughly add up)? */
function plausiblyFused(whole: number, part1: number, part2: number): boolean {
  const sum = part1 + part2;
  return whole > Math.max(part1, part2) && whole >= 0.7 * sum && whole <= 1.3 * sum + 2;
}

/**
 * Open-addressing map from a character pair to a dense id; the scorer's hottest lookup. It grows
 * with the number of distinct pairs (a few thousand in real text), so it stays cache-sized.
 */
class PairIds {
  private keys = new Int32Array(1024);
  private values = new Int32Array(1024); // id + 1; 0 marks an empty slot
  private shift = 22; // 32 - log2(capacity)
  size = 0;

  /** The id of the pair, or -1 when SEARCH does not contain it. */
  get(c1: number, c2: number): number {
    const key = (c1 << 16) | c2;
    const mask = this.keys.length - 1;
    for (let slot = Math.imul(key, 0x9e3779b1) >>> this.shift; ; slot = (slot + 1) & mask) {
      const v = this.values[slot];
      if (v === 0) {
        return -1;
      }
      if (this.keys[slot] === key) {
        return v - 1;
      }
    }
  }

  intern(c1: number, c2: number): number {
    const key = (c1 << 16) | c2;
    const mask = this.keys.length - 1;
    for (let slot = Math.imul(key, 0x9e3779b1) >>> this.shift; ; slot = (slot + 1) & mask) {
      const v = this.values[slot];
      if (v === 0) {
        this.keys[slot] = key;
        this.values[slot] = ++this.size;
        if (2 * this.size > this.keys.length) {
          this.grow();
        }
        return this.size - 1;
      }
      if (this.keys[slot] === key) {
        return v - 1;
      }
    }
  }

  private grow(): void {
    const oldKeys = this.keys;
    const oldValues = this.values;
    this.keys = new Int32Array(oldKeys.length * 2);
    this.values = new Int32Array(oldKeys.length * 2);
    this.shift--;
    const mask = this.keys.length - 1;
    for (let i = 0; i < oldKeys.length; i++) {
      if (oldValues[i] === 0) {
        continue;
      }
      let slot = Math.imul(oldKeys[i], 0x9e3779b1) >>> this.shift;
      while (this.values[slot] !== 0) {
        slot = (slot + 1) & mask;
      }
      this.keys[slot] = oldKeys[i];
      this.values[slot] = oldValues[i];
    }
  }
}
