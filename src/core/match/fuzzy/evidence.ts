// Scoring, the proof: document lines equal to SEARCH lines (by lineKey). They raise a window's score,
// realign seeds in repetitive code, and settle a window's edges. Kept apart from the look-alike measures
// (windowBag.ts, aligner.ts) as it counts equality, not resemblance. Its loops are indexed, not for-of
// (see the note at the top of search.ts).

import { LINE_CREDIT_FLOOR, type LineAligner } from './aligner';
import { type Budget } from './budget';
import { type DocLineCache } from './docLines';
import { type ExactLines } from './exactLines';
import { lineKey } from './lineText';

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

/**
 * Exact evidence: document lines equal to SEARCH lines (by lineKey), which realign seeds, settle
 * windows on the lines they share with SEARCH, and raise a window's score.
 */
export class ExactEvidence {
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
    const pairs = (i: number, j: number) => this.pairs(i, j);
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

  /** Whether SEARCH line i looks like non-blank document line j (a line the alignment credits). */
  pairs(i: number, j: number): boolean {
    return i >= 0 && i < this.search.length && this.aligner.sim(i, this.lines.line(j)) >= LINE_CREDIT_FLOOR;
  }

  /** Whether SEARCH line i equals non-blank document line j by lineKey, and whether that line has words. */
  equal(i: number, j: number): 'no' | 'punctuation' | 'evidence' {
    const k = this.keyIndex(j);
    if (k >= 0) {
      return this.evidenceSearchLines[k].includes(i) ? 'evidence' : 'no';
    }
    return k === PUNCTUATION_ONLY && !hasTwoWordChars(this.search[i]) && lineKey(this.search[i]) === lineKey(this.lines.norm(j))
      ? 'punctuation'
      : 'no';
  }

  /** Whether non-blank document line j equals a SEARCH line with words (by lineKey). */
  hasEvidence(j: number): boolean {
    return this.keyIndex(j) >= 0;
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
