// Remembers which editors were active, most recent first, so "Apply to active editor" from a chat
// transcript or scratch buffer means the code editor the user came from, not the transcript itself.
import * as vscode from 'vscode';
import { PREVIEW_SCHEME } from './constants';
import { refusalFor } from './targets';

export class EditorHistory implements vscode.Disposable {
  private readonly recent: vscode.Uri[] = [];
  private readonly subscription: vscode.Disposable;

  constructor() {
    this.note(vscode.window.activeTextEditor);
    this.subscription = vscode.window.onDidChangeActiveTextEditor((editor) => this.note(editor));
  }

  private note(editor: vscode.TextEditor | undefined): void {
    if (!editor || editor.document.uri.scheme === PREVIEW_SCHEME) {
      return;
    }
    const key = editor.document.uri.toString();
    const i = this.recent.findIndex((u) => u.toString() === key);
    if (i >= 0) {
      this.recent.splice(i, 1);
    }
    this.recent.unshift(editor.document.uri);
    this.recent.length = Math.min(this.recent.length, 20);
  }

  /**
   * The document blocks without a file name apply to: the active editor, or (when that is `exclude`, the
   * document holding the blocks) the most recent other editable editor that is still open.
   */
  target(exclude?: vscode.Uri): vscode.Uri | undefined {
    const skip = exclude?.toString();
    const open = new Set(vscode.workspace.textDocuments.filter((d) => !d.isClosed).map((d) => d.uri.toString()));
    const active = vscode.window.activeTextEditor?.document.uri;
    const ordered = active ? [active, ...this.recent] : this.recent;
    return ordered.find(
      (uri) => uri.toString() !== skip && open.has(uri.toString()) && uri.scheme !== PREVIEW_SCHEME && refusalFor(uri) === undefined,
    );
  }

  dispose(): void {
    this.subscription.dispose();
  }
}
