// applyBlocks: place every SEARCH/REPLACE block of a batch, in order, each against the text the earlier
// ones left, and report everything in ORIGINAL coordinates. Atomic: content and edits only when every
// block placed. Pure (no I/O, no vscode), so the extension, the web worker and the CLI share it.

import {
  type ApplyOptions,
  type ApplyResult,
  type BatchStatus,
  type BlockOutcome,
  type Candidate,
  type LineRange,
  type SearchReplaceBlock,
  type TextEdit,
  type Tier,
} from './types';
import { DocLines, type LineView, splitBlockLines } from './match/lines';
import { LineArray } from './match/lineArray';
import { type IndentMiss, Matcher, type Occurrence, prepareSearch, type SearchSpec } from './match/tiers';
import { buildReplacement, relateRegion, type ReplacementLine } from './write/transform';
import { describeLead } from './match/indent';
import { LineLedger, TextLedger } from './write/ledger';
import { DEFAULT_FUZZY_WORK_CAP, findFuzzyCandidates, FuzzyScratch, similarity } from './match/fuzzy/search';
import { formatMessage } from './report/message';
import { formatScore } from './report/score';
import { tierInfo } from './match/tierTable';
import { holdBack, markAlreadyApplied, markAmbiguous, markApplied, markInvalid, markStale, undecided } from './decide/outcome';
import { describeDifferences } from './report/lineDiff';
import { comparisonKeys } from './match/normalize';
import { SETTINGS } from './settings';
import { type PlaceholderContext } from './formats/placeholders';
import { elisionNote, expandReplacePlaceholders, type ExpandedElision, placeholderWritten } from './decide/elisions';

/** How many other occurrences a note names when a line hint picked one. */
const MAX_LISTED_OTHERS = 10;
/** How far the best fuzzy candidate must lead the next one for autoApplyAbove to place it. */
export const AUTO_APPLY_MARGIN = 0.05;

interface BatchSettings {
  fileName: string;
  markdown: boolean;
  lineHint?: number;
  lineHintWindow: number;
  maxCandidates: number;
  minScore: number;
  autoApplyAbove?: number;
  autoApplyNormalized: boolean;
  preserveQuoteStyle: boolean;
  choices: Record<number, LineRange>;
  onDocumentScan?: () => void;
  /** What decides which lines are placeholders: the file's language and name. */
  placeholders: PlaceholderContext;
}

function settingsFrom(options: ApplyOptions): BatchSettings {
  const languageId = options.languageId?.toLowerCase();
  return {
    fileName: options.fileName ?? 'the file',
    markdown: languageId === 'markdown' || languageId === 'mdx',
    lineHint: options.lineHint,
    lineHintWindow: options.lineHintWindow ?? SETTINGS.lineHintWindow.default,
    maxCandidates: Math.max(1, Math.floor(options.maxCandidates ?? SETTINGS.maxCandidates.default)),
    minScore: options.minScore ?? SETTINGS.minScore.default,
    autoApplyAbove: options.autoApplyAbove,
    autoApplyNormalized: options.autoApplyNormalized ?? SETTINGS.autoApplyNormalized.default,
    preserveQuoteStyle: options.preserveQuoteStyle ?? SETTINGS.preserveQuoteStyle.default,
    choices: options.choices ?? {},
    onDocumentScan: options.onDocumentScan,
    placeholders: { languageId: options.languageId, fileName: options.fileName },
  };
}

/** Where a block goes in the working text and what it writes there. */
interface Placement {
  /** Working lines [start, end) replaced. */
  start: number;
  end: number;
  lines: ReplacementLine[];
  /** REPLACE was empty: the lines go away entirely, line breaks included. */
  remove: boolean;
  /** Whole-document fill of an empty file (empty SEARCH): the content ends with a line break. */
  fill?: boolean;
}

/**
 * Where a decided block goes in the working text; write turns it into a Placement. An occurrence of
 * tiers 1-9 carries its own reading of the lines; a region (fuzzy, or a place the user chose) is read
 * against SEARCH anew; fill is an empty file taking REPLACE (empty SEARCH).
 */
type Target =
  { kind: 'occurrence'; occurrence: Occurrence } | { kind: 'region'; start: number; end: number; spec: SearchSpec } | { kind: 'fill' };

/** A block's outcome and, when it is placed, where it goes. */
interface Evaluation {
  outcome: BlockOutcome;
  target?: Target;
}

/** A block's outcome and, when it is placed, the lines it writes there. */
interface PlacedBlock {
  outcome: BlockOutcome;
  placement?: Placement;
}

/** What a decision about one block reads of the batch in progress (Batch is the one implementation). */
interface BatchView {
  readonly settings: BatchSettings;
  /** The text as the earlier blocks of the batch left it. */
  readonly working: LineView;
  readonly original: DocLines;
  /** The working text for the whole-text Matcher. */
  readonly matchDoc: DocLines;
  readonly visibleLineCount: number;
  /** Where earlier blocks of the batch wrote, in original and working lines. */
  readonly ledger: {
    readonly isEmpty: boolean;
    overlapping(a: number, b: number): readonly { origStart: number; origEnd: number; blocks: readonly number[] }[];
    toWorking(a: number, b: number): { start: number; end: number };
  };
  findFirst(spec: SearchSpec): { tier: Tier; occurrences: Occurrence[]; matcher?: Matcher };
  range(s: number, e: number): LineRange;
  candidate(s: number, e: number, score: number, note?: string): Candidate;
  similarity(a: string, b: string): number;
}

/** Fuzzy work (counted operations) one batch may use over all its blocks: four single-search caps. */
export const BATCH_FUZZY_WORK_CAP = 4 * DEFAULT_FUZZY_WORK_CAP;

/** From this many blocks on, the working text is a LineArray (see lineArray.ts) rather than one string. */
const LARGE_BATCH = 16;

/** The state of a batch in progress: the working text and its relation to the original. */
class Batch implements BatchView {
  readonly original: DocLines;
  readonly ledger = new LineLedger();
  /** Fuzzy work the remaining blocks may still use (see evaluateMiss). */
  fuzzyWorkLeft = BATCH_FUZZY_WORK_CAP;
  private fuzzyTables: FuzzyScratch | undefined;
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

  /** The fuzzy tier's reusable tables, made on the batch's first near miss and shared by the rest. */
  fuzzyScratch(): FuzzyScratch {
    this.fuzzyTables ??= new FuzzyScratch();
    return this.fuzzyTables;
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

function joinPlacement(doc: LineView, p: Placement, fileEol: '\n' | '\r\n'): string {
  const regionLen = p.end - p.start;
  const eol = doc.eol(p.start) || fileEol;
  let out = '';
  for (let i = 0; i < p.lines.length; i++) {
    const line = p.lines[i];
    out += line.text;
    if (i === p.lines.length - 1) {
      break;
    }
    // A line written back unchanged keeps its own line break (mixed-EOL files stay as they were),
    // except the region's last line, whose break lies outside the replaced range.
    const f = line.fileLine;
    out += f !== undefined && f < regionLen - 1 ? doc.eol(p.start + f) : eol;
  }
  return out;
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

// ---- per-block evaluation -------------------------------------------------------------------------

function isEmptySearch(search: string): boolean {
  return search.trim() === '';
}

function replaceLinesOf(block: SearchReplaceBlock): string[] {
  return splitBlockLines(block.replace);
}

/** The lines a decided block writes at its target. */
function placeTarget(batch: Batch, block: SearchReplaceBlock, target: Target): Placement {
  switch (target.kind) {
    case 'occurrence':
      return placeOccurrence(batch, block, target.occurrence);
    case 'region':
      return placeLooseRegion(batch, block, target.spec, target.start, target.end);
    case 'fill': {
      const lines = block.replace === '' ? [] : replaceLinesOf(block).map((text) => ({ text }));
      return { start: 0, end: batch.working.count, lines, remove: false, fill: true };
    }
  }
}

/** The REPLACE lines written into an occurrence found by tiers 1-9. */
function placeOccurrence(batch: Batch, block: SearchReplaceBlock, occ: Occurrence): Placement {
  const doc = batch.working;
  const fileLines: string[] = [];
  for (let i = occ.start; i < occ.end; i++) {
    fileLines.push(doc.line(i));
  }
  return placeRegion(batch, block, occ.start, occ.end, {
    fileLines,
    searchLines: occ.searchLines,
    pairs: occ.searchLines.map((_, k) => [k, k] as const),
    indent: occ.indent,
    lineNumbersStripped: occ.lineNumbersStripped,
    restoredTags: occ.restoredTags,
  });
}

function regionLines(batch: Batch, s: number, e: number): string[] {
  const doc = batch.working;
  const fileLines: string[] = [];
  for (let i = s; i < e; i++) {
    fileLines.push(doc.line(i));
  }
  return fileLines;
}

/**
 * Why a fuzzy region cannot take the block automatically: the lines SEARCH pairs with are indented by
 * no one relation (see indent.ts). Undefined when one relation fits.
 */
function looseIndentConflict(batch: Batch, block: SearchReplaceBlock, spec: SearchSpec, s: number, e: number): string | undefined {
  if (isEmptySearch(block.search)) {
    return undefined;
  }
  const rel = relateRegion(spec.lines, regionLines(batch, s, e));
  if (rel.indent) {
    return undefined;
  }
  return indentDisagreement(
    batch,
    rel.disagree.map((f) => s + f),
  );
}

function indentDisagreement(batch: BatchView, lines: readonly number[]): string {
  const numbers = lines.map((l) => batch.range(l, l + 1).startLine);
  const which = numbers.length === 1 ? `line ${numbers[0]}` : `lines ${numbers.join(', ')}`;
  return `the indentation of ${which} disagrees with SEARCH's: no single indentation shift or rescale maps SEARCH onto these lines`;
}

/**
 * The REPLACE lines written into a region that is not a tier 1-9 occurrence (fuzzy or chosen). The
 * indentation relation is the one every paired line follows, else (a place the user chose) the one
 * most of them follow.
 */
function placeLooseRegion(batch: Batch, block: SearchReplaceBlock, spec: SearchSpec, s: number, e: number): Placement {
  const fileLines = regionLines(batch, s, e);
  const searchLines = isEmptySearch(block.search) ? [] : spec.lines;
  const rel = relateRegion(searchLines, fileLines);
  return placeRegion(batch, block, s, e, {
    fileLines,
    searchLines,
    pairs: rel.pairs,
    indent: rel.indent ?? rel.bestIndent,
    lineNumbersStripped: false,
    restoredTags: [],
  });
}

function placeRegion(
  batch: Batch,
  block: SearchReplaceBlock,
  s: number,
  e: number,
  rel: Omit<Parameters<typeof buildReplacement>[0], 'replaceLines' | 'keepTrailingWhitespace' | 'preserveQuoteStyle'>,
): Placement {
  if (block.replace === '') {
    return { start: s, end: e, lines: [], remove: true };
  }
  const lines = buildReplacement({
    ...rel,
    replaceLines: replaceLinesOf(block),
    keepTrailingWhitespace: batch.settings.markdown,
    preserveQuoteStyle: batch.settings.preserveQuoteStyle,
    fileHas: (ch) => batch.fileHas(ch),
  });
  return { start: s, end: e, lines, remove: false };
}

/**
 * SEARCH matched these windows line for line except for indentation no one relation explains (a body
 * at its header's depth, lines collapsed to one depth): a near miss, each window a candidate.
 */
function indentMissOutcome(batch: BatchView, block: SearchReplaceBlock, spec: SearchSpec, misses: readonly IndentMiss[]): Evaluation {
  const outcome = undecided(block.index);
  const searchText = spec.lines.join('\n');
  for (const miss of misses.slice(0, batch.settings.maxCandidates)) {
    const detail = miss.lines
      .slice(0, 3)
      .map(
        (l) =>
          `line ${batch.range(l.line, l.line + 1).startLine} has ${describeLead(l.file)} in the file, ${describeLead(l.search)} in SEARCH`,
      )
      .join('; ');
    const c = batch.candidate(miss.start, miss.end, 0, `indentation disagrees: ${detail}`);
    c.score = similarity(searchText, c.text);
    outcome.candidates.push(c);
  }
  outcome.notes.push(
    'SEARCH matches these lines only with inconsistent indentation: no single indentation shift or rescale maps every SEARCH line onto its line, so it was not applied (indentation can change what code means); copy the indentation from the lines above',
  );
  return { outcome };
}

/**
 * A block whose REPLACE has placeholders ("// ... existing code ...") is evaluated with them expanded
 * to the SEARCH lines they stand for (decide/elisions.ts), or refused when that is not certain; the
 * outcome says what each kept. Every placement is then held to the invariant that no placeholder line
 * is written where the same line did not stand before.
 */
function evaluateWithElisions(batch: Batch, block: SearchReplaceBlock): PlacedBlock {
  const context = batch.settings.placeholders;
  const searchLines = isEmptySearch(block.search) ? [] : splitBlockLines(block.search);
  const expansion =
    block.replace === '' ? { kind: 'none' as const } : expandReplacePlaceholders(searchLines, replaceLinesOf(block), context);
  if (expansion.kind === 'refused') {
    const outcome = undecided(block.index);
    markInvalid(outcome, expansion.reason);
    return { outcome };
  }
  const expanded = expansion.kind === 'expanded' ? { ...block, replace: expansion.replaceLines.join('\n') } : block;
  const { outcome, target } = evaluateBlock(batch, expanded);
  if (target === undefined) {
    return { outcome };
  }
  const placement = placeTarget(batch, expanded, target);
  const region = placement.fill ? [] : regionLines(batch, placement.start, placement.end);
  const written = placement.lines.filter((l) => l.fileLine === undefined).map((l) => l.text);
  const placeholder = placeholderWritten(written, region, context);
  if (placeholder !== undefined) {
    const refused = undecided(block.index);
    markInvalid(
      refused,
      `block ${block.index} would write the placeholder \`${placeholder}\` into ${batch.settings.fileName}, where no such line stood; write out the lines it stands for`,
    );
    return { outcome: refused };
  }
  if (expansion.kind === 'expanded') {
    outcome.elisions = expansion.elisions.map((e) => ({
      replaceStartLine: e.replaceFirst + 1,
      replaceEndLine: e.replaceLast + 1,
      text: e.text,
      kept: keptLines(batch, placement, outcome.tier, searchLines, region, e),
    }));
    outcome.notes.push(...outcome.elisions.map(elisionNote));
  }
  return { outcome, placement };
}

/** The file lines (original coordinates) an expanded placeholder's SEARCH lines were placed on. */
function keptLines(
  batch: Batch,
  placement: Placement,
  tier: Tier | undefined,
  searchLines: readonly string[],
  region: readonly string[],
  elision: ExpandedElision,
): LineRange | undefined {
  if (elision.searchEnd <= elision.searchStart) {
    return undefined;
  }
  if (tier !== 'fuzzy') {
    // Tiers 1-9 place SEARCH line k on the region's line k.
    return batch.range(placement.start + elision.searchStart, placement.start + elision.searchEnd);
  }
  const paired = relateRegion(searchLines, region)
    .pairs.filter(([s]) => s >= elision.searchStart && s < elision.searchEnd)
    .map(([, f]) => f);
  return paired.length === 0 ? undefined : batch.range(placement.start + Math.min(...paired), placement.start + Math.max(...paired) + 1);
}

function evaluateBlock(batch: Batch, block: SearchReplaceBlock): Evaluation {
  const settings = batch.settings;
  const outcome = undecided(block.index);
  const choice = settings.choices[block.index];
  if (choice) {
    return evaluateChoice(batch, block, choice);
  }
  const badHint = hintProblem(batch, block);
  if (badHint) {
    markInvalid(outcome, badHint);
    return { outcome };
  }

  if (block.search === block.replace && !isEmptySearch(block.search)) {
    // A model that re-sends SEARCH as REPLACE believes it changed something: applying it as a no-op
    // would report success for an edit that never happened.
    markInvalid(outcome, 'SEARCH and REPLACE are identical, so this block changes nothing; put the changed lines in REPLACE');
    return { outcome };
  }

  const doc = batch.working;
  if (isEmptySearch(block.search)) {
    if (doc.text.trim() === '') {
      markApplied(outcome, 'exact', batch.range(0, doc.count), 1);
      outcome.notes.push('empty SEARCH: REPLACE became the content of the empty file');
      return { outcome, target: { kind: 'fill' } };
    }
    markInvalid(
      outcome,
      `empty SEARCH can only fill an empty file, but ${settings.fileName} has ${doc.count} line${doc.count === 1 ? '' : 's'}; quote the lines to change in SEARCH`,
    );
    return { outcome };
  }

  const spec = prepareSearch(block.search);
  const found = batch.findFirst(spec);
  if (found.occurrences.length > 0) {
    return decideOccurrences(batch, block, found.tier, found.occurrences);
  }
  return evaluateMiss(batch, block, spec, found.matcher ?? new Matcher(batch.matchDoc, spec));
}

/** Why the block's line hint (its own, else options.lineHint) is no line of the file; undefined when fine. */
function hintProblem(batch: BatchView, block: SearchReplaceBlock): string | undefined {
  const own = block.startLine !== undefined;
  const hint = own ? block.startLine : batch.settings.lineHint;
  if (hint === undefined) {
    return undefined;
  }
  const what = own ? `the line hint (:start_line:) of block ${block.index}` : 'the lineHint option';
  if (typeof hint !== 'number' || !Number.isSafeInteger(hint) || hint < 1) {
    return `${what} is ${typeof hint === 'number' ? String(hint) : JSON.stringify(hint)}, which is not a line number (a whole number from 1)`;
  }
  const lines = batch.visibleLineCount;
  if (hint > Math.max(lines, 1)) {
    return `${what} is ${hint}, beyond the end of ${batch.settings.fileName}, which has ${lines} line${lines === 1 ? '' : 's'}`;
  }
  return undefined;
}

/**
 * The occurrence a line hint picks: the only one within lineHintWindow lines of it, or the one strictly
 * nearest; undefined when none is that near or the nearest two are equally near.
 */
function nearestToHint(batch: BatchView, occs: readonly Occurrence[], hint: number): Occurrence | undefined {
  const near = occs
    .map((o) => ({ o, d: Math.abs(batch.range(o.start, o.end).startLine - hint) }))
    .filter((x) => x.d <= batch.settings.lineHintWindow)
    .sort((a, b) => a.d - b.d);
  return near.length === 1 || (near.length > 1 && near[0].d < near[1].d) ? near[0].o : undefined;
}

function decideOccurrences(batch: BatchView, block: SearchReplaceBlock, tier: Tier, occs: Occurrence[]): Evaluation {
  const settings = batch.settings;
  const outcome = undecided(block.index);
  outcome.tier = tier;
  const hint = block.startLine ?? settings.lineHint;
  const firstLine = (o: Occurrence) => batch.range(o.start, o.end).startLine;
  let occ: Occurrence | undefined;
  if (occs.length === 1) {
    occ = occs[0];
    if (hint !== undefined && Math.abs(firstLine(occ) - hint) > settings.lineHintWindow) {
      outcome.notes.push(`line hint ${hint} is far from the only match, at line ${firstLine(occ)}`);
    }
  } else if (hint !== undefined) {
    occ = nearestToHint(batch, occs, hint);
    if (occ) {
      const others = occs.filter((o) => o !== occ).map(firstLine);
      outcome.notes.push(
        // A short list: a line that occurs hundreds of times must not flood the model's context.
        `SEARCH occurs ${occs.length} times; line hint ${hint} picked the one at line ${firstLine(occ)} (others at line${others.length === 1 ? '' : 's'} ${others.slice(0, MAX_LISTED_OTHERS).join(', ')}${others.length > MAX_LISTED_OTHERS ? ` and ${others.length - MAX_LISTED_OTHERS} more` : ''})`,
      );
    }
  }
  if (!occ) {
    markAmbiguous(
      outcome,
      tier,
      occs.map((o) => batch.candidate(o.start, o.end, 1)),
    );
    const invisible = occs.filter((o) => o.tier !== tier).map(firstLine);
    if (invisible.length > 0) {
      outcome.notes.push(
        `the occurrence${invisible.length === 1 ? '' : 's'} at line${invisible.length === 1 ? '' : 's'} ${invisible.join(', ')} ` +
          `differ${invisible.length === 1 ? 's' : ''} only in line endings or trailing whitespace, which count as the same text`,
      );
    }
    if (hint !== undefined) {
      outcome.notes.push(`line hint ${hint} did not pick a single occurrence within ${settings.lineHintWindow} lines`);
    }
    return { outcome };
  }
  outcome.notes.push(...occ.notes);
  // An occurrence picked among invisible twins keeps its own tier (a hint may pick the CRLF one).
  tier = occ.tier;
  outcome.tier = tier;
  const needsConsent = !tierInfo(tier).appliesWithoutConsent;
  if (needsConsent && !settings.autoApplyNormalized) {
    outcome.status = 'not_found';
    outcome.candidates = [
      batch.candidate(occ.start, occ.end, 1, `${occ.notes.join('; ') || `matched at the ${tier} tier`}; not applied automatically`),
    ];
    outcome.notes.push('a normalised match is offered as a candidate because automatic application of normalised matches is off');
    return { outcome };
  }
  markApplied(outcome, tier, batch.range(occ.start, occ.end), 1);
  return { outcome, target: { kind: 'occurrence', occurrence: occ } };
}

/**
 * A block no tier placed. In order: it quotes text an earlier block of the batch replaced (stale); its
 * REPLACE is already in the file; it matches only with inconsistent indentation; it occurs only inside
 * longer lines; else fuzzy candidates (placed only when autoApplyAbove asks and the best clearly leads).
 */
function evaluateMiss(batch: Batch, block: SearchReplaceBlock, spec: SearchSpec, matcher: Matcher): Evaluation {
  const stale = staleOutcome(batch, block, spec);
  if (stale) {
    return { outcome: stale };
  }
  const applied = alreadyAppliedAt(batch, block);
  if (applied) {
    const outcome = undecided(block.index);
    markAlreadyApplied(outcome, applied);
    outcome.notes.push(
      `already applied at ${applied.startLine === applied.endLine ? `line ${applied.startLine}` : `lines ${applied.startLine}-${applied.endLine}`}`,
    );
    return { outcome };
  }
  if (matcher.indentMisses.size > 0) {
    return indentMissOutcome(batch, block, spec, [...matcher.indentMisses.values()]);
  }
  return partialLineOutcome(batch, block, spec, matcher) ?? evaluateFuzzy(batch, block, spec);
}

/** SEARCH quotes the original text of a region an earlier block of the batch has replaced: a stale anchor. */
function staleOutcome(batch: BatchView, block: SearchReplaceBlock, spec: SearchSpec): BlockOutcome | undefined {
  if (batch.ledger.isEmpty) {
    return undefined;
  }
  const inOriginal = new Matcher(batch.original, spec).findFirst();
  if (!inOriginal) {
    return undefined;
  }
  const outcome = undecided(block.index);
  const doc = batch.working;
  for (const o of inOriginal.occurrences) {
    const edits = batch.ledger.overlapping(o.start, o.end);
    if (edits.length === 0) {
      continue;
    }
    const a = Math.min(o.start, ...edits.map((x) => x.origStart));
    const b = Math.max(o.end, ...edits.map((x) => x.origEnd));
    const w = batch.ledger.toWorking(a, b);
    const blocks = [...new Set(edits.flatMap((x) => x.blocks))].sort((x, y) => x - y);
    const who = blocks.length === 1 ? `block ${blocks[0]}` : `blocks ${blocks.join(', ')}`;
    const note = `block ${block.index} quotes lines that ${who} replaced`;
    if (!outcome.notes.includes(note)) {
      outcome.notes.push(note);
    }
    const text = w.end > w.start ? doc.joined(w.start, w.end) : '';
    const cand = w.end > w.start ? batch.candidate(w.start, w.end, 0, 'current text') : undefined;
    if (cand) {
      cand.score = batch.similarity(spec.lines.join('\n'), text);
    }
    markStale(outcome, blocks, cand ? [cand] : []);
  }
  return outcome.notes.length > 0 ? outcome : undefined;
}

/** SEARCH found only inside longer lines: not a match, but those whole lines are the obvious candidates. */
function partialLineOutcome(batch: BatchView, block: SearchReplaceBlock, spec: SearchSpec, matcher: Matcher): Evaluation | undefined {
  const partial = matcher.findPartial();
  if (partial.length === 0) {
    return undefined;
  }
  const { maxCandidates } = batch.settings;
  const outcome = undecided(block.index);
  const searchText = spec.lines.join('\n');
  for (const p of partial.slice(0, maxCandidates)) {
    const lineNos = p.partialLines.map((l) => batch.range(l, l + 1).startLine);
    const note = `matched only part of line${lineNos.length === 1 ? '' : 's'} ${lineNos.join(' and ')}`;
    const c = batch.candidate(p.start, p.end, 0, note);
    c.score = batch.similarity(searchText, c.text);
    outcome.candidates.push(c);
  }
  outcome.notes.push(
    partial.length > maxCandidates
      ? `SEARCH occurs only inside longer lines (${partial.length} places, first ${maxCandidates} shown); SEARCH must quote whole lines`
      : 'SEARCH occurs only inside longer lines; SEARCH must quote whole lines',
  );
  return { outcome };
}

/**
 * Tier 10: fuzzy candidates, applied only on request (autoApplyAbove) and clearly ahead of the rest. A
 * batch shares one fuzzy budget (a few single-search caps), so thousands of misses stay bounded.
 */
function evaluateFuzzy(batch: Batch, block: SearchReplaceBlock, spec: SearchSpec): Evaluation {
  const settings = batch.settings;
  const outcome = undecided(block.index);
  const doc = batch.working;
  const cap = Math.min(DEFAULT_FUZZY_WORK_CAP, batch.fuzzyWorkLeft);
  const fuzzy =
    cap > 0
      ? findFuzzyCandidates(doc.allLines(), spec.lines, {
          maxCandidates: Math.max(settings.maxCandidates, 2),
          minScore: settings.minScore,
          workCap: cap,
          scratch: batch.fuzzyScratch(),
          // Placing without the user needs the best region's strongest rival, wherever it is.
          everyRival: settings.autoApplyAbove !== undefined,
          onDocumentScan: settings.onDocumentScan,
        })
      : { windows: [], truncated: true, work: 0 };
  batch.fuzzyWorkLeft -= fuzzy.work ?? 0;
  const windows = fuzzy.windows;
  if (cap <= 0) {
    outcome.truncated = true;
    outcome.notes.push('no fuzzy search for this block: the batch used up its fuzzy work budget on earlier near misses');
  } else if (fuzzy.truncated) {
    outcome.truncated = true;
    outcome.notes.push('the fuzzy search stopped at its work cap; closer matches may exist');
  }
  const best = windows[0];
  let indentConflict: string | undefined;
  // The best must clearly beat every rival: listed candidates, twins, regions mostly elsewhere.
  const rival = 'rival' in fuzzy ? fuzzy.rival : undefined;
  const twins = best ? windows.filter((w) => w !== best && w.score === best.score) : [];
  if (
    best &&
    settings.autoApplyAbove !== undefined &&
    !fuzzy.truncated &&
    best.score >= settings.autoApplyAbove &&
    (!rival || best.score - rival.score >= AUTO_APPLY_MARGIN) &&
    !(indentConflict = looseIndentConflict(batch, block, spec, best.start, best.end))
  ) {
    markApplied(outcome, 'fuzzy', batch.range(best.start, best.end), best.score);
    outcome.notes.push(`placed by fuzzy match (score ${formatScore(best.score)}, autoApplyAbove ${settings.autoApplyAbove})`);
    return { outcome, target: { kind: 'region', start: best.start, end: best.end, spec } };
  }
  outcome.candidates = windows.slice(0, settings.maxCandidates).map((w) => batch.candidate(w.start, w.end, w.score));
  if (twins.length > 0) {
    const where = [best, ...twins].map((w) => batch.range(w.start, w.end)).sort((a, b) => a.startLine - b.startLine);
    outcome.notes.push(
      `lines ${where.map((r) => `${r.startLine}-${r.endLine}`).join(' and ')} hold the same text: the closest match is not unique; add lines around SEARCH or a line hint`,
    );
  }
  if (indentConflict) {
    outcome.notes.push(`best fuzzy candidate not applied: ${indentConflict}`);
  } else if (best && settings.autoApplyAbove !== undefined) {
    outcome.notes.push(
      best.score < settings.autoApplyAbove
        ? `best fuzzy score ${formatScore(best.score)} is below autoApplyAbove ${settings.autoApplyAbove}`
        : fuzzy.truncated
          ? 'the fuzzy search was cut short, so the best candidate is not known to be unique; not applied'
          : twins.length > 0
            ? 'the best fuzzy candidate has a twin with the same text; not applied'
            : `best fuzzy candidate does not lead the next (${rivalText(batch, rival)}) by ${AUTO_APPLY_MARGIN}; not applied`,
    );
  }
  return { outcome };
}

/**
 * Where the working text already holds the block's REPLACE, found through tiers 1-9 at exactly one
 * place (a line hint may pick one of several). Undefined when REPLACE is blank, equals SEARCH, or only
 * deletes lines of SEARCH (its non-blank lines are a subsequence of SEARCH's): then its presence proves nothing.
 */
function alreadyAppliedAt(batch: BatchView, block: SearchReplaceBlock): LineRange | undefined {
  if (block.replace.trim() === '' || block.replace === block.search) {
    return undefined;
  }
  const searchLines = comparisonKeys(splitBlockLines(block.search)).filter((l) => l !== '');
  const replaceLines = comparisonKeys(splitBlockLines(block.replace)).filter((l) => l !== '');
  // REPLACE a subsequence of SEARCH: the edit only deletes lines, and what remains says nothing.
  let k = 0;
  for (const line of searchLines) {
    if (k < replaceLines.length && line === replaceLines[k]) {
      k++;
    }
  }
  if (k === replaceLines.length) {
    return undefined;
  }
  const found = batch.findFirst(prepareSearch(block.replace));
  let occs = found.occurrences;
  if (occs.length > 1) {
    const hint = block.startLine ?? batch.settings.lineHint;
    if (hint === undefined) {
      return undefined;
    }
    const picked = nearestToHint(batch, occs, hint);
    if (!picked) {
      return undefined;
    }
    occs = [picked];
  }
  if (occs.length !== 1) {
    return undefined;
  }
  return batch.range(occs[0].start, occs[0].end);
}

function rivalText(batch: Batch, rival: { start: number; end: number; score: number } | undefined): string {
  if (!rival) {
    return 'none';
  }
  const r = batch.range(rival.start, rival.end);
  return `lines ${r.startLine}-${r.endLine}, score ${formatScore(rival.score)}`;
}

function evaluateChoice(batch: BatchView, block: SearchReplaceBlock, choice: LineRange): Evaluation {
  const outcome = undecided(block.index);
  const count = batch.original.count;
  const { startLine, endLine } = choice;
  if (!Number.isInteger(startLine) || !Number.isInteger(endLine) || startLine < 1 || endLine < startLine || endLine > count) {
    markInvalid(
      outcome,
      `the chosen place for block ${block.index}, lines ${startLine}-${endLine}, is not a line range of ${batch.settings.fileName} (lines 1-${count})`,
    );
    return { outcome };
  }
  const w = batch.ledger.toWorking(startLine - 1, endLine);
  const spec = prepareSearch(block.search);
  if (!isEmptySearch(block.search)) {
    const found = batch.findFirst(spec);
    const occ = found.occurrences.find((o) => o.start === w.start && o.end === w.end);
    if (occ) {
      markApplied(outcome, occ.tier, batch.range(w.start, w.end), 1);
      outcome.notes.push(`placed at lines ${startLine}-${endLine} as chosen`, ...occ.notes);
      return { outcome, target: { kind: 'occurrence', occurrence: occ } };
    }
  }
  const doc = batch.working;
  const score = isEmptySearch(block.search) ? 0 : batch.similarity(spec.lines.join('\n'), doc.joined(w.start, w.end));
  markApplied(outcome, 'fuzzy', batch.range(w.start, w.end), score);
  outcome.notes.push(`placed at lines ${startLine}-${endLine} as chosen`);
  return { outcome, target: { kind: 'region', start: w.start, end: w.end, spec } };
}

// ---- the batch ------------------------------------------------------------------------------------

export function applyBlocks(documentText: string, blocks: readonly SearchReplaceBlock[], options: ApplyOptions = {}): ApplyResult {
  const run = runBatch(documentText, blocks, options, blocks.length >= LARGE_BATCH);
  for (let step = run.next(); ; step = run.next()) {
    if (step.done) {
      return step.value;
    }
  }
}

/** How long applyBlocksAsync works before it yields to the event loop. */
const SLICE_MS = 16;

/**
 * applyBlocks for an editor: the same result, but the work is cut into slices of about 16 ms with a
 * yield to the event loop between them, so progress can be painted and options.isCancelled can see a
 * cancellation that arrives meanwhile (e.g. a VS Code CancellationToken).
 */
export async function applyBlocksAsync(
  documentText: string,
  blocks: readonly SearchReplaceBlock[],
  options: ApplyOptions = {},
): Promise<ApplyResult> {
  const run = runBatch(documentText, blocks, options, blocks.length >= LARGE_BATCH);
  let sliceStart = Date.now();
  for (let step = run.next(); ; step = run.next()) {
    if (step.done) {
      return step.value;
    }
    if (Date.now() - sliceStart >= SLICE_MS) {
      await new Promise<void>((resolve) => setTimeout(resolve, 0));
      sliceStart = Date.now();
    }
  }
}

/**
 * The batch, one block per step (a generator, so the sync and async entry points share it).
 * lineArray picks the working-text representation (see lineArray.ts); both give the same results,
 * which the tests check by running batches both ways.
 */
export function* runBatch(
  documentText: string,
  blocks: readonly SearchReplaceBlock[],
  options: ApplyOptions,
  lineArray: boolean,
): Generator<void, ApplyResult> {
  const settings = settingsFrom(options);
  const batch = new Batch(documentText, settings, lineArray);
  const outcomes: BlockOutcome[] = [];
  const total = blocks.length;
  const progressStep = Math.max(1, Math.floor(total / 100));
  let failure: BatchStatus | undefined;
  for (let done = 0; done < total; done++) {
    if (options.isCancelled?.()) {
      return cancelledResult(settings.fileName, outcomes, done, total);
    }
    const block = blocks[done];
    const { outcome, placement } = evaluateWithElisions(batch, block);
    if (placement) {
      batch.apply(placement, block.index);
    } else {
      failure ??= outcome.status as BatchStatus;
    }
    outcomes.push(outcome);
    if (options.onProgress && (done === 0 || (done + 1) % progressStep === 0 || done + 1 === total)) {
      options.onProgress(done + 1, total);
    }
    yield;
  }
  if (failure) {
    holdBack(outcomes);
    describeNearMisses(blocks, outcomes);
  }
  const status: BatchStatus = failure ?? 'applied';
  const result: ApplyResult = {
    status,
    edits: status === 'applied' ? batch.edits() : [],
    blocks: outcomes,
    message: formatMessage({ fileName: settings.fileName, status, blocks: outcomes }),
  };
  if (status === 'applied') {
    result.content = batch.workingText;
  }
  return result;
}

/** Candidates listed with a near miss: what differs from SEARCH, for the first three of each. */
const DESCRIBED_CANDIDATES = 3;

function describeNearMisses(blocks: readonly SearchReplaceBlock[], outcomes: BlockOutcome[]): void {
  for (const o of outcomes) {
    if (o.status !== 'not_found' || o.candidates.length === 0) {
      continue;
    }
    const block = blocks.find((b) => b.index === o.index);
    if (!block) {
      continue;
    }
    for (const c of o.candidates.slice(0, DESCRIBED_CANDIDATES)) {
      const differences = describeDifferences(block.search, c);
      if (differences.length > 0) {
        c.differences = differences;
      }
    }
  }
}

function cancelledResult(fileName: string, outcomes: BlockOutcome[], done: number, total: number): ApplyResult {
  holdBack(outcomes);
  return {
    status: 'invalid',
    edits: [],
    blocks: outcomes,
    message: `Cancelled after ${done} of ${total} block${total === 1 ? '' : 's'}; nothing was applied to ${fileName}.`,
    cancelled: { done, total },
  };
}
