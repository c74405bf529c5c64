// Fault tests of the `resilient-apply` CLI as a real process: bad files, closed pipes, long names,
// links, modes, racing writers and SIGKILL during writes. In every run --json prints one JSON object.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { block, parseOneJson, run, runJson, runShell, start, workspace } from './cliHarness';

// Every test spawns processes and mostly waits: they run side by side.
describe('CLI faults', { concurrency: 3 }, () => {
  describe('unreadable or non-text input gives one JSON object and exit 3', { concurrency: 2 }, () => {
    const cases: Array<[string, Record<string, string | Buffer>, string, RegExp]> = [
      ['missing file', {}, 'nope.js', /file not found: nope\.js/],
      ['binary file', { 'f.bin': Buffer.from([0x61, 0x00, 0x62]) }, 'f.bin', /NUL byte at offset 1/],
      ['invalid UTF-8', { 'f.txt': Buffer.from([0x61, 0x0a, 0xc3, 0x28]) }, 'f.txt', /invalid byte 0xc3 at offset 2 \(line 2\)/],
      ['UTF-16', { 'f.txt': Buffer.from('\uFEFFa\n', 'utf16le') }, 'f.txt', /UTF-16 byte order mark/],
    ];
    for (const [name, files, target, pattern] of cases) {
      test(name, async () => {
        const dir = workspace(files);
        const { code, json } = await runJson(dir, ['apply', target], block('a', 'b'));
        assert.equal(code, 3);
        assert.equal(json.status, 'invalid');
        assert.match(json.message, pattern);
        for (const [file, content] of Object.entries(files)) {
          assert.deepEqual(fs.readFileSync(path.join(dir, file)), Buffer.from(content));
        }
      });
    }

    test('a directory', async () => {
      const dir = workspace({ 'sub/x.txt': 'a\n' });
      const { code, json } = await runJson(dir, ['apply', 'sub'], block('a', 'b'));
      assert.equal(code, 3);
      assert.match(json.message, /sub is not a regular file/);
    });

    test('closed stdin and unreadable stdin', async () => {
      const dir = workspace({ 'a.txt': 'a\n' });
      const closed = await runShell(dir, '"$NODE" "$CLI" apply a.txt --json <&-');
      assert.equal(closed.code, 3, closed.stderr);
      assert.match(parseOneJson(closed).message, /no SEARCH\/REPLACE blocks found in stdin/);
      const directory = await runShell(dir, '"$NODE" "$CLI" apply a.txt --json < .');
      assert.equal(directory.code, 3, directory.stderr);
      assert.match(parseOneJson(directory).message, /stdin/);
      assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'a\n');
    });

    test('bad flag values', async () => {
      const dir = workspace({ 'a.txt': 'a\n' });
      // The flag rules themselves are unit-tested in cliArgs.test.ts; here: one JSON object each way.
      const cases = [
        ['apply', 'a.txt', '--fuzzy-apply', 'NaN'], ['apply', 'a.txt', '--line-hint', '1e23'],
        ['apply', 'a.txt', '--blocks'], ['frobnicate', 'a.txt'], ['apply', 'a.txt', '--blocks', 'missing.txt'],
      ];
      const runs = await Promise.all(cases.map((args) => run(dir, [...args, '--json'], block('a', 'b'))));
      runs.forEach((r, k) => {
        assert.equal(r.code, 3, cases[k].join(' '));
        assert.equal(parseOneJson(r).status, 'invalid', cases[k].join(' '));
      });
      assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'a\n');
    });

    test('after --, --json is a file name and does not switch JSON on', async () => {
      const dir = workspace({ 'a.txt': 'a\n', '--json': 'a\n' });
      const usage = await run(dir, ['apply', 'a.txt', '--', '--json'], block('a', 'b'));
      assert.equal(usage.code, 3);
      assert.equal(usage.stdout, '', 'no JSON on stdout');
      assert.match(usage.stderr, /^usage error: expected one <file>, got 2: a\.txt --json/);

      const named = await run(dir, ['apply', '--', '--json'], block('a', 'b'));
      assert.equal(named.code, 0, named.stderr);
      assert.match(named.stdout, /^Applied 1 block to --json/);
      assert.equal(fs.readFileSync(path.join(dir, '--json'), 'utf8'), 'b\n');

      const both = await run(dir, ['apply', '--json', '--', '--json'], block('b', 'c'));
      assert.equal(both.code, 0, both.stderr);
      assert.equal(parseOneJson(both).file, '--json');
    });
  });

  describe('closed output pipes', { concurrency: 2 }, () => {
    async function withClosedStdout(dir: string, args: string[], input: string, closeStderr = false) {
      const child = start(dir, args);
      child.stdout.destroy();
      if (closeStderr) child.stderr.destroy();
      let stderr = '';
      if (!closeStderr) child.stderr.on('data', (d) => { stderr += d; });
      child.stdin.end(input);
      const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
      return { code, stderr };
    }

    test('the exit code is the outcome even when nobody reads stdout (| head -0)', async () => {
      const dir = workspace({ 'a.txt': 'a\nb\n' });
      const applied = await withClosedStdout(dir, ['apply', 'a.txt'], block('a', 'A'));
      assert.equal(applied.code, 0, applied.stderr);
      assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'A\nb\n');
      const json = await withClosedStdout(dir, ['apply', 'a.txt', '--json'], block('b', 'B'));
      assert.equal(json.code, 0, json.stderr);
      assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'A\nB\n');
      const missing = await withClosedStdout(dir, ['apply', 'a.txt', '--json'], block('zzz', 'y'));
      assert.equal(missing.code, 1, missing.stderr);
      const invalid = await withClosedStdout(dir, ['apply', 'nope.txt'], block('zzz', 'y'), true);
      assert.equal(invalid.code, 3);
    });

    test('through a real shell pipe', async () => {
      const dir = workspace({ 'a.txt': 'a\n', 'b.txt': block('a', 'A') });
      const r = await runShell(dir, '{ "$NODE" "$CLI" apply a.txt --blocks b.txt; echo $? > status; } | head -c 0');
      assert.equal(fs.readFileSync(path.join(dir, 'status'), 'utf8'), '0\n', r.stderr);
      assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'A\n');
      assert.doesNotMatch(r.stderr, /EPIPE|internal error/);
    });
  });

});
