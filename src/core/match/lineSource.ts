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
   * The lines of a text whose line starts are known: every start after the first follows a '\n', the
   * last line runs to the end of the text (DocLines' starts). A '\r' right before a line break is not part
   * of its line; the last line, which has no break, keeps all it has.
   */
  static ofStarts(text: string, starts: Int32Array): LineSource {
    const count = starts.length;
    const ends = new Int32Array(count);
    for (let li = 0; li + 1 < count; li++) {
      const nl = starts[li + 1] - 1;
      ends[li] = nl > starts[li] && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl;
    }
    ends[count - 1] = text.length;
    return new LineSource(text, undefined, starts, ends);
  }
}
