// Exact evidence, what was found: SEARCH's line keys and the document lines that have them (ExactLines),
// and the regions those lines vote for (evidenceSeeds). Apart from the passes that fill it (exactPass.ts,
// keyMatcher.ts), as twins and regions read it too. Its loops over matches are indexed, not for-of
// (see the note at the top of search.ts).

import { type Budget } from './budget';

/** A line occurring more often than this in the document casts no vote (closing braces and the like). */
export const MAX_VOTES_PER_LINE = 64;

/**
 * SEARCH's line keys (lineKey) and the non-blank document lines that have them, for evidenceSeeds and
 * twinStarts: what an exact-line pass found (scanTrimmedLines or scanExactLines).
 */
export class ExactLines {
  /** Distinct SEARCH line keys. */
  readonly keys: string[] = [];
  /** Per SEARCH line: the index of its key in `keys`. */
  readonly keyOf: number[] = [];
  /** Per key: the SEARCH lines that have it. */
  readonly searchLines: number[][] = [];
  /** Per key: the non-blank document lines that have it, in document order (at most MAX_VOTES_PER_LINE + 1). */
  readonly docLines: number[][] = [];
  /** Keys in the order of their first document line. */
  readonly order: number[] = [];

  constructor(searchKeys: readonly string[]) {
    const index = new Map<string, number>();
    searchKeys.forEach((key, i) => {
      let k = index.get(key);
      if (k === undefined) {
        k = this.keys.length;
        index.set(key, k);
        this.keys.push(key);
        this.searchLines.push([]);
        this.docLines.push([]);
      }
      this.keyOf.push(k);
      this.searchLines[k].push(i);
    });
  }

  /** Notes non-blank document line j as having key k (past the vote limit a list stops growing). */
  add(k: number, j: number): void {
    const docs = this.docLines[k];
    if (docs.length > MAX_VOTES_PER_LINE) {
      return;
    }
    if (docs.length === 0) {
      this.order.push(k);
    }
    docs.push(j);
  }
}

/**
 * Up to three regions (non-blank coordinates) supported by document lines equal to SEARCH lines (by
 * lineKey, found by scanExactLines for the n SEARCH lines): each such line votes for the start it
 * implies; the best starts take every agreeing line within a few lines of their diagonal (dropped or
 * invented lines shift it), and the region spans from the first to the last of them, so invented
 * first/last SEARCH lines are left out and gaps are bridged.
 */
export function evidenceSeeds(exact: ExactLines, n: number, budget: Budget): Array<{ start: number; end: number }> {
  // Match m pairs SEARCH line matchSearch[m] with document line matchDoc[m]; votes by diagonal (doc - search).
  const matchSearch: number[] = [];
  const matchDoc: number[] = [];
  const votes = new Map<number, number>();
  for (let o = 0; o < exact.order.length; o++) {
    const k = exact.order[o];
    const docs = exact.docLines[k];
    if (docs.length > MAX_VOTES_PER_LINE) {
      continue;
    }
    const lines = exact.searchLines[k];
    const weight = 1 / (lines.length * docs.length);
    for (let d = 0; d < docs.length; d++) {
      const j = docs[d];
      for (let s = 0; s < lines.length; s++) {
        const i = lines[s];
        matchSearch.push(i);
        matchDoc.push(j);
        votes.set(j - i, (votes.get(j - i) ?? 0) + weight);
      }
    }
  }
  budget.spend(matchDoc.length);
  const slack = Math.max(2, Math.ceil(n / 4));
  const ranked = [...votes].filter(([, v]) => v >= 1.5).sort((x, y) => y[1] - x[1] || x[0] - y[0]);
  const out: Array<{ start: number; end: number }> = [];
  for (const [diagonal] of ranked) {
    if (out.length >= 3) {
      break;
    }
    let lo = Infinity;
    let hi = -Infinity;
    for (let m = 0; m < matchDoc.length; m++) {
      const j = matchDoc[m];
      if (Math.abs(j - matchSearch[m] - diagonal) > slack) {
        continue;
      }
      lo = Math.min(lo, j);
      hi = Math.max(hi, j);
    }
    if (hi < lo) {
      continue;
    }
    const region = { start: lo, end: hi + 1 };
    if (!out.some((r) => r.start === region.start && r.end === region.end)) {
      out.push(region);
    }
  }
  return out;
}
