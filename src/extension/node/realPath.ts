// The desktop (Node) extension host's RealPathResolver: file: URIs are resolved on disk, link by link,
// including links whose target does not exist yet (creating through a dangling link writes its target)
// and files that do not exist yet (their folder is resolved). Other schemes fall back to the stat walk.
// Named imports: a namespace import of a Node module makes the bundle copy every export of it at load.
import { lstat, readlink, realpath } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import * as vscode from 'vscode';
import { type RealPathResolver, statWalkResolver } from '../workspaceBoundary';

/** Like the OS's own limit on nested links: beyond this a path is a loop. */
const MAX_LINKS = 40;

function errorCode(error: unknown): string | undefined {
  return typeof error === 'object' && error !== null && 'code' in error ? String((error as { code: unknown }).code) : undefined;
}

/** realpath(3) that also resolves what does not exist yet: dangling links and missing files or folders. */
export async function realPathOnDisk(p: string, links = 0): Promise<string> {
  if (links > MAX_LINKS) {
    throw new Error(`too many levels of symbolic links at ${p}`);
  }
  try {
    return await realpath(p);
  } catch (error) {
    const code = errorCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      throw error;
    }
  }
  let stat;
  try {
    stat = await lstat(p);
  } catch {
    stat = undefined;
  }
  if (stat?.isSymbolicLink()) {
    const target = await readlink(p);
    return realPathOnDisk(resolve(dirname(p), target), links + 1);
  }
  const parent = dirname(p);
  if (parent === p) {
    return p;
  }
  return join(await realPathOnDisk(parent, links), basename(p));
}

export function nodeRealPathResolver(): RealPathResolver {
  const fallback = statWalkResolver();
  return async (uri) => {
    if (uri.scheme !== 'file') {
      return fallback(uri);
    }
    return { kind: 'real', uri: vscode.Uri.file(await realPathOnDisk(uri.fsPath)) };
  };
}
