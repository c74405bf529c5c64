// Matching a block's file path against the CLI's target, and the language a file name implies.
// `import x = require()`, not `import * as x`: the bundle would copy every export of a namespace import
// into a new object at start (esbuild's __toESM), a cost on every cold CLI run.
import fs = require('node:fs');
import path = require('node:path');

const caseInsensitive = process.platform === 'win32' || process.platform === 'darwin';

function segments(p: string): string[] {
  return p
    .replace(/\\/g, '/')
    .split('/')
    .filter((s) => s !== '' && s !== '.');
}

function realOrResolved(p: string): string {
  try {
    return fs.realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function same(a: string, b: string): boolean {
  return caseInsensitive ? a.toLowerCase() === b.toLowerCase() : a === b;
}

/**
 * True when a block's path names the target file: the same resolved path, or the block's relative
 * path is a trailing part of the target's absolute path (models write paths relative to their
 * project root, which need not be the cwd).
 */
export function namesFile(blockPath: string, targetPath: string, cwd: string = process.cwd()): boolean {
  const target = path.resolve(cwd, targetPath);
  const resolved = path.resolve(cwd, blockPath);
  if (same(resolved, target) || same(realOrResolved(resolved), realOrResolved(target))) {
    return true;
  }
  if (path.isAbsolute(blockPath) || /^[A-Za-z]:[\\/]/.test(blockPath)) {
    return false;
  }
  const wanted = segments(blockPath);
  if (wanted.length === 0 || wanted.includes('..')) {
    return false;
  }
  const have = segments(target);
  if (wanted.length > have.length) {
    return false;
  }
  const tail = have.slice(have.length - wanted.length);
  return wanted.every((s, k) => same(s, tail[k]));
}

const LANGUAGES: Record<string, string> = {
  '.md': 'markdown',
  '.markdown': 'markdown',
  '.mdx': 'mdx',
  '.ts': 'typescript',
  '.mts': 'typescript',
  '.cts': 'typescript',
  '.tsx': 'typescriptreact',
  '.js': 'javascript',
  '.mjs': 'javascript',
  '.cjs': 'javascript',
  '.jsx': 'javascriptreact',
  '.json': 'json',
  '.jsonc': 'jsonc',
  '.py': 'python',
  '.rb': 'ruby',
  '.go': 'go',
  '.rs': 'rust',
  '.java': 'java',
  '.kt': 'kotlin',
  '.c': 'c',
  '.h': 'c',
  '.cc': 'cpp',
  '.cpp': 'cpp',
  '.hpp': 'cpp',
  '.cs': 'csharp',
  '.php': 'php',
  '.swift': 'swift',
  '.sh': 'shellscript',
  '.bash': 'shellscript',
  '.yml': 'yaml',
  '.yaml': 'yaml',
  '.toml': 'toml',
  '.html': 'html',
  '.css': 'css',
  '.scss': 'scss',
  '.xml': 'xml',
  '.sql': 'sql',
  '.txt': 'plaintext',
};

/** VS Code language id for a file name ('plaintext' when unknown). */
export function languageIdFor(fileName: string): string {
  return LANGUAGES[path.extname(fileName).toLowerCase()] ?? 'plaintext';
}
