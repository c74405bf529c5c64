// From seeds to scored windows: the regions exact evidence and the prefilter propose, each scored once
// (ScoredWindows), realigned on the exact-line votes, and their edges refined by a short climb. Between
// the passes that propose regions and the ranking that picks among the scored windows.

import { type Budget } from './budget';
import { evidenceSeeds, type ExactLines } from './exactLines';
import { type WindowScorer } from './scorer';
import { type FuzzyWindow } from './window';

/** Every window scored so far (non-blank coordinates), each scored once. */
export class ScoredWindows {
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

  /** Whether window [a, b) was scored before. */
  known(a: number, b: number): boolean {
    return this.byKey.has(a * (this.M + 1) + b);
  }

  all(): FuzzyWindow[] {
    return [...this.byKey.values()];
  }
}

/**
 * The regions the exact lines support (evidenceSeeds), each with the window of SEARCH's size where they
 * put SEARCH's first line: the span of the agreeing lines leaves out SEARCH's edge lines that match only loosely.
 */
export function evidenceRegions(exact: ExactLines, n: number, windows: ScoredWindows, scorer: WindowScorer, budget: Budget): FuzzyWindow[] {
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
export function lookAlikeRegions(
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

/** Most that a few edge moves can raise the score of a window of n lines; weaker seeds are not refined. */
function refineReach(n: number): number {
  return Math.min(0.3, MAX_REFINE_STEPS / n + 0.02);
}
/** Edge moves per refined seed (bigger misplacements are the exact-line votes' job). */
const MAX_REFINE_STEPS = 3;

/** Moves each edge of the seeds by one line while the score improves (first improvement wins, a few steps). */
export function refineEdges(seeds: readonly FuzzyWindow[], windows: ScoredWindows, n: number, minScore: number): void {
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

const EDGE_MOVES: ReadonlyArray<readonly [number, number]> = [
  [-1, 0],
  [1, 0],
  [0, -1],
  [0, 1],
  [-1, -1],
  [1, 1],
];
