// Two promises of the CLI a user relies on before letting it near their files: a dry run says what it
// would do ("Would apply ..."), never that it did ("Applied ..."), in the message and in --json; and a file
// its owner marked read-only is refused (exit 3, nothing written, the file named) unless --force. The mode
// bits decide, not access(): these tests hold for root, who may write anything.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { block, runSync as run, runJsonSync as runJson, workspace } from './cliHarness';

const APP = 'function add(a, b) {\n  return a + b;\n}\n';
const SHOP = 'def total(items):\n    return sum(items)\n\n\ndef count(items):\n    return len(items)\n';
const EDIT = `app.js\n${block('  return a + b;', '  return a - b;')}`;
const TWO_FILES = `${EDIT}\nshop.py\n${block('    return sum(items)', '    return 0')}`;

const read = (dir: string, name: string) => fs.readFileSync(path.join(dir, name), 'utf8');
const modeOf = (dir: string, name: string) => fs.statSync(path.join(dir, name)).mode & 0o7777;

function readOnly(dir: string, name: string, mode = 0o444): void {
  fs.chmodSync(path.join(dir, name), mode);
}

describe('dry runs say "Would apply", never "Applied"', () => {
  test('apply --dry-run: the message and the --json message; the file untouched', () => {
    const dir = workspace({ 'app.js': APP, 'edit.txt': EDIT });
    const plain = run(dir, ['apply', 'app.js', '--blocks', 'edit.txt', '--dry-run']);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(plain.stdout, 'Would apply 1 block to app.js at line 2.\n');
    const { code, json } = runJson(dir, ['apply', 'app.js', '--blocks', 'edit.txt', '--dry-run']);
    assert.equal(code, 0);
    assert.equal(json.status, 'applied');
    assert.equal(json.message, 'Would apply 1 block to app.js at line 2.');
    assert.equal(json.content, APP.replace('a + b', 'a - b'));
    assert.equal(read(dir, 'app.js'), APP);
    // The same run without --dry-run says what it did.
    assert.equal(run(dir, ['apply', 'app.js', '--blocks', 'edit.txt']).stdout, 'Applied 1 block to app.js at line 2.\n');
  });

  test('apply --snippet --dry-run: a code block says "Would apply the code block"', () => {
    const dir = workspace({ 'shop.py': SHOP });
    const { code, json } = runJson(dir, ['apply', 'shop.py', '--snippet', '-', '--dry-run'], 'def total(items):\n    return 0\n');
    assert.equal(code, 0, json.message);
    assert.match(
      json.message,
      /^Would apply the code block to shop\.py: replaced function total \(lines 1-2\); kept function count: the block did not show it\.$/,
    );
    assert.equal(read(dir, 'shop.py'), SHOP);
  });

  test("patch --dry-run: the summary, each file line and each file's --json message", () => {
    const dir = workspace({ 'app.js': APP, 'shop.py': SHOP });
    const plain = run(dir, ['patch', '--dry-run'], TWO_FILES);
    assert.equal(plain.code, 0, plain.stderr);
    assert.equal(
      plain.stdout,
      [
        'Would apply the SEARCH/REPLACE blocks to 2 files (dry run, nothing written):',
        '- would update app.js: Would apply 1 block to app.js at line 2.',
        '- would update shop.py: Would apply 1 block to shop.py at line 2.',
        '',
      ].join('\n'),
    );
    const { code, json } = runJson(dir, ['patch', '--dry-run'], TWO_FILES);
    assert.equal(code, 0);
    assert.doesNotMatch(JSON.stringify(json), /Applied/);
    assert.deepEqual(
      json.files.map((f: { message: string }) => f.message),
      ['Would apply 1 block to app.js at line 2.', 'Would apply 1 block to shop.py at line 2.'],
    );
    assert.equal(read(dir, 'app.js'), APP);
    assert.equal(read(dir, 'shop.py'), SHOP);
  });

  test('a refused patch: a file that placed but was not written does not say "Applied"', () => {
    const dir = workspace({ 'app.js': APP, 'shop.py': SHOP });
    const broken = TWO_FILES.replace('    return sum(items)\n=', '    return max(items)\n=');
    const { code, json } = runJson(dir, ['patch'], broken);
    assert.equal(code, 1, json.message);
    assert.equal(json.files[0].status, 'pending');
    assert.equal(json.files[0].message, 'Would apply 1 block to app.js at line 2.');
    assert.doesNotMatch(JSON.stringify(json), /Applied/);
    assert.equal(read(dir, 'app.js'), APP);
  });
});

describe('read-only files are refused unless --force', () => {
  for (const mode of [0o444, 0o555, 0o464, 0o400]) {
    test(`apply: a file of mode ${mode.toString(8)} is refused with exit 3, bytes and mode kept; --dry-run too`, () => {
      const dir = workspace({ 'app.js': APP, 'edit.txt': EDIT });
      readOnly(dir, 'app.js', mode);
      for (const extra of [[], ['--dry-run']]) {
        const r = run(dir, ['apply', 'app.js', '--blocks', 'edit.txt', ...extra]);
        assert.equal(r.code, 3, r.stdout + r.stderr);
        assert.equal(r.stdout, '');
        assert.match(r.stderr, /^app\.js is read-only \(mode 0\d{3}: no write permission for its owner\); nothing was written\./);
        assert.match(r.stderr, /chmod u\+w app\.js\) or pass --force/);
      }
      const { code, json } = runJson(dir, ['apply', 'app.js', '--blocks', 'edit.txt']);
      assert.equal(code, 3);
      assert.equal(json.status, 'invalid');
      assert.match(json.message, /app\.js is read-only/);
      assert.equal(read(dir, 'app.js'), APP);
      assert.equal(modeOf(dir, 'app.js'), mode);
    });
  }

  test('apply --force writes the file and keeps its read-only mode', () => {
    const dir = workspace({ 'app.js': APP, 'edit.txt': EDIT });
    readOnly(dir, 'app.js');
    const r = run(dir, ['apply', 'app.js', '--blocks', 'edit.txt', '--force']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(read(dir, 'app.js'), APP.replace('a + b', 'a - b'));
    assert.equal(modeOf(dir, 'app.js'), 0o444);
  });

  test('a file its owner may write (0644) is edited without --force', () => {
    const dir = workspace({ 'app.js': APP, 'edit.txt': EDIT });
    readOnly(dir, 'app.js', 0o644);
    assert.equal(run(dir, ['apply', 'app.js', '--blocks', 'edit.txt']).code, 0);
  });

  test('apply --snippet: refused, then written with --force', () => {
    const dir = workspace({ 'shop.py': SHOP });
    readOnly(dir, 'shop.py');
    const refused = run(dir, ['apply', 'shop.py', '--snippet', '-'], 'def total(items):\n    return 0\n');
    assert.equal(refused.code, 3);
    assert.match(refused.stderr, /shop\.py is read-only/);
    assert.equal(read(dir, 'shop.py'), SHOP);
    const forced = run(dir, ['apply', 'shop.py', '--snippet', '-', '--force'], 'def total(items):\n    return 0\n');
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(read(dir, 'shop.py'), SHOP.replace('sum(items)', '0'));
    assert.equal(modeOf(dir, 'shop.py'), 0o444);
  });

  test('patch: one read-only file refuses the whole answer (no file written); --force applies it all', () => {
    const dir = workspace({ 'app.js': APP, 'shop.py': SHOP });
    readOnly(dir, 'shop.py');
    const { code, json } = runJson(dir, ['patch'], TWO_FILES);
    assert.equal(code, 3, json.message);
    assert.equal(json.status, 'invalid');
    assert.match(json.message, /^shop\.py is read-only .* or pass --force$/);
    assert.equal(read(dir, 'app.js'), APP);
    assert.equal(read(dir, 'shop.py'), SHOP);
    const forced = run(dir, ['patch', '--force'], TWO_FILES);
    assert.equal(forced.code, 0, forced.stderr);
    assert.equal(read(dir, 'app.js'), APP.replace('a + b', 'a - b'));
    assert.equal(read(dir, 'shop.py'), SHOP.replace('sum(items)', '0'));
    assert.equal(modeOf(dir, 'shop.py'), 0o444);
  });

  test('patch: deleting or moving a read-only file is refused too', () => {
    const dir = workspace({ 'app.js': APP, 'old.txt': 'keep me\n' });
    readOnly(dir, 'old.txt');
    readOnly(dir, 'app.js');
    const deletion = '*** Begin Patch\n*** Delete File: old.txt\n*** End Patch\n';
    const move =
      '*** Begin Patch\n*** Update File: app.js\n*** Move to: lib/app.js\n@@\n-  return a + b;\n+  return a - b;\n*** End Patch\n';
    for (const patch of [deletion, move]) {
      const r = run(dir, ['patch'], patch);
      assert.equal(r.code, 3, r.stdout + r.stderr);
      assert.match(r.stderr, /(old\.txt|app\.js) is read-only/);
    }
    assert.equal(read(dir, 'old.txt'), 'keep me\n');
    assert.equal(read(dir, 'app.js'), APP);
    assert.equal(fs.existsSync(path.join(dir, 'lib')), false);
    assert.equal(run(dir, ['patch', '--force'], deletion).code, 0);
    assert.equal(fs.existsSync(path.join(dir, 'old.txt')), false);
  });
});
