// Why a block did or did not apply, as one typed value. The engine records its decision on the block's
// outcome through the setters below (one per kind, each taking the data that kind needs); everything
// that explains a block (the LLM-facing message, chat, CodeLens, the editor's notifications) reads it
// back through verdictOf() rather than re-deriving it from status, notes and optional fields.

import type { BlockOutcome, Candidate, LineRange, Tier } from '../types';

/** The decision about one block, with the data each kind needs. */
export type BlockVerdict =
  /** Placed: in the content when the batch applied. */
  | { kind: 'applied'; tier: Tier; range?: LineRange; score: number }
  /** Placed, but the batch did not apply because another block failed (wire status `pending`). */
  | { kind: 'held-back'; tier: Tier; range?: LineRange; score: number }
  /** SEARCH occurs at several places (every one listed, in file order); nothing picks one. */
  | { kind: 'ambiguous'; tier: Tier; occurrences: readonly Candidate[] }
  /** SEARCH is not in the file but REPLACE is, at one place: the edit was applied before. */
  | { kind: 'already-applied'; at: LineRange }
  /** SEARCH quotes the original text of lines that earlier blocks of the batch replaced. */
  | { kind: 'stale'; replacedBy: readonly number[]; current: readonly Candidate[] }
  /** SEARCH is not in the file; the closest regions (possibly none) are candidates. */
  | { kind: 'not-found'; candidates: readonly Candidate[]; truncated: boolean }
  /** The block cannot be used as written (empty SEARCH on a non-empty file, a bad line hint...). */
  | { kind: 'invalid'; problems: readonly string[] };

export type VerdictKind = BlockVerdict['kind'];

/** A fresh outcome for block `index`, not yet decided (reads as not found with no candidates). */
export function undecided(index: number): BlockOutcome {
  return { index, status: 'not_found', candidates: [], notes: [] };
}

export function markApplied(outcome: BlockOutcome, tier: Tier, range: LineRange, score: number): void {
  outcome.status = 'applied';
  outcome.tier = tier;
  outcome.range = range;
  outcome.score = score;
}

export function markAmbiguous(outcome: BlockOutcome, tier: Tier, occurrences: Candidate[]): void {
  outcome.status = 'ambiguous';
  outcome.tier = tier;
  outcome.candidates = occurrences;
}

/** `problem` says what is wrong and where (a note of the block). */
export function markInvalid(outcome: BlockOutcome, problem: string): void {
  outcome.status = 'invalid';
  outcome.notes.push(problem);
}

export function markAlreadyApplied(outcome: BlockOutcome, at: LineRange): void {
  outcome.status = 'not_found';
  outcome.alreadyApplied = at;
  outcome.candidates = [];
}

/** `replacedBy`: the earlier blocks whose edits cover the lines SEARCH quotes; `current`: those lines now. */
export function markStale(outcome: BlockOutcome, replacedBy: readonly number[], current: Candidate[]): void {
  outcome.status = 'not_found';
  outcome.replacedBy = [...new Set([...(outcome.replacedBy ?? []), ...replacedBy])].sort((a, b) => a - b);
  outcome.candidates.push(...current);
}

/** A batch that did not apply: its placed blocks are held back (nothing of the batch is written). */
export function holdBack(outcomes: readonly BlockOutcome[]): void {
  for (const o of outcomes) {
    if (o.status === 'applied') {
      o.status = 'held_back';
    }
  }
}

/** The block found its place (applied, or held back only because another block failed). */
export function isPlaced(outcome: BlockOutcome): boolean {
  return outcome.status === 'applied' || outcome.status === 'held_back';
}

/** The block stopped its batch (anything but placed). */
export function isFailure(outcome: BlockOutcome): boolean {
  return !isPlaced(outcome);
}

/** The decision about a block, read from its outcome. */
export function verdictOf(outcome: BlockOutcome): BlockVerdict {
  switch (outcome.status) {
    case 'applied':
    case 'held_back':
      return {
        kind: outcome.status === 'applied' ? 'applied' : 'held-back',
        tier: outcome.tier ?? 'exact',
        range: outcome.range,
        score: outcome.score ?? 1,
      };
    case 'ambiguous':
      return { kind: 'ambiguous', tier: outcome.tier ?? 'exact', occurrences: outcome.candidates };
    case 'invalid':
      return { kind: 'invalid', problems: outcome.notes };
    case 'not_found':
      if (outcome.alreadyApplied) {
        return { kind: 'already-applied', at: outcome.alreadyApplied };
      }
      if (outcome.replacedBy && outcome.replacedBy.length > 0) {
        return { kind: 'stale', replacedBy: outcome.replacedBy, current: outcome.candidates };
      }
      return { kind: 'not-found', candidates: outcome.candidates, truncated: outcome.truncated === true };
  }
}
