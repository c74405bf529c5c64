// What a decision about one block of a batch reads and says: the batch's settings, its working text and
// the ledger of earlier blocks' edits (BatchView; write/batchState.ts's Batch is the one implementation),
// and where a placed block goes (Target), which write/placement.ts turns into the lines it writes.

import { type ApplyOptions, type BlockOutcome, type Candidate, type LineRange, type Tier } from '../types';
import { type DocLines, type LineView } from '../match/lines';
import { type Matcher, type Occurrence, type SearchSpec } from '../match/tiers';
import { SETTINGS } from '../settings';
import { type PlaceholderContext } from '../formats/placeholders';

/** ApplyOptions with their defaults filled in, as the blocks of one batch read them. */
export interface BatchSettings {
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

export function settingsFrom(options: ApplyOptions): BatchSettings {
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

/**
 * Where a decided block goes in the working text; write turns it into a Placement. An occurrence of
 * tiers 1-9 carries its own reading of the lines; a region (fuzzy, or a place the user chose) is read
 * against SEARCH anew; fill is an empty file taking REPLACE (empty SEARCH).
 */
export type Target =
  | { kind: 'occurrence'; occurrence: Occurrence }
  | { kind: 'region'; start: number; end: number; spec: SearchSpec }
  | { kind: 'fill' }
  /** SEARCH's pieces between placeholders, found in order, each with its REPLACE piece; the lines between stay. */
  | { kind: 'pieces'; parts: ReadonlyArray<{ occurrence: Occurrence; replace: readonly string[] }> };

/** A block's outcome and, when it is placed, where it goes. */
export interface Evaluation {
  outcome: BlockOutcome;
  target?: Target;
}

/** What a decision about one block reads of the batch in progress (Batch is the one implementation). */
export interface BatchView {
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

/** Empty SEARCH (blank lines at most): it can only fill an empty file. */
export function isEmptySearch(search: string): boolean {
  return search.trim() === '';
}
