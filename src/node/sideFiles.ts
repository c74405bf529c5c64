// The files the CLI writes next to its target: `.<name>.<pid>.<8 hex>.tmp` holds the new content until
// it is renamed over the target; `.<name>.<pid>.<8 hex>.bak` holds the old content while a hard-linked
// file is rewritten in place. The pid says whose they are, so leftovers of dead processes can be
// told apart from files another run is writing right now.
import type * as Crypto from 'node:crypto';
// `import x = require()`, not `import * as x`: the bundle would copy every export of a namespace import
// into a new object at start (esbuild's __toESM), a cost on every cold CLI run.
import fs = require('node:fs');
import path = require('node:path');

export type SideKind = 'tmp' | 'bak';

/** Longest file name in bytes on the usual file systems (ext4, xfs, btrfs, apfs, ntfs). */
const NAME_MAX = 255;
/** Bytes around the stem: '.' + stem + '.' + pid (at most 10 digits) + '.' + 8 hex + '.tmp'. */
const AROUND_STEM = 1 + 1 + 10 + 1 + 8 + 4;
const HASH_CHARS = 16;

/**
 * node:crypto, loaded on first use: loading it (with the stream modules it pulls in) costs a cold CLI
 * run more than matching a 10,000-line file, and a dry run or a read-only command never needs it.
 */
let cryptoModule: typeof Crypto | undefined;
function crypto(): typeof Crypto {
  return (cryptoModule ??= require('node:crypto') as typeof Crypto);
}

/**
 * The part of a side file's name that stands for the target: the target's own name, or, when that
 * would push the side file's name past NAME_MAX, a UTF-8-safe cut of it plus a hash of the full name.
 */
export function sideStem(baseName: string): string {
  const room = NAME_MAX - AROUND_STEM;
  if (Buffer.byteLength(baseName) <= room) {
    return baseName;
  }
  const hash = crypto().createHash('sha256').update(baseName).digest('hex').slice(0, HASH_CHARS);
  return `${cutUtf8(baseName, room - HASH_CHARS - 1)}~${hash}`;
}

/** A fresh side file path for `target` owned by this process. */
export function newSidePath(target: string, kind: SideKind): string {
  const name = `.${sideStem(path.basename(target))}.${process.pid}.${crypto().randomBytes(4).toString('hex')}.${kind}`;
  return path.join(path.dirname(target), name);
}

export interface SideFile {
  path: string;
  pid: number;
  alive: boolean;
}

/** Side files of `kind` next to `target` that match our naming exactly (regular files only). */
export function sideFilesOf(target: string, kind: SideKind): SideFile[] {
  const dir = path.dirname(target);
  const pattern = new RegExp(`^\\.${escapeRegExp(sideStem(path.basename(target)))}\\.([1-9][0-9]{0,9})\\.[0-9a-f]{8}\\.${kind}$`);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const found: SideFile[] = [];
  for (const name of names) {
    const match = pattern.exec(name);
    if (!match) {
      continue;
    }
    const full = path.join(dir, name);
    try {
      if (!fs.lstatSync(full).isFile()) {
        continue;
      }
    } catch {
      continue;
    }
    const pid = Number(match[1]);
    found.push({ path: full, pid, alive: isAlive(pid) });
  }
  return found;
}

/**
 * Removes the temp files that runs killed mid-write (SIGKILL, power loss) left next to `target`: only
 * names matching our pattern exactly, only regular files, only of processes that no longer exist.
 * Best effort: a file that cannot be removed stays.
 */
export function removeStaleTemps(target: string): void {
  for (const side of sideFilesOf(target, 'tmp')) {
    if (!side.alive) {
      try {
        fs.unlinkSync(side.path);
      } catch {
        // Someone else removed it, or the folder is read-only: harmless either way.
      }
    }
  }
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) {
    return true;
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function cutUtf8(text: string, maxBytes: number): string {
  const bytes = Buffer.from(text, 'utf8');
  let end = maxBytes;
  while (end > 0 && (bytes[end] & 0xc0) === 0x80) {
    end--;
  }
  return bytes.toString('utf8', 0, end);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
