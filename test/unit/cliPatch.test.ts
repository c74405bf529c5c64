// The CLI on diffs: `apply <file>` detecting a unified diff or apply_patch, and `patch` for multi-file
// patches (update, add, delete, move), all files or none, paths kept under the root. Spawns the
// compiled out/src/cli.js (the same source esbuild bundles into dist/cli.js).
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { commitWrites, PatchInputError } from '../../src/node/patchCommand';
import { readTextFile } from '../../src/node/textFile';
import { runSync as run, runJsonSync as runJson, workspace } from './cliHarness';

/** Every file under dir (relative path -> content), to compare before and after. */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isSymbolicLink()) {
        out[path.relative(dir, p)] = `-> ${fs.readlinkSync(p)}`;
      } else if (entry.isDirectory()) {
        walk(p);
      } else {
        out[path.relative(dir, p)] = fs.readFileSync(p, 'utf8');
      }
    }
  };
  walk(dir);
  return out;
}

const text = (...lines: string[]): string => lines.join('\n');

const APP = text('function greet(name) {', "\treturn 'Hello, ' + name;", '}', '', 'function add(a, b) {', '\treturn a + b;', '}', '');

describe('resilient-apply apply: diffs are detected', () => {
  test('a unified diff with indentation and quote drift and a stale line number applies, and says where', () => {
    const dir = workspace({ 'app.js': APP });
    const diff = text(
      '--- a/app.js',
      '+++ b/app.js',
      '@@ -25,3 +25,3 @@',
      ' function add(a, b) {',
      '-    return a + b;',
      '+    return a + b + 0;',
      ' }',
      '',
    );
    fs.writeFileSync(path.join(dir, 'change.diff'), diff);
    const { code, json } = runJson(dir, ['apply', 'app.js', '--blocks', 'change.diff']);
    assert.equal(code, 0, json.message);
    assert.match(json.message, /hunk header said line 25, applied at line 5/);
    assert.equal(fs.readFileSync(path.join(dir, 'app.js'), 'utf8'), APP.replace('\treturn a + b;', '\treturn a + b + 0;'));
  });

  test('an apply_patch update on stdin; a patch for another file is refused', () => {
    const dir = workspace({ 'app.js': APP });
    const patch = text(
      '*** Begin Patch',
      '*** Update File: app.js',
      '@@ function greet(name) {',
      '-  return "Hello, " + name;',
      '+  return "Hi, " + name;',
      '*** End Patch',
      '',
    );
    const r = run(dir, ['apply', 'app.js'], patch);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(path.join(dir, 'app.js'), 'utf8'), APP.replace("'Hello, '", "'Hi, '"));
    const other = runJson(dir, ['apply', 'app.js'], patch.replace('app.js', 'lib.js'));
    assert.equal(other.code, 3);
    assert.match(other.json.message, /is for lib\.js, not app\.js/);
  });

  test('a patch that deletes a file is refused by apply, pointing at the patch command', () => {
    const dir = workspace({ 'app.js': APP });
    const { code, json } = runJson(dir, ['apply', 'app.js'], text('*** Begin Patch', '*** Delete File: app.js', '*** End Patch'));
    assert.equal(code, 3);
    assert.match(json.message, /resilient-apply patch/);
    assert.equal(fs.readFileSync(path.join(dir, 'app.js'), 'utf8'), APP);
  });
});

const GIT_PATCH = text(
  'diff --git a/src/app.js b/src/app.js',
  'index 1111111..2222222 100644',
  '--- a/src/app.js',
  '+++ b/src/app.js',
  '@@ -5,3 +5,3 @@ function greet(name) {',
  ' function add(a, b) {',
  '-\treturn a + b;',
  '+\treturn a + b + 0;',
  ' }',
  'diff --git a/src/new/util.js b/src/new/util.js',
  'new file mode 100644',
  'index 0000000..3333333',
  '--- /dev/null',
  '+++ b/src/new/util.js',
  '@@ -0,0 +1,2 @@',
  '+export const one = 1;',
  '+export const two = 2;',
  'diff --git a/old.txt b/old.txt',
  'deleted file mode 100644',
  'index 4444444..0000000',
  '--- a/old.txt',
  '+++ /dev/null',
  '@@ -1 +0,0 @@',
  '-obsolete',
  'diff --git a/lib/a.js b/lib/b.js',
  'similarity index 100%',
  'rename from lib/a.js',
  'rename to lib/b.js',
  '',
);

describe('resilient-apply patch', () => {
  test('a git patch: update, add (with new folders), delete and rename, all applied', () => {
    const dir = workspace({ 'src/app.js': APP, 'old.txt': 'obsolete\n', 'lib/a.js': 'module.exports = 1;\n' });
    const { code, json } = runJson(dir, ['patch'], GIT_PATCH);
    assert.equal(code, 0, json.message);
    assert.equal(json.status, 'applied');
    assert.deepEqual(
      json.files.map((f: any) => [f.path, f.action, f.to, f.status]),
      [
        ['src/app.js', 'update', undefined, 'applied'],
        ['src/new/util.js', 'add', undefined, 'applied'],
        ['old.txt', 'delete', undefined, 'applied'],
        ['lib/a.js', 'move', 'lib/b.js', 'applied'],
      ],
    );
    assert.equal(json.files[0].content, undefined, 'content only with --dry-run');
    assert.deepEqual(snapshot(dir), {
      'src/app.js': APP.replace('\treturn a + b;', '\treturn a + b + 0;'),
      'src/new/util.js': 'export const one = 1;\nexport const two = 2;\n',
      'lib/b.js': 'module.exports = 1;\n',
    });
  });

  test('an apply_patch patch with drift, an anchor, a move with changes, --root, and --dry-run first', () => {
    const dir = workspace({
      'proj/shapes.py': "class A:\n    def name(self):\n        return 'a'\n\nclass B:\n    def name(self):\n        return 'a'\n",
      'proj/tmp.py': 'x = 1\n',
    });
    const patch = text(
      '*** Begin Patch',
      '*** Update File: shapes.py',
      '*** Move to: geometry/shapes.py',
      '@@ class B:',
      ' \tdef name(self):',
      '-\t\treturn "a"',
      '+\t\treturn "b"',
      '*** Add File: README.md',
      '+# Shapes',
      '*** Delete File: tmp.py',
      '*** End Patch',
    );
    const before = snapshot(dir);
    const dry = runJson(dir, ['patch', '--root', 'proj', '--dry-run'], patch);
    assert.equal(dry.code, 0, dry.json.message);
    assert.equal(
      dry.json.files[0].content,
      "class A:\n    def name(self):\n        return 'a'\n\nclass B:\n    def name(self):\n        return 'b'\n",
    );
    assert.equal(dry.json.files[1].content, '# Shapes\n');
    assert.deepEqual(snapshot(dir), before, '--dry-run writes nothing');
    const r = run(dir, ['patch', '--root', 'proj'], patch);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /moved shapes\.py -> geometry\/shapes\.py/);
    assert.deepEqual(snapshot(dir), {
      'proj/geometry/shapes.py': dry.json.files[0].content,
      'proj/README.md': '# Shapes\n',
    });
  });

  test('one failing hunk leaves every file untouched: no update, no new file, no deletion, no move', () => {
    const dir = workspace({ 'src/app.js': APP, 'old.txt': 'obsolete\n', 'lib/a.js': 'module.exports = 1;\n', 'z.js': 'const z = 1;\n' });
    const failing = `${GIT_PATCH}--- a/z.js\n+++ b/z.js\n@@ -1 +1 @@\n-const zz = 2;\n+const z = 3;\n`;
    const before = snapshot(dir);
    const { code, json } = runJson(dir, ['patch'], failing);
    assert.equal(code, 1);
    assert.equal(json.status, 'not_found');
    assert.deepEqual(
      json.files.map((f: any) => f.status),
      ['pending', 'pending', 'pending', 'pending', 'not_found'],
    );
    assert.ok(json.files.every((f: any) => f.content === undefined));
    assert.match(json.message, /^Nothing was changed/);
    assert.match(json.message, /not found in z\.js/);
    assert.deepEqual(snapshot(dir), before);
  });

  test('a plain diff -u naming two spellings of one file edits the one that exists, and never moves it', () => {
    const hunk = ['@@ -1,2 +1,2 @@', ' one', '-two', '+TWO', ''];
    // diff -u m.txt.orig m.txt: the backup exists too; the file is m.txt (GNU patch's choice).
    const backup = workspace({ 'm.txt': 'one\ntwo\n', 'm.txt.orig': 'one\ntwo\n' });
    const first = runJson(backup, ['patch'], ['--- m.txt.orig', '+++ m.txt', ...hunk].join('\n'));
    assert.equal(first.code, 0, JSON.stringify(first.json));
    assert.deepEqual(snapshot(backup), { 'm.txt': 'one\nTWO\n', 'm.txt.orig': 'one\ntwo\n' });
    assert.equal(first.json.files[0].action, 'update');
    // --- m.txt / +++ m.txt.new: only m.txt exists; it is edited in place, no m.txt.new appears.
    const renamed = workspace({ 'm.txt': 'one\ntwo\n' });
    const second = runJson(renamed, ['patch'], ['--- m.txt', '+++ m.txt.new', ...hunk].join('\n'));
    assert.equal(second.code, 0, JSON.stringify(second.json));
    assert.deepEqual(snapshot(renamed), { 'm.txt': 'one\nTWO\n' });
    // diff -ru old new: old/m.txt and new/m.txt are m.txt under the root.
    const tree = workspace({ 'm.txt': 'one\ntwo\n' });
    const fourth = runJson(tree, ['patch'], ['--- old/m.txt', '+++ new/m.txt', ...hunk].join('\n'));
    assert.equal(fourth.code, 0, JSON.stringify(fourth.json));
    assert.deepEqual(snapshot(tree), { 'm.txt': 'one\nTWO\n' });
    // The same diff through apply <file>.
    const viaApply = workspace({ 'm.txt': 'one\ntwo\n', 'd.diff': ['--- m.txt.orig', '+++ m.txt', ...hunk].join('\n') });
    const third = runJson(viaApply, ['apply', 'm.txt', '--blocks', 'd.diff']);
    assert.equal(third.code, 0, JSON.stringify(third.json));
    assert.equal(fs.readFileSync(path.join(viaApply, 'm.txt'), 'utf8'), 'one\nTWO\n');
  });

  test('a hunk whose context occurs twice is refused with both places (exit 2)', () => {
    const dir = workspace({ 'a.txt': 'x\ny\nz\nx\ny\n' });
    const { code, json } = runJson(
      dir,
      ['patch'],
      text('*** Begin Patch', '*** Update File: a.txt', '@@', ' x', '-y', '+Y', '*** End Patch'),
    );
    assert.equal(code, 2);
    assert.deepEqual(
      json.files[0].blocks[0].candidates.map((c: any) => c.startLine),
      [1, 4],
    );
    assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'x\ny\nz\nx\ny\n');
  });

  test('CRLF files keep CRLF; a BOM is kept', () => {
    const dir = workspace({ 'w.cs': '\uFEFFclass W\r\n{\r\n    int x = 1;\r\n}\r\n' });
    const r = run(dir, ['patch'], text('--- a/w.cs', '+++ b/w.cs', '@@ -3 +3 @@', '-    int x = 1;', '+    int x = 2;', ''));
    assert.equal(r.code, 0, r.stderr);
    assert.equal(fs.readFileSync(path.join(dir, 'w.cs'), 'utf8'), '\uFEFFclass W\r\n{\r\n    int x = 2;\r\n}\r\n');
  });

  test('paths that leave the root are refused, lexically and through symbolic links, and nothing changes', () => {
    const outside = workspace({ 'secret.txt': 'secret\n' });
    const dir = workspace({ 'in.txt': 'in\n' });
    fs.symlinkSync(outside, path.join(dir, 'link'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'file-link.txt'));
    const cases = [
      text('*** Begin Patch', '*** Update File: in.txt', '-in', '+IN', '*** Add File: ../escape.txt', '+x', '*** End Patch'),
      text(
        '*** Begin Patch',
        '*** Update File: in.txt',
        '-in',
        '+IN',
        '*** Update File: link/secret.txt',
        '-secret',
        '+leaked',
        '*** End Patch',
      ),
      text(
        '*** Begin Patch',
        '*** Update File: in.txt',
        '-in',
        '+IN',
        '*** Update File: file-link.txt',
        '-secret',
        '+leaked',
        '*** End Patch',
      ),
      text('*** Begin Patch', '*** Update File: in.txt', '-in', '+IN', '*** Add File: link/new.txt', '+x', '*** End Patch'),
      text(
        '*** Begin Patch',
        '*** Update File: in.txt',
        '-in',
        '+IN',
        `*** Delete File: ${path.join(outside, 'secret.txt')}`,
        '*** End Patch',
      ),
    ];
    const before = { inside: snapshot(dir), outside: snapshot(outside) };
    for (const patch of cases) {
      const { code, json } = runJson(dir, ['patch'], patch);
      assert.equal(code, 3, patch);
      assert.equal(json.status, 'invalid');
      assert.match(json.message, /outside the root/);
      assert.deepEqual({ inside: snapshot(dir), outside: snapshot(outside) }, before);
    }
  });

  test('--json is always exactly one object: bad options, no patch, malformed patch, missing file', () => {
    const dir = workspace({ 'a.txt': 'a\n' });
    const cases: [string[], string, RegExp][] = [
      [['patch', '--frobnicate'], '', /unknown option --frobnicate/],
      [['patch'], 'just prose\n', /no edits found in stdin/],
      [['patch'], text('*** Begin Patch', '*** Update File: a.txt', '-a'), /expected '\*\*\* End Patch'/],
      [['patch'], text('*** Begin Patch', '*** Update File: missing.txt', '-a', '+b', '*** End Patch'), /missing\.txt .*does not exist/],
      [['patch', '--root', 'nowhere'], '', /--root nowhere is not a folder/],
      [['patch'], text('@@ -1 +1 @@', '-a', '+b'), /no file header/],
    ];
    for (const [args, stdin, message] of cases) {
      const { code, json } = runJson(dir, args, stdin);
      assert.equal(code, 3, args.join(' '));
      assert.deepEqual(Object.keys(json), ['status', 'message', 'files']);
      assert.equal(json.status, 'invalid');
      assert.match(json.message, message);
    }
  });
});

describe('patch writes: all or nothing', () => {
  test('a write that fails undoes the updates, additions and deletions already made', () => {
    const dir = workspace({ 'a.txt': 'one\n', 'gone.txt': 'bye\n', blocker: 'a file, not a folder\n' });
    const before = snapshot(dir);
    const original = readTextFile(path.join(dir, 'a.txt'))!;
    assert.throws(
      () =>
        commitWrites([
          { kind: 'update', display: 'a.txt', original, content: 'ONE\n' },
          { kind: 'add', display: 'new/b.txt', target: path.join(dir, 'new', 'b.txt'), content: 'b\n' },
          { kind: 'delete', display: 'gone.txt', target: path.join(dir, 'gone.txt') },
          // Creating a file inside a regular file fails on any file system, as any user.
          { kind: 'add', display: 'blocker/c.txt', target: path.join(dir, 'blocker', 'c.txt'), content: 'c\n' },
        ]),
      (error: unknown) => {
        assert.ok(error instanceof PatchInputError);
        assert.match(
          error.message,
          /^Writing failed \(added blocker\/c\.txt: .*\); nothing was changed \(the 3 file changes already made were undone\)\.$/,
        );
        return true;
      },
    );
    assert.deepEqual(snapshot(dir), before);
    assert.equal(fs.existsSync(path.join(dir, 'new')), false, 'folders created for the patch are removed again');
  });

  test('undoing an update of a hard-linked file restores it in place: both names keep one file with the old text', () => {
    const dir = workspace({ 'a.txt': 'one\n', blocker: 'a file, not a folder\n' });
    fs.linkSync(path.join(dir, 'a.txt'), path.join(dir, 'h.txt'));
    const original = readTextFile(path.join(dir, 'a.txt'))!;
    assert.throws(() =>
      commitWrites([
        { kind: 'update', display: 'a.txt', original, content: 'two\n' },
        { kind: 'add', display: 'blocker/c.txt', target: path.join(dir, 'blocker', 'c.txt'), content: 'c\n' },
      ]),
    );
    assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'one\n');
    assert.equal(fs.readFileSync(path.join(dir, 'h.txt'), 'utf8'), 'one\n');
    assert.equal(fs.statSync(path.join(dir, 'a.txt')).ino, fs.statSync(path.join(dir, 'h.txt')).ino, 'the two names are still one file');
    assert.deepEqual(fs.readdirSync(dir).sort(), ['a.txt', 'blocker', 'h.txt'], 'no side files left');
  });
});
