// What the user sees right after an apply: a short highlight on the changed lines and a status bar message.
import * as vscode from 'vscode';
import { type TextEdit, type Tier, tierInfo, tierPhrase } from '../core';
import { Colors, FLASH_MS } from './constants';
import { LazyDecorationType } from './lazyDecoration';

/**
 * "Applied 3/3 blocks to src/x.ts (1 after normalising indentation, 1 at a chosen candidate)".
 * `placements` has one entry per block: its tier, or 'chosen' when the user picked the place.
 */
export function appliedSummary(placements: readonly (Tier | 'chosen' | undefined)[], labels: readonly string[]): string {
  const n = placements.length;
  const counts = new Map<string, number>();
  for (const p of placements) {
    if (p === undefined || (p !== 'chosen' && tierInfo(p).kind === 'exact')) {
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
  private readonly flash = new LazyDecorationType(() => ({
    backgroundColor: new vscode.ThemeColor(Colors.appliedBackground),
    isWholeLine: true,
    overviewRulerColor: new vscode.ThemeColor(Colors.appliedBackground),
    overviewRulerLane: vscode.OverviewRulerLane.Full,
  }));
  /** Per document (uri string): the highlighted ranges and the timer that clears them. */
  private readonly flashes = new Map<string, { ranges: readonly vscode.Range[]; timer: ReturnType<typeof setTimeout> }>();

  /** Highlights `ranges` in every visible editor of `uri` for a moment (a new flash replaces the last one). */
  flashRanges(uri: vscode.Uri, ranges: readonly vscode.Range[]): void {
    const key = uri.toString();
    const editors = vscode.window.visibleTextEditors.filter((e) => e.document.uri.toString() === key);
    if (editors.length === 0 || ranges.length === 0) {
      return;
    }
    const previous = this.flashes.get(key);
    if (previous) {
      clearTimeout(previous.timer);
    }
    for (const editor of editors) {
      this.flash.set(editor, ranges);
    }
    const timer = setTimeout(() => {
      this.flashes.delete(key);
      // Editors closed in the meantime must not be touched (VS Code warns about disposed editors).
      for (const editor of vscode.window.visibleTextEditors.filter((e) => e.document.uri.toString() === key)) {
        this.flash.set(editor, []);
      }
    }, FLASH_MS);
    this.flashes.set(key, { ranges, timer });
  }

  /** The ranges of `uri` highlighted right now (empty once the flash is over). */
  highlighted(uri: vscode.Uri): readonly vscode.Range[] {
    return this.flashes.get(uri.toString())?.ranges ?? [];
  }

  /**
   * The document's visible editor, or a new one in the active editor group, opened without taking the
   * focus from where the user clicked (e.g. a button in the Chat view).
   */
  async show(document: vscode.TextDocument): Promise<vscode.TextEditor> {
    const key = document.uri.toString();
    return (
      vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === key) ??
      vscode.window.showTextDocument(document, { preserveFocus: true, preview: false })
    );
  }

  /** Shows the lines an apply changed: scrolls the first into view (see show()) and highlights them all. */
  async reveal(document: vscode.TextDocument, ranges: readonly vscode.Range[]): Promise<vscode.TextEditor> {
    const editor = await this.show(document);
    const first = [...ranges].sort((a, b) => a.start.line - b.start.line)[0];
    if (first) {
      editor.revealRange(first, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
    this.flashRanges(document.uri, ranges);
    return editor;
  }

  /** A transient status bar message (the status bar is where a paste's result is expected). */
  status(text: string): void {
    vscode.window.setStatusBarMessage(text, 6000);
  }

  dispose(): void {
    for (const { timer } of this.flashes.values()) {
      clearTimeout(timer);
    }
    this.flashes.clear();
    this.flash.dispose();
  }
}
