// Moves a line range through document edits so a choice made on one version still points at the same
// text on the next ("candidates move with the text").
import type { BlockChoices } from './rematch';
import type { LineRange } from '../types';

/** A 0-based position, as an editor reports it. */
export interface TextPosition {
  line: number;
  character: number;
}

/** One replacement of an edit, as VS Code reports it (vscode.TextDocumentContentChangeEvent fits). */
export interface ContentChange {
  range: { start: TextPosition; end: TextPosition };
  text: string;
}

export interface MappedRange {
  range: LineRange;
  /** An edit changed text inside the range (not just lines above it). */
  touched: boolean;
}

function newlineCount(text: string): number {
  let n = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
    n++;
  }
  return n;
}

/**
 * Maps a 1-based inclusive line range through content changes, applied in the order given (VS Code
 * reports the changes of one event so that applying them in sequence is correct).
 */
export function mapLineRange(range: LineRange, changes: readonly ContentChange[]): MappedRange {
  let start = range.startLine - 1;
  let end = range.endLine - 1;
  let touched = false;
  for (const change of changes) {
    const s = change.range.start;
    const e = change.range.end;
    const delta = newlineCount(change.text) - (e.line - s.line);
    if (s.line > end) {
      continue;
    }
    // Entirely above the range, or ending exactly at column 0 of its first line with the inserted text
    // ending in a line break (whole lines inserted or removed above it).
    const above =
      e.line < start ||
      (e.line === start &&
        e.character === 0 &&
        s.line < start &&
        (change.text.endsWith('\n') || (change.text === '' && s.character === 0))) ||
      (s.line === start && s.character === 0 && e.line === start && e.character === 0 && change.text.endsWith('\n'));
    if (above) {
      start += delta;
      end += delta;
      continue;
    }
    touched = true;
    if (s.line < start) {
      start = s.line;
    }
    end = Math.max(start, end + delta);
  }
  return { range: { startLine: start + 1, endLine: end + 1 }, touched };
}

/**
 * Moves the choices made on the version before `version` through the changes that made `version`, so
 * they keep pointing at their text until the next re-match; a change inside a range marks it touched.
 * Choices on older versions stay as they are (they are found again by their text).
 */
export function moveChoices(choices: BlockChoices, changes: readonly ContentChange[], version: number): void {
  for (const choice of Object.values(choices)) {
    if (choice.version === version - 1) {
      const mapped = mapLineRange(choice.range, changes);
      choice.range = mapped.range;
      choice.touched = choice.touched || mapped.touched;
      choice.version = version;
    }
  }
}
