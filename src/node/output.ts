// How the CLI's commands answer: one report on stdout (JSON) or as a message, and the exit code for its
// status. Shared by `apply` (cli.ts) and `patch` (patchCommand.ts).
import type { BatchStatus, BlockOutcome, BlockStatus } from '../core/types';

/**
 * A block's status as the CLI's --json writes it. The engine calls a block that matched while another
 * block of the batch failed `held_back`; the documented --json contract (README) names it `pending`,
 * and that wire value stays.
 */
export type WireBlockStatus = Exclude<BlockStatus, 'held_back'> | 'pending';

export function wireStatus(status: BlockStatus): WireBlockStatus {
  return status === 'held_back' ? 'pending' : status;
}

export const EXIT_CODES: Record<BatchStatus, number> = { applied: 0, not_found: 1, ambiguous: 2, invalid: 3 };

/** Writes to an output that may be closed (`| head -0`): the exit code still tells the outcome. */
export function writeQuietly(stream: NodeJS.WriteStream, text: string): void {
  try {
    stream.write(text);
  } catch {
    // Output closed: nothing more to do.
  }
}

/** Prints a report as JSON on stdout, or its message (on stderr when `toStderr`); returns the exit code. */
export function printReport(json: { status: BatchStatus; message: string }, asJson: boolean, toStderr: boolean): number {
  if (asJson) {
    writeQuietly(process.stdout, `${JSON.stringify(json, null, 2)}\n`);
  } else {
    const message = json.message.endsWith('\n') ? json.message : `${json.message}\n`;
    writeQuietly(toStderr ? process.stderr : process.stdout, message);
  }
  return EXIT_CODES[json.status];
}

/** A block in the --json report of `apply` and `patch` (README: the contract). */
export interface JsonBlock {
  index: number;
  status: WireBlockStatus;
  tier?: string;
  range?: { startLine: number; endLine: number };
  score?: number;
  candidates?: JsonCandidate[];
  notes?: string[];
  truncated?: boolean;
}

export interface JsonCandidate {
  startLine: number;
  endLine: number;
  score: number;
  text: string;
  note?: string;
}

/** A block's outcome as its --json object; `candidates` only for blocks that were not placed. */
export function toJsonBlock(outcome: BlockOutcome): JsonBlock {
  const block: JsonBlock = { index: outcome.index, status: wireStatus(outcome.status) };
  if (outcome.tier !== undefined) {
    block.tier = outcome.tier;
  }
  if (outcome.range) {
    block.range = { startLine: outcome.range.startLine, endLine: outcome.range.endLine };
  }
  if (outcome.score !== undefined) {
    block.score = outcome.score;
  }
  if (!outcome.range) {
    block.candidates = outcome.candidates.map((c) => {
      const candidate: JsonCandidate = { startLine: c.startLine, endLine: c.endLine, score: c.score, text: c.text };
      if (c.note !== undefined) {
        candidate.note = c.note;
      }
      return candidate;
    });
  }
  if (outcome.notes.length > 0) {
    block.notes = outcome.notes;
  }
  if (outcome.truncated) {
    block.truncated = true;
  }
  return block;
}
