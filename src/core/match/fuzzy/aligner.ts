// Scoring, the second half: SEARCH's lines aligned in order with a window's lines (so a window that
// merely shares vocabulary scores low), one line standing for two where a model fused or split them.
// The biggest part of the score, and the one the exact evidence asks about single line pairs.

import { distance } from 'fastest-levenshtein';
import { type Budget } from './budget';
import { type DocLine, type DocLineCache, type SimTable } from './docLines';
import { SHORT_STRING } from './similarity';

/** Line pairs scoring below this get no alignment credit (shared vocabulary is not a match). */
export const LINE_CREDIT_FLOOR = 0.5;
/** A fused/split pairing must beat the best single-line pairing by this much to count double. */
const FUSE_GAIN = 0.1;

/**
 * In-order alignment of SEARCH's lines with a window's lines, on cached line similarities; one SEARCH
 * line may stand for two document lines (fused) and the reverse (split).
 */
export class LineAligner {
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

/** Line pairs below the floor get no alignment credit: shared vocabulary alone is not a match. */
function credit(s: number): number {
  return s >= LINE_CREDIT_FLOOR ? s : 0;
}

/** Could `whole` be the two parts joined (lengths roughly add up)? */
function plausiblyFused(whole: number, part1: number, part2: number): boolean {
  const sum = part1 + part2;
  return whole > Math.max(part1, part2) && whole >= 0.7 * sum && whole <= 1.3 * sum + 2;
}
