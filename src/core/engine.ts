// applyBlocks: place every SEARCH/REPLACE block of a batch, in order, each against the text the earlier
// ones left, and report everything in ORIGINAL coordinates. Atomic: content and edits only when every
// block placed. Pure (no I/O, no vscode), so the extension, the web worker and the CLI share it.

import {
  type ApplyOptions,
  type ApplyResult,
  type BatchStatus,
  type BlockOutcome,
  type LineRange,
  type SearchReplaceBlock,
  type Tier,
} from './types';
import { splitBlockLines } from './match/lines';
import { Matcher, prepareSearch, type SearchSpec } from './match/tiers';
import { DEFAULT_FUZZY_WORK_CAP, findFuzzyCandidates } from './match/fuzzy/search';
import { holdBack, markAlreadyApplied, markApplied, markInvalid, undecided } from './decide/outcome';
import { type Evaluation, isEmptySearch, settingsFrom } from './decide/batchView';
import { hintProblem } from './decide/hints';
import { decideOccurrences } from './decide/occurrences';
import { evaluateChoice } from './decide/choice';
import { alreadyAppliedAt, indentMissOutcome, partialLineOutcome, staleOutcome } from './decide/nearMiss';
import { elisionNote, expandReplacePlaceholders, type ExpandedElision, placeholderWritten, WRITE_IT_OUT } from './decide/elisions';
import { auditElisions } from './decide/audit/elisionAudit';
import { decideElidedSearch } from './decide/elidedSearch';
import { relateRegion } from './write/transform';
import { Batch } from './write/batchState';
import { looseIndentConflict, type Placement, placeTarget, regionLines, replaceLinesOf } from './write/placement';
import { formatMessage } from './report/message';
import { formatScore } from './report/score';
import { describeDifferences } from './report/lineDiff';

/** How far the best fuzzy candidate must lead the next one for autoApplyAbove to place it. */
export const AUTO_APPLY_MARGIN = 0.05;

/** A block's outcome and, when it is placed, the lines it writes there. */
interface PlacedBlock {
  outcome: BlockOutcome;
  placement?: Placement;
}

/** From this many blocks on, the working text is a LineArray (see lineArray.ts) rather than one string. */
const LARGE_BATCH = 16;

// ---- per-block evaluation -------------------------------------------------------------------------

/**
 * A block whose REPLACE has placeholders ("// ... existing code ...") is evaluated with them expanded
 * to the SEARCH lines they stand for (decide/elisions.ts), or refused when that is not certain; the
 * outcome says what each kept. Every placement is then held to the invariant that no placeholder line
 * is written where the same line did not stand before.
 */
function evaluateWithElisions(batch: Batch, block: SearchReplaceBlock): PlacedBlock {
  const context = batch.settings.placeholders;
  // Placeholders in SEARCH too (aider's style), where the file does not have those lines.
  const elidedSearch = hintProblem(batch, block) === undefined ? decideElidedSearch(batch, block, context) : undefined;
  if (elidedSearch !== undefined) {
    const { outcome, target } = elidedSearch;
    return target === undefined ? { outcome } : placeChecked(batch, block, outcome, placeTarget(batch, block, target));
  }
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
  if (expansion.kind === 'expanded') {
    const region = placement.fill ? [] : regionLines(batch, placement.start, placement.end);
    outcome.elisions = expansion.elisions.map((e) => ({
      replaceStartLine: e.replaceFirst + 1,
      replaceEndLine: e.replaceLast + 1,
      text: e.text,
      kept: keptLines(batch, placement, outcome.tier, searchLines, region, e),
    }));
    outcome.notes.push(...outcome.elisions.map(elisionNote));
    // The independent audit (decide/audit/elisionAudit.ts): what the placeholders became is the file's own lines, all of them.
    const failure = auditElisions({
      region,
      replaceLines: replaceLinesOf(block),
      written: placement.lines.map((l) => l.text),
      context,
    });
    if (failure !== undefined) {
      const refused = undecided(block.index);
      markInvalid(refused, `block ${block.index} was checked before writing and refused: ${failure}; ${WRITE_IT_OUT}`);
      return { outcome: refused };
    }
  }
  return placeChecked(batch, block, outcome, placement);
}

/** The invariant on what a block writes: no placeholder line where the same line did not stand before. */
function placeChecked(batch: Batch, block: SearchReplaceBlock, outcome: BlockOutcome, placement: Placement): PlacedBlock {
  const region = placement.fill ? [] : regionLines(batch, placement.start, placement.end);
  const written = placement.lines.filter((l) => l.fileLine === undefined).map((l) => l.text);
  const placeholder = placeholderWritten(written, region, batch.settings.placeholders);
  if (placeholder !== undefined) {
    const refused = undecided(block.index);
    markInvalid(
      refused,
      `block ${block.index} would write the placeholder \`${placeholder}\` into ${batch.settings.fileName}, where no such line stood; write out the lines it stands for`,
    );
    return { outcome: refused };
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
      ? findFuzzyCandidates(doc.lineSource(), spec.lines, {
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
    best.grown === undefined &&
    (!rival || best.score - rival.score >= AUTO_APPLY_MARGIN) &&
    !(indentConflict = looseIndentConflict(batch, block, spec, best.start, best.end))
  ) {
    markApplied(outcome, 'fuzzy', batch.range(best.start, best.end), best.score);
    outcome.notes.push(`placed by fuzzy match (score ${formatScore(best.score)}, autoApplyAbove ${settings.autoApplyAbove})`);
    return { outcome, target: { kind: 'region', start: best.start, end: best.end, spec } };
  }
  outcome.candidates = windows
    .slice(0, settings.maxCandidates)
    .map((w) => batch.candidate(w.start, w.end, w.score, w.grown === undefined ? undefined : grownNote(w.grown)));
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
            : best.grown !== undefined
              ? `the file has grown ${best.grown} line${best.grown === 1 ? '' : 's'} inside the best fuzzy candidate since SEARCH was written; not applied`
              : `best fuzzy candidate does not lead the next (${rivalText(batch, rival)}) by ${AUTO_APPLY_MARGIN}; not applied`,
    );
  }
  return { outcome };
}

/** A candidate region the file has grown lines inside since SEARCH was written (grown.ts). */
function grownNote(grown: number): string {
  return `the file has ${grown} line${grown === 1 ? '' : 's'} here that SEARCH lacks`;
}

function rivalText(batch: Batch, rival: { start: number; end: number; score: number } | undefined): string {
  if (!rival) {
    return 'none';
  }
  const r = batch.range(rival.start, rival.end);
  return `lines ${r.startLine}-${r.endLine}, score ${formatScore(rival.score)}`;
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
