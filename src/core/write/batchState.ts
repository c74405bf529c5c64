// The state of a batch in progress: the working text (one string, or a LineArray for a large batch), the
// ledgers that relate it to the original, and the batch's fuzzy budget. apply() writes a Placement into
// it; edits() gives the minimal edits against the original.

import { type Candidate, type LineRange, type TextEdit, type Tier } from '../types';
import { DocLines, type LineView } from '../match/lines';
import { LineArray } from '../match/lineArray';
import { Matcher, type Occurrence, type SearchSpec } from '../match/tiers';
import { DEFAULT_FUZZY_WORK_CAP, FuzzyScratch } from '../match/fuzzy/search';
import { similarity } from '../match/fuzzy/similarity';
import { type BatchSettings } from '../decide/batchView';
import { LineLedger, TextLedger } from './ledger';
import { joinPlacement, type Placement, type PlacementView } from './placement';

/** Fuzzy work (counted operations) one batch may use over all its blocks: four single-search caps. */
export const BATCH_FUZZY_WORK_CAP = 4 * DEFAULT_FUZZY_WORK_CAP;

/** The fuzzy tables every batch shares (see Batch.fuzzyScratch). */
let sharedScratch: FuzzyScratch | undefined;

/** The state of a batch in progress: the working text and its relation to the original. */
export class Batch implements PlacementView {
  readonly original: DocLines;
  readonly ledger = new LineLedger();
  /** Fuzzy work the remaining blocks may still use (see evaluateMiss). */
  fuzzyWorkLeft = BATCH_FUZZY_WORK_CAP;
  private readonly textLedger: TextLedger;
  private lines: DocLines | LineArray;

  constructor(
    text: string,
    readonly settings: BatchSettings,
    private readonly large: boolean,
  ) {
    this.original = new DocLines(text);
    this.textLedger = new TextLedger(text);
    this.lines = this.original;
  }

  get working(): LineView {
    return this.lines;
  }

  /**
   * The fuzzy tier's reusable tables, shared by every batch of this process (made on the first near
   * miss): making them (a zeroed 512 kB table) took about as long as a tenth of a 10,000-line miss. A
   * search runs to its end without yielding and clears what the last one counted before it counts
   * (FuzzyScratch), so batches that take turns (applyBlocksAsync) can share them.
   */
  fuzzyScratch(): FuzzyScratch {
    sharedScratch ??= new FuzzyScratch();
    return sharedScratch;
  }

  /**
   * similarity() of a candidate, paid from the batch's fuzzy budget (it sorts the bigrams of both
   * texts). Once the budget is spent, texts longer than 4,000 characters are scored on their first
   * and last 2,000 characters: the score stays bounded in cost whatever the line lengths.
   */
  similarity(a: string, b: string): number {
    const cost = 8 * (a.length + b.length);
    if (cost <= this.fuzzyWorkLeft || a.length + b.length <= 8_000) {
      this.fuzzyWorkLeft -= cost;
      return similarity(a, b);
    }
    const ends = (t: string) => (t.length <= 4_000 ? t : t.slice(0, 2_000) + t.slice(-2_000));
    return similarity(ends(a), ends(b));
  }

  /** The working text for the whole-text Matcher. */
  get matchDoc(): DocLines {
    return this.lines instanceof LineArray ? this.lines.toDocLines() : this.lines;
  }

  /** Tiers 1-9, through the line index when the batch is large. */
  findFirst(spec: SearchSpec): { tier: Tier; occurrences: Occurrence[]; matcher?: Matcher } {
    const quick = this.lines instanceof LineArray ? this.lines.findInvisibleTiers(spec) : undefined;
    if (quick) {
      return quick;
    }
    const matcher = new Matcher(this.matchDoc, spec);
    const found = matcher.findFirst();
    return found ? { ...found, matcher } : { tier: 'fuzzy', occurrences: [], matcher };
  }

  /** Lines of the original as a reader counts them (a final line break starts no line). */
  get visibleLineCount(): number {
    return this.original.visibleCount;
  }

  get workingText(): string {
    return this.lines.text;
  }

  /** Characters known to be in (or absent from) the working text; cleared whenever it changes. */
  private readonly charsSeen = new Map<string, boolean>();

  /**
   * Whether the working text holds `ch` (asked by the write side only for look-alike characters a
   * REPLACE brings). Answered lazily and remembered until the next placement, so a long batch does
   * not rebuild and scan the whole text for every block.
   */
  fileHas(ch: string): boolean {
    let has = this.charsSeen.get(ch);
    if (has === undefined) {
      has = this.lines.text.includes(ch);
      this.charsSeen.set(ch, has);
    }
    return has;
  }

  /**
   * Working lines [s, e) in ORIGINAL lines, kept inside the original: a line written after earlier
   * blocks deleted the end of the file lies past its last line, and is reported on that line.
   */
  private toOriginal(s: number, e: number): { start: number; end: number } {
    const orig = this.ledger.toOriginal(s, e);
    // has() reads line starts only as far as asked; count would index the whole file for every block.
    const start = this.original.has(orig.start) ? orig.start : this.original.count - 1;
    const end = Math.max(orig.end, start + 1);
    return { start, end: this.original.has(end - 1) ? end : this.original.count };
  }

  /** ORIGINAL line range (1-based inclusive) and offsets of working lines [s, e), with the working text. */
  candidate(s: number, e: number, score: number, note?: string): Candidate {
    const orig = this.toOriginal(s, e);
    const c: Candidate = {
      startLine: orig.start + 1,
      endLine: orig.end,
      score,
      text: this.working.joined(s, e),
      start: this.original.start(orig.start),
      end: this.original.contentEnd(orig.end - 1),
    };
    if (note) {
      c.note = note;
    }
    return c;
  }

  range(s: number, e: number): LineRange {
    const orig = this.toOriginal(s, e);
    return { startLine: orig.start + 1, endLine: orig.end };
  }

  /**
   * The line break for new lines where the region has none of its own: the working text's, or, once
   * earlier blocks left it a single line, the original file's (a CRLF file emptied and refilled stays CRLF).
   */
  fileEol(): '\n' | '\r\n' {
    return this.working.has(1) ? this.working.dominantEol() : this.original.dominantEol();
  }

  /** Write a placement into the working text and record it. */
  apply(p: Placement, block: number): void {
    this.charsSeen.clear();
    const doc = this.working;
    let from: number;
    let to: number;
    let insert: string;
    if (p.fill) {
      from = doc.start(0);
      to = doc.length;
      const eol = this.fileEol();
      insert = p.lines.length === 0 ? '' : p.lines.map((l) => l.text).join(eol) + eol;
    } else if (p.remove) {
      if (doc.has(p.end)) {
        from = doc.start(p.start);
        to = doc.start(p.end);
      } else {
        from = p.start > 0 ? doc.contentEnd(p.start - 1) : doc.start(0);
        to = doc.length;
      }
      insert = '';
    } else {
      from = doc.start(p.start);
      to = doc.contentEnd(p.end - 1);
      insert = joinPlacement(doc, p, this.fileEol());
    }
    const newLen = p.fill ? p.lines.length + (p.lines.length > 0 ? 1 : 0) : p.remove ? 0 : p.lines.length;
    this.textLedger.place(from, to, insert);
    if (this.lines instanceof DocLines && this.large) {
      this.lines = new LineArray(this.lines.text);
    }
    if (this.lines instanceof LineArray) {
      this.lines.replace(from, to, insert);
    } else {
      const text = this.lines.text;
      this.lines = this.lines.withEdit(text.slice(0, from) + insert + text.slice(to), from, to, insert);
    }
    this.ledger.place(p.start, p.end, p.fill ? Math.max(newLen, 1) : newLen, insert.length - (to - from), block);
  }

  /** Minimal non-overlapping edits against the original: one per edited region, common lines trimmed. */
  edits(): TextEdit[] {
    const out: TextEdit[] = [];
    for (const e of this.textLedger.all) {
      const edit = trimCommonLines(this.original.text, e.start, e.end, e.newText);
      if (edit) {
        out.push(edit);
      }
    }
    return out;
  }
}

/** Lines with their line breaks ("a\n", "b\n", "c"), so that joining them gives the text back. */
function segments(text: string): string[] {
  const out: string[] = [];
  let from = 0;
  for (let nl = text.indexOf('\n'); nl !== -1; nl = text.indexOf('\n', from)) {
    out.push(text.slice(from, nl + 1));
    from = nl + 1;
  }
  if (from < text.length) {
    out.push(text.slice(from));
  }
  return out;
}

/** Drop whole lines the old and new text share at the start and end; undefined when nothing changes. */
function trimCommonLines(original: string, start: number, end: number, newText: string): TextEdit | undefined {
  const oldText = original.slice(start, end);
  if (oldText === newText) {
    return undefined;
  }
  const a = segments(oldText);
  const b = segments(newText);
  let i = 0;
  let head = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) {
    head += a[i++].length;
  }
  let j = 0;
  let tail = 0;
  while (j < a.length - i && j < b.length - i && a[a.length - 1 - j] === b[b.length - 1 - j]) {
    tail += a[a.length - 1 - j].length;
    j++;
  }
  return { start: start + head, end: end - tail, newText: newText.slice(head, newText.length - tail) };
}
