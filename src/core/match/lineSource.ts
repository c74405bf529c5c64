// A document's lines as offsets into its one text, for the passes that read every line (the fuzzy
// tier). Splitting a 100,000-line text into a string per line cost more than the pass over its
// characters, and kept the collector busy copying those strings while the search ran; a pass reads
// text.charCodeAt(starts[li] + i) instead, and a line is cut only when a stage needs it as a string.
// Lines that already are strings (an array) are read where they are: joining 200,000 of them took
// longer than the search. A pass takes line li's characters from textOf(li) (inlined in the hot loops).

export class LineSource {
  private constructor(
    /** The text the offsets point into (when lineTexts is undefined). */
    readonly text: string,
    /** Per line, the string its offsets point into (lines given as an array), else undefined. */
    readonly lineTexts: readonly string[] | undefined,
    /** Offset of the first character of each line (in its text). */
    readonly starts: Int32Array,
    /** Offset just past each line's content (before its line break). */
    readonly ends: Int32Array,
  ) {}

  /** The string line li's offsets point into. */
  textOf(li: number): string {
    return this.lineTexts === undefined ? this.text : this.lineTexts[li];
  }

  /** Number of lines. */
  get length(): number {
    return this.starts.length;
  }

  /** Line li as a string. */
  line(li: number): string {
    return this.lineTexts === undefined ? this.text.slice(this.starts[li], this.ends[li]) : this.lineTexts[li];
  }

  /** Lines [a, b) as a source of their own (same text, no copy). */
  slice(a: number, b: number): LineSource {
    return new LineSource(this.text, this.lineTexts?.slice(a, b), this.starts.subarray(a, b), this.ends.subarray(a, b));
  }

  /** The lines of an array, each exactly as given (read where they are). */
  static ofLines(lines: readonly string[]): LineSource {
    const ends = new Int32Array(lines.length);
    for (let li = 0; li < lines.length; li++) {
      ends[li] = lines[li].length;
    }
    return new LineSource('', lines, new Int32Array(lines.length), ends);
  }

  /**
   * The lines of text.slice(from).split('\n'), a '\r' before each line break dropped (the last line,
   * which has none, keeps what it has).
   */
  static ofText(text: string, from: number): LineSource {
    let starts: Int32Array = new Int32Array(Math.max(16, (text.length - from) >> 5));
    let ends: Int32Array = new Int32Array(starts.length);
    let count = 0;
    let ls = from;
    for (;;) {
      if (count === starts.length) {
        starts = grown(starts);
        ends = grown(ends);
      }
      const nl = text.indexOf('\n', ls);
      starts[count] = ls;
      if (nl === -1) {
        ends[count++] = text.length;
        break;
      }
      ends[count++] = nl > ls && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
      ls = nl + 1;
    }
    return new LineSource(text, undefined, starts.subarray(0, count), ends.subarray(0, count));
  }
}

function grown(a: Int32Array): Int32Array {
  const out = new Int32Array(2 * a.length);
  out.set(a);
  return out;
}
