// `resilient-apply patch` on a whole chat answer: SEARCH/REPLACE blocks for several files (each named by
// the path line before it or its fence, as aider writes them) mixed with a unified diff and an
// apply_patch patch, applied as one batch: every file or none. Spawns the compiled out/src/cli.js.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runJsonSync as runJson, runSync as run, workspace } from './cliHarness';

const text = (...lines: string[]): string => lines.join('\n');

const FILES = {
  'src/app.js': text('function greet(name) {', "\treturn 'Hello, ' + name;", '}', '', 'function add(a, b) {', '\treturn a + b;', '}', ''),
  'src/util.py': text('def double(x):', '    return x * 2', '', 'def triple(x):', '    return x * 3', ''),
  'notes.txt': text('alpha', 'beta', 'gamma', ''),
  'README.md': text('# Demo', '', 'Says hello.', ''),
};

/** Every file under dir (relative path -> content). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) {
        walk(p);
      } else {
        out[path.relative(dir, p)] = fs.readFileSync(p, 'utf8');
      }
    }
  };
  walk(dir);
  return out;
}

/**
 * An answer as a model writes it: prose, an aider-style path line before a fenced block, a bold path
 * before an unfenced block, a fenced unified diff, a block for a new file, an apply_patch patch, and a
 * second block for the first file (its path in the fence's info string).
 */
function answer(addLine = '\treturn a + b + 0;'): string {
  return text(
    "Here are the changes. First the greeting, in the app's source:",
    '',
    'src/app.js',
    '```js',
    '<<<<<<< SEARCH',
    "    return 'Hello, ' + name;", // spaces where the file has a tab: the indentation tier places it
    '=======',
    "    return 'Hi, ' + name;",
    '>>>>>>> REPLACE',
    '```',
    '',
    'Then the Python helper:',
    '',
    '**src/util.py**',
    '<<<<<<< SEARCH',
    'def triple(x):',
    '    return x * 3',
    '=======',
    'def triple(x):',
    '    return 3 * x',
    '>>>>>>> REPLACE',
    '',
    'The notes, as a diff:',
    '',
    '```diff',
    '--- a/notes.txt',
    '+++ b/notes.txt',
    '@@ -1,3 +1,3 @@',
    ' alpha',
    '-beta',
    '+BETA',
    ' gamma',
    '```',
    '',
    'A new file:',
    '',
    'docs/usage.md',
    '```markdown',
    '<<<<<<< SEARCH',
    '=======',
    '# Usage',
    '',
    'Run it.',
    '>>>>>>> REPLACE',
    '```',
    '',
    '*** Begin Patch',
    '*** Update File: README.md',
    '@@',
    '-Says hello.',
    '+Says hi.',
    '*** End Patch',
    '',
    'And the sum:',
    '',
    '```js src/app.js',
    '<<<<<<< SEARCH',
    '\treturn a + b;',
    '=======',
    addLine,
    '>>>>>>> REPLACE',
    '```',
    '',
  );
}

const APPLIED = {
  'src/app.js': FILES['src/app.js'].replace("'Hello, '", "'Hi, '").replace('\treturn a + b;', '\treturn a + b + 0;'),
  'src/util.py': FILES['src/util.py'].replace('x * 3', '3 * x'),
  'notes.txt': FILES['notes.txt'].replace('beta', 'BETA'),
  'README.md': FILES['README.md'].replace('Says hello.', 'Says hi.'),
  'docs/usage.md': '# Usage\n\nRun it.\n',
};

describe('resilient-apply patch on a whole answer', () => {
  test('blocks for several files, fenced and not, with a diff and an apply_patch patch, apply as one batch', () => {
    const dir = workspace(FILES);
    fs.writeFileSync(path.join(dir, 'answer.md'), answer());
    const r = run(dir, ['patch', 'answer.md']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.doesNotMatch(r.stdout + r.stderr, /no patch found|no edits found/);
    assert.match(r.stdout, /Applied the edits \(SEARCH\/REPLACE blocks, unified diff, apply_patch patch\) to 5 files/);
    assert.deepEqual(snapshot(dir), { ...APPLIED, 'answer.md': answer() });
  });

  test('--json --dry-run reports every file with its content and writes nothing', () => {
    const dir = workspace(FILES);
    const before = snapshot(dir);
    const { code, json } = runJson(dir, ['patch', '--dry-run'], answer());
    assert.equal(code, 0, json.message);
    assert.equal(json.status, 'applied');
    const files = json.files as { path: string; action: string; status: string; content: string; blocks: { tier: string }[] }[];
    assert.deepEqual(
      files.map((f) => [f.path, f.action, f.status]),
      [
        ['src/app.js', 'update', 'applied'],
        ['src/util.py', 'update', 'applied'],
        ['notes.txt', 'update', 'applied'],
        ['docs/usage.md', 'add', 'applied'],
        ['README.md', 'update', 'applied'],
      ],
    );
    for (const f of files) {
      assert.equal(f.content, APPLIED[f.path as keyof typeof APPLIED], f.path);
    }
    // The two blocks of src/app.js are one batch, numbered in the answer's order across formats.
    assert.equal(files[0].blocks.length, 2);
    assert.equal(files[0].blocks[0].tier, 'indentation');
    assert.deepEqual(snapshot(dir), before);
  });

  test('one block that does not place leaves every file as it was', () => {
    const dir = workspace(FILES);
    const before = snapshot(dir);
    const broken = answer().replace('\treturn a + b;\n=======', '\treturn a * b;\n=======');
    const { code, json } = runJson(dir, ['patch'], broken);
    assert.equal(code, 1, json.message);
    assert.equal(json.status, 'not_found');
    assert.match(
      json.message,
      /^Nothing was changed: the edits \(SEARCH\/REPLACE blocks, unified diff, apply_patch patch\) do not apply to every file\./,
    );
    assert.match(json.message, /return a \+ b/, 'the message quotes the closest real text');
    const statuses = (json.files as { path: string; status: string }[]).map((f) => [f.path, f.status]);
    assert.deepEqual(statuses, [
      ['src/app.js', 'not_found'],
      ['src/util.py', 'pending'],
      ['notes.txt', 'pending'],
      ['docs/usage.md', 'pending'],
      ['README.md', 'pending'],
    ]);
    assert.deepEqual(snapshot(dir), before);
  });

  test('a block whose SEARCH occurs twice refuses the whole answer', () => {
    const dir = workspace({ ...FILES, 'notes.txt': 'alpha\nbeta\ngamma\nbeta\n' });
    const before = snapshot(dir);
    const answerText = text(
      'notes.txt',
      '<<<<<<< SEARCH',
      'beta',
      '=======',
      'BETA',
      '>>>>>>> REPLACE',
      '',
      'src/util.py',
      '<<<<<<< SEARCH',
      '    return x * 2',
      '=======',
      '    return x + x',
      '>>>>>>> REPLACE',
      '',
    );
    const { code, json } = runJson(dir, ['patch'], answerText);
    assert.equal(code, 2, json.message);
    assert.equal(json.status, 'ambiguous');
    assert.deepEqual(snapshot(dir), before);
  });

  test('a block that names no file is refused, naming the block', () => {
    const dir = workspace(FILES);
    const before = snapshot(dir);
    const answerText = text('Change this:', '<<<<<<< SEARCH', 'alpha', '=======', 'ALPHA', '>>>>>>> REPLACE', '');
    const { code, json } = runJson(dir, ['patch'], answerText);
    assert.equal(code, 3);
    assert.equal(json.status, 'invalid');
    assert.match(json.message, /^Block 1 \(line 2\) names no file: put its path on the line before the block/);
    assert.deepEqual(snapshot(dir), before);
  });

  test("a diff quoted inside a block is the block's text, and markers quoted in a diff are the diff's", () => {
    const diffInBlock = text('--- a/x', '+++ b/x', '@@ -1 +1 @@', '-old', '+new');
    const dir = workspace({ 'guide.md': text('Example:', diffInBlock, 'End.', ''), 'conflict.txt': text('<<<<<<< SEARCH', 'keep', '') });
    const answerText = text(
      'guide.md',
      '<<<<<<< SEARCH',
      diffInBlock,
      '=======',
      diffInBlock.replace('+new', '+newer'),
      '>>>>>>> REPLACE',
      '',
      '--- a/conflict.txt',
      '+++ b/conflict.txt',
      '@@ -1,2 +1,2 @@',
      ' <<<<<<< SEARCH',
      '-keep',
      '+kept',
      '',
    );
    const { code, json } = runJson(dir, ['patch'], answerText);
    assert.equal(code, 0, json.message);
    assert.equal(fs.readFileSync(path.join(dir, 'guide.md'), 'utf8'), text('Example:', diffInBlock.replace('+new', '+newer'), 'End.', ''));
    assert.equal(fs.readFileSync(path.join(dir, 'conflict.txt'), 'utf8'), text('<<<<<<< SEARCH', 'kept', ''));
  });

  test('hunks without a file header take the path line before their fence', () => {
    const dir = workspace(FILES);
    const answerText = text('notes.txt', '```diff', '@@ -2 +2 @@', '-beta', '+BETA', '```', '');
    const { code, json } = runJson(dir, ['patch'], answerText);
    assert.equal(code, 0, json.message);
    assert.equal(fs.readFileSync(path.join(dir, 'notes.txt'), 'utf8'), APPLIED['notes.txt']);
  });

  test('a block for a path outside the root is refused before anything is written', () => {
    const dir = workspace(FILES);
    const before = snapshot(dir);
    const answerText = text(
      'notes.txt',
      '<<<<<<< SEARCH',
      'alpha',
      '=======',
      'ALPHA',
      '>>>>>>> REPLACE',
      '',
      '../elsewhere.txt',
      '<<<<<<< SEARCH',
      '=======',
      'x',
      '>>>>>>> REPLACE',
      '',
    );
    const { code, json } = runJson(dir, ['patch'], answerText);
    assert.equal(code, 3);
    assert.match(json.message, /outside the root/);
    assert.deepEqual(snapshot(dir), before);
    assert.ok(!fs.existsSync(path.join(dir, '..', 'elsewhere.txt')));
  });
});
