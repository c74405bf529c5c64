// The places a user chose for blocks that did not place themselves, and how they are found again once the
// document text has changed (typing, a formatter, a reload). Works on plain text and 1-based line numbers;
// the editor keeps document versions and live buffers, this module only decides.
import { applyEdits } from './hunkPlacement';
import { isPlaced } from '../decide/outcome';
import { elisionNote } from '../formats/placeholders';
import type { ApplyOptions, ApplyResult, BlockOutcome, LineRange, SearchReplaceBlock, TextEdit } from '../types';

/** Where the user placed a block that did not place itself, and on which document version. */
export interface BlockChoice {
  /** Line range (1-based, inclusive) in the coordinates of `version`. */
  range: LineRange;
  /** The document version `range` refers to (-1: none; the choice must be found again by its text). */
  version: number;
  /** The candidate's text when chosen (lines joined with '\n'); finds it again after a reformat. */
  text: string;
  /** A later edit overlapped the range, so `range` may no longer cover the chosen text exactly. */
  touched?: boolean;
}

/** User choices by block index (SearchReplaceBlock.index). */
export type BlockChoices = Record<number, BlockChoice>;

/** The line ranges of user choices, as the engine takes them; undefined when there are none. */
export function choiceRanges(choices: BlockChoices): Record<number, LineRange> | undefined {
  const entries = Object.entries(choices);
  if (entries.length === 0) {
    return undefined;
  }
  return Object.fromEntries(entries.map(([index, choice]) => [Number(index), choice.range]));
}

/** Runs the engine on `text` with the blocks placed at `choices`. A dry run: returns the would-be result. */
export function matchWithChoices(
  text: string,
  blocks: readonly SearchReplaceBlock[],
  choices: BlockChoices,
  options: ApplyOptions,
): ApplyResult {
  const ranges = choiceRanges(choices);
  return applyEdits(text, blocks, ranges ? { ...options, choices: ranges } : options);
}

/** Candidate line text equal up to trailing whitespace (what a reformat keeps when it moves lines). */
export function sameCandidateText(a: string, b: string): boolean {
  const norm = (s: string) =>
    s
      .split('\n')
      .map((l) => l.replace(/\s+$/, ''))
      .join('\n');
  return norm(a) === norm(b);
}

function overlap(a: LineRange, b: LineRange): number {
  return Math.max(0, Math.min(a.endLine, b.endLine) - Math.max(a.startLine, b.startLine) + 1);
}

/**
 * Choices still valid on `version` (made on it and not overlapped by a later edit), and the stale ones
 * that must be found again.
 */
export function splitStaleChoices(choices: BlockChoices, version: number): { current: BlockChoices; stale: [number, BlockChoice][] } {
  const current: BlockChoices = {};
  const stale: [number, BlockChoice][] = [];
  for (const [key, choice] of Object.entries(choices)) {
    if (choice.version === version && !choice.touched) {
      current[Number(key)] = choice;
    } else {
      stale.push([Number(key), choice]);
    }
  }
  return { current, stale };
}

/**
 * Finds a stale choice again among the block's fresh candidates on `version`: the same candidate text
 * (nearest the old place), else a candidate overlapping the range when the range was moved along with the
 * edits (its version is `version`). 'not-needed': the block places itself now (e.g. a formatter made it
 * match). Undefined: the chosen text is gone.
 */
export function recoverChoice(
  choice: BlockChoice,
  outcome: BlockOutcome | undefined,
  version: number,
): BlockChoice | 'not-needed' | undefined {
  if (!outcome || isPlaced(outcome)) {
    return 'not-needed';
  }
  const mapped = choice.version === version ? choice.range : undefined;
  const byText = outcome.candidates
    .filter((c) => sameCandidateText(c.text, choice.text))
    .sort((a, b) => Math.abs(a.startLine - choice.range.startLine) - Math.abs(b.startLine - choice.range.startLine));
  const byPlace = mapped
    ? outcome.candidates.filter((c) => overlap(c, mapped) > 0).sort((a, b) => overlap(b, mapped) - overlap(a, mapped))
    : [];
  const found = byText[0] ?? byPlace[0];
  return found ? { range: { startLine: found.startLine, endLine: found.endLine }, version, text: found.text } : undefined;
}

/**
 * Re-matches blocks whose choices may be stale against the text of `version`. `match` runs the engine with
 * the given choices (the caller decides on which text, and may log or time each run); it is called once with
 * the still-valid choices and, when some were stale, once more with those found again. `lost` lists the
 * blocks whose chosen text is gone (their choice is dropped, so they wait for a new one).
 */
export function rematchChoices<M extends { result: ApplyResult }>(
  choices: BlockChoices,
  version: number,
  match: (choices: BlockChoices) => M,
): { matched: M; lost: number[] } {
  const { current, stale } = splitStaleChoices(choices, version);
  const first = match(current);
  if (stale.length === 0) {
    return { matched: first, lost: [] };
  }
  const lost: number[] = [];
  const recovered: BlockChoices = { ...current };
  for (const [index, choice] of stale) {
    const found = recoverChoice(
      choice,
      first.result.blocks.find((b) => b.index === index),
      version,
    );
    if (found === undefined) {
      lost.push(index);
    } else if (found !== 'not-needed') {
      recovered[index] = found;
    }
  }
  return { matched: match(recovered), lost };
}

/** rematchChoices on plain text: the result, the choices it used and the blocks whose choice is lost. */
export function rematchText(
  text: string,
  blocks: readonly SearchReplaceBlock[],
  choices: BlockChoices,
  version: number,
  options: ApplyOptions = {},
): { result: ApplyResult; choices: BlockChoices; lost: number[] } {
  const { matched, lost } = rematchChoices(choices, version, (used) => ({
    result: matchWithChoices(text, blocks, used, options),
    choices: used,
  }));
  return { ...matched, lost };
}

/** What a preview shows: the text after the blocks, and what each placeholder of their REPLACE kept. */
export interface PreviewResult {
  content: string;
  /**
   * "Block 1: REPLACE line 2 `# ... existing code ...` kept file lines 5-7", one per placeholder, in the
   * words of the message (elisionNote).
   */
  elisions: string[];
  /** The edits against `text` (original offsets), so the preview can tell which of its lines changed. */
  edits: TextEdit[];
}

/**
 * The text a document would have after the blocks that can be placed: those placed by the engine in
 * `outcomes` and those with a choice. Blocks still waiting are left out, so a preview shows what choosing
 * would do. Undefined when they do not apply together.
 */
export function previewResult(
  text: string,
  blocks: readonly SearchReplaceBlock[],
  outcomes: readonly BlockOutcome[],
  choices: BlockChoices,
  options: ApplyOptions,
): PreviewResult | undefined {
  const placeable = blocks.filter((b) => {
    const outcome = outcomes.find((o) => o.index === b.index);
    return choices[b.index] !== undefined || (outcome !== undefined && isPlaced(outcome));
  });
  const result = applyEdits(text, placeable, { ...options, choices: choiceRanges(choices) ?? {} });
  if (result.status !== 'applied' || result.content === undefined) {
    return undefined;
  }
  const elisions = result.blocks.flatMap((b) => (b.elisions ?? []).map((e) => `Block ${b.index}: ${elisionNote(e)}`));
  return { content: result.content, elisions, edits: result.edits };
}

/** previewResult's text alone. */
export function previewText(
  text: string,
  blocks: readonly SearchReplaceBlock[],
  outcomes: readonly BlockOutcome[],
  choices: BlockChoices,
  options: ApplyOptions,
): string | undefined {
  return previewResult(text, blocks, outcomes, choices, options)?.content;
}

/**
 * `part` with `choice` recorded for block `blockIndex`. A choice made on another version than the part was
 * matched on marks the part's version unknown (-1), so the choice is found again by its text before any
 * offset is trusted.
 */
export function withChoice<P extends { version: number; choices: BlockChoices }>(part: P, blockIndex: number, choice: BlockChoice): P {
  const chosen = { ...part, choices: { ...part.choices, [blockIndex]: choice } };
  return choice.version === part.version ? chosen : { ...chosen, version: -1 };
}

/**
 * A candidate as a CodeLens row or Quick Pick showed it (on `shown.version`, when known), as a choice on
 * `version`: as shown when nothing changed since; else the refreshed candidate with exactly the same text
 * nearest the row (`outcome` is the block's outcome on `version`), or undefined when that text is no
 * longer a candidate.
 */
export function shownCandidateNow(
  shown: { range: LineRange; text: string; version?: number },
  outcome: BlockOutcome | undefined,
  version: number,
): BlockChoice | undefined {
  if (shown.version === undefined || shown.version === version) {
    return { range: shown.range, version, text: shown.text };
  }
  // Of several candidates with that text (an ambiguous block), the one nearest the row, as choosing it would.
  const same = outcome?.candidates
    .filter((c) => c.text === shown.text)
    .sort((a, b) => Math.abs(a.startLine - shown.range.startLine) - Math.abs(b.startLine - shown.range.startLine))[0];
  return same ? { range: { startLine: same.startLine, endLine: same.endLine }, version, text: same.text } : undefined;
}

/** The message for blocks whose chosen place is gone from `label`. */
export function lostChoicesMessage(label: string, lost: readonly number[]): string {
  return `${label} changed and the place chosen for block ${lost.join(', ')} is no longer there; choose again.`;
}
