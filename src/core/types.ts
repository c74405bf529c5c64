// The engine's data contract. Everything here is plain data so the same results serve the
// VS Code adapters, the CLI (--json) and the LLM-facing message. No vscode import anywhere in core.
//
// Coordinates: every line number reported outside the engine is 1-based, inclusive, and refers to the
// ORIGINAL document text handed to the engine (a failed batch leaves the file untouched, so that is
// the text a user or a model sees). Offsets are UTF-16 code-unit offsets into that same text.

// The matching tiers and their order live in the tier table (one entry per tier).
import type { Tier } from './match/tierTable';

export { type Tier, TIERS } from './match/tierTable';

/** One SEARCH/REPLACE block as parsed from the input. */
export interface SearchReplaceBlock {
  /** 1-based position of the block in the input. */
  index: number;
  /** File path named on the line before the block (or before its code fence), if any. */
  filePath?: string;
  /** SEARCH text, lines joined with '\n', no trailing newline. Empty string for an empty SEARCH. */
  search: string;
  /** REPLACE text, lines joined with '\n', no trailing newline. */
  replace: string;
  /** `:start_line:N` hint (1-based), if the block carried one. */
  startLine?: number;
  /** 1-based line of the SEARCH marker in the input text (for error messages). */
  sourceLine: number;
  /** True when line-number prefixes (`12 | x`, `   12\tx`) were stripped from SEARCH and REPLACE. */
  strippedLineNumbers?: boolean;
  /** Set when the block is a hunk of a unified diff or an apply_patch patch (see patchParser.ts). */
  hunk?: HunkInfo;
}

/** Where a hunk came from and what its header said; used for placement hints and messages only. */
export interface HunkInfo {
  format: 'unified-diff' | 'apply-patch';
  /** The old-file line the `@@ -12,7 +12,8 @@` header names (1-based); a hint, never trusted blindly. */
  headerLine?: number;
  /** apply_patch `@@ <line>` anchors, outermost first: each must occur before the hunk, in this order. */
  anchors?: string[];
  /** apply_patch `*** End of File`: the hunk's lines end at the end of the file. */
  endOfFile?: boolean;
}

/** Thrown (or returned) for malformed block input. The message names the block, the line and what was expected. */
export interface ParseErrorInfo {
  /** 1-based block number the error belongs to. */
  block: number;
  /** 1-based line in the input text. */
  line: number;
  /** What the parser expected there, e.g. "'=======' or '>>>>>>> REPLACE'". */
  expected: string;
  /** Full human/LLM-readable message. */
  message: string;
}

export interface LineRange {
  startLine: number;
  endLine: number;
}

/** A place in the original document a block could apply to. */
export interface Candidate extends LineRange {
  /** 0..1 similarity (1 for exact or normalised occurrences). */
  score: number;
  /** The document's text on those lines, as it is (line endings normalised to '\n'). */
  text: string;
  /** Offsets into the original text covering whole lines [start, end) (end excludes the final line break). */
  start: number;
  end: number;
  /** Why this candidate is special, e.g. "matched only part of line 12", "block 1 replaced these lines". */
  note?: string;
  /**
   * Near misses (top 3): what differs between SEARCH and these lines, at most ~8 lines, e.g.
   * "- SEARCH line 3: sum += xx", "+ file line 6: sum += x", "file line 9 is not in SEARCH".
   */
  differences?: string[];
}

/**
 * A block's status; outcome.ts reads it, with the fields below, as one typed verdict (BlockVerdict).
 * 'held_back' is written `pending` in the CLI's --json output (the documented contract, see
 * src/node/output.ts); in the extension "pending" means a batch waiting for the user's choice.
 */
export type BlockStatus = 'applied' | 'not_found' | 'ambiguous' | 'invalid' | 'held_back';
export type BatchStatus = 'applied' | 'not_found' | 'ambiguous' | 'invalid';

export interface BlockOutcome {
  /** 1-based block index (SearchReplaceBlock.index). */
  index: number;
  /**
   * applied: placed (and in the content when the batch applied).
   * not_found / ambiguous: this block stopped the batch.
   * invalid: the block itself is unusable (e.g. empty SEARCH on a non-empty file).
   * held_back: this block matched but the batch did not apply because another block failed.
   */
  status: BlockStatus;
  /** The tier that decided (for placed blocks, and for ambiguous ones). */
  tier?: Tier;
  /** Where it was placed (original coordinates), when placed. */
  range?: LineRange;
  /** Score of the placement (1 for non-fuzzy tiers). */
  score?: number;
  /** When not placed: ranked candidates (best first), or for ambiguous every occurrence in file order. */
  candidates: Candidate[];
  /** Extra explanation: normalisations applied, partial-line match, stale anchor, truncated fuzzy search. */
  notes: string[];
  /** The fuzzy scan stopped at its work cap; candidates may not be the global best. */
  truncated?: boolean;
  /**
   * Placeholders ("// ... existing code ...") the block's REPLACE had, each with the file lines it
   * kept (original coordinates; undefined when it stood for no lines). Also told in notes.
   */
  elisions?: Elision[];
  /**
   * SEARCH was not found but the file already holds REPLACE (through the same tiers), at one place:
   * the edit was applied before (status stays not_found, with no candidates and a note saying so).
   */
  alreadyApplied?: LineRange;
  /**
   * SEARCH quotes the original text of lines these earlier blocks of the batch replaced (a stale
   * anchor; status not_found, the current text of those lines as candidates).
   */
  replacedBy?: number[];
}

/** A placeholder line of REPLACE expanded from the file: what it was and which file lines it kept. */
export interface Elision {
  /** 1-based REPLACE lines of the placeholder (consecutive placeholder lines are one). */
  replaceStartLine: number;
  replaceEndLine: number;
  /** The placeholder as written, trimmed, e.g. "# ... existing code ...". */
  text: string;
  /** The file lines it stood for and kept (original coordinates); undefined when it stood for none. */
  kept?: LineRange;
}

/** A replacement against the ORIGINAL text. Edits are sorted and never overlap. */
export interface TextEdit {
  start: number;
  end: number;
  newText: string;
}

export interface ApplyResult {
  status: BatchStatus;
  /** The new document text; present when status is 'applied'. */
  content?: string;
  /** Minimal non-overlapping edits turning the original text into content; empty unless applied. */
  edits: TextEdit[];
  blocks: BlockOutcome[];
  /** The single LLM-facing message (see message.ts). */
  message: string;
  /**
   * Set when options.isCancelled() stopped the batch: status is then 'invalid', nothing is applied,
   * blocks holds the outcomes of the blocks evaluated before the stop, and the message says so.
   */
  cancelled?: { done: number; total: number };
}

/** Progress of a batch: `done` of `total` blocks evaluated. */
export type ProgressCallback = (done: number, total: number) => void;

export interface ApplyOptions {
  /** Name used in messages (a workspace-relative path). Default "the file". */
  fileName?: string;
  /** Language of the document, e.g. 'markdown' keeps trailing whitespace in REPLACE. */
  languageId?: string;
  /** A line hint (1-based) for every block without its own :start_line:. Picks one of several occurrences. */
  lineHint?: number;
  /** How far (in lines) a hint may be from an occurrence's first line and still pick it. Default 20. */
  lineHintWindow?: number;
  /** Fuzzy candidates to return. Default 3. */
  maxCandidates?: number;
  /** Lowest fuzzy score shown as a candidate. Default 0.5. */
  minScore?: number;
  /** Opt-in: apply a unique fuzzy candidate scoring at least this, leading the next by a clear margin. */
  autoApplyAbove?: number;
  /**
   * Apply unique matches from normalising tiers 2..9 (default true). When false they are offered as
   * candidates (status not_found, score 1). A match that differs only in line endings (CRLF file, LF
   * SEARCH) cannot land in the wrong place and always applies.
   */
  autoApplyNormalized?: boolean;
  /** Keep the file's quote characters in changed lines (default true). */
  preserveQuoteStyle?: boolean;
  /**
   * User choices for blocks that did not place themselves: block index -> line range in ORIGINAL
   * coordinates (usually one of that block's candidates). The block's REPLACE goes there.
   */
  choices?: Record<number, LineRange>;
  /**
   * Called as the batch goes: after the first block, then about every 1% of the blocks, and once
   * with done === total at the end (so at most ~100 calls, whatever the batch length). For a
   * progress bar on long batches; keep it cheap.
   */
  onProgress?: ProgressCallback;
  /**
   * Asked before each block; returning true stops the batch: nothing is applied, the result has
   * status 'invalid', `cancelled` set and a message saying the apply was cancelled. A synchronous
   * applyBlocks only sees a flag set from the same thread (e.g. a deadline); in an editor, use
   * applyBlocksAsync, which yields to the event loop between slices so a cancellation token can flip.
   */
  isCancelled?: () => boolean;
  /**
   * Called when a near miss's fuzzy search is about to read every line of the document (its exact
   * lines did not settle it): from there a block costs in proportion to the document, not to SEARCH.
   * The CLI, which starts without V8's optimising compiler, turns it on here (src/node/runLength.ts).
   */
  onDocumentScan?: () => void;
}
