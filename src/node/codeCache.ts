// Runs a CommonJS bundle through a V8 code cache, so that a cold CLI process (cliCodeCache.ts) and the Node
// extension host (src/extensionLoader.ts) deserialize the bytecode of the functions an earlier run
// compiled instead of parsing and compiling them again (Node 20 has no module.enableCompileCache). The cache is only ever an
// optimisation: whatever goes wrong with it (no writable temp folder, a folder someone else owns, a damaged
// or stale file, concurrent runs) the bundle runs the same way, compiled from source.
// `import x = require()` as in the other CLI files: a namespace import is copied at every start (cli.ts).
import { isAscii } from 'node:buffer';
import fs = require('node:fs');
import os = require('node:os');
import path = require('node:path');
import vm = require('node:vm');

/**
 * The bundle's text goes inside Node's CommonJS wrapper. The head is a line of its own and the script
 * starts one line early, so positions in stack traces are the bundle file's own lines and columns.
 */
const WRAPPER_HEAD = '(function (exports, require, module, __filename, __dirname) {\n';
const WRAPPER_TAIL = '\n})';

/** A cache file not written for this long is removed when another one is written (old versions and builds). */
const STALE_MS = 24 * 60 * 60 * 1000;

/**
 * Per-user folder for the cache files. In a shared temp folder it has to be a real directory of this
 * user that nobody else can write: code read from it is run. Windows' temp folder is per user already.
 */
export function cacheDirectory(tmpdir = os.tmpdir()): string {
  const uid = process.getuid?.();
  return path.join(tmpdir, uid === undefined ? 'resilient-apply' : `resilient-apply-${uid}`);
}

/**
 * Where the cache named `name` (a bundle key) lives: named after the V8 version too, as V8 rejects a cache
 * another version made, and two Node versions taking turns would each rewrite it on every run.
 */
export function cachePath(name: string): string {
  return path.join(cacheDirectory(), `${name}-v8-${process.versions.v8.replace(/[^\w.-]/g, '_')}`);
}

function isPrivateDirectory(dir: string): boolean {
  const stat = fs.lstatSync(dir);
  const uid = process.getuid?.();
  return stat.isDirectory() && (uid === undefined || (stat.uid === uid && (stat.mode & 0o022) === 0));
}

/**
 * The cache file holds V8's data twice. Node 20's V8 checks the data's header (V8 version, flags, source
 * length) but no checksum of the rest, and deserializing damaged data can crash the process; two equal
 * halves are the check, for the price of one memory compare (hashing would first load node:crypto, which
 * costs a cold run more than the cache saves on small commands).
 */
export function readCacheData(file: string): Buffer | undefined {
  if (!isPrivateDirectory(path.dirname(file))) {
    return undefined;
  }
  const bytes = fs.readFileSync(file);
  const half = bytes.length / 2;
  const data = bytes.subarray(0, half);
  return half > 0 && Number.isInteger(half) && data.equals(bytes.subarray(half)) ? data : undefined;
}

/** Writes `data` (twice) to `file` through a temp file and a rename: a concurrent run reads a whole file or none. */
export function writeCacheData(file: string, data: () => Buffer): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!isPrivateDirectory(dir)) {
    return;
  }
  const temp = `${file}.${process.pid}.tmp`;
  try {
    const bytes = data();
    fs.writeFileSync(temp, Buffer.concat([bytes, bytes]), { flag: 'wx', mode: 0o600 });
    fs.renameSync(temp, file);
  } finally {
    fs.rmSync(temp, { force: true });
  }
  removeStaleCaches(dir, file);
}

function removeStaleCaches(dir: string, keep: string): void {
  const now = Date.now();
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if (file !== keep && /\.cache$|\.tmp$/.test(name)) {
      try {
        if (now - fs.statSync(file).mtimeMs > STALE_MS) {
          fs.rmSync(file, { force: true });
        }
      } catch {
        // Another run removed it first.
      }
    }
  }
}

export interface CachedRun {
  /** Whether V8 accepted cache data for this run (false: none, unreadable or rejected). */
  usedCache: boolean;
}

/** A bundle compiled with a code cache, not yet run. */
export interface CompiledBundle extends CachedRun {
  /** Runs the bundle's top level as a CommonJS module with `require` and `module`. */
  run(require: NodeJS.Require, module: NodeJS.Module): void;
  /**
   * Writes the cache file when there was no usable cache; what it holds is every function compiled so
   * far, so the later the call, the more a later run is spared. Never throws.
   */
  saveCache(beforeCreate?: () => void): void;
}

/**
 * Compiles the CommonJS bundle `file` with the cache file `cacheFile` (see runWithCodeCache). Whatever goes
 * wrong with the cache, the bundle compiles from source.
 */
export function compileWithCodeCache(file: string, cacheFile: string): CompiledBundle {
  const bytes = fs.readFileSync(file);
  // An ASCII bundle (esbuild.mjs checks the CLI's) read as Latin-1 is the same text, one byte a
  // character, without UTF-8 decoding, which took twice as long on the 530 kB bundle in a cold process.
  const source = WRAPPER_HEAD + bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8') + WRAPPER_TAIL;
  let cachedData: Buffer | undefined;
  try {
    cachedData = readCacheData(cacheFile);
  } catch {
    // No cache yet, or an unusable folder: compile from source.
  }
  const script = new vm.Script(source, { filename: file, lineOffset: -1, cachedData });
  const usedCache = cachedData !== undefined && !script.cachedDataRejected;
  return {
    usedCache,
    run(require, module) {
      const wrapper = script.runInThisContext() as (...args: unknown[]) => void;
      wrapper.call(module.exports, module.exports, require, module, file, path.dirname(file));
    },
    saveCache(beforeCreate) {
      if (usedCache) {
        return;
      }
      try {
        writeCacheData(cacheFile, () => {
          beforeCreate?.();
          return script.createCachedData();
        });
      } catch {
        // A read-only or full folder: the next run compiles from source again.
      }
    },
  };
}
