// Bookkeeping for a batch: which ORIGINAL lines the blocks placed so far have replaced, and how many
// lines stand there now. Every placement replaces whole lines, so a line-level map is exact: a line of
// the working text is either an original line (shifted) or part of one edited region. Regions that
// overlap or touch are merged, which is also how the final edits are grouped.

export interface LineEdit {
  /** ORIGINAL lines [origStart, origEnd) were replaced ... */
  origStart: number;
  origEnd: number;
  /** ... by this many lines of the working text. */
  newLen: number;
  /** Change in text length inside this region (characters added minus removed). */
  textDelta: number;
  /** Blocks (1-based indexes) whose placements make up this region. */
  blocks: number[];
}

interface Located extends LineEdit {
  /** First working line of the region. */
  workStart: number;
}

export class LineLedger {
  private edits: LineEdit[] = [];

  get all(): readonly LineEdit[] {
    return this.edits;
  }

  get isEmpty(): boolean {
    return this.edits.length === 0;
  }

  private located(): Located[] {
    let delta = 0;
    return this.edits.map((e) => {
      const loc = { ...e, workStart: e.origStart + delta };
      delta += e.newLen - (e.origEnd - e.origStart);
      return loc;
    });
  }

  /** Original position of a working line boundary b that is not strictly inside an edited region. */
  private boundary(located: readonly Located[], b: number): number {
    let delta = 0;
    for (const e of located) if (e.workStart + e.newLen <= b) delta += e.newLen - (e.origEnd - e.origStart);
    return b - delta;
  }

  /** Working lines [s, e) were replaced by newLen lines; textDelta is the change in characters. */
  place(s: number, e: number, newLen: number, textDelta: number, block: number): void {
    const located = this.located();
    const touched = located.filter((x) => x.workStart <= e && s <= x.workStart + x.newLen);
    let ms = s;
    let me = e;
    for (const x of touched) {
      ms = Math.min(ms, x.workStart);
      me = Math.max(me, x.workStart + x.newLen);
    }
    const origStart = touched.find((x) => x.workStart === ms)?.origStart ?? this.boundary(located, ms);
    const origEnd = touched.find((x) => x.workStart + x.newLen === me)?.origEnd ?? this.boundary(located, me);
    const merged: LineEdit = {
      origStart,
      origEnd,
      newLen: me - ms - (e - s) + newLen,
      textDelta: touched.reduce((sum, x) => sum + x.textDelta, textDelta),
      blocks: [...new Set([...touched.flatMap((x) => x.blocks), block])].sort((a, b) => a - b),
    };
    const kept = this.edits.filter((x) => !touched.some((t) => t.origStart === x.origStart && t.origEnd === x.origEnd));
    kept.push(merged);
    kept.sort((a, b) => a.origStart - b.origStart);
    this.edits = kept;
  }

  /** Working lines [s, e) in ORIGINAL lines [start, end), and the blocks whose regions they overlap. */
  toOriginal(s: number, e: number): { start: number; end: number; blocks: number[] } {
    const located = this.located();
    const inside = (line: number) => located.find((x) => x.workStart <= line && line < x.workStart + x.newLen);
    const first = inside(s);
    const last = inside(e - 1);
    const start = first ? first.origStart : this.boundary(located, s);
    const end = last ? last.origEnd : this.boundary(located, e - 1) + 1;
    const blocks = located
      .filter((x) => x.workStart < e && s < x.workStart + x.newLen)
      .flatMap((x) => x.blocks);
    return { start, end, blocks: [...new Set(blocks)] };
  }

  /** ORIGINAL lines [a, b) in working lines (a region an edit touched maps to all of that region). */
  toWorking(a: number, b: number): { start: number; end: number } {
    const located = this.located();
    const shift = (line: number) => {
      let delta = 0;
      for (const x of located) if (x.origEnd <= line) delta += x.newLen - (x.origEnd - x.origStart);
      return line + delta;
    };
    const first = located.find((x) => x.origStart <= a && a < x.origEnd);
    const last = located.find((x) => x.origStart <= b - 1 && b - 1 < x.origEnd);
    return {
      start: first ? first.workStart : shift(a),
      end: last ? last.workStart + last.newLen : shift(b - 1) + 1,
    };
  }

  /** Edited regions intersecting ORIGINAL lines [a, b). */
  overlapping(a: number, b: number): LineEdit[] {
    return this.edits.filter((x) => x.origStart < b && a < x.origEnd);
  }
}

/** A replacement of ORIGINAL text [start, end) by newText. */
export interface OffsetEdit {
  start: number;
  end: number;
  newText: string;
}

/**
 * The same batch at the character level: edits against the original text, merged when they overlap or
 * touch. Kept alongside the line ledger so the final edits never need a slice of the whole working
 * text (which would copy a large document for every apply).
 */
export class TextLedger {
  private edits: OffsetEdit[] = [];

  constructor(private readonly original: string) {}

  get all(): readonly OffsetEdit[] {
    return this.edits;
  }

  private located(): Array<{ e: OffsetEdit; ws: number; we: number; delta: number }> {
    let delta = 0;
    return this.edits.map((e) => {
      const ws = e.start + delta;
      const d = e.newText.length - (e.end - e.start);
      delta += d;
      return { e, ws, we: ws + e.newText.length, delta: d };
    });
  }

  /** Working text [a, b), assembled from the original and the edits' new text. */
  private slice(located: ReturnType<TextLedger['located']>, a: number, b: number): string {
    let out = '';
    let w = a;
    let delta = 0;
    for (const x of located) {
      if (w >= b) break;
      if (x.we <= w && x.ws < w) {
        delta += x.delta;
        continue;
      }
      if (x.we === x.ws && x.ws === w) {
        delta += x.delta;
        continue;
      }
      if (w < x.ws) {
        const end = Math.min(b, x.ws);
        out += this.original.slice(w - delta, end - delta);
        w = end;
      }
      if (w >= b) break;
      if (w < x.we) {
        const end = Math.min(b, x.we);
        out += x.e.newText.slice(w - x.ws, end - x.ws);
        w = end;
      }
      delta += x.delta;
    }
    if (w < b) out += this.original.slice(w - delta, b - delta);
    return out;
  }

  /** Working text [from, to) was replaced by insert. */
  place(from: number, to: number, insert: string): void {
    const located = this.located();
    const touched = located.filter((x) => x.ws <= to && from <= x.we);
    let ms = from;
    let me = to;
    for (const x of touched) {
      ms = Math.min(ms, x.ws);
      me = Math.max(me, x.we);
    }
    const before = (w: number) => located.filter((x) => x.we <= w).reduce((sum, x) => sum + x.delta, 0);
    const start = touched.find((x) => x.ws === ms)?.e.start ?? ms - before(ms);
    const end = touched.find((x) => x.we === me)?.e.end ?? me - before(me);
    const newText = this.slice(located, ms, from) + insert + this.slice(located, to, me);
    const kept = this.edits.filter((e) => !touched.some((x) => x.e === e));
    kept.push({ start, end, newText });
    kept.sort((x, y) => x.start - y.start);
    this.edits = kept;
  }
}
