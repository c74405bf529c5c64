// `resilient-apply patch`: applies a multi-file unified diff or apply_patch patch (updates, new files,
// deletions, moves) under a root folder, all files or none. Every file's new content is computed first
// through the same engine as `apply`; only when every hunk of every file places are files written, and
// if a write fails, the files already written are put back as they were.
// `import x = require()`, not `import * as x`: the bundle would copy every export of a namespace import
// into a new object at start (esbuild's __toESM), a cost on every cold CLI run.
import fs = require('node:fs');
import path = require('node:path');
import {
  answerFormats,
  answerTargets,
  applyCodeFile,
  applyEdits,
  type ApplyResult,
  type BatchStatus,
  BlockParseError,
  addedContent,
  byPatchPreference,
  checkPatchFile,
  claimedTwice,
  type CodeFile,
  dryRunMessage,
  type FileAction,
  fileAction,
  type FileChange,
  headerlessHunkError,
  parseAnswer,
  patchAppliedMessage,
  patchRefusedMessage,
  type PathState,
  unnamedCodeBlockMessage,
} from '../core';
import { jsonRequested } from './args';
import { grammarFiles } from './grammarFiles';
import { type JsonBlock, printReport, toJsonBlock, type WireBlockStatus } from './output';
import { languageIdFor } from './paths';
import { newSidePath } from './sideFiles';
import {
  createTextFile,
  InputSourceError,
  readInputText,
  type ReadOnlyPolicy,
  readTextFile,
  refuseReadOnly,
  type TextFile,
  TextFileError,
  writeTextFile,
} from './textFile';
import { prepareForRun } from './runLength';

export const PATCH_SYNOPSIS = 'resilient-apply patch [<patch>|-] [--root <dir>] [--json] [--dry-run] [--force]';

export const PATCH_USAGE = `${PATCH_SYNOPSIS}

Applies every edit of a patch or a whole chat answer to the files it names, under --root (default:
the current folder): unified diffs (git diff, diff -u, a model's diff), apply_patch patches (*** Begin
Patch) and SEARCH/REPLACE blocks, each block for the file named on the line before it or its code
fence, and plain code blocks each naming its file (a path line or **path** before the fence, the info
string \`\`\`ts src/a.ts, or a first line // filepath: src/a.ts), placed by their declarations as with
"apply --snippet", in any mix: changes, new files (a block with an empty SEARCH, /dev/null, *** Add
File, a code block without placeholder lines for a missing file), deletions and moves. A code block
naming no file is refused (a shell block such as \`\`\`bash is a command: not run, not applied). All files or none: every hunk and block must place (same matching as "apply")
before any file is written, and a failed write puts back the files already written. Paths that leave
the root, also through a symbolic link, are refused, and so are files marked read-only (no write
permission for their owner) unless --force is given. --dry-run writes nothing and says "Would
apply ...". Exit codes as for "apply". --json prints one object:
  {status, message, files: [{path, action, to, status, message, content, blocks: [...]}]}
  action: update | add | delete | move; "content" only with --dry-run when applied.
`;

interface PatchArgs {
  source?: string;
  root: string;
  json: boolean;
  dryRun: boolean;
  force: boolean;
}

/** How an answer is applied: `dryRun` writes nothing; `readOnly` says whether read-only files are written. */
export interface AnswerOptions {
  dryRun: boolean;
  readOnly: ReadOnlyPolicy;
}

/** Input the user has to fix: status invalid, exit 3. */
export class PatchInputError extends Error {}

type Action = FileAction;

interface JsonFile {
  path: string;
  action: Action;
  to?: string;
  /** A file whose blocks matched while another file failed is `pending`, like a block (see output.ts). */
  status: WireBlockStatus;
  message?: string;
  content?: string;
  blocks: JsonBlock[];
}

export interface JsonPatchReport {
  status: BatchStatus;
  message: string;
  files: JsonFile[];
}

function parsePatchArgs(argv: readonly string[]): PatchArgs {
  const args: PatchArgs = { root: '.', json: false, dryRun: false, force: false };
  let rootSeen = false;
  for (let k = 0; k < argv.length; k++) {
    const arg = argv[k];
    if (arg === '--json') {
      args.json = true;
    } else if (arg === '--dry-run') {
      args.dryRun = true;
    } else if (arg === '--force') {
      args.force = true;
    } else if (arg === '--root' || arg.startsWith('--root=')) {
      const value = arg === '--root' ? argv[++k] : arg.slice('--root='.length);
      if (value === undefined || value === '' || value.startsWith('--')) {
        throw new PatchInputError('usage error: --root needs a folder');
      }
      if (rootSeen) {
        throw new PatchInputError('usage error: --root given twice');
      }
      rootSeen = true;
      args.root = value;
    } else if (arg.startsWith('--')) {
      throw new PatchInputError(`usage error: unknown option ${arg.split('=')[0]} for "patch"\n\nUsage: ${PATCH_SYNOPSIS}`);
    } else if (args.source !== undefined) {
      throw new PatchInputError(`usage error: expected one patch file, got ${args.source} and ${arg}`);
    } else {
      args.source = arg;
    }
  }
  return args;
}

/** Runs the command; always reports (one JSON object with --json) and returns the exit code. */
export async function runPatchCommand(argv: readonly string[]): Promise<number> {
  const wantsJson = jsonRequested(argv);
  try {
    const args = parsePatchArgs(argv);
    const root = realFolder(args.root, '--root');
    const input = await readInput(args.source);
    const options: AnswerOptions = { dryRun: args.dryRun, readOnly: { force: args.force, flag: '--force' } };
    return report(await applyAnswer(root, input.text, input.name, options), args.json);
  } catch (error) {
    return report(invalidReport(error), wantsJson);
  }
}

/** The report of a run that stopped on `error`: input to fix (its message) or an internal error. */
export function invalidReport(error: unknown): JsonPatchReport {
  if (error instanceof PatchInputError || error instanceof BlockParseError || error instanceof TextFileError) {
    return { status: 'invalid', message: error.message, files: [] };
  }
  const reason = error instanceof Error ? error.message : String(error);
  return { status: 'invalid', message: `internal error: ${reason}; nothing was changed`, files: [] };
}

/** The real path of a folder given as `what` (the root everything is confined to). */
export function realFolder(folder: string, what: string): string {
  try {
    const real = fs.realpathSync(folder);
    if (!fs.statSync(real).isDirectory()) {
      throw new Error('not a folder');
    }
    return real;
  } catch (error) {
    throw new PatchInputError(`${what} ${folder} is not a folder (${(error as Error).message})`);
  }
}

function report(json: JsonPatchReport, asJson: boolean): number {
  return printReport(json, asJson, json.status === 'invalid');
}

async function readInput(source: string | undefined): Promise<{ text: string; name: string }> {
  try {
    return await readInputText(source, 'the patch');
  } catch (error) {
    if (error instanceof InputSourceError) {
      throw new PatchInputError(
        error.reason === 'terminal' ? 'usage error: no patch: pass a patch file or pipe the patch on stdin' : error.message,
      );
    }
    throw error;
  }
}

// ---- paths under the root ---------------------------------------------------------------------------

function inside(root: string, p: string): boolean {
  const rel = path.relative(root, p);
  return rel !== '' && !rel.startsWith(`..${path.sep}`) && rel !== '..' && !path.isAbsolute(rel);
}

/**
 * The absolute path of a file the patch names, refusing any path that leaves the root: lexically (`..`,
 * absolute paths elsewhere) or through a symbolic link on the way (each existing folder and the file
 * itself are resolved with realpath before deciding).
 */
export function resolveUnderRoot(root: string, name: string): string {
  if (name.includes('\0')) {
    throw new PatchInputError(`the patch names a path with a NUL character: ${JSON.stringify(name)}`);
  }
  const absolute = path.resolve(root, name);
  if (!inside(root, absolute)) {
    throw new PatchInputError(`${name} is outside the root ${root}; nothing was changed`);
  }
  let current = root;
  for (const segment of path.relative(root, absolute).split(path.sep)) {
    current = path.join(current, segment);
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(current);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') {
        break;
      }
      if (code === 'ENOTDIR') {
        throw new PatchInputError(`${name}: ${path.relative(root, path.dirname(current))} is not a folder; nothing was changed`);
      }
      throw new PatchInputError(`cannot access ${name}: ${(error as Error).message}`);
    }
    if (stat.isSymbolicLink()) {
      let real: string;
      try {
        real = fs.realpathSync(current);
      } catch {
        throw new PatchInputError(`${name}: ${path.relative(root, current)} is a symbolic link to nothing; nothing was changed`);
      }
      if (!inside(root, real) && real !== root) {
        throw new PatchInputError(
          `${name} leads outside the root ${root} through the symbolic link ${path.relative(root, current)} (to ${real}); nothing was changed`,
        );
      }
    }
  }
  return absolute;
}

function exists(p: string): boolean {
  return stateOf(p) !== 'nothing';
}

/** What is at a path, the link itself for a symbolic link (deleting one removes the link). */
function stateOf(p: string): PathState {
  try {
    return fs.lstatSync(p).isDirectory() ? 'folder' : 'file';
  } catch {
    return 'nothing';
  }
}

// ---- planning -----------------------------------------------------------------------------------------

/** One file's change, computed but not written. */
interface PlannedFile {
  json: JsonFile;
  result?: ApplyResult;
  /** The write to do when every file placed. */
  write?: PlannedWrite;
}

/** What to write; `original` is the file as read (mtime checked again before overwriting). */
export type PlannedWrite =
  | { kind: 'update'; display: string; original: TextFile; content: string }
  | { kind: 'add'; display: string; target: string; content: string }
  | { kind: 'delete'; display: string; target: string }
  | { kind: 'move'; display: string; original: TextFile; source: string; target: string; content: string };

/**
 * Which of a plain diff's two header names to edit, as GNU patch picks: among the names that exist, the
 * one with the fewest folders, then the shortest base name, then the shortest name (so `x`, not `x.orig`
 * or `x.new`); when neither exists, the new name, for the error message.
 */
function existingName(root: string, names: [string, string]): string {
  const existing = names.filter((n) => exists(resolveUnderRoot(root, n)));
  if (existing.length > 0) {
    return byPatchPreference(existing)[0];
  }
  // `diff -ru old new` names old/x and new/x: the file is x under the root (what `patch -p1` reads).
  const [a, b] = names.map((n) => n.split('/'));
  if (a.length > 1 && b.length > 1 && a[0] !== b[0] && a.slice(1).join('/') === b.slice(1).join('/')) {
    const stripped = b.slice(1).join('/');
    if (exists(resolveUnderRoot(root, stripped))) {
      return stripped;
    }
  }
  return names[1];
}

/** A SEARCH/REPLACE block (not a hunk) with an empty SEARCH first: it creates its file when missing, as in "apply". */
function createsFile(change: FileChange): boolean {
  const first = change.blocks[0];
  return first !== undefined && first.hunk === undefined && first.search === '';
}

function planFile(root: string, change: FileChange, claimed: Map<string, string>, readOnly: ReadOnlyPolicy): PlannedFile {
  const first = change.blocks[0];
  if (change.path === undefined && first !== undefined && first.hunk === undefined) {
    throw new PatchInputError(
      `Block ${first.index} (line ${first.sourceLine}) names no file: put its path on the line before the block or its code fence ` +
        '(e.g. src/app.ts), or apply it to one file with "resilient-apply apply <file> --blocks <blocks>"; nothing was changed',
    );
  }
  if (change.path === undefined) {
    throw headerlessHunkError(change, 'add the header, or apply it to one file with "resilient-apply apply <file> --blocks <patch>"');
  }
  const name = change.names ? existingName(root, change.names) : change.path;
  const json: JsonFile = { path: name, action: fileAction(change), status: 'applied', blocks: [] };
  if (change.moveTo !== undefined) {
    json.to = change.moveTo;
  }
  const target = resolveUnderRoot(root, name);
  const claim = (p: string, label: string) => {
    // .native: one key per file on case-insensitive file systems too.
    const key = fs.existsSync(p) ? fs.realpathSync.native(p) : p;
    const previous = claimed.get(key);
    if (previous !== undefined) {
      throw new PatchInputError(claimedTwice(label, previous, `${change.kind} on line ${change.sourceLine}`));
    }
    claimed.set(key, `${change.kind} on line ${change.sourceLine}`);
  };
  claim(target, name);

  const described = { action: fileAction(change), path: name, to: change.moveTo, sourceLine: change.sourceLine };
  if (change.kind === 'delete' || change.kind === 'add') {
    const problem = checkPatchFile(described, stateOf(target), undefined, 'refuse').problem;
    if (problem !== undefined) {
      throw new PatchInputError(problem);
    }
    if (change.kind === 'delete') {
      refuseReadOnly(fs.lstatSync(target), name, readOnly);
      return { json, write: { kind: 'delete', display: name, target } };
    }
    const content = addedContent(change);
    json.content = content;
    return { json, write: { kind: 'add', display: name, target, content } };
  }

  const file = readTextFile(target);
  if (!file && createsFile(change)) {
    return planNewFile(name, target, change, json);
  }
  if (!file) {
    throw new PatchInputError(checkPatchFile(described, 'nothing', undefined, 'refuse').problem!);
  }
  refuseReadOnly(file, name, readOnly);
  let destination: string | undefined;
  if (change.moveTo !== undefined) {
    destination = resolveUnderRoot(root, change.moveTo);
    const problem = checkPatchFile(described, 'file', stateOf(destination), 'refuse').problem;
    if (problem !== undefined) {
      throw new PatchInputError(problem);
    }
    claim(destination, change.moveTo);
  }
  let content = file.text;
  let result: ApplyResult | undefined;
  if (change.blocks.length > 0) {
    result = applyEdits(file.text, change.blocks, {
      fileName: name,
      languageId: languageIdFor(name),
      ...prepareForRun(file.text.length, change.blocks.length),
    });
    json.status = result.status;
    json.message = result.message;
    json.blocks = result.blocks.map(toJsonBlock);
    if (result.status !== 'applied') {
      return { json, result };
    }
    content = result.content ?? file.text;
  }
  json.content = content;
  const write: PlannedWrite =
    destination !== undefined
      ? { kind: 'move', display: `${name} -> ${change.moveTo}`, original: file, source: target, target: destination, content }
      : { kind: 'update', display: name, original: file, content };
  return { json, result, write };
}

/** A file the answer's SEARCH/REPLACE blocks create: its content is what they make of an empty text. */
function planNewFile(name: string, target: string, change: FileChange, json: JsonFile): PlannedFile {
  const result = applyEdits('', change.blocks, { fileName: name, languageId: languageIdFor(name) });
  json.action = 'add';
  json.status = result.status;
  json.message = result.message;
  json.blocks = result.blocks.map(toJsonBlock);
  if (result.status !== 'applied') {
    return { json, result };
  }
  const content = result.content ?? '';
  json.content = content;
  return { json, result, write: { kind: 'add', display: name, target, content } };
}

/** A path as a key for "the same file": `./src/a.ts`, `src//a.ts` and `src/a.ts` are one. */
function pathKey(p: string): string {
  return path.posix.normalize(p.replace(/\\/g, '/'));
}

/** Records that a change of the answer writes `p`; a second change of the same file is refused. */
function claimPath(claimed: Map<string, string>, p: string, label: string, what: string): void {
  // .native: one key per file on case-insensitive file systems too.
  const key = fs.existsSync(p) ? fs.realpathSync.native(p) : p;
  const previous = claimed.get(key);
  if (previous !== undefined) {
    throw new PatchInputError(claimedTwice(label, previous, what));
  }
  claimed.set(key, what);
}

/**
 * A file the answer's code blocks change (with its blocks and hunks, in the answer's order), computed on
 * its text as read: a missing file only from a whole new file's code block (core's isWholeNewFile).
 */
async function planCodeFile(root: string, file: CodeFile, claimed: Map<string, string>, readOnly: ReadOnlyPolicy): Promise<PlannedFile> {
  const target = resolveUnderRoot(root, file.path);
  claimPath(claimed, target, file.path, `code block on line ${file.sourceLine}`);
  if (stateOf(target) === 'folder') {
    throw new PatchInputError(`the answer changes ${file.path} (line ${file.sourceLine}), which is a folder; nothing was changed`);
  }
  const existing = readTextFile(target);
  if (existing) {
    refuseReadOnly(existing, file.path, readOnly);
  }
  const text = existing?.text;
  const result = await applyCodeFile(text, file, {
    fileName: file.path,
    languageId: languageIdFor(file.path),
    grammars: grammarFiles(),
    ...prepareForRun(text?.length ?? 0, file.steps.length),
  });
  if (result.created && result.status === 'invalid' && result.blocks.length === 0) {
    throw new PatchInputError(result.message);
  }
  const json: JsonFile = {
    path: file.path,
    action: result.created ? 'add' : 'update',
    status: result.status,
    message: result.message,
    blocks: result.blocks.map(toJsonBlock),
  };
  const applied: ApplyResult = { status: result.status, blocks: result.blocks, message: result.message, edits: [] };
  if (result.status !== 'applied' || result.content === undefined) {
    return { json, result: applied };
  }
  json.content = result.content;
  const write: PlannedWrite = existing
    ? { kind: 'update', display: file.path, original: existing, content: result.content }
    : { kind: 'add', display: file.path, target, content: result.content };
  return { json, result: applied, write };
}

/**
 * Applies every edit of `text` (a patch or a whole answer, code blocks included; `name` says where it
 * came from) under `root`, a real path: all files or none, nothing written on a dry run, read-only files
 * refused unless forced. Throws PatchInputError, BlockParseError or TextFileError for input to fix
 * (invalidReport turns them into the report).
 */
export async function applyAnswer(root: string, text: string, name: string, { dryRun, readOnly }: AnswerOptions): Promise<JsonPatchReport> {
  const parsed = parseAnswer(text);
  if (!parsed || (parsed.files.length === 0 && parsed.codeBlocks.length === 0)) {
    throw new PatchInputError(
      `no edits found in ${name} (expected a unified diff with "--- a/<path>" / "+++ b/<path>" / "@@" lines, "*** Begin Patch" ... "*** End Patch", ` +
        'SEARCH/REPLACE blocks ("<<<<<<< SEARCH" / "=======" / ">>>>>>> REPLACE"), each with its file\'s path on the line before it, ' +
        'or fenced code blocks each naming its file)',
    );
  }
  const split = answerTargets(parsed, pathKey);
  if (split.unnamed.length > 0) {
    throw new PatchInputError(unnamedCodeBlockMessage(split.unnamed[0]));
  }
  if (split.problems.length > 0) {
    throw new PatchInputError(split.problems[0].charAt(0).toUpperCase() + split.problems[0].slice(1));
  }
  if (split.targets.length === 0) {
    throw new PatchInputError(
      `no edits found in ${name}: its only code blocks are commands to run (line ${split.commands[0].fenceLine}), not files' code`,
    );
  }
  const formats = answerFormats(parsed);
  const claimed = new Map<string, string>();
  const planned: PlannedFile[] = [];
  for (const target of split.targets) {
    planned.push(
      target.kind === 'change'
        ? planFile(root, target.change, claimed, readOnly)
        : await planCodeFile(root, target.file, claimed, readOnly),
    );
  }
  const files = planned.map((p) => p.json);
  const failed = planned.find((p) => p.json.status !== 'applied');
  if (failed) {
    for (const p of planned) {
      delete p.json.content;
      if (p.json.status === 'applied') {
        // Placed but not written: its message says what it would do, not "Applied".
        p.json.status = 'pending';
        p.json.message = p.json.message === undefined ? undefined : dryRunMessages(p.json.message);
      }
    }
    const reasons = planned.filter((p) => p.result && p.result.status !== 'applied').map((p) => p.result!.message);
    return { status: failed.json.status as BatchStatus, message: patchRefusedMessage(formats, reasons), files };
  }
  const changes = planned.map((p) => ({ action: p.json.action, path: p.json.path, to: p.json.to, result: p.result }));
  const note = commandsNote(split.commands.map((b) => b.fenceLine));
  if (dryRun) {
    for (const f of files) {
      f.message = f.message === undefined ? undefined : dryRunMessages(f.message);
    }
    return { status: 'applied', message: patchAppliedMessage(formats, changes, true) + note, files };
  }
  for (const f of files) {
    delete f.content;
  }
  commitWrites(planned.map((p) => p.write!));
  return { status: 'applied', message: patchAppliedMessage(formats, changes) + note, files };
}

/** dryRunMessage for each line of a message (a file's code blocks each say what they did). */
function dryRunMessages(message: string): string {
  return message.split('\n').map(dryRunMessage).join('\n');
}

/** Says that shell code blocks were not run, when the answer had any. */
function commandsNote(lines: readonly number[]): string {
  if (lines.length === 0) {
    return '';
  }
  const where = lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.join(', ')}`;
  return `\n(The command code block${lines.length === 1 ? '' : 's'} at ${where} ${lines.length === 1 ? 'was' : 'were'} not run.)`;
}

function describeWrite(w: PlannedWrite): string {
  switch (w.kind) {
    case 'update':
      return `updated ${w.display}`;
    case 'add':
      return `added ${w.display}`;
    case 'delete':
      return `deleted ${w.display}`;
    case 'move':
      return `moved ${w.display}`;
  }
}

// ---- writing, all or nothing ------------------------------------------------------------------------------

/** How to undo one completed write. */
type Undo = () => void;

function originalBytes(file: TextFile): Buffer {
  const body = Buffer.from(file.text, 'utf8');
  return file.bom ? Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), body]) : body;
}

/** Puts bytes back at a path that no longer exists (temp file named as the CLI's own + rename), with the given mode. */
function restore(target: string, bytes: Buffer, mode: number): void {
  const temp = newSidePath(target, 'tmp');
  fs.writeFileSync(temp, bytes, { mode });
  fs.chmodSync(temp, mode);
  fs.renameSync(temp, target);
}

/**
 * Writes a file's old text back over the patch's edit through the CLI's one write path, so a
 * hard-linked file is restored in place (every name sees it), owner and mode kept, fsynced.
 */
function restoreText(original: TextFile, display: string): void {
  const now = readTextFile(original.realPath);
  if (!now) {
    throw new Error(`${display} disappeared while the patch was undone`);
  }
  writeTextFile(now, original.text, display);
}

/** Folders that creating `file` would add (outermost first), to remove them again on rollback. */
function missingFolders(file: string): string[] {
  const out: string[] = [];
  for (let dir = path.dirname(file); !fs.existsSync(dir); dir = path.dirname(dir)) {
    out.unshift(dir);
  }
  return out;
}

function removeCreated(file: string, folders: string[]): void {
  fs.rmSync(file, { force: true });
  for (const dir of [...folders].reverse()) {
    try {
      fs.rmdirSync(dir);
    } catch {
      // Not empty (something else was put there): leave it.
    }
  }
}

function writeOne(w: PlannedWrite): Undo {
  switch (w.kind) {
    case 'update': {
      writeTextFile(w.original, w.content, w.display);
      return () => restoreText(w.original, w.display);
    }
    case 'add': {
      const folders = missingFolders(w.target);
      createTextFile(w.target, w.content);
      return () => removeCreated(w.target, folders);
    }
    case 'delete': {
      const stat = fs.lstatSync(w.target);
      const link = stat.isSymbolicLink() ? fs.readlinkSync(w.target) : undefined;
      const bytes = link === undefined ? fs.readFileSync(w.target) : undefined;
      fs.unlinkSync(w.target);
      return () => (link !== undefined ? fs.symlinkSync(link, w.target) : restore(w.target, bytes!, stat.mode & 0o7777));
    }
    case 'move': {
      const bytes = originalBytes(w.original);
      const folders = missingFolders(w.target);
      createTextFile(w.target, w.content);
      try {
        fs.chmodSync(w.target, w.original.mode);
        fs.unlinkSync(w.source);
      } catch (error) {
        removeCreated(w.target, folders);
        throw error;
      }
      return () => {
        restore(w.source, bytes, w.original.mode);
        removeCreated(w.target, folders);
      };
    }
  }
}

/**
 * Performs the writes in order. If one fails, the ones already done are undone (newest first) and a
 * PatchInputError says what failed and whether everything was put back.
 */
export function commitWrites(writes: readonly PlannedWrite[]): void {
  const done: { w: PlannedWrite; undo: Undo }[] = [];
  for (const w of writes) {
    try {
      done.push({ w, undo: writeOne(w) });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const problems: string[] = [];
      for (const { w: previous, undo } of done.reverse()) {
        try {
          undo();
        } catch (undoError) {
          problems.push(
            `${describeWrite(previous)} could not be undone (${undoError instanceof Error ? undoError.message : String(undoError)})`,
          );
        }
      }
      const restored =
        problems.length === 0
          ? `nothing was changed${done.length > 0 ? ` (the ${done.length} file change${done.length === 1 ? '' : 's'} already made ${done.length === 1 ? 'was' : 'were'} undone)` : ''}`
          : `and restoring failed: ${problems.join('; ')}; check those files`;
      throw new PatchInputError(`Writing failed (${describeWrite(w)}: ${reason}); ${restored}.`);
    }
  }
}
