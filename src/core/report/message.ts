// The one LLM-facing message for an apply result, shared by the CLI, the chat participant and the
// language-model tool. Its shape is what makes a model correct itself on the next turn: on a miss it
// quotes the file's real text for the closest regions with a score and line range, then asks for
// SEARCH to be re-emitted exactly from those lines.

import type { BatchStatus, BlockOutcome, Candidate, LineRange } from '../types';
import { tierForgives, tierInfo, tierPhrase } from '../match/tierTable';
import { type BlockVerdict, isFailure, isPlaced, verdictOf } from '../decide/outcome';
import { formatPercent, formatScore } from './score';
import { elisionNote } from '../formats/placeholders';

export { formatScore };

export interface MessageInput {
  /** Name of the file as the model knows it (workspace-relative path). */
  fileName: string;
  status: BatchStatus;
  blocks: readonly BlockOutcome[];
}

/** How many ambiguous occurrences are quoted in full; the rest are listed by line range only. */
const MAX_QUOTED_OCCURRENCES = 5;
/** How many ambiguous occurrences are listed by line range at all. */
const MAX_LISTED_OCCURRENCES = 20;

export function formatMessage(input: MessageInput): string {
  const { fileName, status, blocks } = input;
  if (blocks.length === 0) {
    return `No SEARCH/REPLACE blocks to apply to ${fileName}.`;
  }
  if (status === 'applied') {
    return appliedMessage(fileName, blocks);
  }

  const total = blocks.length;
  const failed = blocks.filter(isFailure);
  const sections = failed.map((block) => failedBlockMessage(fileName, block, total));
  if (sections.length === 0) {
    sections.push(`Nothing was applied to ${fileName}.`);
  }
  if (total > 1) {
    sections.push(batchFooter(fileName, blocks, failed));
  }
  return sections.join('\n\n');
}

/** How every message of a result that applied begins (blocks, code blocks, whole patches). */
const APPLIED = 'Applied ';

/**
 * The message of a result that applied, as a dry run must say it: nothing was written, so "Would apply
 * 2 blocks to a.ts at ..." instead of "Applied 2 blocks to a.ts at ...". Other messages (refusals, "Nothing
 * to apply") are the same either way.
 */
export function dryRunMessage(message: string): string {
  return message.startsWith(APPLIED) ? `Would apply ${message.slice(APPLIED.length)}` : message;
}

function appliedMessage(fileName: string, blocks: readonly BlockOutcome[]): string {
  const head = `${APPLIED}${plural(blocks.length, 'block')} to ${fileName}`;
  if (blocks.length === 1) {
    const [block] = blocks;
    const phrases = appliedPhrases(block);
    const where = block.range ? ` at ${rangeText(block.range)}` : '';
    return phrases.length === 0 ? `${head}${where}.` : `${head}${where}; ${phrases.join('; ')}.`;
  }
  const details: string[] = [];
  for (const block of blocks) {
    const phrases = appliedPhrases(block);
    if (phrases.length === 0) {
      continue;
    }
    const where = block.range ? ` (${rangeText(block.range)})` : '';
    const joint = /^(matched|placed|was) /.test(phrases[0]) ? ' ' : ': ';
    details.push(`block ${block.index}${where}${joint}${phrases.join('; ')}`);
  }
  if (details.length === 0) {
    return `${head}.`;
  }
  if (details.length === 1) {
    return `${head}; ${details[0]}.`;
  }
  return `${head}:\n${details.map((d) => `- ${d}.`).join('\n')}`;
}

/** What a placed block needed beyond an exact match (the engine's notes, else the tier's name). */
function appliedPhrases(block: BlockOutcome): string[] {
  const phrases = block.notes.map(stripPeriod).filter((n) => n !== '');
  if (phrases.length > 0) {
    return phrases;
  }
  const tier = tierInfo(block.tier ?? 'exact');
  if (tier.kind === 'exact') {
    return [];
  }
  if (tier.kind === 'fuzzy') {
    const score = block.score !== undefined ? ` (score ${formatScore(block.score)})` : '';
    return [`placed by fuzzy match${score}`];
  }
  return [`matched after normalising ${tier.forgives}`];
}

/** Why a block that did not place stopped the batch, one message per kind of verdict. */
function failedBlockMessage(fileName: string, block: BlockOutcome, total: number): string {
  const prefix = total > 1 ? `Block ${block.index} of ${total}: ` : '';
  const verdict = verdictOf(block);
  switch (verdict.kind) {
    case 'ambiguous':
      return ambiguousMessage(prefix, fileName, block, verdict);
    case 'invalid':
      return invalidMessage(prefix, fileName, verdict);
    case 'already-applied':
      return alreadyAppliedMessage(prefix, fileName, block, verdict.at);
    case 'stale':
    case 'not-found':
      // A stale anchor reads as a miss whose candidates are the current text of the replaced lines.
      return notFoundMessage(prefix, fileName, block);
    case 'applied':
    case 'held-back':
      throw new Error(`block ${block.index} placed; it has no failure to explain`);
  }
}

function notFoundMessage(prefix: string, fileName: string, block: BlockOutcome): string {
  const out: string[] = [];
  const notes = block.notes.map((n) => `Note: ${ensurePeriod(n)}`);
  // The engine may already say so in a note; say it once.
  const truncated = block.truncated && !block.notes.some((n) => /work cap|truncat/i.test(n));
  if (block.candidates.length === 0) {
    out.push(`${prefix}SEARCH text not found in ${fileName}, and nothing similar was found.`);
    out.push(...notes);
    if (truncated) {
      out.push(TRUNCATED);
    }
    out.push(`Re-read ${fileName} and re-emit SEARCH copied exactly from its current content (every character, including indentation).`);
    return out.join('\n');
  }
  // Candidates with a note (partial-line, stale anchor, normalised match held back) are not fuzzy guesses.
  const kind = block.candidates.some((c) => c.note) ? 'ranked by similarity' : 'fuzzy, ranked by similarity';
  out.push(`${prefix}SEARCH text not found in ${fileName}. Closest matches (${kind}):`);
  out.push(...notes);
  out.push('');
  for (const c of block.candidates) {
    const note = c.note ? ` (${stripPeriod(c.note)})` : '';
    out.push(`  [${formatScore(c.score)}] ${rangeText(c)}${note}:`);
    out.push(indent(quoted(c.text), '    '));
    if (c.differences && c.differences.length > 0) {
      out.push('    What differs from SEARCH:');
      out.push(...c.differences.map((d) => `      ${d}`));
    }
    out.push('');
  }
  if (truncated) {
    out.push(TRUNCATED);
  }
  out.push('Re-emit SEARCH copied exactly from the lines above (every character, including indentation).');
  return out.join('\n');
}

function alreadyAppliedMessage(prefix: string, fileName: string, block: BlockOutcome, at: LineRange): string {
  const out = [
    `${prefix}SEARCH text not found in ${fileName}: already applied at ${rangeText(at)} (${fileName} already holds this block's REPLACE text there).`,
  ];
  out.push(...block.notes.filter((n) => !n.startsWith('already applied at')).map((n) => `Note: ${ensurePeriod(n)}`));
  out.push('Do not re-send this block; it needs no change. Re-read the file before any further edit there.');
  return out.join('\n');
}

const TRUNCATED = 'The fuzzy search was truncated at its work limit (very large input); closer matches may exist elsewhere.';

function ambiguousMessage(prefix: string, fileName: string, block: BlockOutcome, verdict: BlockVerdict & { kind: 'ambiguous' }): string {
  const { occurrences, tier } = verdict;
  const normalised = tierInfo(tier).kind === 'normalising' ? ` (after normalising ${tierForgives(tier)})` : '';
  const listed = occurrences.slice(0, MAX_LISTED_OCCURRENCES).map((c) => rangeText(c, false));
  const more = occurrences.length > MAX_LISTED_OCCURRENCES ? ` and ${occurrences.length - MAX_LISTED_OCCURRENCES} more` : '';
  const out: string[] = [
    `${prefix}SEARCH text matches ${occurrences.length} places in ${fileName}${normalised}: lines ${listed.join(', ')}${more}. Nothing was applied.`,
  ];
  out.push(...block.notes.map((n) => `Note: ${ensurePeriod(n)}`));
  out.push('');
  for (const c of occurrences.slice(0, MAX_QUOTED_OCCURRENCES)) {
    const note = c.note ? ` (${stripPeriod(c.note)})` : '';
    out.push(`  ${rangeText(c)}${note}:`);
    out.push(indent(quoted(c.text), '    '));
    out.push('');
  }
  if (occurrences.length > MAX_QUOTED_OCCURRENCES) {
    out.push(`  (${occurrences.length - MAX_QUOTED_OCCURRENCES} more occurrences not shown)`);
    out.push('');
  }
  out.push(
    'To pick one, add surrounding lines to SEARCH that occur only at the intended place, or give its first line number as :start_line:N on the line after the SEARCH marker.',
  );
  return out.join('\n');
}

function invalidMessage(prefix: string, fileName: string, verdict: BlockVerdict & { kind: 'invalid' }): string {
  const problem = verdict.problems.length > 0 ? verdict.problems.map(ensurePeriod).join(' ') : 'The block cannot be applied as written.';
  return `${prefix}Invalid block for ${fileName}: ${problem}`;
}

// ---- code blocks -------------------------------------------------------------------------------------
// A plain code block has no SEARCH, no REPLACE, no :start_line: and is one "code block" however many engine
// blocks carry it, so it gets its own wording, with the same structure: what happened, every place listed,
// what to do next (re-send the code block with ...). Every way in (CLI, tool, @apply, CodeLens, clipboard,
// MCP) reads it from applySnippet's result.

/** What a code block did or could not do, as applySnippet knows it. */
export interface CodeBlockMessageInput {
  fileName: string;
  status: BatchStatus;
  /** The engine's outcomes of the blocks that carried it (one when it was refused before the engine). */
  blocks: readonly BlockOutcome[];
  /** Each part placed: "replaced method total of class Cart", with the lines it touched. */
  parts: ReadonlyArray<{ action: string; what: string; range?: LineRange }>;
  /** A whole-file rewrite's removed declarations. */
  removed: ReadonlyArray<{ what: string } & LineRange>;
  /** The part that could not be placed and why (the plan's refusal); absent when the engine refused. */
  refusal?: { what: string; reason: string; twoReadings?: boolean };
  /** The file already holds every line it shows, at these lines. */
  unchanged?: LineRange;
  /** A partial edit that starts at the file's top: the top-level declarations it did not show, kept ("function b, function c"). */
  kept?: string;
}

export function formatCodeBlockMessage(input: CodeBlockMessageInput): string {
  const { fileName, status } = input;
  if (input.unchanged) {
    return `Nothing to apply to ${fileName}: the file already holds every line the code block shows (${rangeText(input.unchanged)}). Do not re-send it.`;
  }
  if (status === 'applied') {
    return codeBlockAppliedMessage(input);
  }
  const outcome = input.blocks.find(isFailure) ?? input.blocks[0];
  const why = input.refusal ? stripPeriod(input.refusal.reason) : outcome?.notes.join('; ');
  const what = input.refusal && input.refusal.what !== 'the code block' ? input.refusal.what : 'it';
  const head = `The code block was not applied to ${fileName}`;
  const verdict = outcome ? verdictOf(outcome) : undefined;
  if (verdict?.kind === 'ambiguous') {
    const places = verdict.occurrences;
    if (places.length === 1 && input.refusal?.twoReadings) {
      // One place read two ways (a line changed, or a line added beside it): the reason says what to show.
      return [
        `${head}: ${what} can be read two ways at ${rangeText(places[0])}.`,
        ...(why ? [`Why: ${ensurePeriod(why)}`] : []),
        '',
        ...quotedPlaces(places),
      ]
        .join('\n')
        .trimEnd();
    }
    const out = [`${head}: ${what} fits ${places.length} places: ${joinList(places.map((c) => rangeText(c)))}.`];
    if (why) {
      out.push(`Why: ${ensurePeriod(why)}`);
    }
    out.push('', ...quotedPlaces(places));
    out.push(
      'To pick one, re-send the code block with the enclosing declaration around it (its first line, such as `class Cart {`, and its last) or with lines next to it that occur only at the intended place.',
    );
    return out.join('\n');
  }
  if (verdict?.kind === 'not-found' || verdict?.kind === 'stale' || verdict?.kind === 'already-applied') {
    const out = [`${head}: ${what} ${/^lines /.test(what) ? 'have' : 'has'} no place in the file.`];
    if (why) {
      out.push(`Why: ${ensurePeriod(why)}`);
    }
    const candidates = outcome?.candidates ?? [];
    if (candidates.length > 0) {
      out.push('', `The closest text in ${fileName} (ranked by similarity):`, '');
      for (const c of candidates) {
        out.push(`  [${formatScore(c.score)}] ${rangeText(c)}:`, indent(quoted(c.text), '    '), '');
      }
      out.push(
        'Re-send the code block with lines of the file around the new code, copied exactly from the text above, or with the declaration it belongs to.',
      );
    } else {
      out.push(`Re-read ${fileName}, then re-send the code block with the declaration it belongs to or lines of the file next to it.`);
    }
    return out.join('\n');
  }
  const problem = input.refusal
    ? `${what === 'it' ? '' : `${what}: `}${input.refusal.reason}`
    : verdict?.kind === 'invalid' && verdict.problems.length > 0
      ? verdict.problems.join(' ')
      : why;
  return `${head}: ${ensurePeriod(problem || 'it cannot be applied as written')}`;
}

function codeBlockAppliedMessage(input: CodeBlockMessageInput): string {
  const { fileName, parts, removed } = input;
  const rewrite = parts.length > 0 && parts.every((p) => p.action === 'rewritten');
  // A removal names the file's lines it removed, then what they held: "removed lines 12-30: method x".
  const lines = parts
    .filter((p) => p.action !== 'rewritten')
    .map((p) =>
      p.action === 'removed' && p.range
        ? `removed ${rangeText(p.range)}${/^lines? \d/.test(p.what) ? '' : `: ${p.what}`}`
        : `${p.action} ${p.what}${p.range && !/^lines? \d+(-\d+)?$/.test(p.what) ? ` (${/ of the code block$/.test(p.what) ? 'at ' : ''}${rangeText(p.range)})` : ''}`,
    );
  const gone = removed.length > 0 ? joinList(removed.map((r) => `removed ${rangeText(r)}: ${r.what}`)) : '';
  const kept = input.kept ? `; kept ${input.kept}: the block did not show ${input.kept.includes(', ') ? 'them' : 'it'}` : '';
  if (rewrite) {
    const touched = joinList(parts.flatMap((p) => (p.range ? [rangeText(p.range, false)] : [])));
    const where = touched ? ` (lines ${touched} changed)` : '';
    return `${APPLIED}the code block to ${fileName} as a rewrite of the whole file${where}${gone ? `; ${gone}` : ''}.`;
  }
  if (lines.length <= 1) {
    return `${APPLIED}the code block to ${fileName}${lines.length === 1 ? `: ${lines[0]}` : ''}${kept}.`;
  }
  return `${APPLIED}the code block to ${fileName}:\n${lines.map((l) => `- ${l}`).join('\n')}${kept ? `\n${kept.slice(2)}.` : ''}`;
}

/** Each place quoted, up to the limit; the rest by line range. */
function quotedPlaces(places: readonly Candidate[]): string[] {
  const out: string[] = [];
  for (const c of places.slice(0, MAX_QUOTED_OCCURRENCES)) {
    out.push(`  ${rangeText(c)}:`, indent(quoted(c.text), '    '), '');
  }
  if (places.length > MAX_QUOTED_OCCURRENCES) {
    out.push(`  (${places.length - MAX_QUOTED_OCCURRENCES} more places not shown)`, '');
  }
  return out;
}

/**
 * One line per block, as chat's dry run and the editor show it: "matched after normalising indentation
 * at lines 3-5", "ambiguous: 2 matches at lines 1-2, 7-8", "not found, best 92% at lines 142-148".
 */
export function outcomeLine(outcome: BlockOutcome): string {
  const verdict = verdictOf(outcome);
  switch (verdict.kind) {
    case 'applied':
    case 'held-back': {
      const where = verdict.range ? ` at ${rangeText(verdict.range)}` : '';
      const phrase = tierPhrase(verdict.tier);
      const how =
        tierInfo(verdict.tier).kind === 'fuzzy' && outcome.score !== undefined ? `${phrase} (${formatPercent(outcome.score)})` : phrase;
      // What each placeholder of REPLACE kept: the user and the model see the lines were not dropped.
      const kept = (outcome.elisions ?? []).map((e) => `; ${elisionNote(e)}`).join('');
      return `matched ${how}${where}${kept}`;
    }
    case 'ambiguous': {
      const how = tierInfo(verdict.tier).kind !== 'exact' ? ` (${tierPhrase(verdict.tier)})` : '';
      const places = verdict.occurrences.map((c) => `${c.startLine}-${c.endLine}`).join(', ');
      return `ambiguous: ${verdict.occurrences.length} matches${how} at lines ${places}`;
    }
    case 'already-applied':
    case 'stale':
    case 'not-found': {
      const best = outcome.candidates[0];
      if (!best) {
        return 'not found, nothing similar in the file';
      }
      return `not found, best ${formatPercent(best.score)} at ${rangeText(best)}`;
    }
    case 'invalid':
      return `invalid: ${verdict.problems[0] ?? 'this block cannot be applied'}`;
  }
}

/**
 * For a block waiting for the user's choice in the editor: "Block 2 matches 2 places in a.ts (lines
 * 1-2, 7-8); ..." or "Block 2 has no exact match in a.ts; best candidate 92% at ...". Undefined for a
 * block that needs no choice or offers nothing to choose from.
 */
export function choiceNeededLine(outcome: BlockOutcome, fileLabel: string): string | undefined {
  const verdict = verdictOf(outcome);
  if (verdict.kind === 'ambiguous') {
    return `Block ${outcome.index} matches ${verdict.occurrences.length} places in ${fileLabel} (lines ${verdict.occurrences.map((c) => `${c.startLine}-${c.endLine}`).join(', ')}); nothing was applied until you choose one.`;
  }
  if ((verdict.kind === 'not-found' || verdict.kind === 'stale') && outcome.candidates.length > 0) {
    const best = outcome.candidates[0];
    return `Block ${outcome.index} has no exact match in ${fileLabel}; best candidate ${formatPercent(best.score)} at lines ${best.startLine}-${best.endLine}. Nothing was applied until you choose.`;
  }
  return undefined;
}

/** For multi-block batches: which block(s) stopped the batch and that the others are waiting. */
function batchFooter(fileName: string, blocks: readonly BlockOutcome[], failed: readonly BlockOutcome[]): string {
  const failedList = failed.map((b) => b.index);
  if (failed.length > 0 && failed.every((b) => verdictOf(b).kind === 'already-applied')) {
    const which = failedList.length === 1 ? `block ${failedList[0]} is` : `blocks ${joinList(failedList.map(String))} are`;
    return `Nothing was applied to ${fileName} because ${which} already applied; a batch applies all its blocks or none. Re-send the batch without ${failedList.length === 1 ? 'it' : 'them'}.`;
  }
  const fine = blocks.filter(isPlaced).map((b) => b.index);
  const cause = failedList.length === 1 ? `block ${failedList[0]}` : `blocks ${joinList(failedList.map(String))}`;
  let text = `Nothing was applied to ${fileName} because of ${cause}; a batch applies all its blocks or none.`;
  if (fine.length > 0) {
    const which = fine.length === 1 ? `Block ${fine[0]}` : `Blocks ${joinList(fine.map(String))}`;
    text += ` ${which} matched and will apply once ${failedList.length === 1 ? 'it is' : 'they are'} fixed; re-send the whole batch.`;
  }
  return text;
}

function rangeText(range: LineRange, withWord = true): string {
  const span = range.startLine === range.endLine ? `${range.startLine}` : `${range.startLine}-${range.endLine}`;
  if (!withWord) {
    return span;
  }
  return range.startLine === range.endLine ? `line ${span}` : `lines ${span}`;
}

/** A quoted candidate keeps its lines whole up to these sizes (a minified 300 kB line is not worth repeating). */
const MAX_QUOTED_LINE = 2_000;
const MAX_QUOTED_TEXT = 20_000;

/** The candidate's text, with very long lines and very long regions cut and the cut said. */
function quoted(text: string): string {
  if (text.length <= MAX_QUOTED_LINE && text.length <= MAX_QUOTED_TEXT) {
    return text;
  }
  const out: string[] = [];
  let total = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let line = lines[i];
    if (line.length > MAX_QUOTED_LINE) {
      line = `${line.slice(0, MAX_QUOTED_LINE)} [… line cut: ${line.length} characters in all]`;
    }
    if (total + line.length > MAX_QUOTED_TEXT) {
      out.push(`[… ${lines.length - i} more line${lines.length - i === 1 ? '' : 's'} not quoted]`);
      break;
    }
    out.push(line);
    total += line.length + 1;
  }
  return out.join('\n');
}

function indent(text: string, margin: string): string {
  return text
    .split('\n')
    .map((line) => (line === '' ? '' : margin + line))
    .join('\n');
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

function joinList(items: readonly string[]): string {
  if (items.length <= 1) {
    return items.join('');
  }
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

function stripPeriod(text: string): string {
  return text.trim().replace(/\.$/, '');
}

function ensurePeriod(text: string): string {
  const t = text.trim();
  return /[.!?:]$/.test(t) ? t : `${t}.`;
}
