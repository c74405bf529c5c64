// The one door every apply of the extension goes through to edit documents (documentApplier.ts,
// wholePatch.ts, snippets/snippetApplier.ts): vscode.workspace.applyEdit, plus an event naming each open
// document the edit changed with its text before, so the review (reviewStore.ts) marks what changed
// whatever surface the edit came from (paste, clipboard, CodeLens, @apply, the language model tool).
import * as vscode from 'vscode';

/** A document an apply changed, and its whole text just before and just after. */
export interface AppliedChange {
  document: vscode.TextDocument;
  before: string;
  after: string;
}

const applied = new vscode.EventEmitter<AppliedChange[]>();

/** Fires after an apply's edit succeeded, before applyEdit's promise resolves to its caller. */
export const onDidApplyChanges = applied.event;

/** vscode.workspace.applyEdit for an apply (not for a review's own Undo, which is not a new apply). */
export async function applyEdit(edit: vscode.WorkspaceEdit): Promise<boolean> {
  const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
  const before: { document: vscode.TextDocument; text: string }[] = [];
  for (const [uri, edits] of edit.entries()) {
    const document = open.get(uri.toString());
    if (document && edits.length > 0 && !before.some((b) => b.document === document)) {
      before.push({ document, text: document.getText() });
    }
  }
  const ok = await vscode.workspace.applyEdit(edit);
  // Each text read once (getText joins the document's lines): the review starts from these two.
  const changed = before
    .filter((b) => !b.document.isClosed)
    .map(({ document, text }): AppliedChange => ({ document, before: text, after: document.getText() }))
    .filter((c) => c.after !== c.before);
  if (ok && changed.length > 0) {
    applied.fire(changed);
  }
  return ok;
}
