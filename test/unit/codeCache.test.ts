// The CLI runs its bundle through a V8 code cache (src/node/codeCache.ts and cliCodeCache.ts, dist/cli.js). The cache may only
// ever make a run faster: these tests run small bundles and the production CLI as real processes and check
// that a run with a cache, without one, with a damaged one, with an unusable cache folder or racing other
// runs prints the same and exits the same, that stack traces name the bundle's own file, line and column,
// and that a good cache is written once and then used.
import { after, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { finish } from './cliHarness';

const ROOT = path.resolve(__dirname, '../../..');
const CLI_CODE_CACHE = path.resolve(__dirname, '../../src/node/cliCodeCache.js');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-code-cache-'));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));
let counter = 0;

/** A bundle with enough functions for a real cache; prints what they compute, or throws on THROW=1 at a known place. */
const BUNDLE = `'use strict';
const parts = [];
function square(n) { return n * n; }
function sumOfSquares(n) { let s = 0; for (let i = 1; i <= n; i++) s += square(i); return s; }
function words(text) { return text.split(/\\s+/).filter(Boolean).map((w) => w.toUpperCase()); }
parts.push(sumOfSquares(10), words('a cached bundle').join('-'), __filename.endsWith('bundle.js'), typeof require('node:fs').readFileSync);
if (process.env.THROW) { (function fail() { throw new Error('boom'); })(); }
if (process.env.TURBOFAN) { require('node:v8').setFlagsFromString('--turbofan'); }
console.log(parts.join(' '));
`;
const BUNDLE_OUTPUT = '385 A-CACHED-BUNDLE true function\n';
/** Where BUNDLE's error is made: line 7, the column of `new Error`. */
const THROW_LINE = 7;
const THROW_COLUMN = BUNDLE.split('\n')[THROW_LINE - 1].indexOf('new Error') + 1;

/** The loader of a test: runs bundle.js next to it with the cache file CACHE_FILE, reports usedCache on stderr. */
const LOADER = `const path = require('node:path');
const { runWithCodeCache } = require(${JSON.stringify(CLI_CODE_CACHE)});
const run = runWithCodeCache(path.join(__dirname, 'bundle.js'), process.env.CACHE_FILE, require, module, '--no-turbofan');
process.stderr.write('usedCache=' + run.usedCache + '\\n');
`;

interface Setup {
  dir: string;
  cacheFile: string;
}

function setup(cacheFile?: string): Setup {
  const dir = path.join(tmp, `b${++counter}`);
  fs.mkdirSync(dir);
  fs.writeFileSync(path.join(dir, 'bundle.js'), BUNDLE);
  fs.writeFileSync(path.join(dir, 'loader.js'), LOADER);
  return { dir, cacheFile: cacheFile ?? path.join(dir, 'cache', 'bundle.cache') };
}

interface BundleRun {
  code: number | null;
  stdout: string;
  stderr: string;
  usedCache: boolean;
}

function runBundle(s: Setup, env: Record<string, string> = {}): BundleRun {
  const r = spawnSync(process.execPath, [path.join(s.dir, 'loader.js')], {
    encoding: 'utf8',
    env: { ...process.env, CACHE_FILE: s.cacheFile, ...env },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, usedCache: /usedCache=true/.test(r.stderr) };
}

/** Runs the bundle and checks it printed and exited as it always does. */
function runOk(s: Setup): BundleRun {
  const r = runBundle(s);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, BUNDLE_OUTPUT);
  return r;
}

/** The cache file holds V8's data twice (src/node/codeCache.ts readCacheData). */
function assertValidCacheFile(file: string): void {
  const bytes = fs.readFileSync(file);
  assert.ok(bytes.length > 0 && bytes.length % 2 === 0, `cache file of ${bytes.length} bytes`);
  assert.ok(bytes.subarray(0, bytes.length / 2).equals(bytes.subarray(bytes.length / 2)), 'the two copies differ');
}

/** A small seeded generator (mulberry32), so a failing case can be run again. */
function random(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), seed | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('code cache', { concurrency: 2 }, () => {
  test('the first run writes the cache, later runs use it and print the same', () => {
    const s = setup();
    assert.equal(runOk(s).usedCache, false);
    assertValidCacheFile(s.cacheFile);
    const written = fs.readFileSync(s.cacheFile);
    assert.equal(runOk(s).usedCache, true);
    assert.equal(runOk(s).usedCache, true);
    assert.ok(fs.readFileSync(s.cacheFile).equals(written), 'a run that used the cache rewrote it');
    assert.deepEqual(fs.readdirSync(path.dirname(s.cacheFile)), ['bundle.cache']);
    if (process.getuid) {
      assert.equal(fs.statSync(path.dirname(s.cacheFile)).mode & 0o777, 0o700);
      assert.equal(fs.statSync(s.cacheFile).mode & 0o777, 0o600);
    }
  });

  test('a run that turned the optimising compiler back on still writes a cache the next run uses', () => {
    // V8 rejects a cache made under other flags: the cache is made under the loader's flags.
    const s = setup();
    const first = runBundle(s, { TURBOFAN: '1' });
    assert.equal(first.code, 0, first.stderr);
    assert.equal(first.usedCache, false);
    assertValidCacheFile(s.cacheFile);
    assert.equal(runOk(s).usedCache, true);
  });

  test('a damaged cache file is never run: same output, and a good cache replaces it', () => {
    const s = setup();
    runOk(s);
    const good = fs.readFileSync(s.cacheFile);
    const half = good.length / 2;
    const next = random(20261130);
    const damages: Array<[string, Buffer]> = [
      ['empty', Buffer.alloc(0)],
      ['one byte', Buffer.from([0])],
      ['first copy only', good.subarray(0, half)],
      ['truncated', good.subarray(0, good.length - 1)],
      ['zeros', Buffer.alloc(good.length)],
      ['random bytes', Buffer.from(Array.from({ length: good.length }, () => Math.floor(next() * 256)))],
    ];
    // One flipped byte anywhere in either copy: V8 checks only the header of its data and can crash
    // deserializing the rest, so the two copies must be compared before V8 sees them.
    for (let i = 0; i < 12; i++) {
      const damaged = Buffer.from(good);
      const at = Math.floor(next() * good.length);
      damaged[at] ^= 1 + Math.floor(next() * 255);
      damages.push([`byte ${at} changed`, damaged]);
    }
    for (const [name, bytes] of damages) {
      fs.writeFileSync(s.cacheFile, bytes);
      const r = runBundle(s);
      assert.equal(r.code, 0, `${name}: ${r.stderr}`);
      assert.equal(r.stdout, BUNDLE_OUTPUT, name);
      assert.equal(r.usedCache, false, `${name}: the damaged cache was used`);
      assertValidCacheFile(s.cacheFile);
      assert.equal(runOk(s).usedCache, true, `${name}: the rewritten cache was not used`);
    }
  });

  test('a cache of another Node or V8 (rejected by V8) is replaced', () => {
    const s = setup();
    runOk(s);
    const good = fs.readFileSync(s.cacheFile).subarray(0, fs.statSync(s.cacheFile).size / 2);
    // V8's header: a magic number, then a hash of the V8 version at offset 4.
    const other = Buffer.from(good);
    other.writeUInt32LE(other.readUInt32LE(4) ^ 0x5a5a5a5a, 4);
    fs.writeFileSync(s.cacheFile, Buffer.concat([other, other]));
    assert.equal(runOk(s).usedCache, false);
    assert.equal(runOk(s).usedCache, true);
  });

  test('stack traces name the bundle file, line and column, with and without the cache', () => {
    const s = setup();
    for (const when of ['without a cache', 'with the cache the first throwing run wrote']) {
      const r = runBundle(s, { THROW: '1' });
      assert.notEqual(r.code, 0);
      assert.match(r.stderr, /Error: boom/);
      assert.ok(
        r.stderr.includes(`${path.join(s.dir, 'bundle.js')}:${THROW_LINE}:${THROW_COLUMN}`),
        `${when}: the trace does not name bundle.js:${THROW_LINE}:${THROW_COLUMN}:\n${r.stderr}`,
      );
      assertValidCacheFile(s.cacheFile);
    }
    assert.equal(runOk(s).usedCache, true);
  });

  test('a cache folder others can write is neither read nor written', () => {
    const s = setup();
    runOk(s);
    assert.equal(runOk(s).usedCache, true);
    const folder = path.dirname(s.cacheFile);
    fs.chmodSync(folder, 0o777);
    assert.equal(runOk(s).usedCache, false);
    fs.rmSync(s.cacheFile);
    assert.equal(runOk(s).usedCache, false);
    assert.deepEqual(fs.readdirSync(folder), [], 'a cache was written into a folder others can write');
  });

  test('a folder of another user is neither read nor written', { skip: process.getuid?.() !== 0 && 'needs root to chown' }, () => {
    const s = setup();
    runOk(s);
    const folder = path.dirname(s.cacheFile);
    fs.chownSync(folder, 12345, 12345);
    assert.equal(runOk(s).usedCache, false);
    fs.rmSync(s.cacheFile);
    runOk(s);
    assert.deepEqual(fs.readdirSync(folder), []);
  });

  test('no cache folder can be made: the run is the same', () => {
    const s = setup();
    fs.writeFileSync(path.join(s.dir, 'not-a-folder'), '');
    const blocked: Setup = { ...s, cacheFile: path.join(s.dir, 'not-a-folder', 'sub', 'bundle.cache') };
    assert.equal(runOk(blocked).usedCache, false);
    assert.equal(runOk(blocked).usedCache, false);
  });

  test('concurrent first runs all print the same and leave one good cache, no temp files', async () => {
    const s = setup();
    const runs = await Promise.all(
      Array.from({ length: 6 }, () =>
        finish(spawn(process.execPath, [path.join(s.dir, 'loader.js')], { env: { ...process.env, CACHE_FILE: s.cacheFile } })),
      ),
    );
    for (const r of runs) {
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.stdout, BUNDLE_OUTPUT);
    }
    assert.deepEqual(fs.readdirSync(path.dirname(s.cacheFile)), ['bundle.cache']);
    assertValidCacheFile(s.cacheFile);
    assert.equal(runOk(s).usedCache, true);
  });

  test('writing a cache removes other cache files untouched for over a day', () => {
    const s = setup();
    const folder = path.dirname(s.cacheFile);
    fs.mkdirSync(folder, { mode: 0o700 });
    const old = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    for (const name of ['0.0.9-old.cache', 'bundle.cache.999999.tmp', 'keep.txt']) {
      fs.writeFileSync(path.join(folder, name), 'x');
      fs.utimesSync(path.join(folder, name), old, old);
    }
    fs.writeFileSync(path.join(folder, '0.0.8-recent.cache'), 'x');
    runOk(s);
    assert.deepEqual(fs.readdirSync(folder).sort(), ['0.0.8-recent.cache', 'bundle.cache', 'keep.txt']);
  });
});

describe('the production CLI (dist/cli.js) runs through the cache', () => {
  // The production build into a temp folder, with a package.json beside it for --version.
  const app = path.join(tmp, 'app');
  const scratch = path.join(tmp, 'scratch');

  function cli(args: string[], env: Record<string, string> = {}, input = '') {
    const r = spawnSync(process.execPath, [path.join(app, 'dist', 'cli.js'), ...args], {
      cwd: scratch,
      input,
      encoding: 'utf8',
      env: { ...process.env, TMPDIR: path.join(tmp, 'tmpdir'), ...env },
    });
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  }

  test('same output and exit code with no cache, a cache, a damaged cache and the cache turned off', () => {
    // A plain code block (--snippet) also runs dist/cli-code-blocks.js, through a cache of its own.
    fs.mkdirSync(scratch);
    fs.mkdirSync(path.join(tmp, 'tmpdir'));
    const build = spawnSync(process.execPath, ['esbuild.mjs', '--production', '--outdir', path.join(app, 'dist')], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    assert.equal(build.status, 0, `production build failed:\n${build.stdout}${build.stderr}`);
    const manifest = fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8');
    fs.writeFileSync(path.join(app, 'package.json'), manifest);
    const version = (JSON.parse(manifest) as { version: string }).version;
    fs.writeFileSync(path.join(scratch, 'a.js'), 'function a() {\n  return 1;\n}\n');
    const miss = '<<<<<<< SEARCH\nfunction b() {\n  return 1;\n}\n=======\nfunction b() {\n  return 2;\n}\n>>>>>>> REPLACE\n';
    const codeBlock = 'function a() {\n  return 3;\n}\n';
    const commands: Array<[string[], string]> = [
      [['--version'], ''],
      [['apply', 'a.js', '--dry-run', '--json'], miss],
      [['apply', 'a.js', '--snippet', '-', '--dry-run', '--json'], codeBlock],
    ];
    const folder = path.join(tmp, 'tmpdir', process.getuid ? `resilient-apply-${process.getuid()}` : 'resilient-apply');
    const expected = commands.map(([args, input]) => cli(args, { NODE_DISABLE_COMPILE_CACHE: '1' }, input));
    assert.equal(expected[0].stdout, `${version}\n`);
    assert.equal(expected[1].code, 1, expected[1].stderr);
    assert.equal(expected[2].code, 0, expected[2].stderr);
    assert.match(expected[2].stdout, /return 3;/);
    assert.ok(!fs.existsSync(folder), 'NODE_DISABLE_COMPILE_CACHE did not turn the cache off');

    const runAll = (when: string, after?: (command: number) => void) =>
      commands.forEach(([args, input], i) => {
        const r = cli(args, {}, input);
        assert.deepEqual(r, expected[i], `${args.join(' ')} ${when}`);
        after?.(i);
      });
    // Only a code block loads the code-block placer, and so makes its cache.
    runAll('without a cache', (i) =>
      assert.equal(fs.readdirSync(folder).length, i < 2 ? 1 : 2, `cache files after ${commands[i][0].join(' ')}`),
    );
    const files = fs.readdirSync(folder).sort();
    // The bundles' key, then the V8 version (a cache another V8 made is rejected).
    const key = `${version.replace(/\./g, '\\.')}-[0-9a-f]{16}-v8-${process.versions.v8.replace(/[^\w.-]/g, '_').replace(/\./g, '\\.')}`;
    assert.equal(files.length, 2, files.join(', '));
    assert.match(files[0], new RegExp(`^${key}-code-blocks\\.cache$`));
    assert.match(files[1], new RegExp(`^${key}\\.cache$`));
    assert.equal(files[0], files[1].replace(/\.cache$/, '-code-blocks.cache'));
    const cacheFiles = files.map((file) => path.join(folder, file));
    const written = cacheFiles.map((file) => fs.readFileSync(file));
    runAll('with a cache');
    cacheFiles.forEach((file, i) => assert.ok(fs.readFileSync(file).equals(written[i]), `runs with a good cache rewrote ${files[i]}`));
    cacheFiles.forEach((file, i) => {
      const damaged = Buffer.from(written[i]);
      damaged[Math.floor(damaged.length / 4)] ^= 0xff;
      fs.writeFileSync(file, damaged);
    });
    runAll('with damaged caches');
    cacheFiles.forEach(assertValidCacheFile);
  });

  test('an ordinary run goes without the optimising compiler; a large document or a whole-document search turns it on', () => {
    // --trace-opt makes V8 print each optimising compile on stdout (and makes a cache of its own).
    const env = { TMPDIR: path.join(tmp, 'tmpdir-trace') };
    fs.mkdirSync(env.TMPDIR);
    const lines = Array.from({ length: 40_000 }, (_, i) => `export const value${i} = compute(${i}, 'a string to make it longer');`);
    fs.writeFileSync(path.join(scratch, 'large.js'), `${lines.join('\n')}\n`);
    fs.writeFileSync(path.join(scratch, 'small.js'), `${lines.slice(0, 2_000).join('\n')}\n`);
    const miss = `<<<<<<< SEARCH\n${lines.slice(1_000, 1_010).join('\n').replace('value1005 ', 'valueX ')}\n=======\nexport const edited = 1;\n>>>>>>> REPLACE\n`;
    const trace = (file: string, input = miss) =>
      spawnSync(process.execPath, ['--trace-opt', path.join(app, 'dist', 'cli.js'), 'apply', file, '--dry-run'], {
        cwd: scratch,
        input,
        encoding: 'utf8',
        env: { ...process.env, ...env },
      });
    for (let run = 0; run < 2; run++) {
      const small = trace('small.js');
      assert.equal(small.status, 1, small.stderr);
      assert.doesNotMatch(small.stdout, /TURBOFAN/, `run ${run} on a 2,000-line file used the optimising compiler`);
    }
    const large = trace('large.js');
    assert.equal(large.status, 1, large.stderr);
    assert.match(large.stdout, /compiling method .*TURBOFAN/, 'a 40,000-line file ran without the optimising compiler');
    // One changed line of one: no exact lines settle it, and the search reads the whole file.
    const oneLine = `<<<<<<< SEARCH\n${lines[1_005].replace('compute', 'computeX')}\n=======\nexport const edited = 1;\n>>>>>>> REPLACE\n`;
    const scan = trace('small.js', oneLine);
    assert.equal(scan.status, 1, scan.stderr);
    assert.match(scan.stdout, /compiling method .*TURBOFAN/, 'a search of the whole file ran without the optimising compiler');
    // The user's own choice about compiling stands: asked for on node's command line, TurboFan works
    // in an ordinary run; --jitless runs are left alone (turning TurboFan on in one crashes Node 24).
    const chosen = spawnSync(
      process.execPath,
      ['--turbofan', '--trace-opt', path.join(app, 'dist', 'cli.js'), 'apply', 'small.js', '--dry-run'],
      {
        cwd: scratch,
        input: miss,
        encoding: 'utf8',
        env: { ...process.env, ...env },
      },
    );
    assert.equal(chosen.status, 1, chosen.stderr);
    assert.match(chosen.stdout, /compiling method .*TURBOFAN/, 'the CLI turned off the optimising compiler node was started with');
    const plain = spawnSync(process.execPath, [path.join(app, 'dist', 'cli.js'), 'apply', 'small.js', '--dry-run', '--json'], {
      cwd: scratch,
      input: oneLine,
      encoding: 'utf8',
      env: { ...process.env, ...env },
    });
    const jitless = spawnSync(process.execPath, [path.join(app, 'dist', 'cli.js'), 'apply', 'small.js', '--dry-run', '--json'], {
      cwd: scratch,
      input: oneLine,
      encoding: 'utf8',
      env: { ...process.env, ...env, NODE_OPTIONS: '--jitless' },
    });
    assert.equal(jitless.status, 1, jitless.stderr);
    assert.equal(jitless.stdout, plain.stdout);
  });
});
