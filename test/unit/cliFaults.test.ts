// Fault tests of the `resilient-apply` CLI as a real process: bad files, closed pipes, long names,
// links, modes, racing writers and SIGKILL during writes. In every run --json prints one JSON object.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { block, deadPid, leftovers, parseOneJson, run, runJson, runShell, start, workspace } from './cliHarness';

/** How long after the other writer's rename ours may come when it still replaced theirs: one scheduling pause. */
const RACE_WINDOW_MS = 50;

const isRoot = process.getuid?.() === 0;

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
        ['apply', 'a.txt', '--auto-apply-above', 'NaN'],
        ['apply', 'a.txt', '--line-hint', '1e23'],
        ['apply', 'a.txt', '--blocks'],
        ['frobnicate', 'a.txt'],
        ['apply', 'a.txt', '--blocks', 'missing.txt'],
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

  describe('long names', { concurrency: 2 }, () => {
    const names = [
      ['251 characters', `${'b'.repeat(247)}.js`],
      ['255 bytes of two-byte characters', `${'é'.repeat(126)}.js`],
    ];
    for (const [label, name] of names) {
      test(`a ${label} basename is edited like any other`, async () => {
        assert.ok(Buffer.byteLength(name) <= 255);
        const dir = workspace({ [name]: 'a\nb\n' });
        const { code, json, stderr } = await runJson(dir, ['apply', name], block('a', 'A'));
        assert.equal(code, 0, `${json.message}\n${stderr}`);
        assert.equal(json.status, 'applied');
        assert.equal(fs.readFileSync(path.join(dir, name), 'utf8'), 'A\nb\n');
        assert.deepEqual(leftovers(dir), []);
      });
    }

    test('a 255-byte name is created through an empty SEARCH', async () => {
      const name = `${'d'.repeat(251)}.txt`;
      const dir = workspace();
      const { code, json } = await runJson(dir, ['apply', name], block('', 'new'));
      assert.equal(code, 0, json.message);
      assert.equal(fs.readFileSync(path.join(dir, name), 'utf8'), 'new\n');
      assert.deepEqual(fs.readdirSync(dir), [name]);
    });
  });

  describe('modes and owners', { concurrency: 2 }, () => {
    for (const mode of [0o4755, 0o6750, 0o1777, 0o444]) {
      test(`mode ${mode.toString(8)} and a foreign owner are kept${isRoot ? '' : ' (owner part needs root)'}`, async () => {
        const dir = workspace({ 'tool.sh': 'echo a\n' });
        const file = path.join(dir, 'tool.sh');
        if (isRoot) {
          fs.chownSync(file, 1234, 2345);
        }
        fs.chmodSync(file, mode);
        // A read-only file is written only with --force (cliDryRunReadOnly.test.ts), and keeps its mode.
        const force = (mode & 0o200) === 0 ? ['--force'] : [];
        const { code, json } = await runJson(dir, ['apply', 'tool.sh', ...force], block('echo a', 'echo b'));
        assert.equal(code, 0, json.message);
        const stat = fs.statSync(file);
        assert.equal((stat.mode & 0o7777).toString(8), mode.toString(8));
        if (isRoot) {
          assert.deepEqual([stat.uid, stat.gid], [1234, 2345]);
        }
        assert.equal(fs.readFileSync(file, 'utf8'), 'echo b\n');
      });
    }
  });

  describe('symbolic links', { concurrency: 2 }, () => {
    test('a live link: the target is edited and the link stays the same link', async () => {
      const dir = workspace({ 'real/app.js': 'a\nb\n' });
      fs.symlinkSync('real/app.js', path.join(dir, 'link.js'));
      const { code, json } = await runJson(dir, ['apply', 'link.js'], block('a', 'A'));
      assert.equal(code, 0, json.message);
      assert.equal(fs.lstatSync(path.join(dir, 'link.js')).isSymbolicLink(), true);
      assert.equal(fs.readlinkSync(path.join(dir, 'link.js')), 'real/app.js');
      assert.equal(fs.readFileSync(path.join(dir, 'real/app.js'), 'utf8'), 'A\nb\n');
      assert.deepEqual(leftovers(path.join(dir, 'real')), []);
    });

    test('a dangling link and an empty SEARCH create the target, through a chain of links', async () => {
      const dir = workspace({ 'real/keep.txt': '' });
      fs.symlinkSync('hop.js', path.join(dir, 'link.js'));
      fs.symlinkSync('real/missing.js', path.join(dir, 'hop.js'));
      const { code, json } = await runJson(dir, ['apply', 'link.js'], block('', 'created'));
      assert.equal(code, 0, json.message);
      assert.equal(fs.readlinkSync(path.join(dir, 'link.js')), 'hop.js');
      assert.equal(fs.readlinkSync(path.join(dir, 'hop.js')), 'real/missing.js');
      assert.equal(fs.lstatSync(path.join(dir, 'real/missing.js')).isFile(), true);
      assert.equal(fs.readFileSync(path.join(dir, 'link.js'), 'utf8'), 'created\n');
    });

    test('a dangling link into a missing folder is refused, the link kept and nothing created', async () => {
      const dir = workspace();
      fs.symlinkSync('nowhere/missing.js', path.join(dir, 'link.js'));
      const { code, json } = await runJson(dir, ['apply', 'link.js'], block('', 'created'));
      assert.equal(code, 3);
      assert.equal(json.status, 'invalid');
      assert.match(json.message, /link\.js is a symbolic link to .*nowhere\/missing\.js, whose folder .*nowhere does not exist/);
      assert.equal(fs.readlinkSync(path.join(dir, 'link.js')), 'nowhere/missing.js');
      assert.deepEqual(fs.readdirSync(dir), ['link.js']);
    });
  });

  describe('closed output pipes', { concurrency: 2 }, () => {
    async function withClosedStdout(dir: string, args: string[], input: string, closeStderr = false) {
      const child = start(dir, args);
      child.stdout.destroy();
      if (closeStderr) {
        child.stderr.destroy();
      }
      let stderr = '';
      if (!closeStderr) {
        child.stderr.on('data', (d) => {
          stderr += d;
        });
      }
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

  describe('hard links', { concurrency: 2 }, () => {
    test('a file with several links is edited in place: every name sees the new text', async () => {
      const dir = workspace({ 'a.txt': 'one\ntwo\n' });
      fs.linkSync(path.join(dir, 'a.txt'), path.join(dir, 'other-name.txt'));
      fs.chmodSync(path.join(dir, 'a.txt'), 0o640);
      const inode = fs.statSync(path.join(dir, 'a.txt')).ino;
      const { code, json } = await runJson(dir, ['apply', 'a.txt'], block('two', 'TWO\nthree'));
      assert.equal(code, 0, json.message);
      assert.equal(fs.readFileSync(path.join(dir, 'other-name.txt'), 'utf8'), 'one\nTWO\nthree\n');
      const stat = fs.statSync(path.join(dir, 'a.txt'));
      assert.equal(stat.ino, inode);
      assert.equal(stat.nlink, 2);
      assert.equal(stat.mode & 0o7777, 0o640);
      // Shrinking truncates the old tail away.
      assert.equal((await runJson(dir, ['apply', 'a.txt'], block('one\nTWO\nthree', 'x'))).code, 0);
      assert.equal(fs.readFileSync(path.join(dir, 'other-name.txt'), 'utf8'), 'x\n');
      assert.deepEqual(leftovers(dir), []);
    });

    test('an interrupted in-place write left a backup: the next run refuses and names it', async () => {
      const dir = workspace({ 'a.txt': 'torn\n' });
      fs.linkSync(path.join(dir, 'a.txt'), path.join(dir, 'b.txt'));
      const backup = `.a.txt.${deadPid()}.0123abcd.bak`;
      fs.writeFileSync(path.join(dir, backup), 'old\n');
      const { code, json } = await runJson(dir, ['apply', 'a.txt'], block('torn', 'x'));
      assert.equal(code, 3);
      assert.match(json.message, new RegExp(`interrupted.*${backup.replace(/\./g, '\\.')}`, 's'));
      assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'torn\n');
      assert.equal(fs.readFileSync(path.join(dir, backup), 'utf8'), 'old\n');
    });
  });

  describe('stale temp files', { concurrency: 2 }, () => {
    test('temp files of dead processes for this file are removed, nothing else', async () => {
      const dead = deadPid();
      const dir = workspace({ 'a.txt': 'a\n' });
      const stale = [`.a.txt.${dead}.0badf00d.tmp`];
      const kept = [
        `.a.txt.${process.pid}.0badf00d.tmp`, // a live process: maybe writing right now
        `.b.txt.${dead}.0badf00d.tmp`, // another file's
        `.a.txt.${dead}.0badf00.tmp`,
        `.a.txt.${dead}.0BADF00D.tmp`,
        `a.txt.${dead}.0badf00d.tmp`,
        `.a.txt.${dead}.0badf00d.tmp.orig`,
        `.a.txt.x${dead}.0badf00d.tmp`,
        'notes.tmp',
      ];
      for (const name of [...stale, ...kept]) {
        fs.writeFileSync(path.join(dir, name), 'x');
      }
      fs.mkdirSync(path.join(dir, `.a.txt.${dead}.deadbeef.tmp`)); // not a regular file: kept
      kept.push(`.a.txt.${dead}.deadbeef.tmp`);
      const { code, json } = await runJson(dir, ['apply', 'a.txt'], block('a', 'b'));
      assert.equal(code, 0, json.message);
      assert.deepEqual(fs.readdirSync(dir).sort(), ['a.txt', ...kept].sort());
    });
  });

  describe('races and kills', { concurrency: 2 }, () => {
    const lines = (n: number, tag: string): string => {
      const out: string[] = [];
      for (let k = 0; k < n; k++) {
        out.push(`const ${tag}${k} = compute(${k}, "some text to make the line longer");`);
      }
      return `${out.join('\n')}\n`;
    };

    test('a writer racing the apply never loses its change, but for the gap between our last check and our rename', async () => {
      const old = lines(60_000, 'v');
      const theirs = `${old}// added by the other writer\n`;
      const ours = (text: string) => text.replace('const v0 =', 'const V0 =');
      for (let round = 0; round < 3; round++) {
        const dir = workspace({
          'a.js': old,
          'edit.txt': block(
            'const v0 = compute(0, "some text to make the line longer");',
            'const V0 = compute(0, "some text to make the line longer");',
          ),
        });
        const child = start(dir, ['apply', 'a.js', '--blocks', 'edit.txt', '--json']);
        // Listened for at once: the CLI may finish before the other writer's turn below.
        const closed = new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
        let stdout = '';
        child.stdout.on('data', (d) => {
          stdout += d;
        });
        child.stdin.end();
        await new Promise((resolve) => setTimeout(resolve, 40 + Math.random() * 120));
        fs.writeFileSync(path.join(dir, 'next.js'), theirs);
        fs.renameSync(path.join(dir, 'next.js'), path.join(dir, 'a.js'));
        const theirsRenamedAt = Date.now();
        const code = await closed;
        const json = parseOneJson({ code, stdout, stderr: '' });
        const final = fs.readFileSync(path.join(dir, 'a.js'), 'utf8');
        if (final === ours(old)) {
          // Their rename landed after our last check and before our rename (two consecutive system
          // calls; a loaded machine can pause a process between them). Neither writer locks, so no
          // rename-based writer can close that gap. Anything wider is a missing check: our rename
          // (the file's ctime) must have come right after theirs.
          const oursRenamedAt = fs.statSync(path.join(dir, 'a.js')).ctimeMs;
          assert.ok(
            oursRenamedAt - theirsRenamedAt < RACE_WINDOW_MS,
            `round ${round}: the other writer's change was lost, and our write came ${Math.round(oursRenamedAt - theirsRenamedAt)} ms after it (exit ${code})`,
          );
          assert.equal(code, 0, json.message);
        } else {
          assert.ok(final === theirs || final === ours(theirs), `round ${round}: unexpected final text (exit ${code})`);
        }
        if (code === 3) {
          assert.match(json.message, /changed on disk/);
        } else {
          assert.equal(code, 0, json.message);
        }
        assert.deepEqual(leftovers(dir), []);
      }
    });

    test('SIGKILL during an in-place write of a hard-linked file: old, new, or the old bytes kept in a backup', async () => {
      const old = Buffer.from(lines(100_000, 'h'));
      const edit = block('const h5 = compute(5, "some text to make the line longer");', 'const h5 = 5;');
      const updated = Buffer.from(
        old.toString('utf8').replace('const h5 = compute(5, "some text to make the line longer");', 'const h5 = 5;'),
      );
      for (let round = 0; round < 2; round++) {
        const dir = workspace({ 'edit.txt': edit, 'big.js': old });
        fs.linkSync(path.join(dir, 'big.js'), path.join(dir, 'twin.js'));
        const child = start(dir, ['apply', 'big.js', '--blocks', 'edit.txt', '--json']);
        child.stdin.end();
        const closed = new Promise<unknown>((resolve) => child.on('close', resolve));
        const deadline = Date.now() + 5000;
        // Kill once the backup exists (the in-place write starts right after), a few ms later.
        while (!leftovers(dir).some((n) => n.endsWith('.bak')) && child.exitCode === null && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 6));
        child.kill('SIGKILL');
        await closed;
        const after = fs.readFileSync(path.join(dir, 'twin.js'));
        const backups = leftovers(dir).filter((n) => n.endsWith('.bak'));
        assert.ok(backups.length <= 1);
        if (backups.length === 1) {
          assert.ok(fs.readFileSync(path.join(dir, backups[0])).equals(old), 'a backup only exists complete');
        }
        if (!after.equals(old) && !after.equals(updated)) {
          // Killed mid-write: the old bytes are in the backup, and the next run refuses to go on.
          assert.equal(backups.length, 1, `round ${round}: torn file without a backup`);
          const next = await runJson(dir, ['apply', 'big.js', '--blocks', 'edit.txt']);
          assert.equal(next.code, 3);
          assert.match(next.json.message, /interrupted/);
        } else if (after.equals(old)) {
          // Not started (or put back): the next run cleans up and applies.
          const next = await runJson(dir, ['apply', 'big.js', '--blocks', 'edit.txt']);
          assert.equal(next.code, 0, next.json.message);
          assert.deepEqual(leftovers(dir), []);
        }
      }
    });

    test('SIGKILL during a 20 MB write leaves the old or the new file, never a torn one', async () => {
      const old = Buffer.from(lines(300_000, 'k'));
      assert.ok(old.length > 20_000_000);
      const edit = block('const k5 = compute(5, "some text to make the line longer");', 'const k5 = 5;');
      const updated = Buffer.from(
        old.toString('utf8').replace('const k5 = compute(5, "some text to make the line longer");', 'const k5 = 5;'),
      );
      const dir = workspace({ 'edit.txt': edit });
      const file = path.join(dir, 'big.js');
      for (let round = 0; round < 3; round++) {
        fs.writeFileSync(file, old);
        const child = start(dir, ['apply', 'big.js', '--blocks', 'edit.txt']);
        child.stdin.end();
        const closed = new Promise<unknown>((resolve) => child.on('close', resolve));
        // Kill once the temp file exists (the write is under way), after a random extra delay.
        const deadline = Date.now() + 5000;
        while (leftovers(dir).length === 0 && child.exitCode === null && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 1));
        }
        await new Promise((resolve) => setTimeout(resolve, Math.random() * 40));
        child.kill('SIGKILL');
        await closed;
        const after = fs.readFileSync(file);
        assert.ok(after.equals(old) || after.equals(updated), `round ${round}: torn file of ${after.length} bytes`);
      }
      // The next run cleans what the killed ones left and applies.
      fs.writeFileSync(file, old);
      const r = await run(dir, ['apply', 'big.js', '--blocks', 'edit.txt']);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(leftovers(dir), []);
      assert.ok(fs.readFileSync(file).equals(updated));
    });
  });
});
