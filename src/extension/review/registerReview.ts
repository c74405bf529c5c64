// "Review each change" (issue 27): after an apply, each changed place of a document is marked with Keep
// and Undo until reviewed. The store follows the hunks (reviewStore.ts), the view marks them
// (reviewView.ts), and these commands are what the lenses, the status bar and the keybindings call.
import * as vscode from 'vscode';
import { changeHunks, hunkLinesPhrase } from '../../core';
import { ReviewCommands } from '../constants';
import { readSettings } from '../settings';
import { labelFor } from '../targets';
import { type DocumentReview, ReviewStore, reviewsApply } from './reviewStore';
import { ReviewView } from './reviewView';

export interface ReviewDeps {
  /** Where the extension's files are (the gutter icon). */
  extensionUri: vscode.Uri;
}

/** The reviews, for the integration tests (ResilientApplyApi.review). */
export type Review = ReviewStore;

/**
 * "3 changes: lines 8, 40 and 112; after Apply, review them in the editor" for a chat reply about an
 * apply from `before` to `after` in `scope`'s file (the review part only when the setting reviews it).
 */
export function changesLine(before: string, after: string, scope: vscode.Uri, applied = false): string {
  const hunks = changeHunks(before, after);
  if (hunks.length === 0) {
    return '';
  }
  const count = `${hunks.length} change${hunks.length === 1 ? '' : 's'}: ${hunkLinesPhrase(hunks)}`;
  if (!reviewsApply(readSettings(scope).review, hunks.length)) {
    return count;
  }
  return `${count}; ${applied ? '' : 'after Apply, '}review ${hunks.length === 1 ? 'it' : 'them'} in the editor (Keep or Undo each)`;
}

function argUri(raw: unknown): vscode.Uri | undefined {
  if (typeof raw === 'string') {
    return vscode.Uri.parse(raw);
  }
  return raw instanceof vscode.Uri ? raw : vscode.window.activeTextEditor?.document.uri;
}

/** Moves the cursor of the active editor to the next (or previous) hunk to review, round the end. */
function goTo(store: ReviewStore, direction: 1 | -1): void {
  const editor = vscode.window.activeTextEditor;
  const pending = store.pending(editor ? store.get(editor.document.uri) : undefined);
  if (!editor || pending.length === 0) {
    void vscode.window.setStatusBarMessage('No changes to review in this editor', 2000);
    return;
  }
  const cursor = editor.selection.active.line;
  const target =
    direction === 1
      ? (pending.find((h) => h.line > cursor) ?? pending[0])
      : ([...pending].reverse().find((h) => h.line < cursor) ?? pending[pending.length - 1]);
  const at = new vscode.Position(Math.min(target.line, editor.document.lineCount - 1), 0);
  editor.selection = new vscode.Selection(at, at);
  editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/** The files with changes to review; picking one opens it at its first change. */
async function pickFile(store: ReviewStore): Promise<void> {
  const reviews = store.all();
  if (reviews.length === 0) {
    void vscode.window.showInformationMessage('No changes to review.');
    return;
  }
  const picked = await vscode.window.showQuickPick(
    reviews.map((review: DocumentReview) => {
      const pending = store.pending(review);
      return { label: labelFor(review.uri), description: `${pending.length} change${pending.length === 1 ? '' : 's'} to review`, review };
    }),
    { title: 'Resilient Apply: files with changes to review' },
  );
  if (picked) {
    const editor = await vscode.window.showTextDocument(picked.review.uri, { preview: false });
    const first = store.pending(picked.review)[0];
    if (first) {
      const at = new vscode.Position(first.line, 0);
      editor.selection = new vscode.Selection(at, at);
      editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
  }
}

/** The status bar item's menu. */
async function actions(store: ReviewStore): Promise<void> {
  const uri = vscode.window.activeTextEditor?.document.uri;
  const here = uri ? store.pending(store.get(uri)).length : 0;
  const items: Array<vscode.QuickPickItem & { command: string }> = [];
  if (here > 0) {
    items.push(
      { label: '$(arrow-down) Next change', command: ReviewCommands.next },
      { label: '$(arrow-up) Previous change', command: ReviewCommands.previous },
      { label: '$(check-all) Keep all', description: `${here} in this file`, command: ReviewCommands.keepAll },
      { label: '$(discard) Undo all', description: `${here} in this file`, command: ReviewCommands.undoAll },
    );
  }
  items.push({ label: '$(files) Files with changes to review…', description: `${store.all().length}`, command: ReviewCommands.files });
  const picked = await vscode.window.showQuickPick(items, { title: 'Resilient Apply: review the changes' });
  if (picked) {
    await vscode.commands.executeCommand(picked.command);
  }
}

export function registerReview(context: vscode.ExtensionContext, deps: ReviewDeps): Review {
  const store = new ReviewStore();
  const view = new ReviewView(store, deps.extensionUri);
  context.subscriptions.push(
    store,
    view,
    vscode.languages.registerCodeLensProvider({ pattern: '**' }, view),
    vscode.commands.registerCommand(ReviewCommands.keep, (raw: unknown, id: number) => {
      const uri = argUri(raw);
      if (uri) {
        store.keep(uri, id);
      }
    }),
    vscode.commands.registerCommand(ReviewCommands.undo, async (raw: unknown, id: number) => {
      const uri = argUri(raw);
      return uri ? store.undo(uri, [id]) : 0;
    }),
    vscode.commands.registerCommand(ReviewCommands.keepAll, (raw: unknown) => {
      const uri = argUri(raw);
      if (uri) {
        store.end(uri);
      }
    }),
    vscode.commands.registerCommand(ReviewCommands.undoAll, async (raw: unknown) => {
      const uri = argUri(raw);
      const review = uri ? store.get(uri) : undefined;
      return uri && review
        ? store.undo(
            uri,
            store.pending(review).map((h) => h.id),
          )
        : 0;
    }),
    vscode.commands.registerCommand(ReviewCommands.next, () => goTo(store, 1)),
    vscode.commands.registerCommand(ReviewCommands.previous, () => goTo(store, -1)),
    vscode.commands.registerCommand(ReviewCommands.files, () => pickFile(store)),
    vscode.commands.registerCommand(ReviewCommands.actions, () => actions(store)),
  );
  return store;
}
