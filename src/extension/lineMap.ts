// Moves a line range through document edits so a choice made on one version still points at the same
// text on the next ("candidates move with the text").
import type * as vscode from 'vscode';
import type { LineRange } from '../core/types';

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
export function mapLineRange(range: LineRange, changes: readonly vscode.TextDocumentContentChangeEvent[]): MappedRange {
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
