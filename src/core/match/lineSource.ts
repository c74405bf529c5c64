// A document's lines as offsets into its one text, for the passes that read every line (the fuzzy
// tier). Splitting a 100,000-line text into a string per line cost more than the pass over its
// characters, and kept the collector busy copying those strings while the search ran; a pass reads
// text.charCodeAt(starts[li] + i) instead, and a line is cut only when a stage needs it as a string.

export class LineSource {
  private constructor(
    readonly text: string,
    /** Offset of the first character of each line. */
    readonly starts: Int32Array,
    /** Offset just past each line's content (before its line break). */
    readonly ends: Int32Array,
  ) {}

  /** Number of lines. */
  get length(): number {
    return this.starts.length;
  }

  /** Line li as a string. */
  line(li: number): string {
    return this.text.slice(this.starts[li], this.ends[li]);
  }

  /** Lines [a, b) as a source of their own (same text, no copy). */
  slice(a: number, b: number): LineSource {
    return new LineSource(this.text, this.starts.subarray(a, b), this.ends.subarray(a, b));
  }

  /** The lines of an array, each exactly as given (they are joined once; no line is cut). */
  static ofLines(lines: readonly string[]): LineSource {
    const starts = new Int32Array(lines.length);
    const ends = new Int32Array(lines.length);
    let at = 0;
    for (let li = 0; li < lines.length; li++) {
      starts[li] = at;
      at += lines[li].length;
      ends[li] = at;
      at++;
    }
    return new LineSource(lines.join('\n'), starts, ends);
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
    return new LineSource(text, starts.subarray(0, count), ends.subarray(0, count));
  }
}

function grown(a: Int32Array): Int32Array {
  const out = new Int32Array(2 * a.length);
  out.set(a);
  return out;
}
