// What the user sees right after an apply: a short highlight on the changed lines and a status bar message.
import * as vscode from 'vscode';
import type { TextEdit, Tier } from '../core/types';
import { Colors, FLASH_MS } from './constants';

const TIER_PHRASES: Record<Tier, string> = {
  exact: 'exactly',
  'line-endings': 'after normalising line endings',
  'trailing-whitespace': 'after ignoring trailing whitespace',
  indentation: 'after normalising indentation',
  quotes: 'after normalising quotes',
  unicode: 'after normalising unicode punctuation',
  'line-numbers': 'after stripping line numbers',
  'sanitized-tags': 'after restoring sanitised tags',
  whitespace: 'after ignoring whitespace between tokens',
  fuzzy: 'by fuzzy match',
};

/** "after normalising indentation" and the like, for messages. */
export function tierPhrase(tier: Tier): string {
  return TIER_PHRASES[tier];
}

/**
 * "Applied 3/3 blocks to src/x.ts (1 after normalising indentation, 1 at a chosen candidate)".
 * `placements` has one entry per block: its tier, or 'chosen' when the user picked the place.
 */
export function appliedSummary(placements: readonly (Tier | 'chosen' | undefined)[], labels: readonly string[]): string {
  const n = placements.length;
  const counts = new Map<string, number>();
  for (const p of placements) {
    if (p === undefined || p === 'exact') {
      continue;
    }
    const phrase = p === 'chosen' ? 'at a chosen candidate' : tierPhrase(p);
    counts.set(phrase, (counts.get(phrase) ?? 0) + 1);
  }
  const where = labels.length === 0 ? '' : labels.length <= 3 ? ` to ${labels.join(', ')}` : ` to ${labels.length} files`;
  const details = [...counts].map(([phrase, count]) => `${count} ${phrase}`);
  return `Applied ${n}/${n} block${n === 1 ? '' : 's'}${where}${details.length ? ` (${details.join(', ')})` : ''}`;
}

/** Ranges of the new text in the document after `edits` (original-text offsets) were applied. */
export function rangesAfterEdits(document: vscode.TextDocument, edits: readonly TextEdit[]): vscode.Range[] {
  let delta = 0;
  const ranges: vscode.Range[] = [];
  for (const edit of [...edits].sort((a, b) => a.start - b.start)) {
    const start = edit.start + delta;
    const end = start + edit.newText.length;
    delta += edit.newText.length - (edit.end - edit.start);
    const from = document.positionAt(start);
    const to = document.positionAt(end);
    // A pure deletion still gets one highlighted line where the text was.
    ranges.push(new vscode.Range(from.line, 0, Math.max(from.line, to.character === 0 && to.line > from.line ? to.line - 1 : to.line), 0));
  }
  return ranges;
}

export class Feedback implements vscode.Disposable {
  private readonly flash = vscode.window.createTextEditorDecorationType({
    backgroundColor: new vscode.ThemeColor(Colors.appliedBackground),
    isWholeLine: true,
    overviewRulerColor: new vscode.ThemeColor(Colors.appliedBackground),
    overviewRulerLane: vscode.OverviewRulerLane.Full,
  });
  private timers = new Set<ReturnType<typeof setTimeout>>();

  /** Highlights `ranges` in every visible editor of `uri` for a moment. */
  flashRanges(uri: vscode.Uri, ranges: readonly vscode.Range[]): void {
    const key = uri.toString();
    const editors = vscode.window.visibleTextEditors.filter((e) => e.document.uri.toString() === key);
    if (editors.length === 0 || ranges.length === 0) {
      return;
    }
    for (const editor of editors) {
      editor.setDecorations(this.flash, ranges);
    }
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      // Editors closed in the meantime must not be touched (VS Code warns about disposed editors).
      const visible = new Set(vscode.window.visibleTextEditors);
      for (const editor of editors.filter((e) => visible.has(e))) {
        editor.setDecorations(this.flash, []);
      }
    }, FLASH_MS);
    this.timers.add(timer);
  }

  /** A transient status bar message (the status bar is where a paste's result is expected). */
  status(text: string): void {
    vscode.window.setStatusBarMessage(text, 6000);
  }

  dispose(): void {
    for (const timer of this.timers) {
      clearTimeout(timer);
    }
    this.flash.dispose();
  }
}
