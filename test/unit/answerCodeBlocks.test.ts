// A whole chat answer made of plain code blocks (issue 28): each block names its file the ways chat models
// write it (Copilot's `// filepath:` / `# file:` first line, Claude's `**path**` heading, aider's path
// line, the fence's info string), mixed with SEARCH/REPLACE blocks and diffs, and `resilient-apply patch`
// applies them as one batch, all files or none. The files are copies of small real files from
// node_modules (ms, escape-html, flatted's Python module, fastest-levenshtein's package.json); every
// expected text is the original with the change made by hand.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { answerTargets, parseAnswer } from '../../src/core';
import { runJsonSync, runSync as run, workspace } from './cliHarness';

const MODULES = path.resolve(__dirname, '../../../node_modules');
const real = (p: string) => fs.readFileSync(path.join(MODULES, p), 'utf8');
const text = (...lines: string[]): string => lines.join('\n');

const ORIGINAL = {
  'lib/ms.js': real('ms/index.js'),
  'lib/escape.js': real('escape-html/index.js'),
  'py/flatted.py': real('flatted/python/flatted.py'),
  'package.json': real('fastest-levenshtein/package.json'),
};

/** `original` with each [from, to] replaced once; fails when `from` is not there exactly once. */
function edited(original: string, ...changes: Array<[string, string]>): string {
  let out = original;
  for (const [from, to] of changes) {
    assert.equal(out.split(from).length, 2, `${JSON.stringify(from)} occurs once`);
    out = out.replace(from, () => to);
  }
  return out;
}

/** Every file under dir (relative path -> content). */
function snapshot(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, entry.name);
      if (entry.isDirectory()) {
        walk(p);
      } else if (entry.name !== 'answer.md') {
        out[path.relative(dir, p).split(path.sep).join('/')] = fs.readFileSync(p, 'utf8');
      }
    }
  };
  walk(dir);
  return out;
}

const PLURAL = text(
  'function plural(ms, msAbs, n, name) {',
  '  var isPlural = msAbs >= n * 1.5;',
  "  return Math.round(ms / n) + ' ' + name + (isPlural ? 's' : '');",
  '}',
);

/**
 * An answer as Claude writes one: prose, a `**path**` heading before each fence, a Copilot-style block,
 * an aider path line before a SEARCH/REPLACE block, a package.json snippet, a whole new file named in
 * the info string, a second block for ms.js that changes what the first one added, and a shell command.
 */
function claudeAnswer(): string {
  return text(
    "I'll add an ISO formatter to `ms`, accept bytes in flatted's Python helper, escape backticks and bump Node.",
    '',
    '**lib/ms.js**',
    '',
    '```javascript',
    'function fmtIso(ms) {',
    "  return 'PT' + ms / 1000 + 'S';",
    '}',
    '',
    PLURAL,
    '```',
    '',
    '```python',
    '# file: py/flatted.py',
    'def _is_string(value):',
    '    return isinstance(value, (str, bytes))',
    '```',
    '',
    'lib/escape.js',
    '```js',
    '<<<<<<< SEARCH',
    '      case 62: // >',
    "        escape = '&gt;';",
    '        break;',
    '=======',
    '      case 62: // >',
    "        escape = '&gt;';",
    '        break;',
    '      case 96: // `',
    "        escape = '&#96;';",
    '        break;',
    '>>>>>>> REPLACE',
    '```',
    '',
    'And the engines field:',
    '',
    '```json',
    '// filepath: package.json',
    '{',
    '  "engines": {',
    '    "node": ">= 18"',
    '  }',
    '}',
    '```',
    '',
    'A small entry point:',
    '',
    '```ts src/index.ts',
    "export { distance, closest } from 'fastest-levenshtein';",
    '```',
    '',
    'Finally, make `fmtIso` round:',
    '',
    '```js lib/ms.js',
    'function fmtIso(ms) {',
    "  return 'PT' + Math.round(ms / 1000) + 'S';",
    '}',
    '```',
    '',
    'Then run:',
    '',
    '```bash',
    'npm test',
    '```',
    '',
  );
}

const APPLIED = {
  'lib/ms.js': edited(ORIGINAL['lib/ms.js'], [
    PLURAL,
    text('function fmtIso(ms) {', "  return 'PT' + Math.round(ms / 1000) + 'S';", '}', '', PLURAL),
  ]),
  'py/flatted.py': edited(ORIGINAL['py/flatted.py'], ['isinstance(value, str)', 'isinstance(value, (str, bytes))']),
  'lib/escape.js': edited(ORIGINAL['lib/escape.js'], [
    "        escape = '&gt;';\n        break;\n",
    "        escape = '&gt;';\n        break;\n      case 96: // `\n        escape = '&#96;';\n        break;\n",
  ]),
  'package.json': edited(ORIGINAL['package.json'], ['"node": ">= 4.9.1"', '"node": ">= 18"']),
  'src/index.ts': "export { distance, closest } from 'fastest-levenshtein';\n",
};

describe('parseAnswer: the code blocks of a whole answer', () => {
  test('each block names its file the way models write it; fences around edits are not code blocks', () => {
    const parsed = parseAnswer(claudeAnswer())!;
    assert.deepEqual(
      parsed.codeBlocks.map((b) => [b.index, b.filePath, b.pathSource, b.language]),
      [
        [1, 'lib/ms.js', 'line-before', 'javascript'],
        [2, 'py/flatted.py', 'comment', 'python'],
        [3, 'package.json', 'comment', 'json'],
        [4, 'src/index.ts', 'info', 'ts'],
        [5, 'lib/ms.js', 'info', 'js'],
        [6, undefined, undefined, 'bash'],
      ],
    );
    assert.equal(
      parsed.codeBlocks[1].code,
      'def _is_string(value):\n    return isinstance(value, (str, bytes))',
      'the path comment is dropped',
    );
    assert.deepEqual(
      parsed.files.map((f) => f.path),
      ['lib/escape.js'],
    );
    const split = answerTargets(parsed);
    assert.deepEqual(
      split.targets.map((t) => (t.kind === 'code' ? [t.file.path, t.file.steps.map((s) => s.kind)] : [t.change.path, 'change'])),
      [
        ['lib/ms.js', ['code', 'code']],
        ['py/flatted.py', ['code']],
        ['lib/escape.js', 'change'],
        ['package.json', ['code']],
        ['src/index.ts', ['code']],
      ],
    );
    assert.deepEqual(
      split.commands.map((b) => b.fenceLine),
      [parsed.codeBlocks[5].fenceLine],
    );
    assert.deepEqual(split.unnamed, []);
  });

  test('a SEARCH/REPLACE block and a code block for the same file are one file, in the answer order', () => {
    const answer = text(
      'src/a.ts',
      '<<<<<<< SEARCH',
      'a',
      '=======',
      'b',
      '>>>>>>> REPLACE',
      '',
      '```ts src/a.ts',
      'function f() {}',
      '```',
      '',
      '```diff',
      '--- a/src/b.ts',
      '+++ b/src/b.ts',
      '@@ -1 +1 @@',
      '-x',
      '+y',
      '```',
      '',
    );
    const parsed = parseAnswer(answer)!;
    assert.equal(parsed.codeBlocks.length, 1, 'the fenced diff is no code block');
    const split = answerTargets(parsed);
    assert.deepEqual(
      split.targets.map((t) => (t.kind === 'code' ? [t.file.path, t.file.steps.map((s) => s.kind)] : [t.change.path, 'change'])),
      [
        ['src/a.ts', ['edits', 'code']],
        ['src/b.ts', 'change'],
      ],
    );
  });
});

describe('resilient-apply patch on an answer of code blocks', () => {
  test("Claude's answer: code blocks, a block and a new file over five files apply as one batch", () => {
    const dir = workspace(ORIGINAL);
    fs.writeFileSync(path.join(dir, 'answer.md'), claudeAnswer());
    const dry = runJsonSync(dir, ['patch', 'answer.md', '--dry-run']);
    assert.equal(dry.json.status, 'applied', dry.json.message);
    assert.match(
      dry.json.message,
      /^Would apply the edits \(SEARCH\/REPLACE blocks, code blocks\) to 5 files \(dry run, nothing written\)/,
    );
    assert.doesNotMatch(JSON.stringify(dry.json), /Applied/);
    assert.match(dry.json.message, /The command code block at line \d+ was not run/);
    assert.deepEqual(snapshot(dir), ORIGINAL, 'a dry run writes nothing');
    const files = dry.json.files as Array<{ path: string; action: string; status: string; content: string }>;
    assert.deepEqual(
      files.map((f) => [f.path, f.action, f.status]),
      [
        ['lib/ms.js', 'update', 'applied'],
        ['py/flatted.py', 'update', 'applied'],
        ['lib/escape.js', 'update', 'applied'],
        ['package.json', 'update', 'applied'],
        ['src/index.ts', 'add', 'applied'],
      ],
    );
    for (const f of files) {
      assert.equal(f.content, APPLIED[f.path as keyof typeof APPLIED], `dry-run content of ${f.path}`);
    }

    const r = run(dir, ['patch', 'answer.md']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^Applied the edits \(SEARCH\/REPLACE blocks, code blocks\) to 5 files:/);
    assert.match(r.stdout, /- added src\/index\.ts/);
    assert.deepEqual(snapshot(dir), { ...ORIGINAL, ...APPLIED });
  });

  test('a code block that does not place refuses the whole answer, naming the block by its line; nothing is written', () => {
    const dir = workspace(ORIGINAL);
    // A lazy snippet for a function flatted.py does not have: its placeholder stands for nothing there.
    const broken = claudeAnswer().replace(
      'Finally, make `fmtIso` round:',
      text('Also:', '', '```py py/flatted.py', 'def _is_text(value):', '    # ... existing code ...', '    return False', '```', ''),
    );
    fs.writeFileSync(path.join(dir, 'answer.md'), broken);
    const r = runJsonSync(dir, ['patch', 'answer.md']);
    assert.notEqual(r.json.status, 'applied');
    assert.equal(r.code, r.json.status === 'invalid' ? 3 : 1);
    assert.match(r.json.message, /^Nothing was changed: the edits \(SEARCH\/REPLACE blocks, code blocks\) do not apply to every file\./);
    const line = broken.split('\n').indexOf('```py py/flatted.py') + 1;
    assert.match(r.json.message, new RegExp(`Code block \\d+ \\(line ${line}\\): `));
    const files = r.json.files as Array<{ path: string; status: string; content?: string }>;
    assert.equal(files.find((f) => f.path === 'py/flatted.py')?.status, r.json.status);
    assert.ok(
      files.filter((f) => f.path !== 'py/flatted.py').every((f) => f.status === 'pending' && f.content === undefined),
      JSON.stringify(files),
    );
    assert.deepEqual(snapshot(dir), ORIGINAL);
  });

  test('a code block naming no file is refused with its line; nothing is written', () => {
    const dir = workspace(ORIGINAL);
    const answer = text(
      '**lib/ms.js**',
      '```js',
      PLURAL.replace('1.5', '2'),
      '```',
      '',
      'And somewhere:',
      '',
      '```js',
      'function twice(x) {',
      '  return 2 * x;',
      '}',
      '```',
      '',
    );
    fs.writeFileSync(path.join(dir, 'answer.md'), answer);
    const r = runJsonSync(dir, ['patch', 'answer.md']);
    assert.equal(r.code, 3);
    assert.equal(r.json.status, 'invalid');
    assert.match(r.json.message, /^Code block 2 \(line 11\) names no file: put its path on the line before the fence/);
    assert.deepEqual(snapshot(dir), ORIGINAL);
  });

  test('a missing file: created from a whole new file, refused for a fragment (placeholders or indented), naming the path', () => {
    const dir = workspace(ORIGINAL);
    const fragment = text('```python py/new_helpers.py', 'def helper():', '    # ... existing code ...', '    return 1', '```', '');
    fs.writeFileSync(path.join(dir, 'answer.md'), text('**lib/ms.js**', '```js', PLURAL.replace('1.5', '2'), '```', '', fragment));
    let r = runJsonSync(dir, ['patch', 'answer.md']);
    assert.equal(r.code, 3);
    assert.match(r.json.message, /^py\/new_helpers\.py does not exist, and its code block 2 \(line 9\) is not a whole new file/);
    assert.deepEqual(snapshot(dir), ORIGINAL);

    const indented = text('```python py/new_helpers.py', '    def helper(self):', '        return 1', '```', '');
    fs.writeFileSync(path.join(dir, 'answer.md'), indented);
    r = runJsonSync(dir, ['patch', 'answer.md']);
    assert.equal(r.code, 3);
    assert.match(r.json.message, /^py\/new_helpers\.py does not exist/);
    assert.deepEqual(snapshot(dir), ORIGINAL);

    const whole = text('py/new_helpers.py', '```python', 'def helper():', '    return 1', '```', '');
    fs.writeFileSync(path.join(dir, 'answer.md'), whole);
    r = runJsonSync(dir, ['patch', 'answer.md']);
    assert.equal(r.code, 0, r.json.message);
    assert.deepEqual(
      (r.json.files as Array<{ path: string; action: string }>).map((f) => [f.path, f.action]),
      [['py/new_helpers.py', 'add']],
    );
    assert.equal(fs.readFileSync(path.join(dir, 'py/new_helpers.py'), 'utf8'), 'def helper():\n    return 1\n');
  });

  test('paths stay under the root: a code block for ../x or through a link out is refused; nothing is written', () => {
    const dir = workspace(ORIGINAL);
    const outside = workspace({ 'x.js': 'var x = 1;\n' });
    fs.symlinkSync(outside, path.join(dir, 'linked'));
    for (const name of [`../${path.basename(outside)}/x.js`, 'linked/x.js']) {
      const answer = text('**lib/ms.js**', '```js', PLURAL.replace('1.5', '2'), '```', '', `**${name}**`, '```js', 'var x = 2;', '```', '');
      fs.writeFileSync(path.join(dir, 'answer.md'), answer);
      const r = runJsonSync(dir, ['patch', 'answer.md']);
      assert.equal(r.code, 3, name);
      assert.match(r.json.message, /outside the root|leads outside the root/, name);
      assert.equal(fs.readFileSync(path.join(outside, 'x.js'), 'utf8'), 'var x = 1;\n');
      assert.equal(fs.readFileSync(path.join(dir, 'lib/ms.js'), 'utf8'), ORIGINAL['lib/ms.js']);
    }
  });

  test("Copilot's answer through stdin: `// filepath:` blocks with `...existing code...`, two files", () => {
    const dir = workspace(ORIGINAL);
    const answer = text(
      'To support weeks, update both helpers:',
      '',
      '```javascript',
      '// filepath: lib/ms.js',
      '// ...existing code...',
      'function fmtLong(ms) {',
      '  var msAbs = Math.abs(ms);',
      '  if (msAbs >= w) {',
      "    return plural(ms, msAbs, w, 'week');",
      '  }',
      '  if (msAbs >= d) {',
      "    return plural(ms, msAbs, d, 'day');",
      '  }',
      '  // ...existing code...',
      '}',
      '// ...existing code...',
      '```',
      '',
      '```python',
      '# filepath: py/flatted.py',
      '# ...existing code...',
      'def _is_array(value):',
      '    return isinstance(value, (list, tuple, set))',
      '# ...existing code...',
      '```',
    );
    const r = run(dir, ['patch', '-'], answer);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /^Applied the code blocks to 2 files:/);
    assert.deepEqual(snapshot(dir), {
      ...ORIGINAL,
      'lib/ms.js': edited(ORIGINAL['lib/ms.js'], [
        'function fmtLong(ms) {\n  var msAbs = Math.abs(ms);\n',
        "function fmtLong(ms) {\n  var msAbs = Math.abs(ms);\n  if (msAbs >= w) {\n    return plural(ms, msAbs, w, 'week');\n  }\n",
      ]),
      'py/flatted.py': edited(ORIGINAL['py/flatted.py'], ['(list, tuple))', '(list, tuple, set))']),
    });
  });
});
