// Whole-line view of a document without splitting it up front. Line start offsets are found lazily
// (indexOf from the last known line break, only as far as a caller needs), line contents are sliced
// on demand and cached. A hit near the top of a large file never scans the rest of it, so a match
// costs little more than a plain indexOf.

import { LineSource } from './lineSource';

export type Eol = '' | '\n' | '\r\n';

const BOM = 0xfeff;
const CR = 13;

/** What the engine reads of a working text: whole lines, their breaks and their offsets. */
export interface LineView {
  readonly count: number;
  /** Length of the whole text in UTF-16 code units. */
  readonly length: number;
  readonly text: string;
  has(i: number): boolean;
  line(i: number): string;
  eol(i: number): Eol;
  start(i: number): number;
  contentEnd(i: number): number;
  lineEnd(i: number): number;
  dominantEol(): '\n' | '\r\n';
  joined(start: number, end: number): string;
  allLines(): readonly string[];
  /** Every line as offsets into one text (for the fuzzy scan, which reads them all). */
  lineSource(): LineSource;
}

/** Index of the last of the sorted line starts [0, last] that is at or before `offset` (binary search). */
export function lastStartAtOrBefore(starts: ArrayLike<number>, last: number, offset: number): number {
  let lo = 0;
  let hi = last;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid] <= offset) {
      lo = mid;
    } else {
      hi = mid - 1;
    }
  }
  return lo;
}

export class DocLines implements LineView {
  readonly text: string;
  /**
   * Offsets of the first character of each line found so far, the first startCount entries (see
   * lineStarts). Typed: growing a plain array a push per line took three times as long on 100k lines.
   */
  private knownStarts: Int32Array | undefined;
  private startCount = 0;
  /**
   * A DocLines made by withEdit: its starts, worked out from the document before the edit when first
   * asked for. The last block of a batch is usually never asked (its result is only the text), and
   * shifting the starts of a large file ahead of time cost as much as finding them.
   */
  private startsAfterEdit: (() => { starts: Int32Array; count: number; complete: boolean }) | undefined;
  /** True once the last line break has been found. */
  private complete = false;
  private readonly contents = new Map<number, string>();
  private readonly keyCaches = new Map<string, Map<number, string>>();
  private contentList: string[] | undefined;
  private source: LineSource | undefined;
  private zeroWidth: boolean | undefined;

  constructor(text: string) {
    this.text = text;
  }

  /**
   * Offsets of the first character of each line found so far, in the first startCount entries. A
   * leading BOM is not part of line 1.
   */
  private get lineStarts(): Int32Array {
    if (this.knownStarts === undefined) {
      if (this.startsAfterEdit) {
        const { starts, count, complete } = this.startsAfterEdit();
        this.startsAfterEdit = undefined;
        this.complete = complete;
        this.knownStarts = starts;
        this.startCount = count;
      } else {
        // Reading a character of a text built by concatenation flattens all of it: a DocLines made by
        // withEdit takes its starts from the document before the edit and leaves the text as it is.
        this.knownStarts = new Int32Array(64);
        this.knownStarts[0] = this.text.charCodeAt(0) === BOM ? 1 : 0;
        this.startCount = 1;
      }
    }
    return this.knownStarts;
  }

  /**
   * This document after its text [from, to) was replaced by insert (newText is the result). Line
   * starts found before the edit are kept and those after it shifted, so a batch of many small edits
   * does not rescan the file for every block; caches of line contents and keys start afresh.
   */
  withEdit(newText: string, from: number, to: number, insert: string): DocLines {
    const next = new DocLines(newText);
    next.startsAfterEdit = () => this.startsWithEdit(from, to, insert);
    if (this.zeroWidth === false && !/[\u200B-\u200D\u2060\uFEFF\u00AD]/.test(insert)) {
      next.zeroWidth = false;
    }
    return next;
  }

  /** The line starts of this document after withEdit(_, from, to, insert), as far as they are known here. */
  private startsWithEdit(from: number, to: number, insert: string): { starts: Int32Array; count: number; complete: boolean } {
    // Every start up to `to` must be known: a start s <= from stays, from < s <= to goes (its line
    // break was replaced), s > to moves by the change in length.
    this.lineAt(to);
    const starts = this.lineStarts;
    const count = this.startCount;
    // Starts at or before `from`, then at or before `to` (at least the first start stays).
    const kept = starts[0] <= from ? lastStartAtOrBefore(starts, count - 1, from) + 1 : 0;
    const replaced = starts[0] <= to ? lastStartAtOrBefore(starts, count - 1, to) + 1 : 0;
    const inserted: number[] = [];
    for (let nl = insert.indexOf('\n'); nl !== -1; nl = insert.indexOf('\n', nl + 1)) {
      inserted.push(from + nl + 1);
    }
    const head = Math.max(kept, 1);
    const tail = replaced;
    const out = new Int32Array(Math.max(64, 2 * (head + inserted.length + count - tail)));
    out.set(starts.subarray(0, head));
    let n = head;
    for (let k = 0; k < inserted.length; k++) {
      out[n++] = inserted[k];
    }
    const delta = insert.length - (to - from);
    for (let k = tail; k < count; k++) {
      out[n++] = starts[k] + delta;
    }
    return { starts: out, count: n, complete: this.complete };
  }

  /**
   * Find line starts until there are more than `lines` of them or the last is past `offset` (or none are
   * left). One loop rather than a call per line: the first lookup far down a file indexes thousands of
   * lines, usually while this code is still cold (a call per line made it about twice as slow then).
   */
  private extendUntil(lines: number, offset: number): void {
    let starts = this.lineStarts;
    if (this.complete) {
      return;
    }
    const text = this.text;
    let count = this.startCount;
    let from = starts[count - 1];
    while (count <= lines || from <= offset) {
      const nl = text.indexOf('\n', from);
      if (nl === -1) {
        this.complete = true;
        break;
      }
      from = nl + 1;
      if (count === starts.length) {
        const grown = new Int32Array(2 * count);
        grown.set(starts);
        starts = grown;
      }
      starts[count++] = from;
    }
    this.knownStarts = starts;
    this.startCount = count;
  }

  /** Whether line i exists (0-based). */
  has(i: number): boolean {
    if (this.knownStarts === undefined || this.startCount <= i) {
      this.extendUntil(i, -1);
    }
    return i >= 0 && i < this.startCount;
  }

  get length(): number {
    return this.text.length;
  }

  get count(): number {
    this.extendUntil(Infinity, -1);
    return this.startCount;
  }

  isLast(i: number): boolean {
    return !this.has(i + 1);
  }

  /** Offset of line i's first character (undefined for a line the text does not have, as before). */
  start(i: number): number {
    return this.has(i) ? this.lineStarts[i] : (undefined as unknown as number);
  }

  /** Offset just past the line's content (before its line break). */
  contentEnd(i: number): number {
    if (!this.has(i + 1)) {
      return this.text.length;
    }
    const nl = this.lineStarts[i + 1] - 1;
    return nl > this.lineStarts[i] && this.text.charCodeAt(nl - 1) === CR ? nl - 1 : nl;
  }

  /** Offset just past the line's line break (the next line's start, or the end of the text). */
  lineEnd(i: number): number {
    return this.has(i + 1) ? this.lineStarts[i + 1] : this.text.length;
  }

  /** The line's content without its line break. */
  line(i: number): string {
    let s = this.contents.get(i);
    if (s === undefined) {
      s = this.text.slice(this.start(i), this.contentEnd(i));
      this.contents.set(i, s);
    }
    return s;
  }

  eol(i: number): Eol {
    if (!this.has(i + 1)) {
      return '';
    }
    return this.contentEnd(i) === this.lineStarts[i + 1] - 2 ? '\r\n' : '\n';
  }

  /** Index of the line containing offset (an offset on a line break belongs to that line). */
  lineAt(offset: number): number {
    if (this.lineStarts[this.startCount - 1] <= offset) {
      this.extendUntil(0, offset);
    }
    return lastStartAtOrBefore(this.lineStarts, this.startCount - 1, offset);
  }

  /** Lines as a reader counts them: a final line break starts no line, an empty text has none. */
  get visibleCount(): number {
    if (this.text === '' || this.text === '\uFEFF') {
      return 0;
    }
    return this.count - (this.text.endsWith('\n') ? 1 : 0);
  }

  /** The file's line ending: the first one found, '\n' when the file has a single line. */
  dominantEol(): '\n' | '\r\n' {
    return this.eol(0) === '\r\n' ? '\r\n' : '\n';
  }

  /** Lines [start, end) joined with '\n' (the Candidate.text form). */
  joined(start: number, end: number): string {
    const parts: string[] = [];
    for (let i = start; i < end; i++) {
      parts.push(this.line(i));
    }
    return parts.join('\n');
  }

  /** Every line's content (for the fuzzy scan, which needs them all). */
  allLines(): string[] {
    if (!this.contentList) {
      // The native split is several times faster than slicing line by line.
      const list = this.text.slice(this.lineStarts[0]).split('\n');
      // Most files have no CR at all: one native scan spares a check of every line.
      if (this.text.indexOf('\r', this.lineStarts[0]) !== -1) {
        for (let i = 0; i < list.length - 1; i++) {
          const l = list[i];
          if (l.length > 0 && l.charCodeAt(l.length - 1) === CR) {
            list[i] = l.slice(0, -1);
          }
        }
      }
      this.contentList = list;
    }
    return this.contentList;
  }

  /**
   * The lines allLines() gives, as offsets into the text: no string is cut per line. Made from this
   * document's own line starts, so the text is scanned for line breaks only past those the tiers (or the
   * document before an edit) already found: a near miss far down a large file found most of them.
   */
  lineSource(): LineSource {
    if (!this.source) {
      // Room for the starts still to find at once, a line per 32 characters of the text left (fewer
      // copies than doubling from what the tiers needed; a 100k-line file has about 40 a line).
      const starts = this.lineStarts;
      const wanted = this.startCount + ((this.text.length - starts[this.startCount - 1]) >> 5);
      if (!this.complete && wanted > starts.length) {
        const room = new Int32Array(wanted);
        room.set(starts.subarray(0, this.startCount));
        this.knownStarts = room;
      }
      this.extendUntil(Infinity, -1);
      this.source = LineSource.ofStarts(this.text, this.lineStarts.subarray(0, this.startCount));
    }
    return this.source;
  }

  /** Per-normalisation cache of line keys, so each line is normalised at most once per document. */
  keyCache(name: string): Map<number, string> {
    let cache = this.keyCaches.get(name);
    if (!cache) {
      cache = new Map();
      this.keyCaches.set(name, cache);
    }
    return cache;
  }

  /** Zero-width characters (other than a leading BOM) can split any run of text, defeating anchors. */
  hasZeroWidth(): boolean {
    if (this.zeroWidth === undefined) {
      // A regex whose class has no Latin-1 character fails at once on a one-byte string; only then is
      // the Latin-1 soft hyphen looked for separately. Two-byte strings take one scan.
      const text = this.text;
      const from = this.lineStarts[0];
      if (/[\u0100-\uffff]/.test(text)) {
        const re = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;
        re.lastIndex = from;
        this.zeroWidth = re.test(text);
      } else {
        this.zeroWidth = text.indexOf('\u00AD', from) !== -1;
      }
    }
    return this.zeroWidth;
  }
}

/** Split SEARCH/REPLACE text ('\n'-joined) into lines, dropping a stray '\r' at line ends. */
export function splitBlockLines(text: string): string[] {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.length > 0 && l.charCodeAt(l.length - 1) === CR) {
      lines[i] = l.slice(0, -1);
    }
  }
  return lines;
}
