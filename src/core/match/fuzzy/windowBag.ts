// Scoring, the first half: a window's whole text against SEARCH's as bags of bigrams (robust to fused
// or split lines, dropped commas, typos), kept as the window moves. One of the parts scorer.ts combines.

import { type Budget } from './budget';
import { type DocLineCache, type SearchBigrams } from './docLines';

/**
 * The bag of bigrams of the last window asked for (lines [bagFrom, bagTo)): per-id counts and their
 * overlap with SEARCH's bag.
 */
export class WindowBag {
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
