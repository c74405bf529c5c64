// How the CLI's commands answer: one report on stdout (JSON) or as a message, and the exit code for its
// status. Shared by `apply` (cli.ts) and `patch` (patchCommand.ts).
import { writeSync } from 'node:fs';
import { type ApplyResult, type BatchStatus, type BlockOutcome, type BlockStatus, dryRunMessage } from '../core';

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

/**
 * Writes to stdout (fd 1) or stderr (fd 2), which may be closed (`| head -0`): the exit code still tells
 * the outcome. Written to the descriptor directly: process.stdout and process.stderr are made on first
 * use, and making one loads the stream modules (for a pipe, net as well), a few milliseconds of every
 * cold run. Only a descriptor that would block (EAGAIN: a non-blocking pipe its reader has not emptied)
 * hands the rest to the stream, which waits for the reader.
 */
export function writeQuietly(fd: 1 | 2, text: string): void {
  const bytes = Buffer.from(text, 'utf8');
  let done = 0;
  try {
    while (done < bytes.length) {
      done += writeSync(fd, bytes, done, bytes.length - done);
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EAGAIN') {
      writeToStream(fd === 1 ? process.stdout : process.stderr, bytes.subarray(done));
    }
    // Anything else (EPIPE): the output is closed, nothing more to do.
  }
}

/** Whether some output went through a stream (writeToStream) and may still be on its way. */
let streamed = false;

/** Whether all output has reached its descriptor, so the process may exit at once (cli.ts). */
export function outputWritten(): boolean {
  return !streamed;
}

function writeToStream(stream: NodeJS.WriteStream, bytes: Uint8Array): void {
  streamed = true;
  // A reader that goes away meanwhile must not turn the outcome into a crash with exit 1.
  stream.on('error', () => undefined);
  try {
    stream.write(bytes);
  } catch {
    // Output closed: nothing more to do.
  }
}

/** Prints a report as JSON on stdout, or its message (on stderr when `toStderr`); returns the exit code. */
export function printReport(json: { status: BatchStatus; message: string }, asJson: boolean, toStderr: boolean): number {
  if (asJson) {
    writeQuietly(1, `${JSON.stringify(json, null, 2)}\n`);
  } else {
    const message = json.message.endsWith('\n') ? json.message : `${json.message}\n`;
    writeQuietly(toStderr ? 2 : 1, message);
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

/** The --json object of `apply` (the contract other tools read), also the MCP apply_edits tool's structured result. */
export interface ApplyReport {
  status: BatchStatus;
  file: string | null;
  content?: string;
  message: string;
  blocks: JsonBlock[];
}

/** A batch's report: `content` only on a dry run that applies, whose message says "Would apply", not "Applied". */
export function applyReport(file: string, result: ApplyResult, dryRun: boolean): ApplyReport {
  const withContent = dryRun && result.status === 'applied' && result.content !== undefined;
  // Key order follows the contract: status, file, content, message, blocks.
  return {
    status: result.status,
    file,
    ...(withContent ? { content: result.content } : {}),
    message: dryRun ? dryRunMessage(result.message) : result.message,
    blocks: result.blocks.map(toJsonBlock),
  };
}
