// Path resolution against the workspace for the tool, patches and answers, on URI paths (posix, '/'-separated; a Windows drive is
// "/c:/..."), so it works for file, remote and virtual workspaces alike.

export interface WorkspaceFolderPath {
  /** The folder URI's path component, e.g. "/home/me/project" or "/c:/Users/me/project". */
  path: string;
  /** The folder's name (used to recognise "name/sub/file" in multi-root workspaces). */
  name: string;
}

export type PathResolution = { ok: true; folderIndex: number; relativePath: string } | { ok: false; message: string };

/**
 * Resolves a model-given path: relative paths against the first workspace folder (or the folder whose
 * name is the first segment, in a multi-root workspace), absolute paths and file: URIs only inside a
 * workspace folder. Never lets ".." climb out of the folder.
 */
export function resolveWorkspacePath(filePath: string, folders: readonly WorkspaceFolderPath[], field = '"filePath"'): PathResolution {
  if (folders.length === 0) {
    return { ok: false, message: `${field} ${JSON.stringify(filePath)} cannot be resolved: no workspace folder is open.` };
  }
  let raw = filePath.trim();
  if (/^file:\/\//i.test(raw)) {
    try {
      raw = decodeURIComponent(raw.replace(/^file:\/\/[^/]*/i, ''));
    } catch {
      return { ok: false, message: `${field} ${JSON.stringify(filePath)} is not a valid file URI.` };
    }
  }
  raw = raw.replace(/\\/g, '/');
  // Windows drive paths ("C:/x") become URI paths ("/c:/x").
  if (/^[a-zA-Z]:\//.test(raw)) {
    raw = '/' + raw;
  }
  const folderList = folders.map((f) => f.path.replace(/\/+$/, '')).join(', ');

  if (raw.startsWith('/')) {
    const absolute = normalizeSegments(raw.split('/'));
    if (absolute === undefined) {
      return outside(filePath, folderList, field);
    }
    for (let i = 0; i < folders.length; i++) {
      const base = normalizeSegments(folders[i].path.split('/'));
      if (base === undefined) {
        continue;
      }
      if (isPrefix(base, absolute)) {
        const rest = absolute.slice(base.length);
        if (rest.length === 0) {
          return isFolder(filePath, field);
        }
        return { ok: true, folderIndex: i, relativePath: rest.join('/') };
      }
    }
    return outside(filePath, folderList, field);
  }

  const segments = normalizeSegments(raw.split('/'));
  if (segments === undefined) {
    return outside(filePath, folderList, field);
  }
  if (segments.length === 0) {
    return isFolder(filePath, field);
  }
  if (folders.length > 1 && segments.length > 1) {
    const named = folders.findIndex((f) => f.name === segments[0]);
    if (named >= 0) {
      return { ok: true, folderIndex: named, relativePath: segments.slice(1).join('/') };
    }
  }
  return { ok: true, folderIndex: 0, relativePath: segments.join('/') };
}

/** Drops "." and empty segments and applies ".."; undefined when ".." climbs above the start. */
function normalizeSegments(parts: string[]): string[] | undefined {
  const out: string[] = [];
  for (const part of parts) {
    if (part === '' || part === '.') {
      continue;
    }
    if (part === '..') {
      if (out.length === 0) {
        return undefined;
      }
      out.pop();
    } else {
      out.push(part);
    }
  }
  return out;
}

function isPrefix(base: string[], full: string[]): boolean {
  if (base.length > full.length) {
    return false;
  }
  return base.every((segment, i) => sameSegment(segment, full[i], i === 0));
}

function sameSegment(a: string, b: string, first: boolean): boolean {
  // Drive letters compare case-insensitively ("/C:/" and "/c:/" are the same drive).
  if (first && /^[a-zA-Z]:$/.test(a)) {
    return a.toLowerCase() === b.toLowerCase();
  }
  return a === b;
}

function outside(filePath: string, folderList: string, field: string): PathResolution {
  return {
    ok: false,
    message: `${field} ${JSON.stringify(filePath)} is outside the workspace (${folderList}); give a path relative to the workspace folder, such as "src/app.ts".`,
  };
}

function isFolder(filePath: string, field: string): PathResolution {
  return {
    ok: false,
    message: `${field} ${JSON.stringify(filePath)} names the workspace folder itself; give a file path such as "src/app.ts".`,
  };
}

// ---------------------------------------------------------------------------------------------
// When an edit needs the user's confirmation. VS Code's own agent edit tools follow the setting
// `chat.tools.edits.autoApprove` (glob -> boolean, later entries win: "**/*": true, then sensitive
// files such as .vscode/*.json, .env or lock files set to false). The tool asks exactly when they would.

/** Used when the setting does not exist (older VS Code): the sensitive files VS Code itself guards. */
export const DEFAULT_EDIT_AUTO_APPROVE: Readonly<Record<string, boolean>> = {
  '**/*': true,
  '**/.git/**': false,
  '**/.vscode/*.json': false,
  '**/{package.json,server.xml,build.rs,web.config,.gitattributes,.env,Cargo.toml}': false,
  '**/{.npmrc,.yarnrc,.yarnrc.yml,pnpm-workspace.yaml,.mcp.json}': false,
  '**/*.{code-workspace,csproj,fsproj,vbproj,vcxproj,proj,targets,props,gradle,gradle.kts}': false,
  '**/*.lock': false,
  '**/*-lock.{yaml,json}': false,
};

/**
 * True when editing `relativePath` (posix, workspace-relative) needs a confirmation under `rules`.
 * Matched as the file system may read the name: case-insensitively (`.VSCode/tasks.json` is
 * `.vscode/tasks.json` on macOS and Windows) and without what Windows ignores or adds (trailing dots
 * and spaces of a segment, an `::$DATA` stream suffix), so another spelling cannot skip the question.
 */
export function editNeedsConfirmation(relativePath: string, rules: Readonly<Record<string, unknown>> | undefined): boolean {
  const table = rules && typeof rules === 'object' && !Array.isArray(rules) ? rules : DEFAULT_EDIT_AUTO_APPROVE;
  const spelled = relativePath
    .replace(/::\$DATA$/i, '')
    .split('/')
    .map((segment) => segment.replace(/[. ]+$/, '') || segment)
    .join('/');
  let approved: boolean | undefined;
  for (const [pattern, value] of Object.entries(table)) {
    if (typeof value === 'boolean' && globToRegExp(pattern, 'i').test(spelled)) {
      approved = value;
    }
  }
  return approved !== true;
}

/** A glob as VS Code settings write them: `**` any depth, `*` and `?` within a segment, `{a,b}` alternatives. */
export function globToRegExp(glob: string, flags = ''): RegExp {
  let out = '';
  let inGroup = false;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i];
    if (c === '*' && glob[i + 1] === '*') {
      // "**/" matches zero or more whole segments; a trailing "**" matches the rest.
      if (glob[i + 2] === '/') {
        out += '(?:[^/]*/)*';
        i += 2;
      } else {
        out += '.*';
        i += 1;
      }
    } else if (c === '*') {
      out += '[^/]*';
    } else if (c === '?') {
      out += '[^/]';
    } else if (c === '{' && !inGroup) {
      out += '(?:';
      inGroup = true;
    } else if (c === '}' && inGroup) {
      out += ')';
      inGroup = false;
    } else if (c === ',' && inGroup) {
      out += '|';
    } else {
      out += c.replace(/[.+^$()|[\]\\]/g, '\\$&');
    }
  }
  return new RegExp(`^${out}$`, flags);
}
