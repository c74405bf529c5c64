// The words the @apply participant shows for an engine outcome. Kept free of the vscode module so the
// wording is unit-tested in plain Node; chatParticipant.ts turns it into markdown, anchors and buttons.

import { type BlockOutcome, type Candidate, formatPercent, isPlaced, type LineRange, outcomeLine } from '../../core';

/** "line 7" or "lines 142-148". */
export function linesLabel(range: LineRange): string {
  return range.startLine === range.endLine ? `line ${range.startLine}` : `lines ${range.startLine}-${range.endLine}`;
}

/** A similarity as a whole percentage, rounded down like every score shown (see core/report/score.ts). */
export const percent = formatPercent;

/** The one-line outcome of a dry run, e.g. "not found, best 92% at lines 142-148" (see core/report/message.ts). */
export { outcomeLine };

/** True when the block found exactly one place (applied in the dry run, or waiting on another block). */
export function isUnique(outcome: BlockOutcome): boolean {
  return isPlaced(outcome) && outcome.range !== undefined;
}

/** Button label for choosing one candidate: "Apply here (92%, lines 142-148)" or "Apply here (2 of 3, lines 10-12)". */
export function candidateButtonLabel(outcome: BlockOutcome, candidate: Candidate, position: number): string {
  if (outcome.status === 'ambiguous') {
    return `Apply here (${position + 1} of ${outcome.candidates.length}, ${linesLabel(candidate)})`;
  }
  return `Apply here (${percent(candidate.score)}, ${linesLabel(candidate)})`;
}

/** Summary line for a whole batch of blocks. */
export function batchLine(outcomes: readonly BlockOutcome[]): string {
  const unique = outcomes.filter(isUnique).length;
  const total = outcomes.length;
  if (total === 1) {
    return unique === 1 ? 'The block matches one place.' : 'The block needs your choice before it can apply.';
  }
  if (unique === total) {
    return `All ${total} blocks match one place each.`;
  }
  return `${unique} of ${total} blocks match one place; the others need your choice.`;
}

export const HELP_MARKDOWN = [
  '**@apply** matches SEARCH/REPLACE blocks against the open file (unsaved changes included) and applies them as one undoable edit. No language model is involved.',
  '',
  'Give the blocks in your message, attach a file or selection that holds them (`#file`), or type `/clipboard` to use the clipboard. A block is:',
  '',
  '````text',
  'src/greeting.ts',
  '```ts',
  '<<<<<<< SEARCH',
  'export function greet(name: string) {',
  '  return "Hello " + name;',
  '}',
  '=======',
  'export function greet(name: string) {',
  '  return `Hello, ${name}!`;',
  '}',
  '>>>>>>> REPLACE',
  '```',
  '````',
  '',
  '- The line before the block (or before its code fence) may name the file; otherwise the block goes to an attached file, or to the active editor.',
  '- SEARCH holds whole lines copied from the file. Indentation, trailing spaces, quotes, line endings and spacing may differ: the match tolerates them and says which normalisation it used.',
  '- An optional `:start_line:42` line right after `<<<<<<< SEARCH` picks one of several occurrences.',
  "- Cline's `------- SEARCH` / `=======` / `+++++++ REPLACE` markers work too; an empty SEARCH fills an empty file.",
  '',
  '- A plain fenced code block works too (one declaration, a snippet with `// ... existing code ...` for the code it leaves out, or the whole file): it goes to the file its info string (` ```ts src/cart.ts `), a first line `// filepath: src/cart.ts` or the line before the fence names, else to the active editor, and is placed by its declarations.',
  '',
  'For each block you get the outcome, a link to the place, and buttons: **Apply** for a unique match, **Apply here (92%, lines 142-148)** for each near miss or each place of an ambiguous block, **Preview** for a diff, and **Apply all** for a batch. A button re-checks the live file before it edits: if the text moved or changed, it shows the new situation instead.',
].join('\n');

/** Lines of a quoted text shown in a reply before "… (N more lines)". */
const MAX_QUOTED_LINES = 8;

/** Text quoted in a fence longer than any run of backticks it holds, cut to MAX_QUOTED_LINES lines. */
export function fence(text: string): string {
  const lines = text.split('\n');
  const shown = lines.slice(0, MAX_QUOTED_LINES);
  if (lines.length > shown.length) {
    shown.push(`… (${lines.length - shown.length} more lines)`);
  }
  const body = shown.join('\n');
  let ticks = '```';
  while (body.includes(ticks)) {
    ticks += '`';
  }
  return `${ticks}\n${body}\n${ticks}\n`;
}

/** Text shown literally in chat markdown. */
export function escapeMarkdown(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+!|<>]/g, '\\$&');
}
