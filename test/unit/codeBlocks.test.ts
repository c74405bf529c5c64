import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { findCodeBlocks, readInfoString, readSnippetText } from '../../src/core/formats/codeBlocks';

const text = (...lines: string[]): string => lines.join('\n');

const CART_METHOD = ['  total(): number {', '    return this.items.reduce((sum, i) => sum + i.price, 0);', '  }'];

describe('findCodeBlocks: fences', () => {
  test('``` and ~~~ fences of any length, with the code between them', () => {
    const blocks = findCodeBlocks(
      text('Here:', '```ts', ...CART_METHOD, '```', '', '~~~~python', 'def f():', '    return 1', '~~~~', 'done'),
    );
    assert.equal(blocks.length, 2);
    assert.equal(blocks[0].code, CART_METHOD.join('\n'));
    assert.equal(blocks[0].language, 'ts');
    assert.equal(blocks[0].fenceLine, 2);
    assert.equal(blocks[0].closeLine, 6);
    assert.equal(blocks[1].code, 'def f():\n    return 1');
    assert.equal(blocks[1].language, 'python');
  });

  test('a shorter fence inside a longer one is content; a longer closing fence closes', () => {
    const blocks = findCodeBlocks(text('````md', '```ts', 'x();', '```', '`````'));
    assert.equal(blocks.length, 1);
    assert.equal(blocks[0].code, '```ts\nx();\n```');
  });

  test('a fence indented in a list: its indentation is taken off every line, deeper indentation stays', () => {
    const blocks = findCodeBlocks(text('1. Change it:', '   ```js', '   function f() {', '     return 1;', '   }', '   ```'));
    assert.equal(blocks[0].code, 'function f() {\n  return 1;\n}');
  });

  test('CRLF text gives LF code', () => {
    const blocks = findCodeBlocks('```ts\r\nconst a = 1;\r\nconst b = 2;\r\n```\r\n');
    assert.equal(blocks[0].code, 'const a = 1;\nconst b = 2;');
  });

  test('an unclosed fence, an empty block and ```inline``` code are not code blocks', () => {
    assert.deepEqual(findCodeBlocks(text('```ts', '```')), []);
    assert.deepEqual(findCodeBlocks('Use ```x``` here'), []);
    assert.deepEqual(findCodeBlocks(text('```ts', 'const a = 1;')), []);
  });

  test('edit formats are not code blocks: SEARCH/REPLACE, unified diff, apply_patch, a diff-language fence', () => {
    const blocks = findCodeBlocks(
      text(
        '```ts',
        '<<<<<<< SEARCH',
        'a',
        '=======',
        'b',
        '>>>>>>> REPLACE',
        '```',
        '```',
        '--- a/x.ts',
        '+++ b/x.ts',
        '@@ -1 +1 @@',
        '-a',
        '+b',
        '```',
        '```',
        '*** Begin Patch',
        '*** Update File: x.ts',
        '@@',
        '-a',
        '+b',
        '*** End Patch',
        '```',
        '```diff',
        '-a',
        '+b',
        '```',
        '```ts src/keep.ts',
        'export const kept = 1;',
        '```',
      ),
    );
    assert.equal(blocks.length, 1);
    assert.equal(blocks[0].filePath, 'src/keep.ts');
  });
});

describe('findCodeBlocks: the file a block names', () => {
  const cases: [string, string[], string | undefined, string | undefined][] = [
    ['info "ts src/cart.ts"', ['```ts src/cart.ts', 'x();', '```'], 'src/cart.ts', 'ts'],
    ['info "ts:src/cart.ts"', ['```ts:src/cart.ts', 'x();', '```'], 'src/cart.ts', 'ts'],
    ['info "c:src/main.c"', ['```c:src/main.c', 'x();', '```'], 'src/main.c', 'c'],
    ['info "path=src/cart.ts"', ['```path=src/cart.ts', 'x();', '```'], 'src/cart.ts', undefined],
    ['info "python filepath=app/main.py"', ['```python filepath=app/main.py', 'x()', '```'], 'app/main.py', 'python'],
    ['info \'js title="lib/a.js"\'', ['```js title="lib/a.js"', 'x();', '```'], 'lib/a.js', 'js'],
    ['info "src/cart.ts" alone', ['```src/cart.ts', 'x();', '```'], 'src/cart.ts', undefined],
    ['info "cart.ts" alone', ['```cart.ts', 'x();', '```'], 'cart.ts', undefined],
    ['a language only', ['```typescript', 'x();', '```'], undefined, 'typescript'],
    ['no info', ['```', 'x();', '```'], undefined, undefined],
  ];
  for (const [name, lines, path, language] of cases) {
    test(name, () => {
      const [block] = findCodeBlocks(text(...lines));
      assert.equal(block.filePath, path);
      assert.equal(block.language, language);
      assert.equal(block.code, lines[1]);
      if (path !== undefined) {
        assert.equal(block.pathSource, 'info');
      }
    });
  }

  test("Copilot's first line `// filepath: ...` names the file and is not code", () => {
    const [block] = findCodeBlocks(text('```typescript', '// filepath: src/cart.ts', ...CART_METHOD, '```'));
    assert.equal(block.filePath, 'src/cart.ts');
    assert.equal(block.pathSource, 'comment');
    assert.equal(block.code, CART_METHOD.join('\n'));
  });

  for (const [comment, path] of [
    ['# filepath: app/main.py', 'app/main.py'],
    ['-- filepath: db/schema.sql', 'db/schema.sql'],
    ['/* filepath: src/a.css */', 'src/a.css'],
    ['<!-- filepath: docs/index.html -->', 'docs/index.html'],
    ['// filepath: /home/me/project/src/cart.ts', '/home/me/project/src/cart.ts'],
    ['// File: src/cart.ts', 'src/cart.ts'],
  ]) {
    test(`first line ${comment}`, () => {
      const [block] = findCodeBlocks(text('```', comment, 'body();', '```'));
      assert.equal(block.filePath, path);
      assert.equal(block.code, 'body();');
    });
  }

  test('a comment that is not a path stays code', () => {
    const [block] = findCodeBlocks(text('```py', '# file: handles the input', 'x = 1', '```'));
    assert.equal(block.filePath, undefined);
    assert.equal(block.code, '# file: handles the input\nx = 1');
  });

  test("aider's path line just before the fence", () => {
    const [block] = findCodeBlocks(text('Change this:', '', 'src/cart.ts', '```ts', 'x();', '```'));
    assert.equal(block.filePath, 'src/cart.ts');
    assert.equal(block.pathSource, 'line-before');
    assert.equal(block.pathLine, 3);
  });

  test('prose before the fence names no file', () => {
    const [block] = findCodeBlocks(text('Update the cart so the total is right:', '```ts', 'x();', '```'));
    assert.equal(block.filePath, undefined);
  });

  test('the info string wins over a comment and a path line; the comment line is still dropped', () => {
    const [block] = findCodeBlocks(text('src/other.ts', '```ts src/cart.ts', '// filepath: src/third.ts', 'x();', '```'));
    assert.equal(block.filePath, 'src/cart.ts');
    assert.equal(block.code, 'x();');
  });

  test('a closing fence is not a path line for the next block', () => {
    const blocks = findCodeBlocks(text('a.ts', '```', 'a();', '```', '```', 'b();', '```'));
    assert.equal(blocks[0].filePath, 'a.ts');
    assert.equal(blocks[1].filePath, undefined);
  });
});

describe('readInfoString', () => {
  test('language words that look like file names are files; others are languages', () => {
    assert.deepEqual(readInfoString('c++'), { language: 'c++' });
    assert.deepEqual(readInfoString('Makefile'), { filePath: 'Makefile' });
    assert.deepEqual(readInfoString('{.rust}'), { language: 'rust' });
  });
});

describe('readSnippetText', () => {
  test('raw code is the code, trailing blank lines dropped', () => {
    assert.deepEqual(readSnippetText(`${CART_METHOD.join('\n')}\n\n`), { ok: true, code: CART_METHOD.join('\n'), fenced: false });
  });

  test('one fenced block loses its fences and info string', () => {
    assert.deepEqual(readSnippetText(text('', '```ts src/cart.ts', ...CART_METHOD, '```', '')), {
      ok: true,
      code: CART_METHOD.join('\n'),
      language: 'ts',
      filePath: 'src/cart.ts',
      fenced: true,
    });
  });

  test('a path line before the fence names the file', () => {
    const read = readSnippetText(text('src/cart.ts', '```', 'x();', '```'));
    assert.deepEqual(read, { ok: true, code: 'x();', filePath: 'src/cart.ts', fenced: true });
  });

  test('a first line // filepath: names the file in raw code too', () => {
    const read = readSnippetText(text('// filepath: src/cart.ts', 'x();'));
    assert.deepEqual(read, { ok: true, code: 'x();', filePath: 'src/cart.ts', fenced: false });
  });

  test('an unclosed fence is refused, naming the line', () => {
    const read = readSnippetText(text('', '```ts', 'x();'));
    assert.equal(read.ok, false);
    assert.match(!read.ok ? read.message : '', /opened at line 2 \(```ts\) has no closing fence/);
  });

  test('text after the code block is refused, naming the line', () => {
    const read = readSnippetText(text('```ts', 'x();', '```', 'And then:', '```ts', 'y();', '```'));
    assert.equal(read.ok, false);
    assert.match(!read.ok ? read.message : '', /line 4 follows the code block that ends at line 3/);
  });

  test('an edit format is refused with its name', () => {
    const read = readSnippetText(text('<<<<<<< SEARCH', 'a', '=======', 'b', '>>>>>>> REPLACE'));
    assert.deepEqual(read, { ok: false, format: 'search-replace', message: 'the code holds SEARCH/REPLACE blocks, not code' });
    const diff = readSnippetText(text('```diff', '--- a/x', '+++ b/x', '@@ -1 +1 @@', '-a', '+b', '```'));
    assert.equal(diff.ok, false);
    assert.match(!diff.ok ? diff.message : '', /holds a unified diff/);
  });

  test('empty input is refused', () => {
    assert.deepEqual(readSnippetText('  \n\n'), { ok: false, message: 'the code is empty' });
    assert.deepEqual(readSnippetText('```ts\n\n```'), { ok: false, message: 'the code block is empty' });
  });
});
