import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { BlockParseError, containsBlocks, parseBlocks } from '../../src/core/formats/parser';

const text = (...lines: string[]): string => lines.join('\n');

/** Runs parseBlocks expecting a BlockParseError and returns it. */
function parseError(input: string): BlockParseError {
  try {
    parseBlocks(input);
  } catch (error) {
    assert.ok(error instanceof BlockParseError, `expected BlockParseError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a BlockParseError');
}

describe('parseBlocks: marker styles', () => {
  test('aider markers', () => {
    const blocks = parseBlocks(text('<<<<<<< SEARCH', 'const timeout = 5000;', '=======', 'const timeout = 30000;', '>>>>>>> REPLACE'));
    assert.deepEqual(blocks, [
      {
        index: 1,
        search: 'const timeout = 5000;',
        replace: 'const timeout = 30000;',
        sourceLine: 1,
      },
    ]);
  });

  test('Cline markers', () => {
    const blocks = parseBlocks(text('------- SEARCH', 'a', 'b', '=======', 'c', '+++++++ REPLACE'));
    assert.equal(blocks.length, 1);
    assert.equal(blocks[0].search, 'a\nb');
    assert.equal(blocks[0].replace, 'c');
  });

  for (let n = 5; n <= 9; n++) {
    test(`marker length ${n}`, () => {
      const blocks = parseBlocks(
        text(
          `${'<'.repeat(n)} SEARCH`,
          'old',
          '='.repeat(n),
          'new',
          `${'>'.repeat(n)} REPLACE`,
          `${'-'.repeat(n)} SEARCH`,
          'old2',
          '='.repeat(n),
          'new2',
          `${'+'.repeat(n)} REPLACE`,
        ),
      );
      assert.deepEqual(
        blocks.map((b) => [b.search, b.replace]),
        [
          ['old', 'new'],
          ['old2', 'new2'],
        ],
      );
    });
  }

  test('4 or 10 marker characters are not markers', () => {
    assert.deepEqual(parseBlocks(text('<<<< SEARCH', 'x', '====', 'y', '>>>> REPLACE')), []);
    assert.deepEqual(parseBlocks(text('<<<<<<<<<< SEARCH', 'x', '==========', 'y', '>>>>>>>>>> REPLACE')), []);
  });

  test('trailing whitespace on markers is tolerated', () => {
    const blocks = parseBlocks(text('<<<<<<< SEARCH  ', 'x', '=======\t', 'y', '>>>>>>> REPLACE '));
    assert.deepEqual(
      blocks.map((b) => [b.search, b.replace]),
      [['x', 'y']],
    );
  });

  test('empty SEARCH and empty REPLACE', () => {
    const blocks = parseBlocks(
      text('<<<<<<< SEARCH', '=======', 'line 1', 'line 2', '>>>>>>> REPLACE', '<<<<<<< SEARCH', 'gone', '=======', '>>>>>>> REPLACE'),
    );
    assert.equal(blocks[0].search, '');
    assert.equal(blocks[0].replace, 'line 1\nline 2');
    assert.equal(blocks[1].search, 'gone');
    assert.equal(blocks[1].replace, '');
  });

  test('blank lines inside SEARCH and REPLACE are kept', () => {
    const [block] = parseBlocks(text('<<<<<<< SEARCH', 'a', '', 'b', '', '=======', '', 'c', '>>>>>>> REPLACE'));
    assert.equal(block.search, 'a\n\nb\n');
    assert.equal(block.replace, '\nc');
  });

  test('no blocks gives an empty list', () => {
    assert.deepEqual(parseBlocks(''), []);
    assert.deepEqual(parseBlocks('Just prose.\n=======\nA setext heading above.'), []);
  });

  test('git conflict markers are not blocks', () => {
    assert.deepEqual(parseBlocks(text('<<<<<<< HEAD', 'a', '=======', 'b', '>>>>>>> feature')), []);
  });
});

describe('parseBlocks: :start_line:', () => {
  test('start line right after SEARCH', () => {
    const [block] = parseBlocks(text('<<<<<<< SEARCH', ':start_line:42', 'x', '=======', 'y', '>>>>>>> REPLACE'));
    assert.equal(block.startLine, 42);
    assert.equal(block.search, 'x');
  });

  test('start line followed by a ------- separator (Roo)', () => {
    const [block] = parseBlocks(text('<<<<<<< SEARCH', ':start_line:7', '-------', 'x', '=======', 'y', '>>>>>>> REPLACE'));
    assert.equal(block.startLine, 7);
    assert.equal(block.search, 'x');
  });

  test(':end_line: after :start_line: is skipped', () => {
    const [block] = parseBlocks(
      text('<<<<<<< SEARCH', ':start_line:7', ':end_line:8', '-------', 'x', 'x2', '=======', 'y', '>>>>>>> REPLACE'),
    );
    assert.equal(block.startLine, 7);
    assert.equal(block.search, 'x\nx2');
  });

  test('without :start_line:, a ------- line is content (a Markdown rule)', () => {
    const [block] = parseBlocks(text('<<<<<<< SEARCH', '-------', 'x', '=======', 'y', '>>>>>>> REPLACE'));
    assert.equal(block.startLine, undefined);
    assert.equal(block.search, '-------\nx');
  });

  test('a :start_line: that is not a number is an error', () => {
    const error = parseError(text('intro', '<<<<<<< SEARCH', ':start_line:abc', 'x', '=======', 'y', '>>>>>>> REPLACE'));
    assert.equal(error.info.block, 1);
    assert.equal(error.info.line, 3);
    assert.match(error.message, /^Block 1 \(line 3\): expected a positive line number after ':start_line:', found 'abc'$/);
  });

  test(':start_line:0 is an error', () => {
    const error = parseError(text('<<<<<<< SEARCH', ':start_line:0', 'x', '=======', 'y', '>>>>>>> REPLACE'));
    assert.equal(error.info.line, 2);
  });
});

describe('parseBlocks: file paths', () => {
  test('path on the line before an unfenced block', () => {
    const [block] = parseBlocks(text('src/app.ts', '<<<<<<< SEARCH', 'x', '=======', 'y', '>>>>>>> REPLACE'));
    assert.equal(block.filePath, 'src/app.ts');
    assert.equal(block.sourceLine, 2);
  });

  test('aider format: path, fence, block, fence', () => {
    const blocks = parseBlocks(
      text(
        'Here is the change.',
        '',
        'mathweb/flask/app.py',
        '```python',
        '<<<<<<< SEARCH',
        'from flask import Flask',
        '=======',
        'import math',
        'from flask import Flask',
        '>>>>>>> REPLACE',
        '```',
      ),
    );
    assert.equal(blocks.length, 1);
    assert.equal(blocks[0].filePath, 'mathweb/flask/app.py');
    assert.equal(blocks[0].replace, 'import math\nfrom flask import Flask');
  });

  test('path in the fence info string', () => {
    const [a, b] = parseBlocks(
      text(
        '```src/a.ts',
        '<<<<<<< SEARCH',
        'x',
        '=======',
        'y',
        '>>>>>>> REPLACE',
        '```',
        '```ts src/b.ts',
        '<<<<<<< SEARCH',
        'x',
        '=======',
        'y',
        '>>>>>>> REPLACE',
        '```',
      ),
    );
    assert.equal(a.filePath, 'src/a.ts');
    assert.equal(b.filePath, 'src/b.ts');
  });

  test('a language-only fence is not a path', () => {
    const [block] = parseBlocks(text('```python', '<<<<<<< SEARCH', 'x', '=======', 'y', '>>>>>>> REPLACE', '```'));
    assert.equal(block.filePath, undefined);
  });

  test('decorated paths: backticks, bold, trailing colon, heading, label, Windows', () => {
    const cases: Array<[string, string]> = [
      ['`src/a.ts`', 'src/a.ts'],
      ['**src/a.ts**', 'src/a.ts'],
      ['**`src/a.ts`**:', 'src/a.ts'],
      ['src/a.ts:', 'src/a.ts'],
      ['### src/a.ts', 'src/a.ts'],
      ['File: src/a.ts', 'src/a.ts'],
      ['/abs/path/main.go', '/abs/path/main.go'],
      ['C:\\work\\main.c', 'C:\\work\\main.c'],
      ['README.md', 'README.md'],
      ['.gitignore', '.gitignore'],
      ['Makefile', 'Makefile'],
      ['app/(auth)/[id]/page.tsx', 'app/(auth)/[id]/page.tsx'],
      ['`docs/My Notes.md`', 'docs/My Notes.md'],
    ];
    for (const [line, expected] of cases) {
      const [block] = parseBlocks(text(line, '```', '<<<<<<< SEARCH', 'x', '=======', 'y', '>>>>>>> REPLACE', '```'));
      assert.equal(block.filePath, expected, `path line ${JSON.stringify(line)}`);
    }
  });

  test('prose and code are not paths', () => {
    const lines = [
      'Here is the change:',
      'Update the timeout in app.ts as follows:',
      'console.log(x)',
      'foo.bar();',
      'const a = b.c',
      'x = 1.5',
      '1.5',
      'python',
      'See https://example.com/a.js',
      'https://example.com/a.js',
      'The end.',
      '// a/b comment',
      'return a/b;',
      'docs/My Notes.md',
    ];
    for (const line of lines) {
      const [block] = parseBlocks(text(line, '<<<<<<< SEARCH', 'x', '=======', 'y', '>>>>>>> REPLACE'));
      assert.equal(block.filePath, undefined, `line ${JSON.stringify(line)} is not a path`);
    }
  });

  test('blank lines between the path and the fence are allowed', () => {
    const [block] = parseBlocks(text('src/a.ts', '', '```ts', '<<<<<<< SEARCH', 'x', '=======', 'y', '>>>>>>> REPLACE', '```'));
    assert.equal(block.filePath, 'src/a.ts');
  });

  test('a path carries over to following blocks in the same fence and after, until another path', () => {
    const blocks = parseBlocks(
      text(
        'src/a.ts',
        '```ts',
        '<<<<<<< SEARCH',
        'a1',
        '=======',
        'A1',
        '>>>>>>> REPLACE',
        '<<<<<<< SEARCH',
        'a2',
        '=======',
        'A2',
        '>>>>>>> REPLACE',
        '```',
        '',
        '```ts',
        '<<<<<<< SEARCH',
        'a3',
        '=======',
        'A3',
        '>>>>>>> REPLACE',
        '```',
        '',
        'src/b.ts',
        '```ts',
        '<<<<<<< SEARCH',
        'b1',
        '=======',
        'B1',
        '>>>>>>> REPLACE',
        '```',
      ),
    );
    assert.deepEqual(
      blocks.map((b) => [b.index, b.filePath, b.search]),
      [
        [1, 'src/a.ts', 'a1'],
        [2, 'src/a.ts', 'a2'],
        [3, 'src/a.ts', 'a3'],
        [4, 'src/b.ts', 'b1'],
      ],
    );
  });

  test('unfenced blocks for several files', () => {
    const blocks = parseBlocks(
      text(
        'src/a.ts',
        '<<<<<<< SEARCH',
        'a',
        '=======',
        'A',
        '>>>>>>> REPLACE',
        '',
        'src/b.ts',
        '------- SEARCH',
        'b',
        '=======',
        'B',
        '+++++++ REPLACE',
      ),
    );
    assert.deepEqual(
      blocks.map((b) => [b.filePath, b.search, b.replace, b.sourceLine]),
      [
        ['src/a.ts', 'a', 'A', 2],
        ['src/b.ts', 'b', 'B', 9],
      ],
    );
  });

  test('code fences inside SEARCH/REPLACE (editing Markdown) are content', () => {
    const [block] = parseBlocks(
      text(
        'docs/guide.md',
        '````markdown',
        '<<<<<<< SEARCH',
        '```sh',
        'npm test',
        '```',
        '=======',
        '```sh',
        'npm run test:unit',
        '```',
        '>>>>>>> REPLACE',
        '````',
      ),
    );
    assert.equal(block.filePath, 'docs/guide.md');
    assert.equal(block.search, '```sh\nnpm test\n```');
    assert.equal(block.replace, '```sh\nnpm run test:unit\n```');
  });

  test('the last content line of a previous block is never taken as a path', () => {
    const blocks = parseBlocks(
      text('<<<<<<< SEARCH', 'old.txt', '=======', 'new.txt', '>>>>>>> REPLACE', '<<<<<<< SEARCH', 'x', '=======', 'y', '>>>>>>> REPLACE'),
    );
    assert.equal(blocks[1].filePath, undefined);
  });
});

describe('parseBlocks: line endings and indentation', () => {
  test('CRLF input gives \\n-joined texts', () => {
    const input = ['src/a.ts', '```ts', '<<<<<<< SEARCH', 'a', 'b', '=======', 'c', 'd', '>>>>>>> REPLACE', '```', ''].join('\r\n');
    const [block] = parseBlocks(input);
    assert.equal(block.filePath, 'src/a.ts');
    assert.equal(block.search, 'a\nb');
    assert.equal(block.replace, 'c\nd');
    assert.equal(block.sourceLine, 3);
    assert.ok(containsBlocks(input));
  });

  test('a leading BOM is ignored', () => {
    const [block] = parseBlocks('\uFEFF' + text('<<<<<<< SEARCH', 'x', '=======', 'y', '>>>>>>> REPLACE'));
    assert.equal(block.search, 'x');
  });

  test('a block indented as a whole (Markdown list) is dedented', () => {
    const [block] = parseBlocks(
      text(
        '1. Change the loop:',
        '   <<<<<<< SEARCH',
        '   for (;;) {',
        '     step();',
        '',
        '   =======',
        '   while (running) {',
        '     step();',
        '   >>>>>>> REPLACE',
      ),
    );
    assert.equal(block.search, 'for (;;) {\n  step();\n');
    assert.equal(block.replace, 'while (running) {\n  step();');
  });

  test('an indented ======= inside a column-0 block is content, not a divider', () => {
    const [block] = parseBlocks(text('<<<<<<< SEARCH', 'Title', '    =======', '=======', 'New', '    =======', '>>>>>>> REPLACE'));
    assert.equal(block.search, 'Title\n    =======');
    assert.equal(block.replace, 'New\n    =======');
  });

  test('escaped marker lines are content with the backslash removed', () => {
    const [block] = parseBlocks(
      text(
        '<<<<<<< SEARCH',
        'Heading',
        '\\=======',
        '\\<<<<<<< SEARCH',
        '=======',
        'Heading',
        '\\=======',
        '\\>>>>>>> REPLACE',
        '>>>>>>> REPLACE',
      ),
    );
    assert.equal(block.search, 'Heading\n=======\n<<<<<<< SEARCH');
    assert.equal(block.replace, 'Heading\n=======\n>>>>>>> REPLACE');
  });
});

describe('parseBlocks: errors name the block, the line and what was expected', () => {
  test('missing ======= (REPLACE comes first)', () => {
    const error = parseError(
      text('<<<<<<< SEARCH', 'a', '=======', 'b', '>>>>>>> REPLACE', '', 'src/x.ts', '<<<<<<< SEARCH', 'c', '>>>>>>> REPLACE'),
    );
    assert.deepEqual(
      { block: error.info.block, line: error.info.line, expected: error.info.expected },
      { block: 2, line: 10, expected: "'======='" },
    );
    assert.equal(error.message, "Block 2 (line 10): expected '=======' before '>>>>>>> REPLACE'");
    assert.equal(error.info.message, error.message);
    assert.equal(error.name, 'BlockParseError');
  });

  test('missing REPLACE marker before the next block', () => {
    const error = parseError(text('<<<<<<< SEARCH', 'a', '=======', 'b', '<<<<<<< SEARCH', 'c', '=======', 'd', '>>>>>>> REPLACE'));
    assert.equal(error.info.block, 1);
    assert.equal(error.info.line, 5);
    assert.equal(error.info.expected, "'>>>>>>> REPLACE'");
    assert.match(error.message, /^Block 1 \(line 5\): expected '>>>>>>> REPLACE' before the next '<<<<<<< SEARCH'/);
  });

  test('missing REPLACE marker at the end of input', () => {
    const error = parseError(text('<<<<<<< SEARCH', 'a', '=======', 'b', ''));
    assert.equal(error.info.block, 1);
    assert.equal(error.info.line, 4);
    assert.match(error.message, /^Block 1 \(line 4\): expected '>>>>>>> REPLACE' but the input ended \(block 1 opened on line 1\)$/);
  });

  test('missing ======= at the end of input', () => {
    const error = parseError(text('x', '<<<<<<< SEARCH', 'a', 'b'));
    assert.equal(error.info.line, 4);
    assert.match(error.message, /^Block 1 \(line 4\): expected '=======' but the input ended \(block 1 opened on line 2\)$/);
  });

  test('nested SEARCH', () => {
    const error = parseError(
      text(
        '<<<<<<< SEARCH',
        'a',
        '=======',
        'b',
        '>>>>>>> REPLACE',
        '<<<<<<< SEARCH',
        'c',
        '<<<<<<< SEARCH',
        'd',
        '=======',
        'e',
        '>>>>>>> REPLACE',
      ),
    );
    assert.equal(error.info.block, 2);
    assert.equal(error.info.line, 8);
    assert.equal(error.info.expected, "'======='");
    assert.match(
      error.message,
      /^Block 2 \(line 8\): expected '=======' before another '<<<<<<< SEARCH' \(block 2 opened on line 6; a SEARCH cannot be nested\)$/,
    );
  });

  test('two ======= lines make the block ambiguous', () => {
    const error = parseError(text('<<<<<<< SEARCH', 'Title', '=======', 'Body', '=======', 'New', '>>>>>>> REPLACE'));
    assert.equal(error.info.block, 1);
    assert.equal(error.info.line, 5);
    assert.equal(error.info.expected, "'>>>>>>> REPLACE'");
    assert.match(error.message, /^Block 1 \(line 5\): expected '>>>>>>> REPLACE' but found a second '=======' \(the first was on line 3\)/);
    assert.match(error.message, /escape it as '\\======='/);
  });

  test('a REPLACE marker with no open block', () => {
    const error = parseError(text('<<<<<<< SEARCH', 'a', '=======', 'b', '>>>>>>> REPLACE', '=======', 'c', '>>>>>>> REPLACE'));
    assert.equal(error.info.block, 2);
    assert.equal(error.info.line, 8);
    assert.equal(
      error.message,
      "Block 2 (line 8): expected '<<<<<<< SEARCH' before '>>>>>>> REPLACE' (a REPLACE marker with no open block)",
    );
  });

  test("errors speak the block's own marker style", () => {
    const error = parseError(text('------- SEARCH', 'a', '=======', 'b'));
    assert.equal(error.info.expected, "'+++++++ REPLACE'");
    const stray = parseError(text('+++++++ REPLACE'));
    assert.equal(stray.info.expected, "'------- SEARCH'");
  });

  test('errors report lines of CRLF input correctly', () => {
    const error = parseError(['<<<<<<< SEARCH', 'a', '>>>>>>> REPLACE', ''].join('\r\n'));
    assert.equal(error.info.line, 3);
  });
});

describe('parseBlocks: line-number prefixes', () => {
  test('`N | code` prefixes are stripped from SEARCH and REPLACE', () => {
    const [block] = parseBlocks(
      text(
        '<<<<<<< SEARCH',
        '12 | function f() {',
        '13 |   return 1;',
        '14 | }',
        '=======',
        '12 | function f() {',
        '  return 2;',
        '14 | }',
        '>>>>>>> REPLACE',
      ),
    );
    assert.equal(block.strippedLineNumbers, true);
    assert.equal(block.search, 'function f() {\n  return 1;\n}');
    assert.equal(block.replace, 'function f() {\n  return 2;\n}');
    assert.equal(block.startLine, 12);
  });

  test('right-aligned numbers and blank numbered lines', () => {
    const [block] = parseBlocks(text('<<<<<<< SEARCH', '  9 | a', ' 10 |', ' 11 |     b', '=======', 'c', '>>>>>>> REPLACE'));
    assert.equal(block.search, 'a\n\n    b');
    assert.equal(block.replace, 'c');
  });

  test('cat -n prefixes are stripped', () => {
    const [block] = parseBlocks(
      text(
        '<<<<<<< SEARCH',
        '    40\tdef f():',
        '    41\t    return 1',
        '',
        '    43\tx = f()',
        '=======',
        '    40\tdef f():',
        '    41\t    return 2',
        '>>>>>>> REPLACE',
      ),
    );
    assert.equal(block.strippedLineNumbers, true);
    assert.equal(block.search, 'def f():\n    return 1\n\nx = f()');
    assert.equal(block.replace, 'def f():\n    return 2');
    assert.equal(block.startLine, 40);
  });

  test('arrow-numbered prefixes are stripped', () => {
    const [block] = parseBlocks(
      text('<<<<<<< SEARCH', '     5→let a = 1;', '     6→let b = 2;', '=======', 'let a = 3;', '>>>>>>> REPLACE'),
    );
    assert.equal(block.search, 'let a = 1;\nlet b = 2;');
    assert.equal(block.strippedLineNumbers, true);
  });

  test('not stripped when only some SEARCH lines carry a number', () => {
    const [block] = parseBlocks(text('<<<<<<< SEARCH', '12 | a', 'b', '14 | c', '=======', '12 | x', '>>>>>>> REPLACE'));
    assert.equal(block.strippedLineNumbers, undefined);
    assert.equal(block.search, '12 | a\nb\n14 | c');
    assert.equal(block.replace, '12 | x');
    assert.equal(block.startLine, undefined);
  });

  test('not stripped when the numbers do not increase', () => {
    const [block] = parseBlocks(text('<<<<<<< SEARCH', '3 | a', '2 | b', '=======', 'x', '>>>>>>> REPLACE'));
    assert.equal(block.strippedLineNumbers, undefined);
    assert.equal(block.search, '3 | a\n2 | b');
  });

  test('not stripped when numbers jump far (data, not a numbered view)', () => {
    const [block] = parseBlocks(text('<<<<<<< SEARCH', '1 | a', '200 | b', '=======', 'x', '>>>>>>> REPLACE'));
    assert.equal(block.strippedLineNumbers, undefined);
  });

  test('not stripped: a Markdown table without a leading bar', () => {
    const [block] = parseBlocks(text('<<<<<<< SEARCH', '1 | Alice | 30', '2 | Bob | 25', '=======', 'x', '>>>>>>> REPLACE'));
    assert.equal(block.strippedLineNumbers, undefined);
    assert.equal(block.search, '1 | Alice | 30\n2 | Bob | 25');
  });

  test('not stripped: tab-separated rows without cat -n padding', () => {
    const [block] = parseBlocks(text('<<<<<<< SEARCH', '1\tAlice', '2\tBob', '=======', 'x', '>>>>>>> REPLACE'));
    assert.equal(block.strippedLineNumbers, undefined);
    assert.equal(block.search, '1\tAlice\n2\tBob');
  });

  test('an explicit :start_line: wins over the prefix numbers', () => {
    const [block] = parseBlocks(text('<<<<<<< SEARCH', ':start_line:30', '12 | a', '13 | b', '=======', 'x', '>>>>>>> REPLACE'));
    assert.equal(block.startLine, 30);
    assert.equal(block.search, 'a\nb');
  });
});

describe('containsBlocks', () => {
  test('detects aider and Cline blocks', () => {
    assert.equal(containsBlocks(text('text', '<<<<<<< SEARCH', 'a', '=======', 'b', '>>>>>>> REPLACE')), true);
    assert.equal(containsBlocks(text('------- SEARCH', 'a', '=======', 'b', '+++++++ REPLACE')), true);
  });

  test('a malformed block still counts (so the user sees its parse error)', () => {
    assert.equal(containsBlocks(text('<<<<<<< SEARCH', 'a', '>>>>>>> REPLACE')), true);
  });

  test('ordinary text and conflict markers do not', () => {
    assert.equal(containsBlocks('just some code\nconst x = 1;\n'), false);
    assert.equal(containsBlocks(text('<<<<<<< HEAD', 'a', '=======', 'b', '>>>>>>> main')), false);
    assert.equal(containsBlocks('The <<<<<<< SEARCH marker starts a block.'), false);
    assert.equal(containsBlocks(text('=======', '<<<<<<< SEARCH', 'only a search')), false);
  });
});
