// A block placed where the user chose (a candidate picked in the editor, options.choices): the chosen
// lines, as an occurrence of tiers 1-9 when they are one, else as a loose region.

import { type LineRange, type SearchReplaceBlock } from '../types';
import { prepareSearch } from '../match/tiers';
import { markApplied, markInvalid, undecided } from './outcome';
import { type BatchView, type Evaluation, isEmptySearch } from './batchView';

/** The block placed at `choice` (ORIGINAL lines, 1-based inclusive), or invalid when that is no line range of the file. */
export function evaluateChoice(batch: BatchView, block: SearchReplaceBlock, choice: LineRange): Evaluation {
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
