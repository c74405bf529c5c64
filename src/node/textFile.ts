// Reading and writing the CLI's target file: UTF-8 only, BOM kept aside and restored, and writes that
// either fully happen or not at all (temp file in the same directory + rename).
import { isUtf8 } from 'node:buffer';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

export type TextFileProblem = 'not-found' | 'not-text' | 'changed' | 'io';

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
  mtimeMs: number;
  size: number;
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * Decodes UTF-8 text, refusing what is not text: NUL bytes (binary or UTF-16) and invalid UTF-8.
 * `name` goes into the error message, which also says where the problem is.
 */
export function decodeText(bytes: Buffer, name: string): { text: string; bom: boolean } {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    throw new TextFileError('not-text', `${name} is not a UTF-8 text file: it starts with a UTF-16 byte order mark (only UTF-8 is supported)`);
  }
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    throw new TextFileError('not-text',
      `${name} is not a text file: it contains a NUL byte at offset ${nul} (line ${lineAt(bytes, nul)}); binary files are not edited`);
  }
  const invalid = firstInvalidUtf8(bytes);
  if (invalid >= 0) {
    throw new TextFileError('not-text',
      `${name} is not valid UTF-8: invalid byte 0x${bytes[invalid].toString(16).padStart(2, '0')} at offset ${invalid} (line ${lineAt(bytes, invalid)}); only UTF-8 text files are edited`);
  }
  const bom = bytes.subarray(0, 3).equals(UTF8_BOM);
  return { text: bytes.toString('utf8', bom ? 3 : 0), bom };
}

/** Reads and decodes a text file; undefined when it does not exist. */
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
  let stat: fs.Stats;
  let bytes: Buffer;
  try {
    stat = fs.statSync(realPath);
    if (!stat.isFile()) {
      throw new TextFileError('not-text', `${filePath} is not a regular file`);
    }
    bytes = fs.readFileSync(realPath);
  } catch (error) {
    if (error instanceof TextFileError) {
      throw error;
    }
    throw ioError(filePath, error);
  }
  const { text, bom } = decodeText(bytes, filePath);
  return { realPath, text, bom, mode: stat.mode & 0o7777, uid: stat.uid, gid: stat.gid, mtimeMs: stat.mtimeMs, size: stat.size };
}

/**
 * Replaces the file's content atomically, keeping its BOM, mode and (when permitted) owner. Refuses
 * when the file changed on disk since it was read. The temp file lives in the same directory so the
 * rename never crosses file systems.
 */
export function writeTextFileAtomic(original: TextFile, text: string, displayName: string): void {
  let current: fs.Stats;
  try {
    current = fs.statSync(original.realPath);
  } catch (error) {
    throw ioError(displayName, error);
  }
  if (current.mtimeMs !== original.mtimeMs || current.size !== original.size) {
    throw new TextFileError('changed', `${displayName} changed on disk while the edit was being computed; nothing was written`);
  }
  writeAtomic(original.realPath, encode(text, original.bom), original.mode, displayName, original);
}

/** Creates a new file (and missing parent directories) with the given text, atomically. */
export function createTextFile(filePath: string, text: string): void {
  const absolute = path.resolve(filePath);
  try {
    fs.mkdirSync(path.dirname(absolute), { recursive: true });
  } catch (error) {
    throw ioError(filePath, error);
  }
  const umask = process.umask();
  writeAtomic(absolute, encode(text, false), 0o666 & ~umask, filePath, undefined, true);
}

function encode(text: string, bom: boolean): Buffer {
  const body = Buffer.from(text, 'utf8');
  return bom ? Buffer.concat([UTF8_BOM, body]) : body;
}

function writeAtomic(
  target: string, data: Buffer, mode: number, displayName: string,
  owner?: { uid: number; gid: number }, mustNotExist = false,
): void {
  const dir = path.dirname(target);
  const temp = path.join(dir, `.${path.basename(target)}.${process.pid}.${crypto.randomBytes(4).toString('hex')}.tmp`);
  let fd: number | undefined;
  try {
    fd = fs.openSync(temp, 'wx', mode);
    fs.writeSync(fd, data);
    // openSync's mode is filtered by the umask; set the original mode exactly.
    fs.fchmodSync(fd, mode);
    if (owner && process.getuid?.() === 0) {
      fs.fchownSync(fd, owner.uid, owner.gid);
    }
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fd = undefined;
    if (mustNotExist && fs.existsSync(target)) {
      throw new TextFileError('changed', `${displayName} appeared on disk while the edit was being computed; nothing was written`);
    }
    fs.renameSync(temp, target);
  } catch (error) {
    if (fd !== undefined) {
      fs.closeSync(fd);
    }
    fs.rmSync(temp, { force: true });
    throw error instanceof TextFileError ? error : ioError(displayName, error);
  }
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
  const reason = error instanceof Error ? error.message : String(error);
  return new TextFileError('io', `cannot access ${name}: ${reason}`);
}
