// Reading and writing the CLI's target file: UTF-8 only, BOM kept aside and restored. An ordinary file
// is replaced atomically (fsynced temp file in the same folder, renamed over it), so readers and crashes
// see the old or the new file, never a mix. A file with several hard links is rewritten in place so every
// name sees the edit; an fsynced backup copy of the old content exists while that happens.
import { isAscii, isUtf8 } from 'node:buffer';
// `import x = require()`, not `import * as x`: the bundle would copy every export of a namespace import
// into a new object at start (esbuild's __toESM), a cost on every cold CLI run.
import fs = require('node:fs');
import path = require('node:path');
import { newSidePath, removeStaleTemps, sideFilesOf } from './sideFiles';

export type TextFileProblem = 'not-found' | 'not-text' | 'changed' | 'io' | 'read-only';

export class TextFileError extends Error {
  readonly problem: TextFileProblem;

  constructor(problem: TextFileProblem, message: string) {
    super(message);
    this.name = 'TextFileError';
    this.problem = problem;
  }
}

/** A decoded text file and what is needed to write it back the way it was. */
export interface TextFile {
  /** The path through any symlinks: writes replace the target, never the link. */
  realPath: string;
  /** Content without the BOM. */
  text: string;
  bom: boolean;
  mode: number;
  uid: number;
  gid: number;
  /** What the file looked like when read, to notice a concurrent change before overwriting. */
  bytes: Buffer;
  mtimeMs: number;
  size: number;
  ino: number;
  dev: number;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Decodes UTF-8 text, refusing what is not text: NUL bytes (binary or UTF-16) and invalid UTF-8.
 * `name` goes into the error message, which also says where the problem is.
 */
export function decodeText(bytes: Buffer, name: string): { text: string; bom: boolean } {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new TextFileError(
      'not-text',
      `${name} is not a UTF-8 text file: it starts with a UTF-16 byte order mark (only UTF-8 is supported)`,
    );
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    throw new TextFileError(
      'not-text',
      `${name} is not a text file: it contains a NUL byte at offset ${nul} (line ${lineAt(bytes, nul)}); binary files are not edited`,
    );
  }
  const invalid = firstInvalidUtf8(bytes);
  if (invalid >= 0) {
    throw new TextFileError(
      'not-text',
      `${name} is not valid UTF-8: invalid byte 0x${bytes[invalid].toString(16).padStart(2, '0')} at offset ${invalid} (line ${lineAt(bytes, invalid)}); only UTF-8 text files are edited`,
    );
  }
  const bom = bytes.subarray(0, 3).equals(UTF8_BOM);
  // ASCII (most source files) read as Latin-1 is the same text, without UTF-8 decoding: a third of the
  // time on a 10,000-line file in a cold process.
  return { text: bytes.toString(!bom && isAscii(bytes) ? 'latin1' : 'utf8', bom ? 3 : 0), bom };
}

/** An input named on the command line could not be read: stdin is a terminal (nothing piped), or the read failed. */
export class InputSourceError extends Error {
  constructor(
    readonly reason: 'terminal' | 'unreadable',
    message: string,
  ) {
    super(message);
    this.name = 'InputSourceError';
  }
}

/**
 * The text of an input the CLI reads whole: the file `source`, or stdin when `source` is undefined or
 * '-'. `what` names it in messages ("the blocks", "the patch"). Throws InputSourceError, or
 * TextFileError for bytes that are not text.
 */
export async function readInputText(source: string | undefined, what: string): Promise<{ text: string; name: string }> {
  const fromStdin = source === undefined || source === '-';
  const name = fromStdin ? 'stdin' : source;
  if (fromStdin && process.stdin.isTTY) {
    throw new InputSourceError('terminal', `no input: ${what} must be piped on stdin or named`);
  }
  let bytes: Buffer;
  try {
    bytes = fromStdin ? await readStdin() : fs.readFileSync(name);
  } catch (error) {
    throw new InputSourceError('unreadable', `cannot read ${what} from ${name}: ${(error as Error).message}`);
  }
  return { text: decodeText(bytes, `${what} from ${name}`).text, name };
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  }
  return Buffer.concat(chunks);
}

/** Reads and decodes a text file; undefined when it does not exist (a dangling symlink included). */
export function readTextFile(filePath: string): TextFile | undefined {
  let realPath: string;
  try {
    realPath = fs.realpathSync(filePath);
  } catch (error) {
    if (isErrno(error, 'ENOENT')) {
      return undefined;
    }
    throw ioError(filePath, error);
  }
  let fd: number | undefined;
  let stat: fs.Stats;
  let bytes: Buffer;
  try {
    // Checked before opening: opening a FIFO for reading would wait for a writer forever.
    if (!fs.statSync(realPath).isFile()) {
      throw new TextFileError('not-text', `${filePath} is not a regular file`);
    }
    fd = fs.openSync(realPath, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    stat = fs.fstatSync(fd);
    if (!stat.isFile()) {
      throw new TextFileError('not-text', `${filePath} is not a regular file`);
    }
    bytes = fs.readFileSync(fd);
    const after = fs.fstatSync(fd);
    if (after.size !== stat.size || after.mtimeMs !== stat.mtimeMs || bytes.length !== stat.size) {
      throw changedError(filePath, 'while it was being read');
    }
  } catch (error) {
    throw asTextFileError(filePath, error);
  } finally {
    if (fd !== undefined) {
      closeQuietly(fd);
    }
  }
  // A torn file is neither matched against nor reported on: it is refused until someone looks at it.
  refuseAfterInterruptedWrite(realPath, filePath, bytes, false);
  const { text, bom } = decodeText(bytes, filePath);
  return {
    realPath,
    text,
    bom,
    bytes,
    mode: stat.mode & 0o7777,
    uid: stat.uid,
    gid: stat.gid,
    mtimeMs: stat.mtimeMs,
    size: stat.size,
    ino: stat.ino,
    dev: stat.dev,
  };
}

/** Whether files marked read-only are written anyway, and the option that says so (named in the refusal). */
export interface ReadOnlyPolicy {
  force: boolean;
  /** The CLI's `--force`; none for the MCP server, which never writes a read-only file. */
  flag?: string;
}

/**
 * Refuses a file its owner marked read-only (no owner write bit), unless the policy forces. Writing
 * replaces the file by a rename, which its mode does not stop (nor does root's access), so the mode
 * bits are read, not access(): a read-only file means "do not edit", for root too.
 */
export function refuseReadOnly(file: Pick<TextFile, 'mode'>, displayName: string, policy: ReadOnlyPolicy): void {
  if (policy.force || (file.mode & 0o200) !== 0) {
    return;
  }
  const mode = (file.mode & 0o777).toString(8).padStart(4, '0');
  const override = policy.flag ? ` or pass ${policy.flag}` : '';
  throw new TextFileError(
    'read-only',
    `${displayName} is read-only (mode ${mode}: no write permission for its owner); nothing was written. Make it writable first (chmod u+w ${displayName})${override}`,
  );
}

/**
 * Writes new text over a file read by readTextFile, keeping its BOM, mode (setuid/setgid/sticky
 * included), owner and group (when permitted). Refuses, writing nothing, when the file changed on
 * disk since it was read (size, mtime, inode or content), checked again right before the new content
 * takes its place.
 *
 * One link: atomic replacement (temp file + fsync + rename), the old or the new file, never torn.
 * Several hard links: rewritten in place, so the other names see the edit too. Before that an fsynced
 * backup of the old content is written next to it; only a kill or crash during the in-place write
 * itself can leave a torn file, and then the backup is still there and later runs refuse to touch the
 * file until someone looks at it.
 */
export function writeTextFile(original: TextFile, text: string, displayName: string): void {
  const data = encode(text, original.bom);
  refuseAfterInterruptedWrite(original.realPath, displayName, original.bytes);
  removeStaleTemps(original.realPath);
  let nlink: number;
  try {
    nlink = fs.statSync(original.realPath).nlink;
  } catch (error) {
    throw isErrno(error, 'ENOENT') ? changedError(displayName) : ioError(displayName, error);
  }
  if (nlink > 1) {
    writeInPlace(original, data, displayName);
  } else {
    viaTempFile(original.realPath, data, displayName, original, (temp) => {
      assertUnchanged(original, displayName);
      fs.renameSync(temp, original.realPath);
    });
  }
}

/**
 * Creates a file that does not exist yet. A missing path gets its missing folders; a dangling symlink
 * is written through (its final target is created, the link stays) as long as the target's folder
 * exists. Never replaces anything that appeared meanwhile.
 */
export function createTextFile(filePath: string, text: string): void {
  const requested = path.resolve(filePath);
  const target = danglingLinkTarget(requested, filePath);
  const folder = path.dirname(target);
  if (target === requested) {
    try {
      fs.mkdirSync(folder, { recursive: true });
    } catch (error) {
      throw ioError(filePath, error);
    }
  } else if (!isDirectory(folder)) {
    throw new TextFileError(
      'not-found',
      `${filePath} is a symbolic link to ${target}, whose folder ${folder} does not exist; nothing was written (create the folder or fix the link)`,
    );
  }
  refuseAfterInterruptedWrite(target, filePath);
  removeStaleTemps(target);
  viaTempFile(target, encode(text, false), filePath, undefined, (temp) => {
    // link() fails if anything took the name meanwhile, where rename() would replace it.
    try {
      fs.linkSync(temp, target);
    } catch (error) {
      if (isErrno(error, 'EEXIST')) {
        throw appearedError(filePath);
      }
      if (!['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EMLINK', 'EXDEV'].includes((error as NodeJS.ErrnoException).code ?? '')) {
        throw error;
      }
      // A file system without hard links: check, then rename (a small window remains there).
      if (lexists(target)) {
        throw appearedError(filePath);
      }
      fs.renameSync(temp, target);
      return;
    }
    fs.unlinkSync(temp);
  });
}

function encode(text: string, bom: boolean): Buffer {
  const body = Buffer.from(text, 'utf8');
  return bom ? Buffer.concat([UTF8_BOM, body]) : body;
}

/**
 * Writes `data` into a fresh temp file next to `target` (mode and owner of `like`, or the default
 * mode for new files), fsyncs it, and hands it to `commit`, which moves it into place. The temp file
 * never outlives a failure.
 */
function viaTempFile(
  target: string,
  data: Buffer,
  displayName: string,
  like: { mode: number; uid: number; gid: number } | undefined,
  commit: (temp: string) => void,
  tempOf = target,
): void {
  // Named after the file being edited, so a later run knows it and can clean it up.
  const temp = newSidePath(tempOf, 'tmp');
  let fd: number | undefined;
  try {
    // Private while being filled; the final mode comes after the owner.
    fd = fs.openSync(temp, 'wx', like ? 0o600 : 0o666);
    writeAllAt(fd, data);
    if (like) {
      // chown first: changing the owner clears setuid/setgid, the chmod after it sets them again.
      keepOwner(fd, like);
      fs.fchmodSync(fd, like.mode);
    }
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    commit(temp);
  } catch (error) {
    if (fd !== undefined) {
      closeQuietly(fd);
    }
    removeQuietly(temp);
    throw asTextFileError(displayName, error);
  }
  fsyncFolder(path.dirname(target));
}

function keepOwner(fd: number, like: { uid: number; gid: number }): void {
  if (process.getuid?.() === 0) {
    fs.fchownSync(fd, like.uid, like.gid);
  } else if (like.gid !== process.getegid?.()) {
    try {
      // An owner may give the file any group they belong to; keep the file's group when allowed.
      fs.fchownSync(fd, -1, like.gid);
    } catch {
      // Not a member of that group: the new file keeps ours.
    }
  }
}

function writeInPlace(original: TextFile, data: Buffer, displayName: string): void {
  let fd: number;
  try {
    fd = fs.openSync(original.realPath, fs.constants.O_RDWR | fs.constants.O_NONBLOCK);
  } catch (error) {
    throw isErrno(error, 'ENOENT') ? changedError(displayName) : ioError(displayName, error);
  }
  let backup: string | undefined;
  let touched = false;
  try {
    assertUnchanged(original, displayName, fd);
    backup = writeBackup(original, displayName);
    touched = true;
    writeAllAt(fd, data);
    fs.ftruncateSync(fd, data.length);
    fs.fsyncSync(fd);
    touched = false;
    removeQuietly(backup);
  } catch (error) {
    if (touched && backup !== undefined) {
      // The in-place write failed half-way (disk full, I/O error): put the old bytes back.
      try {
        writeAllAt(fd, original.bytes);
        fs.ftruncateSync(fd, original.bytes.length);
        fs.fsyncSync(fd);
        removeQuietly(backup);
      } catch {
        throw new TextFileError(
          'io',
          `${displayName} could not be rewritten in place (${errorText(error)}) nor restored; its previous content is in ${backup}`,
        );
      }
    }
    throw asTextFileError(displayName, error);
  } finally {
    closeQuietly(fd);
  }
}

/** An fsynced copy of the old bytes; it only ever exists complete (written as a temp file, then renamed). */
function writeBackup(original: TextFile, displayName: string): string {
  const backup = newSidePath(original.realPath, 'bak');
  viaTempFile(
    backup,
    original.bytes,
    displayName,
    { mode: 0o600, uid: original.uid, gid: original.gid },
    (temp) => {
      fs.renameSync(temp, backup);
    },
    original.realPath,
  );
  return backup;
}

/**
 * Refuses to write over a file whose in-place rewrite was interrupted (or is under way). A backup of a
 * dead run that equals the file's current bytes is removed instead: the rewrite never started.
 */
function refuseAfterInterruptedWrite(target: string, displayName: string, current?: Buffer, cleanUp = true): void {
  for (const backup of sideFilesOf(target, 'bak')) {
    if (backup.alive) {
      throw new TextFileError(
        'changed',
        `${displayName} is being rewritten in place by process ${backup.pid} right now; nothing was written (try again)`,
      );
    }
    if (current !== undefined && sameBytes(backup.path, current)) {
      if (cleanUp) {
        removeQuietly(backup.path);
      }
      continue;
    }
    throw new TextFileError(
      'changed',
      `an earlier run was interrupted while rewriting ${displayName} in place, so it may be incomplete; its previous content is in ${backup.path}. ` +
        'Check the file, then delete that backup; nothing was written',
    );
  }
}

function sameBytes(file: string, bytes: Buffer): boolean {
  try {
    return fs.statSync(file).size === bytes.length && fs.readFileSync(file).equals(bytes);
  } catch {
    return false;
  }
}

/** Throws 'changed' unless the file still has the inode, size, mtime and bytes it had when read. */
function assertUnchanged(original: TextFile, displayName: string, fd?: number): void {
  // Bytes first, then the name's inode: a file renamed over the name while its old bytes were being read
  // (megabytes take milliseconds) shows up as another inode, so only the moment between this stat and the
  // caller's rename is left open.
  let bytes: Buffer;
  let now: fs.Stats;
  try {
    bytes = readAllAt(fd ?? original.realPath, original.size);
    now = fd === undefined ? fs.lstatSync(original.realPath) : fs.fstatSync(fd);
  } catch (error) {
    throw isErrno(error, 'ENOENT') ? changedError(displayName) : error;
  }
  const same =
    now.isFile() && now.ino === original.ino && now.dev === original.dev && now.size === original.size && now.mtimeMs === original.mtimeMs;
  if (!same || !bytes.equals(original.bytes)) {
    throw changedError(displayName);
  }
}

/** The file's bytes (one more than expected at most, enough to notice growth). */
function readAllAt(source: number | string, expected: number): Buffer {
  const fd = typeof source === 'number' ? source : fs.openSync(source, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const buffer = Buffer.alloc(expected + 1);
    let length = 0;
    while (length < buffer.length) {
      const read = fs.readSync(fd, buffer, length, buffer.length - length, length);
      if (read === 0) {
        break;
      }
      length += read;
    }
    return buffer.subarray(0, length);
  } finally {
    if (typeof source !== 'number') {
      closeQuietly(fd);
    }
  }
}

function writeAllAt(fd: number, data: Buffer): void {
  let written = 0;
  while (written < data.length) {
    written += fs.writeSync(fd, data, written, data.length - written, written);
  }
}

/** Follows a chain of dangling symlinks to the path that would be created; `requested` if no link. */
function danglingLinkTarget(requested: string, displayName: string): string {
  let current = requested;
  for (let hops = 0; hops <= 40; hops++) {
    let stat: fs.Stats;
    try {
      stat = fs.lstatSync(current);
    } catch (error) {
      if (isErrno(error, 'ENOENT')) {
        return current;
      }
      throw ioError(displayName, error);
    }
    if (!stat.isSymbolicLink()) {
      throw appearedError(displayName);
    }
    try {
      // Relative to the link's real folder, as the kernel does ('..' after a linked folder).
      current = path.resolve(fs.realpathSync(path.dirname(current)), fs.readlinkSync(current));
    } catch (error) {
      throw ioError(displayName, error);
    }
  }
  throw new TextFileError('io', `cannot create ${displayName}: too many levels of symbolic links`);
}

function fsyncFolder(folder: string): void {
  // Makes the rename or the new name durable; some systems cannot open or fsync a folder: best effort.
  let fd: number | undefined;
  try {
    fd = fs.openSync(folder, 'r');
    fs.fsyncSync(fd);
  } catch {
    // Not supported here.
  } finally {
    if (fd !== undefined) {
      closeQuietly(fd);
    }
  }
}

function isDirectory(p: string): boolean {
  try {
    return fs.statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function lexists(p: string): boolean {
  try {
    fs.lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

function closeQuietly(fd: number): void {
  try {
    fs.closeSync(fd);
  } catch {
    // Already closed or never valid: nothing to release.
  }
}

function removeQuietly(p: string): void {
  try {
    fs.unlinkSync(p);
  } catch {
    // Gone already (or never created).
  }
}

function changedError(name: string, when = 'while the edit was being computed'): TextFileError {
  return new TextFileError('changed', `${name} changed on disk ${when}; nothing was written (read it again and retry)`);
}

function appearedError(name: string): TextFileError {
  return new TextFileError('changed', `${name} appeared on disk while the edit was being computed; nothing was written`);
}

function asTextFileError(name: string, error: unknown): TextFileError {
  return error instanceof TextFileError ? error : ioError(name, error);
}

function lineAt(bytes: Buffer, offset: number): number {
  let line = 1;
  for (let k = bytes.indexOf(0x0a); k >= 0 && k < offset; k = bytes.indexOf(0x0a, k + 1)) {
    line++;
  }
  return line;
}

/** Offset of the first byte that breaks UTF-8 (overlongs, surrogates and > U+10FFFF included), or -1. */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (isUtf8(buffer)) {
    return -1;
  }
  // Node's decoder turns each bad sequence into U+FFFD, so re-encoding first differs within the first
  // bad sequence, at most 2 bytes after its start; that start is the end of the longest valid prefix.
  const again = Buffer.from(buffer.toString('utf8'), 'utf8');
  let differs = 0;
  while (differs < buffer.length && differs < again.length && buffer[differs] === again[differs]) {
    differs++;
  }
  for (let start = differs; start > 0; start--) {
    if (isUtf8(buffer.subarray(0, start))) {
      return start;
    }
  }
  return 0;
}

function isErrno(error: unknown, code: string): boolean {
  return typeof error === 'object' && error !== null && (error as NodeJS.ErrnoException).code === code;
}

function ioError(name: string, error: unknown): TextFileError {
  return new TextFileError('io', `cannot access ${name}: ${errorText(error)}`);
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
