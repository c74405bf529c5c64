// The marks of a review (issue 27) in every visible editor of a reviewed document: added and changed
// lines with a background and a gutter bar, the lines an apply removed in a hover (and a rule where lines
// went away entirely), a CodeLens row "Keep | Undo change 2 of 3" above each hunk ("Keep all | Undo
// all" above the first), a status bar item and the context key the next/previous keybindings use.
import * as vscode from 'vscode';
import { Colors, ContextKeys, ReviewCommands } from '../constants';
import { type DocumentReview, hunkLength, type ReviewHunk, type ReviewStore } from './reviewStore';

/** Longest removed text shown in a hover, in lines. */
const HOVER_LINES = 40;

function removedHover(h: ReviewHunk, languageId: string): vscode.MarkdownString | undefined {
  const old = h.hunk.oldLines;
  if (old.length === 0) {
    return undefined;
  }
  const shown = old.slice(0, HOVER_LINES).map((l) => l.replace(/\r?\n$/, ''));
  const fence = '`'.repeat(Math.max(3, ...shown.map((l) => (l.match(/`+/g) ?? []).reduce((n, run) => Math.max(n, run.length + 1), 0))));
  const more = old.length > HOVER_LINES ? `\n\n…and ${old.length - HOVER_LINES} more lines` : '';
  return new vscode.MarkdownString(
    `**Before the apply** (${old.length} line${old.length === 1 ? '' : 's'}; Undo puts ${old.length === 1 ? 'it' : 'them'} back):\n\n${fence}${languageId}\n${shown.join('\n')}\n${fence}${more}`,
  );
}

export class ReviewView implements vscode.Disposable, vscode.CodeLensProvider {
  private readonly added: vscode.TextEditorDecorationType;
  private readonly removed: vscode.TextEditorDecorationType;
  private readonly status = vscode.window.createStatusBarItem('resilientApply.review', vscode.StatusBarAlignment.Left, 90);
  private readonly lensesChanged = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.lensesChanged.event;
  private readonly subscriptions: vscode.Disposable[];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly store: ReviewStore,
    extensionUri: vscode.Uri,
  ) {
    this.added = vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      backgroundColor: new vscode.ThemeColor(Colors.reviewAddedBackground),
      gutterIconPath: vscode.Uri.joinPath(extensionUri, 'media', 'review-gutter.svg'),
      gutterIconSize: 'contain',
      overviewRulerColor: new vscode.ThemeColor(Colors.reviewOverviewRuler),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    });
    this.removed = vscode.window.createTextEditorDecorationType({
      isWholeLine: true,
      borderColor: new vscode.ThemeColor(Colors.reviewRemovedBorder),
      borderStyle: 'solid',
      borderWidth: '2px 0 0 0',
      overviewRulerColor: new vscode.ThemeColor(Colors.reviewRemovedBorder),
      overviewRulerLane: vscode.OverviewRulerLane.Left,
    });
    this.status.name = 'Resilient Apply: changes to review';
    this.subscriptions = [
      this.added,
      this.removed,
      this.status,
      this.lensesChanged,
      store.onDidChange((e) => (e.now ? this.render() : this.refresh())),
      vscode.window.onDidChangeVisibleTextEditors(() => this.refresh()),
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
    ];
  }

  /** Marks every visible editor now (the first render after an apply is not delayed). */
  render(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    for (const editor of vscode.window.visibleTextEditors) {
      this.decorate(editor, this.store.get(editor.document.uri));
    }
    this.lensesChanged.fire();
    this.updateStatus();
  }

  /** Marks again soon: typing changes the document per keystroke, the marks follow at most every 50 ms. */
  private refresh(): void {
    this.timer ??= setTimeout(() => this.render(), 50);
  }

  private decorate(editor: vscode.TextEditor, review: DocumentReview | undefined): void {
    const added: vscode.DecorationOptions[] = [];
    const removed: vscode.DecorationOptions[] = [];
    const lastLine = editor.document.lineCount - 1;
    for (const h of this.store.pending(review)) {
      const hoverMessage = removedHover(h, editor.document.languageId);
      const length = hunkLength(h);
      if (length > 0) {
        const end = Math.min(lastLine, h.line + length - 1);
        added.push({ range: new vscode.Range(h.line, 0, end, 0), hoverMessage });
      } else {
        const line = Math.min(lastLine, h.line);
        removed.push({ range: new vscode.Range(line, 0, line, 0), hoverMessage });
      }
    }
    editor.setDecorations(this.added, added);
    editor.setDecorations(this.removed, removed);
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const review = this.store.get(document.uri);
    const pending = this.store.pending(review);
    const uri = document.uri.toString();
    const lenses: vscode.CodeLens[] = [];
    for (const [k, h] of pending.entries()) {
      const range = new vscode.Range(Math.min(h.line, document.lineCount - 1), 0, Math.min(h.line, document.lineCount - 1), 0);
      if (k === 0 && pending.length > 1) {
        lenses.push(
          new vscode.CodeLens(range, {
            title: 'Keep all',
            command: ReviewCommands.keepAll,
            arguments: [uri],
            tooltip: 'Keep every change of this apply',
          }),
          new vscode.CodeLens(range, {
            title: 'Undo all',
            command: ReviewCommands.undoAll,
            arguments: [uri],
            tooltip: 'Put back the original lines of every change still to review (one more undo step)',
          }),
        );
      }
      const number = `change ${k + 1} of ${pending.length}`;
      lenses.push(
        new vscode.CodeLens(range, { title: 'Keep', command: ReviewCommands.keep, arguments: [uri, h.id], tooltip: `Keep ${number}` }),
        new vscode.CodeLens(range, {
          title: `Undo ${number}`,
          command: ReviewCommands.undo,
          arguments: [uri, h.id],
          tooltip: `Put back the ${h.hunk.oldLines.length} original line${h.hunk.oldLines.length === 1 ? '' : 's'} here (one more undo step)`,
        }),
      );
    }
    return lenses;
  }

  private updateStatus(): void {
    const active = vscode.window.activeTextEditor?.document.uri;
    const here = this.store.pending(active ? this.store.get(active) : undefined).length;
    const files = this.store.all().length;
    void vscode.commands.executeCommand('setContext', ContextKeys.editorReviewing, here > 0);
    if (here === 0 && files === 0) {
      this.status.hide();
      return;
    }
    this.status.text =
      here > 0 ? `$(diff) ${here} change${here === 1 ? '' : 's'} to review` : `$(diff) ${files} file${files === 1 ? '' : 's'} to review`;
    this.status.tooltip = 'Resilient Apply: Keep or Undo each change of the last apply';
    this.status.command = ReviewCommands.actions;
    this.status.show();
  }

  dispose(): void {
    clearTimeout(this.timer);
    for (const s of this.subscriptions) {
      s.dispose();
    }
  }
}
