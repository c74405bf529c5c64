// Parses the two diff formats models emit besides SEARCH/REPLACE blocks, and maps every hunk to a
// SearchReplaceBlock (SEARCH = context + removed lines, REPLACE = context + added lines) so the same
// engine places it: tiers, ambiguity refusal, candidates, style-preserving writes.
//   - unified diffs (`git diff`, `diff -u`, hand-written by a model): `---`/`+++` headers with or without
//     a/ b/ prefixes, /dev/null for added and deleted files, `@@ -12,7 +12,8 @@` hunks whose counts may be
//     wrong and whose line numbers are only hints, `\ No newline at end of file`, several files, fenced
//     or not, git's extended headers (new/deleted file mode, rename from/to);
//   - apply_patch (Codex): `*** Begin Patch` ... `*** End Patch` with Add/Delete/Update File sections,
//     `*** Move to:`, hunks opened by `@@` optionally followed by an anchor line, `*** End of File`.
// Pure string work, same error style as parser.ts (BlockParseError: block, line, expected, message).
import { BlockParseError } from './parser';
import type { HunkInfo, SearchReplaceBlock } from '../types';

export type PatchFormat = 'unified-diff' | 'apply-patch';
export type FileChangeKind = 'update' | 'add' | 'delete';

/** What a patch does to one file. */
export interface FileChange {
  kind: FileChangeKind;
  /** The file as the patch names it (a/ and b/ prefixes removed); undefined for hunks without a file header. */
  path?: string;
  /** The new name: apply_patch `*** Move to:`, or a git rename. */
  moveTo?: string;
  /**
   * A plain `diff -u` whose two headers name different files (`--- x.orig` / `+++ x`) edits one file
   * that exists under one of the names, as `patch` reads it; never a move. Both names, old first.
   */
  names?: [string, string];
  /** update: one block per hunk; add: one block with an empty SEARCH and the whole content; delete: none. */
  blocks: SearchReplaceBlock[];
  /** add: the content ends without a line break (`\ No newline at end of file`). */
  noFinalNewline?: boolean;
  /** 1-based line of the file's header (or first hunk) in the input. */
  sourceLine: number;
}

/** What a patch does to one file. */
export type FileAction = 'update' | 'add' | 'delete' | 'move';

/** The action a parsed file change stands for (an update with a new name is a move). */
export function fileAction(change: FileChange): FileAction {
  return change.kind === 'update' && change.moveTo !== undefined ? 'move' : change.kind;
}

export interface ParsedPatch {
  format: PatchFormat;
  files: FileChange[];
}

const BEGIN_PATCH = /^[ \t]*\*\*\* Begin Patch[ \t]*$/;
const HUNK_HEADER = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$/;
const LOOSE_HUNK_HEADER = /^@@(?:[ \t].*)?$/;

// Whole-input scans for detection (multiline; tolerate CR before the line end).
const BEGIN_PATCH_ANYWHERE = /^[ \t]*\*\*\* Begin Patch[ \t]*\r?$/m;
const FILE_HEADER_ANYWHERE = /^--- [^\r\n]*\r?\n\+\+\+ [^\r\n]*\r?\n/m;
const HUNK_HEADER_ANYWHERE = /^@@ -\d+(?:,\d+)? \+\d+(?:,\d+)? @@/m;
const GIT_HEADER_ANYWHERE = /^diff --git [^\r\n]+$/m;

/** Where the first patch marker is: its format and 0-based character offset, or undefined when there is none. */
export function findPatch(text: string): { format: PatchFormat; offset: number } | undefined {
  let best: { format: PatchFormat; offset: number } | undefined;
  const consider = (format: PatchFormat, m: RegExpExecArray | null) => {
    if (m && (best === undefined || m.index < best.offset)) {
      best = { format, offset: m.index };
    }
  };
  if (text.includes('*** Begin Patch')) {
    consider('apply-patch', BEGIN_PATCH_ANYWHERE.exec(text));
  }
  if (text.includes('@@') || text.includes('diff --git')) {
    consider('unified-diff', FILE_HEADER_ANYWHERE.exec(text));
    consider('unified-diff', HUNK_HEADER_ANYWHERE.exec(text));
    consider('unified-diff', GIT_HEADER_ANYWHERE.exec(text));
  }
  return best;
}

/** True when the text holds a unified diff or an apply_patch patch. */
export function containsPatch(text: string): boolean {
  return findPatch(text) !== undefined;
}

/**
 * Parses the patch in `text` (the format whose first marker comes first). Returns undefined when there
 * is none; throws BlockParseError for a malformed one.
 */
export function parsePatch(text: string): ParsedPatch | undefined {
  const found = findPatch(text);
  if (!found) {
    return undefined;
  }
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const lastLine = lines.length > 1 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  if (!BEGIN_PATCH_ANYWHERE.test(text)) {
    return parseUnifiedDiff(lines);
  }
  // apply_patch sections are delimited exactly; a document may hold unified diffs beside them (a chat
  // transcript, a demo file). Parse both, the diffs with the patch sections blanked out.
  const patches = parseApplyPatch(lines, lastLine);
  const rest = blankApplyPatchSections(lines);
  const diffs = findPatch(rest.join('\n')) ? parseUnifiedDiff(rest) : { files: [] };
  if (diffs.files.length === 0) {
    return patches;
  }
  const files = [...patches.files, ...diffs.files].sort((a, b) => a.sourceLine - b.sourceLine);
  let index = 0;
  for (const block of files.flatMap((f) => f.blocks).sort((a, b) => a.sourceLine - b.sourceLine)) {
    block.index = ++index;
  }
  return { format: found.format, files };
}

/** The lines with every `*** Begin Patch` ... `*** End Patch` section emptied (line numbers kept). */
function blankApplyPatchSections(lines: readonly string[]): string[] {
  const out = [...lines];
  for (let i = 0; i < out.length; i++) {
    if (!BEGIN_PATCH.test(out[i])) {
      continue;
    }
    for (; i < out.length; i++) {
      const end = END_PATCH.test(out[i].trim());
      out[i] = '';
      if (end) {
        break;
      }
    }
  }
  return out;
}

function fail(hunk: number, line: number, expected: string, message: string): never {
  throw new BlockParseError({ block: hunk, line, expected, message: `Hunk ${hunk} (line ${line}): ${message}` });
}

function failFile(hunk: number, line: number, expected: string, message: string): never {
  throw new BlockParseError({ block: hunk, line, expected, message: `Patch (line ${line}): ${message}` });
}

/** One line of a hunk body. `implicit`: an empty line standing for an empty context line (its space lost). */
interface HunkLine {
  kind: ' ' | '-' | '+';
  text: string;
  implicit?: boolean;
  noNewline?: boolean;
  /** 1-based line in the input. */
  line?: number;
}

/** Drops trailing implicit blank lines: a blank line after a hunk usually separates it from what follows. */
function trimTrailingBlanks(body: HunkLine[], keep: (body: HunkLine[]) => boolean): void {
  while (body.length > 0 && body[body.length - 1].implicit && !keep(body)) {
    body.pop();
  }
}

/**
 * Names in the order GNU patch prefers them: fewest folders, then the shortest base name, then the
 * shortest name (`x` before `x.orig` or `x.new`).
 */
export function byPatchPreference(names: readonly string[]): string[] {
  const rank = (n: string) => [n.split('/').length, (n.split('/').pop() ?? n).length, n.length];
  return [...names].sort((a, b) => {
    const [x, y] = [rank(a), rank(b)];
    return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
  });
}

/** The file a change's blocks name: for a plain diff with two spellings, the likelier one. */
function fileName(file: FileChange): string | undefined {
  return file.names ? byPatchPreference(file.names)[0] : file.path;
}

function blockFrom(
  body: readonly HunkLine[],
  index: number,
  sourceLine: number,
  filePath: string | undefined,
  hunk: HunkInfo,
): SearchReplaceBlock {
  const search = body.filter((l) => l.kind !== '+').map((l) => l.text);
  const replace = body.filter((l) => l.kind !== '-').map((l) => l.text);
  const block: SearchReplaceBlock = { index, search: search.join('\n'), replace: replace.join('\n'), sourceLine, hunk };
  if (filePath !== undefined) {
    block.filePath = filePath;
  }
  return block;
}

// ---------------------------------------------------------------------------------------------
// Unified diffs

/** The path of a `---`/`+++` line: timestamp and quotes removed; /dev/null stays as it is. */
function headerPath(rest: string): string {
  let p = rest.includes('\t') ? rest.slice(0, rest.indexOf('\t')) : rest;
  p = p.trim();
  // diff -u writes "path  2024-01-01 12:00:00.000000000 +0100" with spaces when no tab is used.
  p = p.replace(/[ ]+\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?(?: [+-]\d{4})?$/, '');
  const quoted = /^"(.*)"$/.exec(p);
  if (quoted) {
    p = quoted[1].replace(/\\(["\\])/g, '$1');
  }
  return p;
}

function isDevNull(p: string): boolean {
  return p === '/dev/null' || p === 'dev/null' || p === 'NUL';
}

/** Removes git's a/ and b/ prefixes when the pair carries them (or one side is /dev/null). */
function stripPrefixes(oldPath: string, newPath: string): { oldPath: string; newPath: string } {
  const a = oldPath.startsWith('a/');
  const b = newPath.startsWith('b/');
  if ((a && b) || (a && isDevNull(newPath)) || (b && isDevNull(oldPath))) {
    return { oldPath: a ? oldPath.slice(2) : oldPath, newPath: b ? newPath.slice(2) : newPath };
  }
  return { oldPath, newPath };
}

/** What `diff --git` and its extended header lines said about a file. */
interface GitHeader {
  line: number;
  oldPath?: string;
  newPath?: string;
  newFile?: boolean;
  deletedFile?: boolean;
  renameFrom?: string;
  renameTo?: string;
  /** A ---/+++ pair followed: the file change was recorded from it. */
  used?: boolean;
}

function gitHeaderPaths(line: string): { oldPath?: string; newPath?: string } {
  const rest = line.slice('diff --git '.length).trim();
  const m = /^"?a\/(.+?)"? "?b\/(.+?)"?$/.exec(rest);
  if (m) {
    return { oldPath: m[1], newPath: m[2] };
  }
  const words = rest.split(' ');
  return words.length === 2 ? { oldPath: words[0], newPath: words[1] } : {};
}

/** True when a ---/+++ pair names the file of the `diff --git` line before it. */
function belongsTo(git: GitHeader, paths: { oldPath: string; newPath: string }): boolean {
  const names = [git.oldPath, git.newPath, git.renameFrom, git.renameTo].filter((p): p is string => p !== undefined);
  if (names.length === 0) {
    return true;
  }
  return [paths.oldPath, paths.newPath].some((p) => !isDevNull(p) && names.includes(p));
}

/** What parseUnifiedDiff has read so far. */
interface DiffReading {
  files: FileChange[];
  /** The file the hunks read now belong to. */
  current: FileChange | undefined;
  /** The `diff --git` section being read, if any. */
  git: GitHeader | undefined;
  /** Hunks (blocks) read so far. */
  hunks: number;
}

function parseUnifiedDiff(lines: readonly string[]): ParsedPatch {
  const st: DiffReading = { files: [], current: undefined, git: undefined, hunks: 0 };
  let i = 0;
  while (i < lines.length) {
    const line = lines[i];
    if (line.startsWith('diff --git ')) {
      flushGit(st);
      st.git = { line: i + 1, ...gitHeaderPaths(line) };
      st.current = undefined;
      i++;
      continue;
    }
    if (st.git && !st.git.used) {
      readGitHeaderLine(st, st.git, line, i);
    }
    if (line.startsWith('--- ') && i + 1 < lines.length && lines[i + 1].startsWith('+++ ')) {
      readFileHeader(st, line, lines[i + 1], i);
      i += 2;
      continue;
    }
    const numeric = HUNK_HEADER.exec(line);
    if (numeric || (st.current && LOOSE_HUNK_HEADER.test(line))) {
      if (!st.current) {
        // Hunks without a file header: they go to whatever file the caller applies them to.
        st.current = { kind: 'update', blocks: [], sourceLine: i + 1 };
        st.files.push(st.current);
      }
      i = readUnifiedHunk(lines, i, numeric, st.current, ++st.hunks);
      continue;
    }
    i++;
  }
  flushGit(st);
  for (const file of st.files) {
    if (file.kind === 'add' && file.blocks.length === 0) {
      file.blocks.push({
        index: ++st.hunks,
        search: '',
        replace: '',
        sourceLine: file.sourceLine,
        filePath: file.path,
        hunk: { format: 'unified-diff' },
      });
    }
  }
  return { format: 'unified-diff', files: st.files };
}

/** A `diff --git` section with no ---/+++ lines: a pure rename, or an empty added or deleted file. */
function flushGit(st: DiffReading): void {
  const git = st.git;
  if (!git || git.used) {
    return;
  }
  const oldPath = git.renameFrom ?? git.oldPath;
  const newPath = git.renameTo ?? git.newPath;
  if (git.newFile && newPath) {
    st.files.push({
      kind: 'add',
      path: newPath,
      blocks: [{ index: ++st.hunks, search: '', replace: '', sourceLine: git.line, filePath: newPath, hunk: { format: 'unified-diff' } }],
      sourceLine: git.line,
    });
  } else if (git.deletedFile && oldPath) {
    st.files.push({ kind: 'delete', path: oldPath, blocks: [], sourceLine: git.line });
  } else if (git.renameFrom && git.renameTo) {
    st.files.push({ kind: 'update', path: git.renameFrom, moveTo: git.renameTo, blocks: [], sourceLine: git.line });
  }
}

/** One line of a `diff --git` section's extended header (line index i): new, deleted, renamed, binary. */
function readGitHeaderLine(st: DiffReading, git: GitHeader, line: string, i: number): void {
  if (/^new file mode /.test(line)) {
    git.newFile = true;
  } else if (/^deleted file mode /.test(line)) {
    git.deletedFile = true;
  } else if (line.startsWith('rename from ')) {
    git.renameFrom = line.slice('rename from '.length).trim();
  } else if (line.startsWith('rename to ')) {
    git.renameTo = line.slice('rename to '.length).trim();
  } else if (line.startsWith('Binary files ') || line === 'GIT binary patch') {
    failFile(
      st.hunks + 1,
      i + 1,
      'a text diff',
      `${git.newPath ?? git.oldPath ?? 'a file'} has a binary diff, which cannot be applied as text`,
    );
  }
}

/** A ---/+++ file header (its --- line at index i): the file the hunks after it change, added or deleted. */
function readFileHeader(st: DiffReading, line: string, next: string, i: number): void {
  const paths = stripPrefixes(headerPath(line.slice(4)), headerPath(next.slice(4)));
  if (st.git && !st.git.used && !belongsTo(st.git, paths)) {
    // A plain diff after a git section without ---/+++ lines (e.g. a pure rename).
    flushGit(st);
    st.git = undefined;
  }
  const git = st.git;
  const added = isDevNull(paths.oldPath) || git?.newFile === true;
  const deleted = isDevNull(paths.newPath) || git?.deletedFile === true;
  if (added && deleted) {
    failFile(st.hunks + 1, i + 1, 'a file path', 'both sides of the file header are /dev/null');
  }
  let current: FileChange;
  if (added) {
    current = { kind: 'add', path: paths.newPath, blocks: [], sourceLine: i + 1 };
  } else if (deleted) {
    current = { kind: 'delete', path: paths.oldPath, blocks: [], sourceLine: i + 1 };
  } else {
    current = { kind: 'update', path: paths.oldPath, blocks: [], sourceLine: i + 1 };
    // Only git's rename headers say "move"; otherwise two names are two spellings of the file to edit.
    if (paths.newPath !== paths.oldPath) {
      const renamed = git?.renameFrom !== undefined && git.renameTo !== undefined;
      if (renamed) {
        current.moveTo = paths.newPath;
      } else {
        current.names = [paths.oldPath, paths.newPath];
      }
    }
  }
  if (current.path === '') {
    failFile(st.hunks + 1, i + 1, 'a file path', `the file header '${line.trim()}' names no file`);
  }
  st.current = current;
  st.files.push(current);
  if (git) {
    git.used = true;
  }
}

/** Reads one hunk starting at its `@@` line; returns the index of the first line after it. */
function readUnifiedHunk(lines: readonly string[], at: number, numeric: RegExpExecArray | null, file: FileChange, index: number): number {
  const oldStart = numeric ? Number(numeric[1]) : undefined;
  const oldCount = numeric ? (numeric[2] === undefined ? 1 : Number(numeric[2])) : undefined;
  const newCount = numeric ? (numeric[4] === undefined ? 1 : Number(numeric[4])) : undefined;
  const body: HunkLine[] = [];
  let oldSeen = 0;
  let newSeen = 0;
  let j = at + 1;
  for (; j < lines.length; j++) {
    const l = lines[j];
    if (l.startsWith('\\')) {
      // "\ No newline at end of file": about the line before it.
      if (body.length > 0) {
        body[body.length - 1].noNewline = true;
      }
      continue;
    }
    const countsMet = oldCount !== undefined && oldSeen >= oldCount && newSeen >= (newCount ?? 0);
    if (l.startsWith('--- ') && j + 1 < lines.length && lines[j + 1].startsWith('+++ ')) {
      break;
    }
    if (l.startsWith('diff --git ') || l.startsWith('@@')) {
      break;
    }
    // Counts met: a correct hunk ends here unless more hunk lines follow (then the counts were wrong).
    if (countsMet && (l === '' || l === '-- ')) {
      break;
    }
    const c = l[0];
    if (c === ' ' || c === '-' || c === '+') {
      body.push({ kind: c, text: l.slice(1), line: j + 1 });
      if (c !== '+') {
        oldSeen++;
      }
      if (c !== '-') {
        newSeen++;
      }
    } else if (l === '') {
      body.push({ kind: ' ', text: '', implicit: true, line: j + 1 });
      oldSeen++;
      newSeen++;
    } else {
      break;
    }
  }
  trimTrailingBlanks(body, (b) => oldCount !== undefined && b.filter((x) => x.kind !== '+').length === oldCount);
  if (body.length === 0) {
    fail(
      index,
      at + 1,
      "' ', '-' or '+' lines",
      `expected the hunk's lines (' ' context, '-' removed, '+' added) after '${lines[at].trim()}'`,
    );
  }
  const hunk: HunkInfo = { format: 'unified-diff' };
  if (oldStart !== undefined && oldStart > 0) {
    hunk.headerLine = oldStart;
  }
  if (file.kind === 'add') {
    const stray = body.find((l) => l.kind !== '+');
    if (stray) {
      fail(
        index,
        stray.line ?? at + 1,
        "'+' lines",
        `${file.path} is a new file (/dev/null before it), so its hunk can only add lines ('+'), but it has '${stray.kind === ' ' ? ' ' : '-'}${stray.text}'`,
      );
    }
    const text = body.map((l) => l.text).join('\n');
    const existing = file.blocks[0];
    if (existing) {
      existing.replace = existing.replace === '' ? text : `${existing.replace}\n${text}`;
    } else {
      file.blocks.push(blockFrom(body, index, at + 1, fileName(file), hunk));
    }
    file.noFinalNewline = body[body.length - 1].noNewline === true;
    return j;
  }
  if (file.kind === 'delete') {
    return j;
  }
  const block = blockFrom(body, index, at + 1, fileName(file), hunk);
  if (block.search === '' && !(oldStart === 0 && file.path === undefined)) {
    fail(
      index,
      at + 1,
      "context lines (' ') or removed lines ('-')",
      'the hunk only adds lines and quotes no line of the file, so there is nothing to find its place by; re-create the diff with context lines (e.g. git diff -U3)',
    );
  }
  if (hunk.headerLine !== undefined) {
    block.startLine = hunk.headerLine;
  }
  file.blocks.push(block);
  return j;
}

// ---------------------------------------------------------------------------------------------
// apply_patch

const ADD_FILE = /^\*\*\* Add File:[ \t]*(.*?)[ \t]*$/;
const DELETE_FILE = /^\*\*\* Delete File:[ \t]*(.*?)[ \t]*$/;
const UPDATE_FILE = /^\*\*\* Update File:[ \t]*(.*?)[ \t]*$/;
const MOVE_TO = /^\*\*\* Move to:[ \t]*(.*?)[ \t]*$/;
const END_PATCH = /^\*\*\* End Patch[ \t]*$/;
const END_OF_FILE = /^\*\*\* End of File[ \t]*$/;

function isSectionEnd(trimmed: string): boolean {
  return END_PATCH.test(trimmed) || ADD_FILE.test(trimmed) || DELETE_FILE.test(trimmed) || UPDATE_FILE.test(trimmed);
}

function parseApplyPatch(lines: readonly string[], lastLine: number): ParsedPatch {
  return new ApplyPatchReader(lines, lastLine).read();
}

/** An apply_patch hunk being read: its @@ anchors and lines so far. */
interface PendingHunk {
  anchors: string[];
  body: HunkLine[];
  /** Input line the hunk starts on (its first @@, else its first line). */
  hunkLine: number;
  /** An @@ line came since the last hunk ended. */
  sawHeader: boolean;
}

/** Reads apply_patch text: each patch from Begin Patch to End Patch, its file sections, their hunks. */
class ApplyPatchReader {
  private readonly files: FileChange[] = [];
  /** Hunks (blocks) read so far. */
  private hunks = 0;
  /** Index of the line being read. */
  private i = 0;
  /** The indentation of the Begin line is the patch's own (a patch nested in a Markdown list). */
  private indent = '';

  constructor(
    private readonly lines: readonly string[],
    private readonly lastLine: number,
  ) {}

  read(): ParsedPatch {
    while (this.i < this.lines.length) {
      if (!BEGIN_PATCH.test(this.lines[this.i])) {
        this.i++;
        continue;
      }
      this.readPatch();
    }
    return { format: 'apply-patch', files: this.files };
  }

  private strip(l: string): string {
    return l.startsWith(this.indent) ? l.slice(this.indent.length) : l;
  }

  /** One patch, from its Begin line to its End line (an error when the input ends first). */
  private readPatch(): void {
    const lines = this.lines;
    const beginLine = this.i + 1;
    this.indent = /^[ \t]*/.exec(lines[this.i])![0];
    this.i++;
    let ended = false;
    while (this.i < lines.length) {
      const t = this.strip(lines[this.i]).trim();
      if (END_PATCH.test(t)) {
        ended = true;
        this.i++;
        break;
      }
      if (t === '') {
        this.i++;
        continue;
      }
      this.readSection(t);
    }
    if (!ended) {
      failFile(
        this.hunks + 1,
        this.lastLine,
        "'*** End Patch'",
        `expected '*** End Patch' but the input ended (the patch began on line ${beginLine})`,
      );
    }
  }

  /** One file section, from its header `t` (Add, Delete or Update File). */
  private readSection(t: string): void {
    const add = ADD_FILE.exec(t);
    const del = DELETE_FILE.exec(t);
    const upd = UPDATE_FILE.exec(t);
    const path = (add ?? del ?? upd)?.[1];
    if (path === undefined) {
      failFile(
        this.hunks + 1,
        this.i + 1,
        "'*** Add File:', '*** Delete File:', '*** Update File:' or '*** End Patch'",
        `expected '*** Add File: <path>', '*** Delete File: <path>', '*** Update File: <path>' or '*** End Patch', found '${t}'`,
      );
    }
    if (path === '') {
      failFile(this.hunks + 1, this.i + 1, 'a file path', `'${t}' names no file`);
    }
    const headerLine = this.i + 1;
    this.i++;
    if (del) {
      this.files.push({ kind: 'delete', path, blocks: [], sourceLine: headerLine });
    } else if (add) {
      this.readAddedFile(path, headerLine);
    } else {
      this.readUpdatedFile(path, headerLine);
    }
  }

  /** An Add File section's lines, every one '+' (or blank). */
  private readAddedFile(path: string, headerLine: number): void {
    const lines = this.lines;
    const body: HunkLine[] = [];
    for (; this.i < lines.length; this.i++) {
      const l = this.strip(lines[this.i]);
      if (isSectionEnd(l.trim())) {
        break;
      }
      if (l.startsWith('+')) {
        body.push({ kind: '+', text: l.slice(1) });
      } else if (l.trim() === '') {
        body.push({ kind: '+', text: '', implicit: true });
      } else {
        fail(
          this.hunks + 1,
          this.i + 1,
          "'+'",
          `every line of an added file starts with '+' (${path}, added on line ${headerLine}), found '${l}'`,
        );
      }
    }
    trimTrailingBlanks(body, () => false);
    const index = ++this.hunks;
    const block = blockFrom(body, index, headerLine, path, { format: 'apply-patch' });
    this.files.push({ kind: 'add', path, blocks: [block], sourceLine: headerLine });
  }

  /** An Update File section: an optional Move to, then hunks (@@ anchors, ' ', '-', '+' lines, End of File). */
  private readUpdatedFile(path: string, headerLine: number): void {
    const lines = this.lines;
    const file: FileChange = { kind: 'update', path, blocks: [], sourceLine: headerLine };
    const move = this.i < lines.length ? MOVE_TO.exec(this.strip(lines[this.i]).trim()) : null;
    if (move) {
      if (move[1] === '') {
        failFile(this.hunks + 1, this.i + 1, 'a file path', "'*** Move to:' names no file");
      }
      file.moveTo = move[1];
      this.i++;
    }
    const hunk: PendingHunk = { anchors: [], body: [], hunkLine: this.i + 1, sawHeader: false };
    for (; this.i < lines.length; this.i++) {
      const l = this.strip(lines[this.i]);
      const t = l.trim();
      if (isSectionEnd(t)) {
        break;
      }
      if (END_OF_FILE.test(t)) {
        this.flushHunk(file, path, hunk, true);
        hunk.sawHeader = false;
        continue;
      }
      this.readHunkLine(file, path, hunk, l);
    }
    this.flushHunk(file, path, hunk, false);
    if (file.blocks.length === 0 && file.moveTo === undefined) {
      failFile(this.hunks + 1, headerLine, "'@@' and the hunk's lines", `'*** Update File: ${path}' has no hunk`);
    }
    for (const block of file.blocks) {
      // Codex appends a hunk with no old lines at the end of the file.
      if (block.search === '') {
        block.hunk!.endOfFile = true;
      }
    }
    this.files.push(file);
  }

  /** One line `l` of an Update File section that is neither its end nor End of File: an @@ line or a hunk line. */
  private readHunkLine(file: FileChange, path: string, hunk: PendingHunk, l: string): void {
    if (l === '@@' || l.startsWith('@@ ')) {
      if (hunk.body.length > 0) {
        this.flushHunk(file, path, hunk, false);
      }
      if (hunk.anchors.length === 0) {
        hunk.hunkLine = this.i + 1;
      }
      const anchor = l.slice(2).trim();
      if (anchor !== '') {
        hunk.anchors.push(l.slice(3));
      }
      hunk.sawHeader = true;
      return;
    }
    const c = l[0];
    if (c === ' ' || c === '-' || c === '+' || l === '') {
      if (hunk.body.length === 0 && !hunk.sawHeader && file.blocks.length > 0) {
        fail(this.hunks + 1, this.i + 1, "'@@'", `expected '@@' before the next hunk of ${path}, found '${l}'`);
      }
      if (hunk.body.length === 0 && hunk.anchors.length === 0) {
        hunk.hunkLine = this.i + 1;
      }
      hunk.body.push(l === '' ? { kind: ' ', text: '', implicit: true } : { kind: c as ' ' | '-' | '+', text: l.slice(1) });
      return;
    }
    fail(
      this.hunks + 1,
      this.i + 1,
      "' ', '-', '+', '@@' or '*** End of File'",
      `expected a hunk line of ${path} (' ' context, '-' removed, '+' added, '@@' or '*** End of File'), found '${l}'`,
    );
  }

  /** The hunk read so far becomes a block of the file (none when it is empty; an error when it has a header but no lines). */
  private flushHunk(file: FileChange, path: string, pending: PendingHunk, endOfFile: boolean): void {
    trimTrailingBlanks(pending.body, () => false);
    if (pending.body.length === 0) {
      if (pending.anchors.length > 0 || endOfFile) {
        fail(
          this.hunks + 1,
          pending.hunkLine,
          "' ', '-' or '+' lines",
          "expected the hunk's lines (' ' context, '-' removed, '+' added) after '@@'",
        );
      }
      return;
    }
    const hunk: HunkInfo = { format: 'apply-patch' };
    if (pending.anchors.length > 0) {
      hunk.anchors = pending.anchors;
    }
    if (endOfFile) {
      hunk.endOfFile = true;
    }
    file.blocks.push(blockFrom(pending.body, ++this.hunks, pending.hunkLine, path, hunk));
    // New arrays: the block keeps the anchors it was given.
    pending.anchors = [];
    pending.body = [];
  }
}
