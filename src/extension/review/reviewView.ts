// The marks of a review (issue 27) in every visible editor of a reviewed document: added and changed
// lines with a background and a gutter bar, the replaced lines in a hover (and a rule where lines only
// went away), the lenses "Keep | Undo change 2 of 3" ("Keep all | Undo all" above the first), a status
// bar item and the context key of the next/previous keybindings. The words come from core/report/review.ts.
import * as vscode from 'vscode';
import { hunkLength, replacedLinesMarkdown, reviewLenses, type TrackedHunk } from '../../core';
import { Colors, ContextKeys, ReviewCommands } from '../constants';
import { ContextKey } from '../contextKey';
import { LazyDecorationType } from '../lazyDecoration';
import type { ReviewStore } from './reviewStore';

const COMMANDS = { keepAll: ReviewCommands.keepAll, undoAll: ReviewCommands.undoAll, keep: ReviewCommands.keep, undo: ReviewCommands.undo };

export class ReviewView implements vscode.Disposable, vscode.CodeLensProvider, vscode.HoverProvider {
  private readonly added: LazyDecorationType;
  private readonly removed: LazyDecorationType;
  private readonly status = vscode.window.createStatusBarItem('resilientApply.review', vscode.StatusBarAlignment.Left, 90);
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly subscriptions: vscode.Disposable[];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly reviewingKey = new ContextKey(ContextKeys.editorReviewing);
  /**
   * The store changed since the lenses were last said to change. Switching editors changes no lens (they
   * follow the store), and each change event makes the workbench ask every lens provider again for every
   * visible editor.
   */
  private lensesStale = false;

  constructor(
    private readonly store: ReviewStore,
    extensionUri: vscode.Uri,
  ) {
    const color = (id: string) => new vscode.ThemeColor(id);
    const lane = vscode.OverviewRulerLane.Left;
    this.added = new LazyDecorationType(() => ({
      isWholeLine: true,
      backgroundColor: color(Colors.reviewAddedBackground),
      gutterIconPath: vscode.Uri.joinPath(extensionUri, 'media', 'review-gutter.svg'),
      gutterIconSize: 'contain',
      overviewRulerColor: color(Colors.reviewOverviewRuler),
      overviewRulerLane: lane,
    }));
    this.removed = new LazyDecorationType(() => ({
      isWholeLine: true,
      borderColor: color(Colors.reviewRemovedBorder),
      borderStyle: 'solid',
      borderWidth: '2px 0 0 0',
      overviewRulerColor: color(Colors.reviewRemovedBorder),
      overviewRulerLane: lane,
    }));
    this.status.command = ReviewCommands.files;
    this.subscriptions = [
      this.added,
      this.removed,
      this.status,
      this.lensesChanged,
      // Typing moves the marks with it: they are set again at most every 50 ms.
      store.onDidChange((now) => {
        this.lensesStale = true;
        if (now) {
          this.render();
        } else {
          this.timer ??= setTimeout(() => this.render(), 50);
        }
      }),
      vscode.window.onDidChangeVisibleTextEditors(() => this.render()),
      vscode.window.onDidChangeActiveTextEditor(() => this.render()),
    ];
  }

  render(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const editor of vscode.window.visibleTextEditors) {
      // Plain ranges, sent as numbers: the replaced lines are provideHover's, built when hovered.
      const added: vscode.Range[] = [];
      const removed: vscode.Range[] = [];
      for (const h of this.store.pending(editor.document.uri)) {
        (hunkLength(h) > 0 ? added : removed).push(linesOf(h, editor.document));
      }
      this.added.set(editor, added);
      this.removed.set(editor, removed);
    }
    if (this.lensesStale) {
      this.lensesStale = false;
      this.lensesChanged.fire();
    }
    const active = vscode.window.activeTextEditor?.document.uri;
    const here = active ? this.store.pending(active).length : 0;
    const files = this.store.files().length;
    this.reviewingKey.set(here > 0);
    this.status.text =
      here > 0 ? `$(diff) ${here} change${here === 1 ? '' : 's'} to review` : `$(diff) ${files} file${files === 1 ? '' : 's'} to review`;
    this.status.tooltip = 'Resilient Apply: files with changes to review';
    if (here > 0 || files > 0) {
      this.status.show();
    } else {
      this.status.hide();
    }
  }

  /** On a change to review: the lines the apply replaced there (none for lines it only added). */
  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    for (const h of this.store.pending(document.uri)) {
      const lines = linesOf(h, document);
      const hover =
        lines.start.line <= position.line && position.line <= lines.end.line && replacedLinesMarkdown(h.hunk.oldLines, document.languageId);
      if (hover) {
        return new vscode.Hover(new vscode.MarkdownString(hover), lines);
      }
    }
    return undefined;
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const pending = this.store.pending(document.uri);
    if (pending.length === 0) {
      // No review, no engine call: in the web worker host the engine may still be loading when lenses are asked for.
      return [];
    }
    const uri = document.uri.toString();
    const last = document.lineCount - 1;
    return reviewLenses(pending).map((lens) => {
      const line = Math.min(last, lens.line);
      return new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
        title: lens.title,
        command: COMMANDS[lens.kind],
        arguments: [uri, lens.id],
      });
    });
  }

  dispose(): void {
    clearTimeout(this.timer);
    this.subscriptions.forEach((s) => s.dispose());
  }
}

/** The lines a hunk's marks cover: its lines now, or the line below where lines only went away. */
function linesOf(h: TrackedHunk, document: vscode.TextDocument): vscode.Range {
  const last = document.lineCount - 1;
  const line = Math.min(last, h.line);
  return new vscode.Range(line, 0, Math.min(last, h.line + Math.max(hunkLength(h), 1) - 1), 0);
}
