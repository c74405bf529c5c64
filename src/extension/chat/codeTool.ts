// The language model tool's `code` input (Cursor's edit_file convention): a snippet of filePath (one
// declaration, a lazy snippet with `// ... existing code ...`, or the whole file) placed by structure
// through the shared code block applier, applied as one undoable edit without a review (the agent reads
// the message), and saved when the file had no unsaved changes. A missing file is created from code
// that has no placeholder.
import * as vscode from 'vscode';
import { isPlaceholderLine } from '../../core';
import type { CodeBlockDeps } from '../snippets/codeBlockSources';
import { entryAt, labelFor, openTarget } from '../targets';

/** Applies `code` to the workspace file `uri` (already checked to be inside the workspace); the text for the model. */
export async function applyCodeForTool(
  uri: vscode.Uri,
  filePath: string,
  code: string,
  token: vscode.CancellationToken,
  deps: { codeBlocks: CodeBlockDeps },
): Promise<string> {
  const label = labelFor(uri);
  const entry = await entryAt(uri);
  if (entry === 'folder') {
    return `"filePath" "${filePath}" is a folder, not a file; nothing was applied.`;
  }
  if (entry === 'nothing') {
    return createFromCode(uri, label, filePath, code);
  }
  const opened = await openTarget(uri);
  if (opened.kind !== 'document') {
    return opened.message;
  }
  const document = opened.document;
  const wasDirty = document.isDirty;
  const { applier } = deps.codeBlocks;
  const match = await applier.match(document, opened.label, code, 'tool');
  if (match.result.status !== 'applied') {
    // Ambiguous, not found or invalid: the document is untouched and the message says why.
    return match.result.message;
  }
  if (token.isCancellationRequested) {
    return 'Cancelled; nothing was applied.';
  }
  const outcome = await applier.commit([match], 'tool');
  if (outcome.status !== 'applied') {
    return outcome.summary;
  }
  const message = outcome.plan?.parts[0]?.result.message ?? match.result.message;
  return saveAfterToolEdit(document, wasDirty, message);
}

/**
 * Saves a document the tool edited, so disk and buffer agree for what the agent runs next (tests,
 * builds), unless the user had unsaved changes of their own in it: those stay unsaved, as the user left
 * them. Returns the tool's message, with a note when saving failed.
 */
export async function saveAfterToolEdit(document: vscode.TextDocument, wasDirty: boolean, message: string): Promise<string> {
  if (!wasDirty && document.uri.scheme !== 'untitled') {
    try {
      await document.save();
    } catch (error) {
      return `${message}\n(The edit is in the editor but saving failed: ${error instanceof Error ? error.message : String(error)}.)`;
    }
  }
  return message;
}

async function createFromCode(uri: vscode.Uri, label: string, filePath: string, code: string): Promise<string> {
  if (code.split('\n').some((line) => isPlaceholderLine(line, { fileName: label }))) {
    return `"filePath" "${filePath}" does not exist (${label}); nothing was applied. To create a file, give its whole content in "code", without placeholders such as "// ... existing code ...".`;
  }
  const edit = new vscode.WorkspaceEdit();
  edit.createFile(uri, { contents: new TextEncoder().encode(`${code}\n`), ignoreIfExists: false });
  if (!(await vscode.workspace.applyEdit(edit))) {
    return `${label} could not be created; nothing was applied.`;
  }
  const lines = code.split('\n').length;
  return `Created ${label} from "code" (${lines} line${lines === 1 ? '' : 's'}).`;
}
