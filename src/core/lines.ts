// Whole-line view of a document without splitting it up front: line start offsets are found once
// (one indexOf pass), line contents are sliced lazily and cached. Matching, offsets and line numbers
// all go through this so that a hit on a large file costs little more than a plain indexOf.

export type Eol = '' | '\n' | '\r\n';

const BOM = 0xfeff;
const CR = 13;

export class DocLines {
  readonly text: string;
  /** Offset of the first character of each line. A leading BOM is not part of line 1. */
  readonly starts: number[];
  private readonly contents: (string | undefined)[];
  private readonly keyCaches = new Map<string, (string | undefined)[]>();
  private contentList: string[] | undefined;
  private zeroWidth: boolean | undefined;

  constructor(text: string) {
    this.text = text;
    const starts = [text.charCodeAt(0) === BOM ? 1 : 0];
    let p = text.indexOf('\n');
    while (p !== -1) {
      starts.push(p + 1);
      p = text.indexOf('\n', p + 1);
    }
    this.starts = starts;
    this.contents = new Array<string | undefined>(starts.length);
  }

  get count(): number {
    return this.starts.length;
  }

  /** Offset just past the line's content (before its line break). */
  contentEnd(i: number): number {
    if (i === this.starts.length - 1) return this.text.length;
    const nl = this.starts[i + 1] - 1;
    return nl > this.starts[i] && this.text.charCodeAt(nl - 1) === CR ? nl - 1 : nl;
  }

  /** Offset just past the line's line break (the next line's start, or the end of the text). */
  lineEnd(i: number): number {
    return i === this.starts.length - 1 ? this.text.length : this.starts[i + 1];
  }

  /** The line's content without its line break. */
  line(i: number): string {
    let s = this.contents[i];
    if (s === undefined) {
      s = this.text.slice(this.starts[i], this.contentEnd(i));
      this.contents[i] = s;
    }
    return s;
  }

  eol(i: number): Eol {
    if (i === this.starts.length - 1) return '';
    return this.contentEnd(i) === this.starts[i + 1] - 2 ? '\r\n' : '\n';
  }

  /** Index of the line containing offset (an offset on a line break belongs to that line). */
  lineAt(offset: number): number {
    const starts = this.starts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** The file's line ending: the first one found, '\n' when the file has a single line. */
  dominantEol(): '\n' | '\r\n' {
    return this.count > 1 && this.eol(0) === '\r\n' ? '\r\n' : '\n';
  }

  /** Lines [start, end) joined with '\n' (the Candidate.text form). */
  joined(start: number, end: number): string {
    const parts: string[] = [];
    for (let i = start; i < end; i++) parts.push(this.line(i));
    return parts.join('\n');
  }

  /** Every line's content (for the fuzzy scan, which needs them all). */
  allLines(): string[] {
    if (!this.contentList) {
      const list = new Array<string>(this.count);
      for (let i = 0; i < this.count; i++) list[i] = this.line(i);
      this.contentList = list;
    }
    return this.contentList;
  }

  /** Per-normalisation cache of line keys, so each line is normalised at most once per document. */
  keyCache(name: string): (string | undefined)[] {
    let cache = this.keyCaches.get(name);
    if (!cache) {
      cache = new Array<string | undefined>(this.count);
      this.keyCaches.set(name, cache);
    }
    return cache;
  }

  /** Zero-width characters (other than a leading BOM) can split any run of text, defeating anchors. */
  hasZeroWidth(): boolean {
    if (this.zeroWidth === undefined) {
      const re = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;
      re.lastIndex = this.starts[0];
      this.zeroWidth = re.test(this.text);
    }
    return this.zeroWidth;
  }
}

/** Split SEARCH/REPLACE text ('\n'-joined) into lines, dropping a stray '\r' at line ends. */
export function splitBlockLines(text: string): string[] {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i];
    if (l.length > 0 && l.charCodeAt(l.length - 1) === CR) lines[i] = l.slice(0, -1);
  }
  return lines;
}
