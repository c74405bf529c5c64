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
// The document comes as a LineSource (match/lineSource.ts): the passes over every line read its
// characters in place, so no string is cut per line of a large file.
// The loops that run per document line or per exact-line match are indexed, not for-of: until V8
// optimises them, which a CLI run does not last long enough for, a for-of allocates an iterator result
// per step (and a destructured pair, an iterator of its own), and the collector has to clear it all.
//
// This file is the entry: findFuzzyCandidates runs the stages, each a file of this folder, in this
// order: measure.ts (the non-blank lines) -> exactPass.ts, keyMatcher.ts, exactLines.ts (lines equal to
// SEARCH's) -> estimate.ts, prefilter.ts (look-alike regions) -> regions.ts (seeds scored, edges
// refined) -> ranking.ts, grown.ts, shadows.ts, twins.ts (the candidates). scorer.ts scores windows for all of them, from
// windowBag.ts, aligner.ts and evidence.ts over docLines.ts and pairIds.ts; lineText.ts, similarity.ts,
// budget.ts and window.ts are shared by all.

import { LineSource } from '../lineSource';
import { Budget, untilCapReached } from './budget';
import { FuzzyScratch } from './estimate';
import { ExactLines } from './exactLines';
import { scanExactLines, scanTrimmedLines, trimmedForms } from './exactPass';
import { lineKey, normalizeLine } from './lineText';
import { DOCUMENT_PASS_SHARE, type MeasuredLines, measureLines } from './measure';
import { slicesAroundRareLines, tooLargeForOnePass } from './rareLines';
import { prefilter } from './prefilter';
import { pickCandidates, settleLeading, strongestRival } from './ranking';
import { withGrownRegions } from './grown';
import { evidenceRegions, lookAlikeRegions, refineEdges, ScoredWindows } from './regions';
import { offShadowEdges } from './shadows';
import { WindowScorer } from './scorer';
import { findTwinsOf } from './twins';
import { byScoreThenStart, type FuzzyWindow } from './window';

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
  /** Tables reused from an earlier search (the engine keeps one for all its batches); without it, the search allocates its own. */
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

/**
 * A region holding at least this share of SEARCH's lines exactly (ExactEvidence.exactShare), with a
 * score of at least SETTLED_SCORE, is the answer without the look-alike pass over the whole file: a
 * region with fewer than two exact lines would need bigram similarity above that score to outrank it.
 */
const SETTLED_SHARE = 0.5;
const SETTLED_SCORE = 0.8;

/** The document is its lines, as strings or as a LineSource (what the engine passes: no string per line). */
export function findFuzzyCandidates(
  docLines: readonly string[] | LineSource,
  searchLines: readonly string[],
  options: FuzzyOptions,
): FuzzyResult {
  const doc = docLines instanceof LineSource ? docLines : LineSource.ofLines(docLines);
  const workCap = options.workCap ?? DEFAULT_FUZZY_WORK_CAP;
  if (tooLargeForOnePass(doc, workCap * DOCUMENT_PASS_SHARE)) {
    return searchAroundRareLines(doc, searchLines, options, workCap);
  }
  return searchWholeDocument(doc, searchLines, options, workCap);
}

/**
 * A document one pass cannot afford (rareLines.ts): the search runs on the slices around the lines of
 * SEARCH it holds rarely, from the rarest, while the cap lasts. Always marked truncated: regions without
 * such a line were not looked at. The pass that finds the anchors counts one unit a line.
 */
function searchAroundRareLines(doc: LineSource, searchLines: readonly string[], options: FuzzyOptions, workCap: number): FuzzyResult {
  const maxCandidates = Math.max(0, Math.floor(options.maxCandidates));
  options.onDocumentScan?.();
  let work = doc.length;
  const found: FuzzyWindow[] = [];
  for (const slice of slicesAroundRareLines(doc, searchLines)) {
    const left = workCap - work;
    if (left <= 0) {
      break;
    }
    const part = searchWholeDocument(doc.slice(slice.start, slice.end), searchLines, { ...options, onDocumentScan: undefined }, left);
    work += part.work ?? 0;
    found.push(...part.windows.map((w) => ({ ...w, start: w.start + slice.start, end: w.end + slice.start })));
  }
  found.sort(byScoreThenStart);
  return { windows: found.slice(0, maxCandidates), truncated: true, work };
}

function searchWholeDocument(doc: LineSource, searchLines: readonly string[], options: FuzzyOptions, workCap: number): FuzzyResult {
  const maxCandidates = Math.max(0, Math.floor(options.maxCandidates));
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
  if (search.length === 0 || doc.length === 0) {
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
  const lines = measureLines(doc, budget, quick && trimmedForms(search, trimmed, quick));
  if (lines.nonBlank.length === 0) {
    return { windows: [], truncated: budget.truncated };
  }

  const scorer = new WindowScorer(doc, lines.nonBlank, search, searchKeys, budget);
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
      exact = scanExactLines(doc, lines, searchKeys, budget);
      seeds = exact ? evidenceRegions(exact, searchKeys.length, windows, scorer, budget) : [];
      settled = settles(seeds, scorer);
    }
    if (options.everyRival || !settled) {
      const scratch = options.scratch ?? new FuzzyScratch();
      seeds.push(...lookAlikeRegions(prefilter(doc, lines, search, maxCandidates, budget, scratch), windows, scorer));
    }
    seeds.sort(byScoreThenStart);
    // A search the exact lines settled skips the climb: its regions take their edges from that
    // evidence (settleLeading), and the climb would score a dozen windows more for no better first candidate.
    if (!settled) {
      refineEdges(seeds.slice(0, maxCandidates + 1), windows, search.length, options.minScore);
    }
  });
  let all = settleLeading(windows, scorer);
  untilCapReached(() => {
    all = withGrownRegions(all, search.length, lines.nonBlank.length, scorer, windows, budget);
  });
  all = offShadowEdges(all, scorer, searchKeys, (a, b) => windows.score(a, b));
  const taken = pickCandidates(all, findTwinsOf(doc, lines.nonBlank, budget, exact), maxCandidates, options.minScore);
  const toDoc = (w: FuzzyWindow): FuzzyWindow => ({
    start: lines.nonBlank[w.start],
    end: lines.nonBlank[w.end - 1] + 1,
    score: w.score,
    ...(w.grown !== undefined && { grown: w.grown }),
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
