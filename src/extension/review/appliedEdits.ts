// The one door every apply of the extension goes through to edit documents (documentApplier.ts,
// wholePatch.ts, snippets/snippetApplier.ts): vscode.workspace.applyEdit, plus an event naming each open
// document the edit changed with the lines it changed, before and after, so the review (reviewStore.ts)
// marks what changed whatever surface the edit came from (paste, clipboard, CodeLens, @apply, the
// language model tool).
import * as vscode from 'vscode';
import type { ChangedRegion } from '../../core';

/** A document an apply changed, and the run of its lines the edit could change, before and after (core ChangedRegion). */
export interface AppliedChange {
  document: vscode.TextDocument;
  region: ChangedRegion;
}

const applied = new vscode.EventEmitter<AppliedChange[]>();

/** Fires after an apply's edit succeeded, before applyEdit's promise resolves to its caller. */
export const onDidApplyChanges = applied.event;

/** An open document an edit is about to change: the lines its text edits touch, as they are now. */
interface Watched {
  document: vscode.TextDocument;
  firstLine: number;
  lastLine: number;
  lineCount: number;
  before: string;
}

/** A line of the document with its line ending (a VS Code document has one line ending throughout). */
function lineWithEnd(document: vscode.TextDocument, line: number): string {
  const text = document.lineAt(line).text;
  return line < document.lineCount - 1 ? text + (document.eol === vscode.EndOfLine.CRLF ? '\r\n' : '\n') : text;
}

/** The whole lines from `first` to `last` (inclusive) with their line endings. */
function linesOf(document: vscode.TextDocument, first: number, last: number): string {
  return last < first ? '' : document.getText(new vscode.Range(first, 0, last + 1, 0));
}

/** vscode.workspace.applyEdit for an apply (not for a review's own Undo, which is not a new apply). */
export async function applyEdit(edit: vscode.WorkspaceEdit): Promise<boolean> {
  // Only the lines the edit's ranges touch are read, before and after: every apply is reviewed, and
  // reading a 10,000-line document whole twice (getText joins its lines) cost more than the apply's
  // own match on an exact hit.
  const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
  const watched = new Map<vscode.TextDocument, Watched>();
  for (const [uri, edits] of edit.entries()) {
    const document = open.get(uri.toString());
    if (!document || edits.length === 0) {
      continue;
    }
    // A loop, not Math.min(...lines): one edit of a very large batch can hold more ranges than a call takes arguments.
    const seen = watched.get(document);
    let firstLine = seen?.firstLine ?? Infinity;
    let lastLine = seen?.lastLine ?? -1;
    for (const { range } of edits) {
      firstLine = Math.min(firstLine, range.start.line);
      lastLine = Math.max(lastLine, range.end.line);
    }
    lastLine = Math.min(lastLine, document.lineCount - 1);
    watched.set(document, { document, firstLine, lastLine, lineCount: document.lineCount, before: linesOf(document, firstLine, lastLine) });
  }
  const ok = await vscode.workspace.applyEdit(edit);
  const changed: AppliedChange[] = [];
  for (const { document, firstLine, lastLine, lineCount, before } of watched.values()) {
    if (document.isClosed) {
      continue;
    }
    // The lines below the region moved by the change in line count; those above did not move.
    const lastAfter = lastLine + document.lineCount - lineCount;
    const after = linesOf(document, firstLine, lastAfter);
    if (after !== before) {
      const above = firstLine > 0 ? lineWithEnd(document, firstLine - 1) : undefined;
      const below = lastAfter + 1 < document.lineCount ? lineWithEnd(document, lastAfter + 1) : undefined;
      changed.push({ document, region: { firstLine, before, after, above, below } });
    }
  }
  if (ok && changed.length > 0) {
    applied.fire(changed);
  }
  return ok;
}
