// Which document a block is for: the file it names (resolved against the workspace folders) or the
// document it was pasted into / the active editor. Always the live TextDocument, opened if needed.
import * as vscode from 'vscode';

export type TargetResolution =
  | { kind: 'document'; document: vscode.TextDocument; label: string }
  /** The block names a file that does not exist; `uri` is where it would be created (when we know). */
  | { kind: 'missing'; filePath: string; uri?: vscode.Uri; message: string }
  /** Exists but cannot be edited: read-only file system, not a text document, closed untitled buffer. */
  | { kind: 'refused'; uri?: vscode.Uri; label: string; message: string };

/** How messages name a document: workspace-relative path, or the untitled buffer's name. */
export function labelFor(uri: vscode.Uri): string {
  if (uri.scheme === 'untitled') {
    return uri.path;
  }
  return vscode.workspace.asRelativePath(uri, false);
}

function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  const key = uri.toString();
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
}

/** What is at a URI: an open document (also an unsaved untitled one), a file, a folder, something else, or nothing. */
export type EntryKind = 'document' | 'file' | 'folder' | 'other' | 'nothing';

export async function entryAt(uri: vscode.Uri): Promise<EntryKind> {
  if (openDocument(uri)) {
    return 'document';
  }
  let type: vscode.FileType;
  try {
    type = (await vscode.workspace.fs.stat(uri)).type;
  } catch {
    return 'nothing';
  }
  if ((type & vscode.FileType.File) !== 0) {
    return 'file';
  }
  return (type & vscode.FileType.Directory) !== 0 ? 'folder' : 'other';
}

/** An open document or a file: something a block can name and be applied to. */
export async function isDocumentOrFile(uri: vscode.Uri): Promise<boolean> {
  const kind = await entryAt(uri);
  return kind === 'document' || kind === 'file';
}

/** A path as a block names it: forward slashes, no leading "./", no surrounding quotes or backticks. */
export function normalizeBlockPath(filePath: string): string {
  let p = filePath
    .trim()
    .replace(/^[`'"]+|[`'"]+$/g, '')
    .replace(/\\/g, '/');
  while (p.startsWith('./')) {
    p = p.slice(2);
  }
  return p;
}

function isAbsolutePath(p: string): boolean {
  return p.startsWith('/') || /^[a-zA-Z]:\//.test(p);
}

/** Where a relative path would live: the first workspace folder (used to offer creating a new file). */
function creationUri(p: string): vscode.Uri | undefined {
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (isAbsolutePath(p)) {
    const owner = folders.find((f) => p.startsWith(f.uri.path.endsWith('/') ? f.uri.path : f.uri.path + '/'));
    return owner ? owner.uri.with({ path: p }) : folders.length === 0 ? vscode.Uri.file(p) : undefined;
  }
  return folders.length > 0 ? vscode.Uri.joinPath(folders[0].uri, p) : undefined;
}

/** Finds the file a block names. Tries each workspace folder, then open documents, then a unique file search. */
export async function findNamedFile(filePath: string): Promise<vscode.Uri | undefined> {
  const p = normalizeBlockPath(filePath);
  if (p === '') {
    return undefined;
  }
  const folders = vscode.workspace.workspaceFolders ?? [];
  if (isAbsolutePath(p)) {
    const candidates = folders
      .filter((f) => p.startsWith(f.uri.path.endsWith('/') ? f.uri.path : f.uri.path + '/'))
      .map((f) => f.uri.with({ path: p }));
    candidates.push(vscode.Uri.file(p));
    for (const uri of candidates) {
      if (await isDocumentOrFile(uri)) {
        return uri;
      }
    }
    return undefined;
  }
  for (const folder of folders) {
    const uri = vscode.Uri.joinPath(folder.uri, p);
    if (await isDocumentOrFile(uri)) {
      return uri;
    }
  }
  // A path relative to some sub-folder ("x.ts" for src/x.ts): accept it only when exactly one file fits.
  const suffix = '/' + p;
  const open = vscode.workspace.textDocuments.filter((d) => !d.isClosed && d.uri.path.endsWith(suffix) && d.uri.scheme !== 'git');
  if (open.length === 1) {
    return open[0].uri;
  }
  if (folders.length > 0 && !/[*?[\]{}]/.test(p)) {
    const found = await vscode.workspace.findFiles(`**/${p}`, '**/node_modules/**', 2);
    if (found.length === 1) {
      return found[0];
    }
  }
  return undefined;
}

/** Refuses documents we must not edit: read-only file systems and anything that is not a text document. */
export function refusalFor(uri: vscode.Uri): string | undefined {
  if (uri.scheme === 'untitled') {
    return undefined;
  }
  if (vscode.workspace.fs.isWritableFileSystem(uri.scheme) !== true) {
    return `${labelFor(uri)} is read-only (${uri.scheme}:), so nothing was applied to it.`;
  }
  return undefined;
}

/** Opens (or finds the open) live document for `uri`, refusing read-only and non-text documents. */
export async function openTarget(uri: vscode.Uri): Promise<TargetResolution> {
  const label = labelFor(uri);
  const refusal = refusalFor(uri);
  if (refusal) {
    return { kind: 'refused', uri, label, message: refusal };
  }
  const open = openDocument(uri);
  if (open) {
    return { kind: 'document', document: open, label };
  }
  if (uri.scheme === 'untitled') {
    return { kind: 'refused', uri, label, message: `${label} was closed, so there is nothing to apply to.` };
  }
  try {
    const document = await vscode.workspace.openTextDocument(uri);
    return { kind: 'document', document, label };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      kind: 'refused',
      uri,
      label,
      message: `${label} cannot be opened as a text document, so nothing was applied to it (${reason}).`,
    };
  }
}

/**
 * The target of one block: the file it names if any, else `fallback` (the pasted-into document or the
 * active editor). A named file that cannot be found is 'missing'.
 */
export async function resolveBlockTarget(filePath: string | undefined, fallback: vscode.Uri | undefined): Promise<TargetResolution> {
  if (filePath !== undefined && normalizeBlockPath(filePath) !== '') {
    // The pasted-into document wins when the block names it (also for untitled buffers and unsaved renames).
    const p = normalizeBlockPath(filePath);
    if (fallback && (fallback.path === p || fallback.path.endsWith('/' + p))) {
      return openTarget(fallback);
    }
    const uri = await findNamedFile(filePath);
    if (uri) {
      return openTarget(uri);
    }
    return {
      kind: 'missing',
      filePath: p,
      uri: creationUri(p),
      message: `${p} does not exist in the workspace.`,
    };
  }
  if (!fallback) {
    return {
      kind: 'refused',
      label: 'no editor',
      message: 'There is no target: open the file to change in an editor, or name the file on the line before the block.',
    };
  }
  return openTarget(fallback);
}
