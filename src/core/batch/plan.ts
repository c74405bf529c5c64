// Planning a batch of blocks over several files, as plain data: which block goes to which file, whether a
// missing file can be created by its blocks, whether the batch is ready, waits for a choice or is refused,
// and what to tell the user. The editor adds documents, versions and URIs to these shapes (extension/
// documentApplier.ts); nothing here reads a file or shows anything.
import { applyBlocks } from '../engine';
import { choiceNeededLine } from '../report/message';
import { isPlaced } from '../decide/outcome';
import type { BlockChoices } from './rematch';
import type { ApplyResult, BlockOutcome, LineRange, SearchReplaceBlock, Tier } from '../types';

/** Blocks matched against one file's text. */
export interface PlannedPart {
  /** How messages name the file (workspace-relative path or untitled name). */
  label: string;
  /** The text the engine saw. */
  text: string;
  blocks: SearchReplaceBlock[];
  choices: BlockChoices;
  result: ApplyResult;
}

/** Blocks for a file that does not exist yet; all have an empty SEARCH, so they create it. */
export interface PlannedNewFile {
  label: string;
  blocks: SearchReplaceBlock[];
  result: ApplyResult;
}

/** A dry run of a batch over every file it touches. Nothing has been edited. */
export interface Plan<P extends PlannedPart = PlannedPart, N extends PlannedNewFile = PlannedNewFile> {
  parts: P[];
  newFiles: N[];
  /** Reasons the batch cannot apply at all (missing files, read-only or non-text targets). */
  problems: string[];
  blockCount: number;
}

/** Where one block goes, as the editor resolved it. `key` identifies a document across blocks. */
export type BlockTarget<D, U> =
  | { kind: 'document'; key: string; document: D; label: string }
  | { kind: 'missing'; filePath: string; uri?: U }
  | { kind: 'refused'; message: string };

/** Blocks grouped by target, in first-seen order; blocks whose target refused them become problems. */
export interface GroupedBlocks<D, U> {
  documents: { document: D; label: string; blocks: SearchReplaceBlock[] }[];
  missing: { filePath: string; uri?: U; blocks: SearchReplaceBlock[] }[];
  problems: string[];
}

/** Groups blocks by the document (or missing file) each targets; `targets[i]` belongs to `blocks[i]`. */
export function groupByTarget<D, U>(blocks: readonly SearchReplaceBlock[], targets: readonly BlockTarget<D, U>[]): GroupedBlocks<D, U> {
  const documents = new Map<string, { document: D; label: string; blocks: SearchReplaceBlock[] }>();
  const missing = new Map<string, { filePath: string; uri?: U; blocks: SearchReplaceBlock[] }>();
  const problems: string[] = [];
  blocks.forEach((block, i) => {
    const target = targets[i];
    if (target.kind === 'document') {
      const group = documents.get(target.key) ?? { document: target.document, label: target.label, blocks: [] };
      group.blocks.push(block);
      documents.set(target.key, group);
    } else if (target.kind === 'missing') {
      const group = missing.get(target.filePath) ?? { filePath: target.filePath, uri: target.uri, blocks: [] };
      group.blocks.push(block);
      missing.set(target.filePath, group);
    } else {
      problems.push(`Block ${block.index}: ${target.message}`);
    }
  });
  return { documents: [...documents.values()], missing: [...missing.values()], problems };
}

/** The content a new file gets from its blocks (each with an empty SEARCH): the engine run on ''. */
export function newFileResult(label: string, blocks: readonly SearchReplaceBlock[]): ApplyResult {
  return applyBlocks('', blocks, { fileName: label });
}

/**
 * Whether the blocks for a file that does not exist can create it: only when the first block has an empty
 * SEARCH and there is a place to create it (`canCreate`), and the blocks apply to an empty file.
 */
export function planMissingFile(
  label: string,
  blocks: readonly SearchReplaceBlock[],
  canCreate: boolean,
): { result: ApplyResult; problem?: undefined } | { result?: undefined; problem: string } {
  if (blocks[0].search.trim() !== '' || !canCreate) {
    const nonEmpty = blocks.filter((b) => b.search.trim() !== '');
    const which = nonEmpty.length > 0 ? nonEmpty : blocks;
    return {
      problem:
        `Block ${which.map((b) => b.index).join(', ')}: ${label} does not exist in the workspace` +
        (canCreate ? ' (a block with an empty SEARCH section would create it).' : ' and there is no workspace folder to create it in.'),
    };
  }
  const result = newFileResult(label, blocks);
  if (result.status !== 'applied') {
    return { problem: `${label} does not exist and its blocks cannot create it: ${result.message}` };
  }
  return { result };
}

/** True when committing `plan` would apply every block (no problems, every file's batch placed). */
export function isReady(plan: Plan): boolean {
  return plan.problems.length === 0 && plan.parts.every((p) => p.result.status === 'applied');
}

/**
 * True when the plan failed only because some blocks need a choice (near miss with candidates, or
 * ambiguous), so it can wait for the user. Invalid blocks or misses without candidates cannot.
 */
export function isChoosable(plan: Plan): boolean {
  if (plan.problems.length > 0) {
    return false;
  }
  return plan.parts.every((p) =>
    p.result.blocks.every((b) => isPlaced(b) || ((b.status === 'not_found' || b.status === 'ambiguous') && b.candidates.length > 0)),
  );
}

/** The blocks of a plan that did not place themselves (waiting for a choice, or invalid). */
export function unresolved<P extends PlannedPart>(plan: Plan<P, PlannedNewFile>): { part: P; outcome: BlockOutcome }[] {
  const out: { part: P; outcome: BlockOutcome }[] = [];
  for (const part of plan.parts) {
    for (const outcome of part.result.blocks) {
      if (outcome.status === 'not_found' || outcome.status === 'ambiguous' || outcome.status === 'invalid') {
        out.push({ part, outcome });
      }
    }
  }
  return out;
}

/** The already-applied blocks when they are every block that did not place itself; else undefined. */
export function alreadyAppliedBlocks<P extends PlannedPart>(
  plan: Plan<P, PlannedNewFile>,
): { part: P; block: number; range: LineRange }[] | undefined {
  if (plan.problems.length > 0) {
    return undefined;
  }
  const open = unresolved(plan);
  if (open.length === 0 || !open.every(({ outcome }) => outcome.alreadyApplied)) {
    return undefined;
  }
  return open.map(({ part, outcome }) => ({ part, block: outcome.index, range: outcome.alreadyApplied! }));
}

function linesText(range: LineRange): string {
  return range.startLine === range.endLine ? `line ${range.startLine}` : `lines ${range.startLine}-${range.endLine}`;
}

/** "Already applied at lines 4-6 of cart.ts." (one block) or one clause per block. */
export function alreadyAppliedSummary(places: readonly { label: string; block: number; range: LineRange }[]): string {
  if (places.length === 1) {
    return `Already applied at ${linesText(places[0].range)} of ${places[0].label}: the file already holds the block's REPLACE text. Nothing was changed.`;
  }
  const parts = places.map((p) => `block ${p.block} at ${linesText(p.range)} of ${p.label}`);
  return `Already applied: ${parts.join('; ')}. Nothing was changed.`;
}

/** Human summary of a plan that did not apply (also the status bar / notification text). */
export function describeUnapplied(plan: Plan): string {
  if (plan.problems.length > 0) {
    return plan.problems.join(' ');
  }
  const lines = unresolved(plan).map(({ part, outcome }) => choiceNeededLine(outcome, part.label) ?? '');
  const choosable = lines.filter((l) => l !== '');
  if (isChoosable(plan) && choosable.length > 0) {
    return choosable.join(' ');
  }
  // Not choosable: the engine's message says exactly why (it is written to be acted on).
  return plan.parts
    .filter((p) => p.result.status !== 'applied')
    .map((p) => p.result.message)
    .join('\n');
}

/**
 * What happens to a dry-run plan (after the user agreed to create any new files): refuse it for its
 * problems, commit it, report it as already applied, refuse it, or keep it waiting for a choice.
 */
export type PlanVerdict<P extends PlannedPart> =
  | { kind: 'problems'; summary: string }
  | { kind: 'ready' }
  | { kind: 'already-applied'; places: { part: P; block: number; range: LineRange }[]; summary: string }
  | { kind: 'refused'; summary: string }
  | { kind: 'choose'; summary: string };

export function judgePlan<P extends PlannedPart>(plan: Plan<P, PlannedNewFile>): PlanVerdict<P> {
  if (plan.problems.length > 0) {
    return { kind: 'problems', summary: `Nothing was applied. ${plan.problems.join(' ')}` };
  }
  if (isReady(plan)) {
    return { kind: 'ready' };
  }
  const places = alreadyAppliedBlocks(plan);
  if (places) {
    return {
      kind: 'already-applied',
      places,
      summary: alreadyAppliedSummary(places.map((p) => ({ label: p.part.label, block: p.block, range: p.range }))),
    };
  }
  const summary = describeUnapplied(plan);
  return isChoosable(plan) ? { kind: 'choose', summary } : { kind: 'refused', summary };
}

/** How each block of an applied plan was placed, in order: its tier, or 'chosen' when the user placed it. */
export function placements(plan: Plan): (Tier | 'chosen' | undefined)[] {
  const out: (Tier | 'chosen' | undefined)[] = [];
  for (const part of plan.parts) {
    for (const outcome of part.result.blocks) {
      out.push(part.choices[outcome.index] ? 'chosen' : outcome.tier);
    }
  }
  for (const file of plan.newFiles) {
    for (const outcome of file.result.blocks) {
      out.push(outcome.tier);
    }
  }
  return out;
}

/** "1 block", "3 blocks". */
export function blockWord(n: number): string {
  return `${n} block${n === 1 ? '' : 's'}`;
}
