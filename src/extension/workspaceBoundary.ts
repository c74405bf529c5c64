// Whether a file the language model tool is asked to edit really lies inside the workspace. A path that
// reads as inside can lead outside through a symbolic link (the file itself, or any folder on the way),
// so the decision is taken on the real path: every link resolved, for the file and for the workspace
// folders alike. Where links cannot be resolved (the web worker host, virtual file systems), a link
// anywhere on the way counts as leading outside: refusing is safe, following it blindly is not.
import * as vscode from 'vscode';
import { resolveWorkspacePath } from '../core';

/** The real location of a URI, or the first link on the way that could not be resolved. */
export type RealLocation = { kind: 'real'; uri: vscode.Uri } | { kind: 'unresolved-link'; link: vscode.Uri };

/** Resolves every symbolic link on the way to `uri` (which need not exist yet). */
export type RealPathResolver = (uri: vscode.Uri) => Promise<RealLocation>;

function isLink(type: vscode.FileType): boolean {
  return (type & vscode.FileType.SymbolicLink) !== 0;
}

/**
 * A resolver for any file system, through vscode.workspace.fs alone: it cannot read a link's target,
 * so it reports the first link at or below the workspace folder that holds `uri`. The folder itself is
 * trusted: the user opened it.
 */
export function statWalkResolver(): RealPathResolver {
  return async (uri) => {
    const folder = vscode.workspace.getWorkspaceFolder(uri);
    const base = folder ? folder.uri.path.replace(/\/+$/, '') : '';
    const rest = uri.path
      .slice(base.length)
      .split('/')
      .filter((s) => s !== '');
    let at = folder ? folder.uri : uri.with({ path: '/' });
    for (const segment of folder ? rest : uri.path.split('/').filter((s) => s !== '')) {
      at = vscode.Uri.joinPath(at, segment);
      let type: vscode.FileType;
      try {
        type = (await vscode.workspace.fs.stat(at)).type;
      } catch {
        // Nothing more exists on the way: what is created there lands where the path says.
        break;
      }
      if (isLink(type)) {
        return { kind: 'unresolved-link', link: at };
      }
    }
    return { kind: 'real', uri };
  };
}

/** Where `uri` really is: inside a workspace folder (and its path there), outside, or behind a link we cannot follow. */
export type RealPlace =
  { kind: 'inside'; relativePath: string } | { kind: 'outside'; target: vscode.Uri } | { kind: 'unresolved-link'; link: vscode.Uri };

export async function realPlace(uri: vscode.Uri, resolveRealPath: RealPathResolver): Promise<RealPlace> {
  const target = await resolveRealPath(uri);
  if (target.kind === 'unresolved-link') {
    return target;
  }
  const folders = vscode.workspace.workspaceFolders ?? [];
  const realFolders: Array<{ path: string; name: string }> = [];
  for (const folder of folders) {
    const real = await resolveRealPath(folder.uri);
    // A folder whose own link cannot be resolved is compared as it is named.
    realFolders.push({ path: real.kind === 'real' ? real.uri.path : folder.uri.path, name: folder.name });
  }
  const sameScheme = folders.some((f) => f.uri.scheme === target.uri.scheme);
  const resolved = sameScheme ? resolveWorkspacePath(target.uri.path, realFolders) : undefined;
  return resolved?.ok ? { kind: 'inside', relativePath: resolved.relativePath } : { kind: 'outside', target: target.uri };
}

/**
 * Undefined when the real location of `uri` lies inside one of the real workspace folders; otherwise
 * the reason, for the model and the user (naming the link and where it leads).
 */
export async function outsideWorkspaceReason(
  uri: vscode.Uri,
  label: string,
  resolveRealPath: RealPathResolver,
): Promise<string | undefined> {
  const place = await realPlace(uri, resolveRealPath);
  if (place.kind === 'unresolved-link') {
    return `${label} is reached through a symbolic link (${place.link.path}) whose target cannot be checked here, so it may lie outside the workspace; nothing was applied. Edit the file at its real path inside the workspace.`;
  }
  if (place.kind === 'inside') {
    return undefined;
  }
  return `${label} is a symbolic link, or lies in a linked folder, that leads outside the workspace (to ${place.target.fsPath || place.target.path}); nothing was applied. This tool only edits files whose real path is inside the workspace.`;
}
