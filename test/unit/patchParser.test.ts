// The unified diff and apply_patch parsers, on diffs as git prints them and as models write them.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { containsEdits, detectEditFormat, editBlocks, parseEdits } from '../../src/core/formats/edits';
import { BlockParseError } from '../../src/core/formats/parser';
import { containsPatch, parsePatch } from '../../src/core/formats/patchParser';

const text = (...lines: string[]): string => lines.join('\n');

function parseError(input: string): BlockParseError {
  try {
    parsePatch(input);
  } catch (error) {
    assert.ok(error instanceof BlockParseError, `expected BlockParseError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a BlockParseError');
}

// `git diff` output: two files, extended headers, a section heading after @@, correct counts.
const GIT_DIFF = text(
  'diff --git a/src/app.ts b/src/app.ts',
  'index 3b18e51..a8c4f2d 100644',
  '--- a/src/app.ts',
  '+++ b/src/app.ts',
  '@@ -10,7 +10,8 @@ export function main() {',
  '   const config = load();',
  '   const server = create(config);',
  '-  server.listen(8080);',
  '+  const port = Number(process.env.PORT ?? 8080);',
  '+  server.listen(port);',
  '   return server;',
  ' }',
  ' ',
  '@@ -40,3 +41,3 @@ function stop() {',
  '   log("stopping");',
  '-  process.exit(0);',
  '+  process.exitCode = 0;',
  ' }',
  'diff --git a/README.md b/README.md',
  'index 1111111..2222222 100644',
  '--- a/README.md',
  '+++ b/README.md',
  '@@ -1,2 +1,2 @@',
  '-# App',
  '+# The app',
  ' ',
  '',
);

describe('unified diff: git output', () => {
  test('files, hunks, SEARCH = context + removed, REPLACE = context + added, header line as hint', () => {
    const patch = parsePatch(GIT_DIFF)!;
    assert.equal(patch.format, 'unified-diff');
    assert.deepEqual(
      patch.files.map((f) => [f.kind, f.path, f.blocks.length]),
      [
        ['update', 'src/app.ts', 2],
        ['update', 'README.md', 1],
      ],
    );
    const [first, second] = patch.files[0].blocks;
    assert.equal(
      first.search,
      text('  const config = load();', '  const server = create(config);', '  server.listen(8080);', '  return server;', '}', ''),
    );
    assert.equal(
      first.replace,
      text(
        '  const config = load();',
        '  const server = create(config);',
        '  const port = Number(process.env.PORT ?? 8080);',
        '  server.listen(port);',
        '  return server;',
        '}',
        '',
      ),
    );
    assert.equal(first.startLine, 10);
    assert.deepEqual(first.hunk, { format: 'unified-diff', headerLine: 10 });
    assert.equal(first.filePath, 'src/app.ts');
    assert.equal(first.sourceLine, 5);
    assert.equal(second.index, 2);
    assert.equal(second.startLine, 40);
    assert.equal(second.search, text('  log("stopping");', '  process.exit(0);', '}'));
    const readme = patch.files[1].blocks[0];
    assert.equal(readme.index, 3);
    assert.equal(readme.search, text('# App', ''));
    assert.equal(readme.replace, text('# The app', ''));
  });

  test('new file, deleted file and rename from git', () => {
    const patch = parsePatch(
      text(
        'diff --git a/src/new.ts b/src/new.ts',
        'new file mode 100644',
        'index 0000000..e69de29',
        '--- /dev/null',
        '+++ b/src/new.ts',
        '@@ -0,0 +1,2 @@',
        '+export const a = 1;',
        '+export const b = 2;',
        'diff --git a/old.txt b/old.txt',
        'deleted file mode 100644',
        'index e69de29..0000000',
        '--- a/old.txt',
        '+++ /dev/null',
        '@@ -1 +0,0 @@',
        '-gone',
        'diff --git a/lib/a.js b/lib/b.js',
        'similarity index 100%',
        'rename from lib/a.js',
        'rename to lib/b.js',
        'diff --git a/empty.txt b/empty.txt',
        'new file mode 100644',
        'index 0000000..e69de29',
      ),
    )!;
    assert.deepEqual(
      patch.files.map((f) => ({ kind: f.kind, path: f.path, moveTo: f.moveTo })),
      [
        { kind: 'add', path: 'src/new.ts', moveTo: undefined },
        { kind: 'delete', path: 'old.txt', moveTo: undefined },
        { kind: 'update', path: 'lib/a.js', moveTo: 'lib/b.js' },
        { kind: 'add', path: 'empty.txt', moveTo: undefined },
      ],
    );
    assert.equal(patch.files[0].blocks[0].search, '');
    assert.equal(patch.files[0].blocks[0].replace, text('export const a = 1;', 'export const b = 2;'));
    assert.equal(patch.files[3].blocks[0].replace, '');
  });

  test('\\ No newline at end of file is not content, and marks a new file without a final line break', () => {
    const patch = parsePatch(
      text(
        '--- a/x.txt',
        '+++ b/x.txt',
        '@@ -1,2 +1,2 @@',
        ' one',
        '-two',
        '\\ No newline at end of file',
        '+three',
        '\\ No newline at end of file',
        '--- /dev/null',
        '+++ b/y.txt',
        '@@ -0,0 +1 @@',
        '+only line',
        '\\ No newline at end of file',
      ),
    )!;
    assert.equal(patch.files[0].blocks[0].search, text('one', 'two'));
    assert.equal(patch.files[0].blocks[0].replace, text('one', 'three'));
    assert.equal(patch.files[1].noFinalNewline, true);
    assert.equal(patch.files[1].blocks[0].replace, 'only line');
  });

  test('CRLF diffs parse like LF ones (the lines carry no \\r)', () => {
    const crlf = GIT_DIFF.replace(/\n/g, '\r\n');
    assert.deepEqual(parsePatch(crlf), parsePatch(GIT_DIFF));
  });

  test('timestamps after the path (diff -u) and quoted paths are removed', () => {
    const patch = parsePatch(
      text(
        '--- src/a b.c\t2024-05-01 10:00:00.000000000 +0200',
        '+++ src/a b.c\t2024-05-02 11:00:00.000000000 +0200',
        '@@ -1 +1 @@',
        '-x',
        '+y',
        '--- "a/q.txt"',
        '+++ "b/q.txt"',
        '@@ -1 +1 @@',
        '-x',
        '+y',
      ),
    )!;
    assert.deepEqual(
      patch.files.map((f) => f.path),
      ['src/a b.c', 'q.txt'],
    );
  });
});

describe('unified diff: model output', () => {
  test('wrong counts: the hunk runs as far as its lines do, blank context lines without their space included', () => {
    const patch = parsePatch(
      text(
        'Here is the fix:',
        '',
        '```diff',
        '--- a/calc.py',
        '+++ b/calc.py',
        '@@ -3,4 +3,4 @@',
        ' def add(a, b):',
        '-    return a - b',
        '+    return a + b',
        '',
        ' def sub(a, b):',
        '     return a - b',
        '```',
        '',
        'That should do it.',
      ),
    )!;
    const [block] = patch.files[0].blocks;
    assert.equal(block.search, text('def add(a, b):', '    return a - b', '', 'def sub(a, b):', '    return a - b'));
    assert.equal(block.replace, text('def add(a, b):', '    return a + b', '', 'def sub(a, b):', '    return a - b'));
  });

  test('a trailing blank line after a hunk separates it from the next text (unless the counts include it)', () => {
    const loose = parsePatch(text('--- a/x', '+++ b/x', '@@ -1,9 +1,9 @@', ' a', '-b', '+c', '', 'Some prose.'))!;
    assert.equal(loose.files[0].blocks[0].search, text('a', 'b'));
    const counted = parsePatch(text('--- a/x', '+++ b/x', '@@ -1,3 +1,3 @@', ' a', '-b', '+c', '', '', 'Some prose.'))!;
    assert.equal(counted.files[0].blocks[0].search, text('a', 'b', ''));
  });

  test('aider-style hunks: @@ ... @@ without numbers after a file header', () => {
    const patch = parsePatch(text('--- mathweb/app.py', '+++ mathweb/app.py', '@@ ... @@', '-def f():', '+def g():', '     pass'))!;
    const [block] = patch.files[0].blocks;
    assert.equal(block.filePath, 'mathweb/app.py');
    assert.equal(block.startLine, undefined);
    assert.equal(block.search, text('def f():', '    pass'));
  });

  test('hunks without a file header have no path (they go to the file they are applied to)', () => {
    const patch = parsePatch(text('@@ -2,2 +2,2 @@', ' a', '-b', '+c'))!;
    assert.equal(patch.files[0].path, undefined);
    assert.equal(patch.files[0].blocks[0].filePath, undefined);
    assert.equal(patch.files[0].blocks[0].startLine, 2);
  });

  test('a removed line starting with "--" is not a file header unless "+++" follows', () => {
    const patch = parsePatch(text('--- a/q.sql', '+++ b/q.sql', '@@ -1,2 +1,1 @@', '--- a comment', ' select 1;'))!;
    assert.equal(patch.files[0].blocks[0].search, text('-- a comment', 'select 1;'));
    assert.equal(patch.files[0].blocks[0].replace, 'select 1;');
  });

  test('format-patch signature ends the last hunk', () => {
    const patch = parsePatch(text('--- a/x', '+++ b/x', '@@ -1 +1 @@', '-a', '+b', '-- ', '2.43.0', ''))!;
    assert.equal(patch.files[0].blocks[0].search, 'a');
  });
});

describe('unified diff: errors name the hunk, the line and what was expected', () => {
  test('a hunk header with no lines', () => {
    const error = parseError(text('--- a/x', '+++ b/x', '@@ -1,2 +1,2 @@', 'prose'));
    assert.equal(error.info.block, 1);
    assert.equal(error.info.line, 3);
    assert.match(error.message, /^Hunk 1 \(line 3\): expected the hunk's lines/);
  });

  test('a hunk that only adds lines to an existing file has nothing to be found by', () => {
    const error = parseError(text('--- a/x', '+++ b/x', '@@ -5,0 +6,1 @@', '+new'));
    assert.match(error.message, /quotes no line of the file/);
    assert.match(error.message, /-U3/);
  });

  test('a new file with context lines', () => {
    const error = parseError(text('--- /dev/null', '+++ b/n.txt', '@@ -0,0 +1,2 @@', '+a', ' b'));
    assert.equal(error.info.line, 5);
    assert.match(error.message, /new file/);
  });

  test('binary diffs are refused', () => {
    const error = parseError(text('diff --git a/i.png b/i.png', 'index 1..2 100644', 'Binary files a/i.png and b/i.png differ'));
    assert.match(error.message, /binary/);
  });
});

const CODEX_PATCH = text(
  '*** Begin Patch',
  '*** Add File: docs/NOTES.md',
  '+# Notes',
  '+',
  '+First line.',
  '*** Update File: src/shapes.py',
  '@@ class Square:',
  '     def area(self):',
  '-        return self.side * 2',
  '+        return self.side ** 2',
  '@@ class Circle:',
  '@@     def area(self):',
  '-        return 3.14 * self.r',
  '+        return math.pi * self.r ** 2',
  '*** Update File: src/old_name.py',
  '*** Move to: src/new_name.py',
  '@@',
  ' import os',
  '-import sys',
  '*** End of File',
  '*** Delete File: src/unused.py',
  '*** End Patch',
);

describe('apply_patch', () => {
  test('add, update with anchors, move, end of file and delete', () => {
    const patch = parsePatch(CODEX_PATCH)!;
    assert.equal(patch.format, 'apply-patch');
    assert.deepEqual(
      patch.files.map((f) => [f.kind, f.path, f.moveTo]),
      [
        ['add', 'docs/NOTES.md', undefined],
        ['update', 'src/shapes.py', undefined],
        ['update', 'src/old_name.py', 'src/new_name.py'],
        ['delete', 'src/unused.py', undefined],
      ],
    );
    assert.equal(patch.files[0].blocks[0].search, '');
    assert.equal(patch.files[0].blocks[0].replace, text('# Notes', '', 'First line.'));
    const [square, circle] = patch.files[1].blocks;
    assert.deepEqual(square.hunk, { format: 'apply-patch', anchors: ['class Square:'] });
    assert.equal(square.search, text('    def area(self):', '        return self.side * 2'));
    assert.equal(square.replace, text('    def area(self):', '        return self.side ** 2'));
    assert.equal(square.sourceLine, 7);
    assert.deepEqual(circle.hunk, { format: 'apply-patch', anchors: ['class Circle:', '    def area(self):'] });
    assert.equal(circle.search, '        return 3.14 * self.r');
    const [moved] = patch.files[2].blocks;
    assert.deepEqual(moved.hunk, { format: 'apply-patch', endOfFile: true });
    assert.equal(moved.search, text('import os', 'import sys'));
    assert.equal(moved.replace, 'import os');
    assert.deepEqual(
      patch.files.flatMap((f) => f.blocks.map((b) => b.index)),
      [1, 2, 3, 4],
    );
  });

  test('fenced and indented in a chat answer, first hunk without @@, blank context lines', () => {
    const patch = parsePatch(
      text(
        'Apply this:',
        '',
        '  ```',
        '  *** Begin Patch',
        '  *** Update File: a.py',
        '   x = 1',
        '  ',
        '  -y = 2',
        '  +y = 3',
        '  *** End Patch',
        '  ```',
      ),
    )!;
    const [block] = patch.files[0].blocks;
    assert.equal(block.search, text('x = 1', '', 'y = 2'));
    assert.equal(block.replace, text('x = 1', '', 'y = 3'));
  });

  test('a hunk with only added lines is appended at the end of the file', () => {
    const patch = parsePatch(text('*** Begin Patch', '*** Update File: a.txt', '@@', '+tail', '*** End Patch'))!;
    assert.deepEqual(patch.files[0].blocks[0].hunk, { format: 'apply-patch', endOfFile: true });
  });

  test('errors: a missing End Patch, an unknown line, an added line without +, an update with no hunk', () => {
    const end = parseError(text('*** Begin Patch', '*** Delete File: a.txt'));
    assert.equal(end.info.expected, "'*** End Patch'");
    assert.equal(end.info.line, 2);
    assert.match(end.message, /began on line 1/);
    const unknown = parseError(text('*** Begin Patch', '*** Update File: a.txt', '@@', ' a', 'oops', '*** End Patch'));
    assert.equal(unknown.info.line, 5);
    assert.match(unknown.message, /^Hunk 1 \(line 5\): expected a hunk line of a\.txt/);
    const add = parseError(text('*** Begin Patch', '*** Add File: n.txt', '+ok', 'no plus', '*** End Patch'));
    assert.equal(add.info.line, 4);
    assert.match(add.message, /starts with '\+'/);
    const empty = parseError(text('*** Begin Patch', '*** Update File: a.txt', '*** End Patch'));
    assert.match(empty.message, /has no hunk/);
    const section = parseError(text('*** Begin Patch', 'Update File: a.txt', '*** End Patch'));
    assert.equal(section.info.line, 2);
    assert.match(section.info.expected, /Update File/);
  });
});

describe('format detection', () => {
  test('each format is recognised; plain prose and code are not', () => {
    assert.equal(detectEditFormat(GIT_DIFF), 'unified-diff');
    assert.equal(detectEditFormat(CODEX_PATCH), 'apply-patch');
    assert.equal(detectEditFormat(text('<<<<<<< SEARCH', 'a', '=======', 'b', '>>>>>>> REPLACE')), 'search-replace');
    assert.equal(detectEditFormat(text('@@ -1 +1 @@', '-a', '+b')), 'unified-diff');
    for (const prose of ['hello @@ world', '--- a list\n+++ not a header but no hunk', 'x = a -- b\n', '*** Begin Patchwork']) {
      assert.equal(containsEdits(prose), false, prose);
      assert.equal(containsPatch(prose), false, prose);
    }
  });

  test('the format whose first marker comes first wins', () => {
    const blocksQuotingADiff = text('<<<<<<< SEARCH', '@@ -1 +1 @@', '=======', '@@ -1,2 +1,2 @@', '>>>>>>> REPLACE');
    assert.equal(detectEditFormat(blocksQuotingADiff), 'search-replace');
    assert.equal(parseEdits(blocksQuotingADiff).blocks[0].search, '@@ -1 +1 @@');
    const diffOfBlocks = text('--- a/demo.md', '+++ b/demo.md', '@@ -1,3 +1,3 @@', ' <<<<<<< SEARCH', '-a', '+b', ' =======');
    assert.equal(detectEditFormat(diffOfBlocks), 'unified-diff');
    assert.equal(parseEdits(diffOfBlocks).blocks[0].search, text('<<<<<<< SEARCH', 'a', '======='));
  });

  test('the editor flows refuse deletes and moves with a message pointing at the CLI', () => {
    assert.throws(
      () => editBlocks(parseEdits(CODEX_PATCH)),
      (error: unknown) => {
        assert.ok(error instanceof BlockParseError);
        assert.match(error.message, /moves src\/old_name\.py to src\/new_name\.py/);
        assert.match(error.message, /resilient-apply patch/);
        return true;
      },
    );
    assert.equal(editBlocks(parseEdits(GIT_DIFF)).length, 3);
  });
});

describe('documents holding both patch formats', () => {
  test('unified diffs and apply_patch sections are all found, hunks numbered in document order', () => {
    const doc = text(
      '## one',
      '```diff',
      '--- a/a.txt',
      '+++ b/a.txt',
      '@@ -1 +1 @@',
      '-a',
      '+A',
      '```',
      '## two',
      '```',
      '*** Begin Patch',
      '*** Update File: b.txt',
      '@@',
      '-b',
      '+B',
      '*** End Patch',
      '```',
      '## three',
      '```diff',
      '--- a/c.txt',
      '+++ b/c.txt',
      '@@ -1 +1 @@',
      '-c',
      '+C',
      '```',
    );
    const edits = parseEdits(doc);
    assert.equal(edits.format, 'unified-diff');
    assert.deepEqual(
      edits.blocks.map((b) => [b.index, b.filePath, b.search, b.hunk?.format]),
      [
        [1, 'a.txt', 'a', 'unified-diff'],
        [2, 'b.txt', 'b', 'apply-patch'],
        [3, 'c.txt', 'c', 'unified-diff'],
      ],
    );
  });
});
