// A window (a region of document lines with its score): what the search's stages hand each other,
// and the two ways they compare windows (by score, by overlap). Its own file as every stage after
// the prefilter passes windows along.

/** A document region: 0-based line indexes, end exclusive, similarity 0..1. */
export interface FuzzyWindow {
  start: number;
  end: number;
  score: number;
  /**
   * Set on a region the file has grown lines inside (grown.ts): this many of its lines pair with no
   * SEARCH line. A candidate to show, never one to place without the user.
   */
  grown?: number;
}

export function overlapOf(x: FuzzyWindow, y: FuzzyWindow): number {
  return Math.max(0, Math.min(x.end, y.end) - Math.max(x.start, y.start));
}

export function byScoreThenStart(x: FuzzyWindow, y: FuzzyWindow): number {
  return y.score - x.score || x.start - y.start || x.end - y.end;
}
