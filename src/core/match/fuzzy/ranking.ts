// Settling and ranking: every scored window best first, the leading ones settled on their exact
// evidence, then the candidates (non-overlapping, the best region's twins right after it) and the best
// region's strongest rival. The last stage of the search, what findFuzzyCandidates returns.

import { untilCapReached } from './budget';
import { type ScoredWindows } from './regions';
import { type WindowScorer } from './scorer';
import { byScoreThenStart, type FuzzyWindow, overlapOf } from './window';

/** How many of the best scored windows settle on their exact evidence (each costs about its length). */
const SETTLED_WINDOWS = 16;

/** Every scored window, best first, the leading ones settled on their exact evidence (WindowScorer.settle). */
export function settleLeading(windows: ScoredWindows, scorer: WindowScorer): FuzzyWindow[] {
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
export function pickCandidates(
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
export function strongestRival(all: readonly FuzzyWindow[], taken: readonly FuzzyWindow[]): FuzzyWindow | undefined {
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
