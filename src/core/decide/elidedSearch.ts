// Placeholders in SEARCH and REPLACE (aider's style): SEARCH's pieces between placeholders are found in
// order in the file through the tiers, each the only occurrence after the previous piece; the file's
// lines between pieces stay as they are, and REPLACE's pieces replace SEARCH's pieces pairwise. A
// placeholder-looking line the file has where SEARCH puts it is text: this applies only when SEARCH as
// written is not in the file.

import { type Elision, type LineRange, type SearchReplaceBlock, type Tier } from '../types';
import { type PlaceholderContext } from '../formats/placeholders';
import { splitBlockLines } from '../match/lines';
import { Matcher, type Occurrence, prepareSearch } from '../match/tiers';
import { atLeast, LINE_TIERS, tierInfo } from '../match/tierTable';
import { markAmbiguous, markApplied, undecided } from './outcome';
import { type BatchView, type Evaluation } from './batchView';
import { nearestToHint } from './hints';
import { elisionNote, placeholderName, placeholderRuns, type PlaceholderRun, WRITE_IT_OUT } from './elisions';

/** The lines of a text between its placeholder runs: pieces.length === runs.length + 1. */
export interface Pieces {
  runs: PlaceholderRun[];
  /** 0-based [first, end) line ranges of each piece. */
  pieces: Array<[number, number]>;
}

export function splitAtPlaceholders(lines: readonly string[], context?: PlaceholderContext): Pieces {
  const runs = placeholderRuns(lines, [], context);
  const pieces: Array<[number, number]> = [];
  let from = 0;
  for (const run of runs) {
    pieces.push([from, run.first]);
    from = run.last + 1;
  }
  pieces.push([from, lines.length]);
  return { runs, pieces };
}

function isBlankPiece(lines: readonly string[], [a, b]: readonly [number, number]): boolean {
  return lines.slice(a, b).every((l) => l.trim() === '');
}

function linesText(what: string, [a, b]: readonly [number, number]): string {
  return b - a === 1 ? `${what} line ${a + 1}` : `${what} lines ${a + 1}-${b}`;
}

/**
 * The only occurrence of SEARCH piece `text` at or after working line `after`, at the first tier that
 * has any there and with no other at any tier; several: all of them (ambiguous). A line hint picks
 * among the first piece's.
 */
export function findPieceAfter(
  batch: BatchView,
  text: string,
  after: number,
  hint: number | undefined,
): { tier: Tier; occurrences: Occurrence[] } | undefined {
  const matcher = new Matcher(batch.matchDoc, prepareSearch(text));
  for (const tier of LINE_TIERS) {
    const occurrences = matcher.find(tier).filter((o) => o.start >= after);
    if (occurrences.length === 0) {
      continue;
    }
    if (occurrences.length > 1 && hint !== undefined) {
      const picked = nearestToHint(batch, occurrences, hint);
      if (picked !== undefined) {
        return { tier, occurrences: [picked] };
      }
    }
    if (occurrences.length === 1) {
      // A piece is often short ('}'): it must be the only place after the previous piece at every
      // tier, or an exact twin could be taken for the re-indented original.
      const loosest = matcher.find(LINE_TIERS[LINE_TIERS.length - 1]).filter((o) => o.start >= after);
      if (loosest.length > 1) {
        return { tier: LINE_TIERS[LINE_TIERS.length - 1], occurrences: loosest };
      }
    }
    return { tier, occurrences };
  }
  return undefined;
}

/**
 * The decision for a block whose SEARCH has placeholders the file does not have there; undefined when
 * SEARCH has none, or SEARCH as written is in the file (its placeholder-looking lines are text).
 */
export function decideElidedSearch(batch: BatchView, block: SearchReplaceBlock, context?: PlaceholderContext): Evaluation | undefined {
  const searchLines = splitBlockLines(block.search);
  const search = splitAtPlaceholders(searchLines, context);
  if (search.runs.length === 0 || block.search === block.replace || batch.settings.choices[block.index] !== undefined) {
    return undefined;
  }
  if (batch.findFirst(prepareSearch(block.search)).occurrences.length > 0) {
    return undefined;
  }
  const outcome = undecided(block.index);
  const refuse = (problem: string): Evaluation => {
    outcome.status = 'invalid';
    outcome.notes.push(problem);
    return { outcome };
  };
  const replaceLines = block.replace === '' ? [] : splitBlockLines(block.replace);
  const replace = splitAtPlaceholders(replaceLines, context);
  if (replace.runs.length !== search.runs.length) {
    const counted = (n: number) => `${n} placeholder${n === 1 ? '' : 's'}`;
    return refuse(
      `SEARCH has ${counted(search.runs.length)} (${search.runs.map((r) => placeholderName(r).replace('REPLACE', 'SEARCH')).join(', ')}) and REPLACE has ${counted(replace.runs.length)}; placeholders in both halves pair in order, so their counts must be equal: ${WRITE_IT_OUT}`,
    );
  }
  const hint = block.startLine ?? batch.settings.lineHint;
  const parts: Array<{ occurrence: Occurrence; replace: string[]; piece: number }> = [];
  let after = 0;
  let loosest: Tier = 'exact';
  for (let i = 0; i < search.pieces.length; i++) {
    const piece = search.pieces[i];
    const replacePiece = replace.pieces[i];
    if (isBlankPiece(searchLines, piece)) {
      // Blank lines name no place: only the same blank lines in REPLACE (nothing to change) can stand.
      const same = isBlankPiece(replaceLines, replacePiece) && replacePiece[1] - replacePiece[0] === piece[1] - piece[0];
      if (!same) {
        const place =
          i === 0 ? 'before its first placeholder' : i === search.runs.length ? 'after its last placeholder' : 'between two placeholders';
        return refuse(
          replacePiece[1] > replacePiece[0] && !isBlankPiece(replaceLines, replacePiece)
            ? `${linesText('REPLACE', replacePiece)} ${replacePiece[1] - replacePiece[0] === 1 ? 'stands' : 'stand'} where SEARCH has no lines (${place}), so where they go in the file is not certain; ${WRITE_IT_OUT}`
            : `REPLACE changes the blank lines SEARCH has ${place}, and blank lines name no place in the file; ${WRITE_IT_OUT}`,
        );
      }
      continue;
    }
    const found = findPieceAfter(batch, searchLines.slice(piece[0], piece[1]).join('\n'), after, parts.length === 0 ? hint : undefined);
    const where = parts.length === 0 ? '' : ` after file line ${batch.range(after - 1, after).startLine}`;
    if (found === undefined) {
      outcome.notes.push(
        `${linesText('SEARCH', piece)} (between SEARCH's placeholders) ${piece[1] - piece[0] === 1 ? 'is' : 'are'} not in ${batch.settings.fileName}${where}; SEARCH's pieces must be found in order`,
      );
      return { outcome };
    }
    if (found.occurrences.length > 1) {
      markAmbiguous(
        outcome,
        found.tier,
        found.occurrences.map((o) => batch.candidate(o.start, o.end, 1)),
      );
      outcome.notes.push(
        `${linesText('SEARCH', piece)} (between SEARCH's placeholders) occur ${found.occurrences.length} times${where}; add lines to that piece so it is unique`,
      );
      return { outcome };
    }
    const occurrence = found.occurrences[0];
    if (atLeast(occurrence.tier, loosest)) {
      loosest = occurrence.tier;
    }
    parts.push({ occurrence, replace: replaceLines.slice(replacePiece[0], replacePiece[1]), piece: i });
    after = occurrence.end;
  }
  if (parts.length === 0) {
    return refuse(`SEARCH is only placeholders, so it names no place in the file; ${WRITE_IT_OUT}`);
  }
  const first = parts[0].occurrence;
  const last = parts[parts.length - 1].occurrence;
  if (!tierInfo(loosest).appliesWithoutConsent && !batch.settings.autoApplyNormalized) {
    outcome.candidates = [batch.candidate(first.start, last.end, 1, `matched at the ${loosest} tier; not applied automatically`)];
    outcome.notes.push('a normalised match is offered as a candidate because automatic application of normalised matches is off');
    return { outcome };
  }
  markApplied(outcome, loosest, batch.range(first.start, last.end), 1);
  outcome.notes.push(...new Set(parts.flatMap((p) => p.occurrence.notes)));
  outcome.elisions = keptBetween(batch, parts, replace.runs);
  outcome.notes.push(...outcome.elisions.map(elisionNote));
  return { outcome, target: { kind: 'pieces', parts: parts.map(({ occurrence, replace: lines }) => ({ occurrence, replace: lines })) } };
}

/** The placeholders between two found pieces stand for the file's lines between them (the first of a run of them says which). */
function keptBetween(
  batch: BatchView,
  parts: ReadonlyArray<{ occurrence: Occurrence; piece: number }>,
  runs: readonly PlaceholderRun[],
): Elision[] {
  const elisions: Elision[] = [];
  for (let k = 0; k + 1 < parts.length; k++) {
    const gapStart = parts[k].occurrence.end;
    const gapEnd = parts[k + 1].occurrence.start;
    const kept: LineRange | undefined = gapEnd > gapStart ? batch.range(gapStart, gapEnd) : undefined;
    for (let j = parts[k].piece; j < parts[k + 1].piece; j++) {
      const run = runs[j];
      elisions.push({
        replaceStartLine: run.first + 1,
        replaceEndLine: run.last + 1,
        text: run.text,
        kept: j === parts[k].piece ? kept : undefined,
      });
    }
  }
  return elisions;
}
