// A block no tier placed, explained before any fuzzy search: it quotes lines an earlier block replaced
// (stale), its REPLACE is already in the file, it matches only with inconsistent indentation, or it
// occurs only inside longer lines.

import { type BlockOutcome, type LineRange, type SearchReplaceBlock } from '../types';
import { splitBlockLines } from '../match/lines';
import { type IndentMiss, Matcher, prepareSearch, type SearchSpec } from '../match/tiers';
import { describeLead } from '../match/indent';
import { similarity } from '../match/fuzzy/similarity';
import { comparisonKeys } from '../match/normalize';
import { markStale, undecided } from './outcome';
import { type BatchView, type Evaluation } from './batchView';
import { nearestToHint } from './hints';

/**
 * SEARCH matched these windows line for line except for indentation no one relation explains (a body
 * at its header's depth, lines collapsed to one depth): a near miss, each window a candidate.
 */
export function indentMissOutcome(
  batch: BatchView,
  block: SearchReplaceBlock,
  spec: SearchSpec,
  misses: readonly IndentMiss[],
): Evaluation {
  const outcome = undecided(block.index);
  const searchText = spec.lines.join('\n');
  for (const miss of misses.slice(0, batch.settings.maxCandidates)) {
    const detail = miss.lines
      .slice(0, 3)
      .map(
        (l) =>
          `line ${batch.range(l.line, l.line + 1).startLine} has ${describeLead(l.file)} in the file, ${describeLead(l.search)} in SEARCH`,
      )
      .join('; ');
    const c = batch.candidate(miss.start, miss.end, 0, `indentation disagrees: ${detail}`);
    c.score = similarity(searchText, c.text);
    outcome.candidates.push(c);
  }
  outcome.notes.push(
    'SEARCH matches these lines only with inconsistent indentation: no single indentation shift or rescale maps every SEARCH line onto its line, so it was not applied (indentation can change what code means); copy the indentation from the lines above',
  );
  return { outcome };
}

/** SEARCH quotes the original text of a region an earlier block of the batch has replaced: a stale anchor. */
export function staleOutcome(batch: BatchView, block: SearchReplaceBlock, spec: SearchSpec): BlockOutcome | undefined {
  if (batch.ledger.isEmpty) {
    return undefined;
  }
  const inOriginal = new Matcher(batch.original, spec).findFirst();
  if (!inOriginal) {
    return undefined;
  }
  const outcome = undecided(block.index);
  const doc = batch.working;
  for (const o of inOriginal.occurrences) {
    const edits = batch.ledger.overlapping(o.start, o.end);
    if (edits.length === 0) {
      continue;
    }
    const a = Math.min(o.start, ...edits.map((x) => x.origStart));
    const b = Math.max(o.end, ...edits.map((x) => x.origEnd));
    const w = batch.ledger.toWorking(a, b);
    const blocks = [...new Set(edits.flatMap((x) => x.blocks))].sort((x, y) => x - y);
    const who = blocks.length === 1 ? `block ${blocks[0]}` : `blocks ${blocks.join(', ')}`;
    const note = `block ${block.index} quotes lines that ${who} replaced`;
    if (!outcome.notes.includes(note)) {
      outcome.notes.push(note);
    }
    const text = w.end > w.start ? doc.joined(w.start, w.end) : '';
    const cand = w.end > w.start ? batch.candidate(w.start, w.end, 0, 'current text') : undefined;
    if (cand) {
      cand.score = batch.similarity(spec.lines.join('\n'), text);
    }
    markStale(outcome, blocks, cand ? [cand] : []);
  }
  return outcome.notes.length > 0 ? outcome : undefined;
}

/** SEARCH found only inside longer lines: not a match, but those whole lines are the obvious candidates. */
export function partialLineOutcome(
  batch: BatchView,
  block: SearchReplaceBlock,
  spec: SearchSpec,
  matcher: Matcher,
): Evaluation | undefined {
  const partial = matcher.findPartial();
  if (partial.length === 0) {
    return undefined;
  }
  const { maxCandidates } = batch.settings;
  const outcome = undecided(block.index);
  const searchText = spec.lines.join('\n');
  for (const p of partial.slice(0, maxCandidates)) {
    const lineNos = p.partialLines.map((l) => batch.range(l, l + 1).startLine);
    const note = `matched only part of line${lineNos.length === 1 ? '' : 's'} ${lineNos.join(' and ')}`;
    const c = batch.candidate(p.start, p.end, 0, note);
    c.score = batch.similarity(searchText, c.text);
    outcome.candidates.push(c);
  }
  outcome.notes.push(
    partial.length > maxCandidates
      ? `SEARCH occurs only inside longer lines (${partial.length} places, first ${maxCandidates} shown); SEARCH must quote whole lines`
      : 'SEARCH occurs only inside longer lines; SEARCH must quote whole lines',
  );
  return { outcome };
}

/**
 * Where the working text already holds the block's REPLACE, found through tiers 1-9 at exactly one
 * place (a line hint may pick one of several). Undefined when REPLACE is blank, equals SEARCH, or only
 * deletes lines of SEARCH (its non-blank lines are a subsequence of SEARCH's): then its presence proves nothing.
 */
export function alreadyAppliedAt(batch: BatchView, block: SearchReplaceBlock): LineRange | undefined {
  if (block.replace.trim() === '' || block.replace === block.search) {
    return undefined;
  }
  const searchLines = comparisonKeys(splitBlockLines(block.search)).filter((l) => l !== '');
  const replaceLines = comparisonKeys(splitBlockLines(block.replace)).filter((l) => l !== '');
  // REPLACE a subsequence of SEARCH: the edit only deletes lines, and what remains says nothing.
  let k = 0;
  for (const line of searchLines) {
    if (k < replaceLines.length && line === replaceLines[k]) {
      k++;
    }
  }
  if (k === replaceLines.length) {
    return undefined;
  }
  const found = batch.findFirst(prepareSearch(block.replace));
  let occs = found.occurrences;
  if (occs.length > 1) {
    const hint = block.startLine ?? batch.settings.lineHint;
    if (hint === undefined) {
      return undefined;
    }
    const picked = nearestToHint(batch, occs, hint);
    if (!picked) {
      return undefined;
    }
    occs = [picked];
  }
  if (occs.length !== 1) {
    return undefined;
  }
  return batch.range(occs[0].start, occs[0].end);
}
