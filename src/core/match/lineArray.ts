// The working text of a large batch as an array of lines, edited in place, with an index of the
// lines by their content up to trailing whitespace.
//
// Why: a batch applies its blocks one after the other, each against the text the earlier ones left.
// Rebuilding that text as one string for every block (and scanning it for the next SEARCH) made
// batches quadratic: 10,000 blocks on a 10,000-line file took minutes. Here an edit splices a few
// array entries, and a SEARCH that occurs at the exact, line-endings or trailing-whitespace tier is
// found through the index (the candidate windows of its rarest line) and verified by the ordinary
// Matcher on a small document holding just that window, so it gets exactly the occurrences, tiers
// and notes a Matcher over the whole text would give. Anything else (normalising tiers 4-9, misses,
// fuzzy candidates) uses a DocLines over the joined text, built only when such a block comes.

import { INVISIBLE_TIERS, type Tier } from './tierTable';
import { DocLines, type Eol, lastStartAtOrBefore, type LineView } from './lines';
import { LineSource } from './lineSource';
import { Matcher, type Occurrence, type SearchSpec } from './tiers';
import { trimEndWs } from './normalize';

/**
 * Tiers the index answers for: they differ from exact only in what a model cannot see (the index keys
 * lines by their content up to trailing whitespace, which is all those tiers forgive).
 */
const INDEXED_TIERS = INVISIBLE_TIERS;
/** More candidate windows than this for the rarest SEARCH line: the whole-text Matcher is cheaper. */
const MAX_INDEXED_CANDIDATES = 4_096;
/** Up to this many candidates each is located with indexOf; more take one pass over all lines. */
const LOCATE_ONE_BY_ONE = 32;

export class LineArray implements LineView {
  private readonly contents: string[];
  private readonly eols: Eol[];
  /** A stable id per line, so the index survives edits that shift line numbers. */
  private readonly ids: number[];
  /** Length of each line with its line break. */
  private readonly lens: number[];
  private nextId: number;
  private readonly bom: boolean;
  /** starts[i]: offset of line i, valid for i <= validStarts. */
  private readonly starts: number[];
  private validStarts = 0;
  private total: number;
  private textCache: string | undefined;
  private docCache: DocLines | undefined;
  private sourceCache: LineSource | undefined;
  /** Line content up to trailing whitespace -> ids of the lines holding it (built on first use). */
  private index: Map<string, Set<number>> | undefined;

  constructor(text: string) {
    this.bom = text.charCodeAt(0) === 0xfeff;
    const segments = text.slice(this.bom ? 1 : 0).split('\n');
    const n = segments.length;
    this.contents = [];
    this.eols = [];
    this.ids = [];
    this.lens = [];
    for (let i = 0; i < n; i++) {
      const seg = segments[i];
      const crlf = i < n - 1 && seg.length > 0 && seg.charCodeAt(seg.length - 1) === 13;
      this.contents.push(crlf ? seg.slice(0, -1) : seg);
      this.eols.push(crlf ? '\r\n' : i < n - 1 ? '\n' : '');
      this.lens.push(seg.length + (i < n - 1 ? 1 : 0));
      this.ids.push(i);
    }
    this.nextId = n;
    this.textCache = text;
    this.starts = [this.bom ? 1 : 0];
    this.total = text.length;
  }

  get count(): number {
    return this.contents.length;
  }

  has(i: number): boolean {
    return i >= 0 && i < this.contents.length;
  }

  line(i: number): string {
    return this.contents[i];
  }

  eol(i: number): Eol {
    return this.eols[i];
  }

  /** Start offset of line i; the prefix sums are extended only as far as asked since the last edit. */
  start(i: number): number {
    const starts = this.starts;
    while (this.validStarts < i) {
      const k = this.validStarts;
      starts[k + 1] = starts[k] + this.lens[k];
      this.validStarts = k + 1;
    }
    return starts[i];
  }

  contentEnd(i: number): number {
    return this.start(i) + this.contents[i].length;
  }

  lineEnd(i: number): number {
    return this.start(i) + this.contents[i].length + this.eols[i].length;
  }

  get length(): number {
    return this.total;
  }

  /** Index of the line containing offset (an offset on a line break belongs to that line). */
  lineAt(offset: number): number {
    const last = this.contents.length - 1;
    while (this.validStarts < last && this.starts[this.validStarts] <= offset) {
      this.start(this.validStarts + 1);
    }
    return lastStartAtOrBefore(this.starts, this.validStarts, offset);
  }

  dominantEol(): '\n' | '\r\n' {
    return this.eols[0] === '\r\n' ? '\r\n' : '\n';
  }

  joined(start: number, end: number): string {
    return this.contents.slice(start, end).join('\n');
  }

  allLines(): readonly string[] {
    return this.contents;
  }

  lineSource(): LineSource {
    this.sourceCache ??= LineSource.ofLines(this.contents);
    return this.sourceCache;
  }

  get text(): string {
    if (this.textCache === undefined) {
      const parts: string[] = this.bom ? ['\uFEFF'] : [];
      for (let i = 0; i < this.contents.length; i++) {
        parts.push(this.contents[i], this.eols[i]);
      }
      this.textCache = parts.join('');
    }
    return this.textCache;
  }

  /** The same text as a DocLines, for the whole-text Matcher (built once per state of the text). */
  toDocLines(): DocLines {
    return (this.docCache ??= new DocLines(this.text));
  }

  /**
   * Replace text [from, to) by insert, in place. The lines touched are re-read from their new text
   * by the same rules as DocLines (a line ends at '\n'; a CR right before it belongs to the break).
   */
  replace(from: number, to: number, insert: string): void {
    const first = this.lineAt(from);
    const last = this.lineAt(to);
    const regionFrom = this.start(first);
    const regionTo = this.lineEnd(last);
    const isEnd = last === this.contents.length - 1;
    let local = '';
    for (let i = first; i <= last; i++) {
      local += this.contents[i] + this.eols[i];
    }
    local = local.slice(0, from - regionFrom) + insert + local.slice(to - regionFrom, regionTo - regionFrom);
    const segments = local.split('\n');
    // A region that ends with a line break: the empty tail is where the next line starts.
    if (!isEnd) {
      segments.pop();
    }
    const contents: string[] = [];
    const eols: Eol[] = [];
    for (let k = 0; k < segments.length; k++) {
      const seg = segments[k];
      const lastOfDoc = isEnd && k === segments.length - 1;
      if (!lastOfDoc && seg.length > 0 && seg.charCodeAt(seg.length - 1) === 13) {
        contents.push(seg.slice(0, -1));
        eols.push('\r\n');
      } else {
        contents.push(seg);
        eols.push(lastOfDoc ? '' : '\n');
      }
    }
    const ids: number[] = contents.map(() => this.nextId++);
    const removedIds = this.ids.slice(first, last + 1);
    const removed = this.contents.slice(first, last + 1);
    this.contents.splice(first, last + 1 - first, ...contents);
    this.eols.splice(first, last + 1 - first, ...eols);
    this.ids.splice(first, last + 1 - first, ...ids);
    this.lens.splice(first, last + 1 - first, ...contents.map((c, k) => c.length + eols[k].length));
    if (this.index) {
      for (let k = 0; k < removed.length; k++) {
        this.index.get(trimEndWs(removed[k]))?.delete(removedIds[k]);
      }
      for (let k = 0; k < contents.length; k++) {
        this.indexLine(trimEndWs(contents[k]), ids[k]);
      }
    }
    this.validStarts = Math.min(this.validStarts, first);
    this.total += insert.length - (to - from);
    this.textCache = undefined;
    this.docCache = undefined;
    this.sourceCache = undefined;
  }

  private indexLine(key: string, id: number): void {
    const set = this.index!.get(key);
    if (set) {
      set.add(id);
    } else {
      this.index!.set(key, new Set([id]));
    }
  }

  /**
   * What Matcher.findFirst would answer when SEARCH occurs at the exact, line-endings or
   * trailing-whitespace tier: every window matching at one of them, each with the strictest tier it
   * matches at, the strictest overall deciding. Undefined when none of those tiers matches, or when
   * the rarest SEARCH line is too common for the index to help: the caller then asks the Matcher.
   */
  findInvisibleTiers(spec: SearchSpec): { tier: Tier; occurrences: Occurrence[] } | undefined {
    const m = spec.lines.length;
    const n = this.contents.length;
    if (m === 0 || m > n) {
      return undefined;
    }
    if (!this.index) {
      this.index = new Map();
      for (let i = 0; i < n; i++) {
        this.indexLine(trimEndWs(this.contents[i]), this.ids[i]);
      }
    }
    let rarest = -1;
    let rarestSet: Set<number> | undefined;
    for (let k = 0; k < m; k++) {
      const set = this.index.get(trimEndWs(spec.lines[k]));
      if (!set || set.size === 0) {
        return undefined;
      }
      if (!rarestSet || set.size < rarestSet.size) {
        rarest = k;
        rarestSet = set;
      }
    }
    if (!rarestSet || rarestSet.size > MAX_INDEXED_CANDIDATES) {
      return undefined;
    }
    const windows = new Set<number>();
    const add = (position: number) => {
      const s = position - rarest;
      if (s >= 0 && s + m <= n) {
        windows.add(s);
      }
    };
    if (rarestSet.size <= LOCATE_ONE_BY_ONE) {
      for (const id of rarestSet) {
        add(this.ids.indexOf(id));
      }
    } else {
      for (let i = 0; i < n; i++) {
        if (rarestSet.has(this.ids[i])) {
          add(i);
        }
      }
    }
    const occurrences: Occurrence[] = [];
    let decisive = INDEXED_TIERS.length;
    for (const s of [...windows].sort((a, b) => a - b)) {
      let local = '';
      for (let k = 0; k < m; k++) {
        local += this.contents[s + k] + (k < m - 1 ? this.eols[s + k] : '');
      }
      const matcher = new Matcher(new DocLines(local), spec);
      for (let t = 0; t < INDEXED_TIERS.length; t++) {
        const occ = matcher.find(INDEXED_TIERS[t]).find((o) => o.start === 0);
        if (!occ) {
          continue;
        }
        occ.start += s;
        occ.end += s;
        occurrences.push(occ);
        decisive = Math.min(decisive, t);
        break;
      }
    }
    if (occurrences.length === 0) {
      return undefined;
    }
    return { tier: INDEXED_TIERS[decisive], occurrences };
  }
}
