// Line hints (a block's own :start_line:, else the lineHint option): whether one names a line of the file,
// and which of several occurrences it picks.

import { type SearchReplaceBlock } from '../types';
import { type Occurrence } from '../match/tiers';
import { type BatchView } from './batchView';

/** Why the block's line hint (its own, else options.lineHint) is no line of the file; undefined when fine. */
export function hintProblem(batch: BatchView, block: SearchReplaceBlock): string | undefined {
  const own = block.startLine !== undefined;
  const hint = own ? block.startLine : batch.settings.lineHint;
  if (hint === undefined) {
    return undefined;
  }
  const what = own ? `the line hint (:start_line:) of block ${block.index}` : 'the lineHint option';
  if (typeof hint !== 'number' || !Number.isSafeInteger(hint) || hint < 1) {
    return `${what} is ${typeof hint === 'number' ? String(hint) : JSON.stringify(hint)}, which is not a line number (a whole number from 1)`;
  }
  // A hint past the end of the file is stale, not malformed: like any hint it only picks among
  // occurrences (a stale one picks none), and the outcome says it was past the end (staleHintNote).
  return undefined;
}

/** The note for a line hint past the end of the file; undefined when it is inside. */
export function staleHintNote(batch: BatchView, hint: number): string | undefined {
  const lines = batch.visibleLineCount;
  if (hint <= Math.max(lines, 1)) {
    return undefined;
  }
  return `line hint ${hint} is stale: it is beyond the end of ${batch.settings.fileName}, which has ${lines} line${lines === 1 ? '' : 's'}`;
}

/**
 * The occurrence a line hint picks: the only one within lineHintWindow lines of it, or the one strictly
 * nearest; undefined when none is that near or the nearest two are equally near.
 */
export function nearestToHint(batch: BatchView, occs: readonly Occurrence[], hint: number): Occurrence | undefined {
  const near = occs
    .map((o) => ({ o, d: Math.abs(batch.range(o.start, o.end).startLine - hint) }))
    .filter((x) => x.d <= batch.settings.lineHintWindow)
    .sort((a, b) => a.d - b.d);
  return near.length === 1 || (near.length > 1 && near[0].d < near[1].d) ? near[0].o : undefined;
}
