// "Review each change" (issue 27): after an apply, each changed place of a document is marked with Keep
// and Undo until reviewed. The store follows the hunks (reviewStore.ts), the view marks them
// (reviewView.ts), and these commands are what the lenses, the status bar and the keybindings call.
import * as vscode from 'vscode';
import { changesSentence, nextHunkLine } from '../../core';
import { ReviewCommands } from '../constants';
import { readSettings } from '../settings';
import { labelFor } from '../targets';
import { ReviewStore } from './reviewStore';
import { ReviewView } from './reviewView';

/** The reviews, for the integration tests (ResilientApplyApi.review). */
export type Review = ReviewStore;

/** "3 changes: lines 8, 40 and 112; after Apply, review them in the editor (Keep or Undo each)", for @apply's replies. */
export function changesLine(before: string, after: string, scope: vscode.Uri): string {
  return changesSentence(before, after, readSettings(scope).review);
}

/** Moves the cursor to a change to review, in the active editor (or first in `uri`'s). */
async function goTo(store: ReviewStore, direction: 1 | -1, uri?: vscode.Uri): Promise<void> {
  const editor = uri ? await vscode.window.showTextDocument(uri, { preview: false }) : vscode.window.activeTextEditor;
  const lines = editor ? store.pending(editor.document.uri).map((h) => h.line) : [];
  const line = editor && nextHunkLine(lines, uri ? -1 : editor.selection.active.line, direction);
  if (editor && line !== undefined) {
    const at = new vscode.Position(line, 0);
    editor.selection = new vscode.Selection(at, at);
    editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  }
}

const uriOf = (raw: unknown) => (typeof raw === 'string' ? vscode.Uri.parse(raw) : vscode.window.activeTextEditor?.document.uri);

export function registerReview(context: vscode.ExtensionContext, extensionUri: vscode.Uri): Review {
  const store = new ReviewStore();
  const view = new ReviewView(store, extensionUri);
  const command = (id: string, run: (uri: vscode.Uri, hunk: number) => unknown) =>
    vscode.commands.registerCommand(id, (raw: unknown, hunk: number) => {
      const uri = uriOf(raw);
      return uri && run(uri, hunk);
    });
  const all = (uri: vscode.Uri) => store.pending(uri).map((h) => h.id);
  context.subscriptions.push(
    store,
    view,
    vscode.languages.registerCodeLensProvider({ pattern: '**' }, view),
    vscode.languages.registerHoverProvider({ pattern: '**' }, view),
    command(ReviewCommands.keep, (uri, hunk) => store.keep(uri, hunk)),
    command(ReviewCommands.undo, (uri, hunk) => store.undo(uri, [hunk])),
    command(ReviewCommands.keepAll, (uri) => store.end(uri)),
    command(ReviewCommands.undoAll, (uri) => store.undo(uri, all(uri))),
    vscode.commands.registerCommand(ReviewCommands.next, () => goTo(store, 1)),
    vscode.commands.registerCommand(ReviewCommands.previous, () => goTo(store, -1)),
    vscode.commands.registerCommand(ReviewCommands.files, async () => {
      const files = store.files().map((uri) => ({ label: labelFor(uri), description: `${store.pending(uri).length} to review`, uri }));
      const picked = await vscode.window.showQuickPick(files, { title: 'Resilient Apply: files with changes to review' });
      return picked && goTo(store, 1, picked.uri);
    }),
  );
  return store;
}
