// Bookkeeping for a batch: which ORIGINAL lines the blocks placed so far have replaced, and how many
// lines stand there now. Every placement replaces whole lines, so a line-level map is exact: a line of
// the working text is either an original line (shifted) or part of one edited region. Regions that
// overlap or touch are merged, which is also how the final edits are grouped.
//
// Speed: a batch of thousands of blocks asks the ledgers something for every block, so the regions
// are kept sorted with the running sum of their size changes (recomputed lazily from the first region
// that changed) and every question is a binary search. Blocks that go top to bottom, the usual order,
// only ever append; any order costs at most one pass of additions per block.
import type { TextEdit } from '../types';

export interface LineEdit {
  /** ORIGINAL lines [origStart, origEnd) were replaced ... */
  origStart: number;
  origEnd: number;
  /** ... by this many lines of the working text. */
  newLen: number;
  /** Change in text length inside this region (characters added minus removed). */
  textDelta: number;
  /** Blocks (1-based indexes) whose placements make up this region, in no particular order. */
  blocks: number[];
}

/**
 * Sorted, disjoint regions of an original sequence, each replaced by a new length, with the working
 * position of each region derived from the running sum of the earlier regions' size changes.
 */
class ShiftedRegions<T> {
  items: T[] = [];
  // Plain number arrays beside the items, so the running sums are tight loops.
  private readonly origStarts: number[] = [];
  private readonly origEnds: number[] = [];
  private readonly newLens: number[] = [];
  /** before[i]: sum of size changes of items [0, i); valid for i <= valid. */
  private readonly before: number[] = [0];
  private valid = 0;

  constructor(
    private readonly origStartOf: (x: T) => number,
    private readonly origEndOf: (x: T) => number,
    private readonly newLenOf: (x: T) => number,
  ) {}

  get length(): number {
    return this.items.length;
  }

  /** Sum of size changes of items [0, i). */
  shiftBefore(i: number): number {
    if (i > this.valid) {
      const { before, origStarts, origEnds, newLens } = this;
      for (let k = this.valid; k < i; k++) {
        before[k + 1] = before[k] + newLens[k] - (origEnds[k] - origStarts[k]);
      }
      this.valid = i;
    }
    return this.before[i];
  }

  origStart(i: number): number {
    return this.origStarts[i];
  }

  origEnd(i: number): number {
    return this.origEnds[i];
  }

  workStart(i: number): number {
    return this.origStarts[i] + this.shiftBefore(i);
  }

  workEnd(i: number): number {
    return this.origStarts[i] + this.shiftBefore(i) + this.newLens[i];
  }

  /** First item whose working end is at or after w (items before it end before w). */
  firstWorkEndAtOrAfter(w: number): number {
    this.shiftBefore(this.items.length);
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.origStarts[mid] + this.before[mid] + this.newLens[mid] >= w) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /** First item whose working end is after w. */
  firstWorkEndAfter(w: number): number {
    return this.firstWorkEndAtOrAfter(w + 1);
  }

  /** First item whose ORIGINAL end is after o. */
  firstOrigEndAfter(o: number): number {
    let lo = 0;
    let hi = this.items.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.origEnds[mid] > o) {
        hi = mid;
      } else {
        lo = mid + 1;
      }
    }
    return lo;
  }

  /** Original position of working position w that lies outside every region (or on its edge). */
  toOriginalOutside(w: number): number {
    return w - this.shiftBefore(this.firstWorkEndAfter(w));
  }

  /** Replace items [i, j) by one item. */
  splice(i: number, j: number, item: T): void {
    this.items.splice(i, j - i, item);
    this.origStarts.splice(i, j - i, this.origStartOf(item));
    this.origEnds.splice(i, j - i, this.origEndOf(item));
    this.newLens.splice(i, j - i, this.newLenOf(item));
    this.before.length = this.items.length + 1;
    this.valid = Math.min(this.valid, i);
  }
}

export class LineLedger {
  private readonly regions = new ShiftedRegions<LineEdit>(
    (x) => x.origStart,
    (x) => x.origEnd,
    (x) => x.newLen,
  );

  get all(): readonly LineEdit[] {
    return this.regions.items;
  }

  get isEmpty(): boolean {
    return this.regions.length === 0;
  }

  /** Working lines [s, e) were replaced by newLen lines; textDelta is the change in characters. */
  place(s: number, e: number, newLen: number, textDelta: number, block: number): void {
    const r = this.regions;
    // Touched: regions with workStart <= e && s <= workEnd (overlapping or touching).
    const i = r.firstWorkEndAtOrAfter(s);
    let j = i;
    while (j < r.length && r.workStart(j) <= e) {
      j++;
    }
    let ms = s;
    let me = e;
    let origStart = s - r.shiftBefore(i);
    let origEnd = e - r.shiftBefore(j);
    let delta = textDelta;
    // The merged region keeps the largest block list and takes the others' entries (each block
    // places once, so there are no duplicates): merging never copies a long list again.
    let blocks: number[] = [];
    for (let k = i; k < j; k++) {
      if (r.items[k].blocks.length > blocks.length) {
        blocks = r.items[k].blocks;
      }
    }
    for (let k = i; k < j; k++) {
      if (r.items[k].blocks !== blocks) {
        blocks.push(...r.items[k].blocks);
      }
    }
    blocks.push(block);
    if (j > i) {
      const firstStart = r.workStart(i);
      const lastEnd = r.workEnd(j - 1);
      if (firstStart <= ms) {
        ms = firstStart;
        origStart = r.items[i].origStart;
      }
      if (lastEnd >= me) {
        me = lastEnd;
        origEnd = r.items[j - 1].origEnd;
      }
      for (let k = i; k < j; k++) {
        delta += r.items[k].textDelta;
      }
    }
    r.splice(i, j, { origStart, origEnd, newLen: me - ms - (e - s) + newLen, textDelta: delta, blocks });
  }

  /** Working lines [s, e) in ORIGINAL lines [start, end). */
  toOriginal(s: number, e: number): { start: number; end: number } {
    const r = this.regions;
    const inside = (line: number): LineEdit | undefined => {
      const k = r.firstWorkEndAfter(line);
      return k < r.length && r.workStart(k) <= line ? r.items[k] : undefined;
    };
    const first = inside(s);
    const last = inside(e - 1);
    const start = first ? first.origStart : r.toOriginalOutside(s);
    const end = last ? last.origEnd : r.toOriginalOutside(e - 1) + 1;
    return { start, end };
  }

  /** ORIGINAL lines [a, b) in working lines (a region an edit touched maps to all of that region). */
  toWorking(a: number, b: number): { start: number; end: number } {
    const r = this.regions;
    const containing = (line: number): number => {
      const k = r.firstOrigEndAfter(line);
      return k < r.length && r.items[k].origStart <= line ? k : -1;
    };
    const shift = (line: number) => line + r.shiftBefore(r.firstOrigEndAfter(line));
    const first = containing(a);
    const last = containing(b - 1);
    return {
      start: first >= 0 ? r.workStart(first) : shift(a),
      end: last >= 0 ? r.workEnd(last) : shift(b - 1) + 1,
    };
  }

  /** Edited regions intersecting ORIGINAL lines [a, b). */
  overlapping(a: number, b: number): LineEdit[] {
    const r = this.regions;
    const out: LineEdit[] = [];
    for (let k = r.firstOrigEndAfter(a); k < r.length && r.items[k].origStart < b; k++) {
      out.push(r.items[k]);
    }
    return out;
  }
}

/**
 * The same batch at the character level: edits against the original text, merged when they overlap or
 * touch. Kept alongside the line ledger so the final edits never need a slice of the whole working
 * text (which would copy a large document for every apply).
 */
export class TextLedger {
  private readonly regions = new ShiftedRegions<TextEdit>(
    (x) => x.start,
    (x) => x.end,
    (x) => x.newText.length,
  );

  constructor(private readonly original: string) {}

  /**
   * The edits, sorted, with regions that touch joined into one (in one pass: regions are kept apart
   * while the batch runs, so that a run of adjacent blocks does not copy a growing text each time).
   */
  get all(): readonly TextEdit[] {
    const out: TextEdit[] = [];
    let parts: string[] = [];
    for (const x of this.regions.items) {
      const prev = out[out.length - 1];
      if (prev && prev.end === x.start) {
        parts.push(x.newText);
        prev.end = x.end;
      } else {
        if (prev) {
          prev.newText = parts.join('');
        }
        out.push({ start: x.start, end: x.end, newText: '' });
        parts = [x.newText];
      }
    }
    if (out.length > 0) {
      out[out.length - 1].newText = parts.join('');
    }
    return out;
  }

  /** Working text [a, b), assembled from the original and the edits' new text, from edit i0 on. */
  private slice(i0: number, a: number, b: number): string {
    const r = this.regions;
    let out = '';
    let w = a;
    let delta = r.shiftBefore(i0);
    for (let k = i0; k < r.length && w < b; k++) {
      const x = r.items[k];
      const ws = x.start + delta;
      const we = ws + x.newText.length;
      const d = x.newText.length - (x.end - x.start);
      if ((we <= w && ws < w) || (we === ws && ws === w)) {
        delta += d;
        continue;
      }
      if (w < ws) {
        const end = Math.min(b, ws);
        out += this.original.slice(w - delta, end - delta);
        w = end;
      }
      if (w >= b) {
        break;
      }
      if (w < we) {
        const end = Math.min(b, we);
        out += x.newText.slice(w - ws, end - ws);
        w = end;
      }
      delta += d;
    }
    if (w < b) {
      out += this.original.slice(w - delta, b - delta);
    }
    return out;
  }

  /** Working text [from, to) was replaced by insert. */
  place(from: number, to: number, insert: string): void {
    const r = this.regions;
    // Merged: regions overlapping [from, to), and at a shared point those that would otherwise be
    // two edits at one offset (an insertion, or a region that is now empty). Regions that merely
    // touch stay apart until read (see all).
    const merges = (k: number): boolean => {
      const ws = r.workStart(k);
      const we = r.workEnd(k);
      if (ws < to && from < we) {
        return true;
      }
      return (from === to || ws === we) && ws <= to && from <= we;
    };
    let i = r.firstWorkEndAtOrAfter(from);
    // The region ending where this edit starts stays apart (unless it merges).
    if (i < r.length && r.workEnd(i) <= from && !merges(i)) {
      i++;
    }
    let j = i;
    while (j < r.length && r.workStart(j) <= to && merges(j)) {
      j++;
    }
    let ms = from;
    let me = to;
    let start = from - r.shiftBefore(i);
    let end = to - r.shiftBefore(j);
    if (j > i) {
      const firstStart = r.workStart(i);
      const lastEnd = r.workEnd(j - 1);
      if (firstStart <= ms) {
        ms = firstStart;
        start = r.items[i].start;
      }
      if (lastEnd >= me) {
        me = lastEnd;
        end = r.items[j - 1].end;
      }
    }
    const newText = (ms < from ? this.slice(i, ms, from) : '') + insert + (to < me ? this.slice(i, to, me) : '');
    r.splice(i, j, { start, end, newText });
  }
}
