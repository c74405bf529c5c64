// The engine with placeholders in REPLACE: expanded from the file's own lines, or refused with nothing written.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyBlocks } from '../../src/core/engine';
import type { SearchReplaceBlock } from '../../src/core/types';

function block(search: string, replace: string, extra: Partial<SearchReplaceBlock> = {}): SearchReplaceBlock {
  return { index: 1, search, replace, sourceLine: 1, ...extra };
}

const PY = [
  'import json',
  '',
  '',
  'def load(path):',
  '    with open(path) as f:',
  '        data = json.load(f)',
  '    validate(data)',
  '    return data',
  '',
].join('\n');

const SEARCH = [
  'def load(path):',
  '    with open(path) as f:',
  '        data = json.load(f)',
  '    validate(data)',
  '    return data',
].join('\n');

describe('engine: placeholders in REPLACE', () => {
  test('a new comment about the rest of the data is written as it is, not read as a placeholder', () => {
    const replace = [
      'def load(path):',
      '    with open(path) as f:',
      '        data = json.load(f)',
      '    # handle the rest of the items',
      '    validate(data)',
      '    return data',
    ].join('\n');
    const result = applyBlocks(PY, [block(SEARCH, replace)], { fileName: 'loader.py', languageId: 'python' });
    assert.equal(result.status, 'applied');
    assert.equal(result.content, PY.replace('    validate(data)', '    # handle the rest of the items\n    validate(data)'));
    assert.equal(result.blocks[0].elisions, undefined);
  });

  test("the issue's example keeps the with block and the validation, and says so", () => {
    const result = applyBlocks(PY, [block(SEARCH, 'def load(path, strict=False):\n    # ... existing code ...\n    return data')], {
      fileName: 'loader.py',
      languageId: 'python',
    });
    assert.equal(result.status, 'applied');
    assert.equal(result.content, PY.replace('def load(path):', 'def load(path, strict=False):'));
    assert.deepEqual(result.blocks[0].elisions, [
      { replaceStartLine: 2, replaceEndLine: 2, text: '# ... existing code ...', kept: { startLine: 5, endLine: 7 } },
    ]);
    assert.match(result.message, /REPLACE line 2 `# \.\.\. existing code \.\.\.` kept file lines 5-7/);
  });

  test('the kept lines are the file\u2019s own bytes (CRLF, tabs), even when SEARCH matched after normalising', () => {
    const file = 'def load(path):\r\n\twith open(path) as f:\r\n\t\tdata = json.load(f)\r\n\tvalidate(data)  \r\n\treturn data\r\n';
    const result = applyBlocks(file, [block(SEARCH, 'def load(path, strict=False):\n    # ...\n    return data')], {
      languageId: 'python',
    });
    assert.equal(result.status, 'applied');
    assert.equal(result.content, file.replace('def load(path):', 'def load(path, strict=False):'));
  });

  test('an uncertain placeholder is refused: nothing written, the message names REPLACE line N', () => {
    const result = applyBlocks(PY, [block(SEARCH, 'def load(path):\n    # ... existing code ...\n    log(path)\n    return data')], {
      fileName: 'loader.py',
      languageId: 'python',
    });
    assert.equal(result.status, 'invalid');
    assert.equal(result.content, undefined);
    assert.deepEqual(result.edits, []);
    assert.match(result.message, /REPLACE line 2 `# \.\.\. existing code \.\.\.`/);
    assert.match(result.message, /write those lines out in REPLACE, or split the edit into smaller blocks/);
  });

  test('a placeholder-looking line the file has is text (rule 4): a Python stub body and a `// ...` comment', () => {
    const stub = 'class P(Protocol):\n    def f(self) -> int:\n        ...\n';
    const r1 = applyBlocks(stub, [block('    def f(self) -> int:\n        ...', '    def f(self) -> str:\n        ...')], {
      languageId: 'python',
    });
    assert.equal(r1.status, 'applied');
    assert.equal(r1.content, 'class P(Protocol):\n    def f(self) -> str:\n        ...\n');
    assert.equal(r1.blocks[0].elisions, undefined);
    const js = 'function f() {\n  // ...\n  return 1;\n}\n';
    const r2 = applyBlocks(js, [block('  // ...\n  return 1;', '  // ...\n  return 2;')], { languageId: 'javascript' });
    assert.equal(r2.content, 'function f() {\n  // ...\n  return 2;\n}\n');
  });

  test('in a .pyi stub a bare ... in REPLACE is code and is written', () => {
    const file = 'def f() -> int: ...\n';
    const result = applyBlocks(file, [block('def f() -> int: ...', 'def f() -> int: ...\ndef g() -> str:\n    ...')], {
      fileName: 'm.pyi',
    });
    assert.equal(result.status, 'applied');
    assert.equal(result.content, 'def f() -> int: ...\ndef g() -> str:\n    ...\n');
  });

  test('no placeholder line is written where none stood: an empty file filled with one is refused', () => {
    const result = applyBlocks('', [block('', 'x = 1\n# ... existing code ...')], { languageId: 'python' });
    assert.equal(result.status, 'invalid');
    assert.match(result.message, /SEARCH is empty/);
  });

  test("'#' is no placeholder in C: written as the model's text", () => {
    const file = 'int a;\nint b;\n';
    const result = applyBlocks(file, [block('int a;\nint b;', 'int a;\n#define X 1\nint b;')], { languageId: 'c' });
    assert.equal(result.status, 'applied');
    assert.equal(result.content, 'int a;\n#define X 1\nint b;\n');
  });
});

describe('what was expanded, in the words every way in shows', () => {
  test('outcomeLine (chat, CodeLens, status) names what each placeholder kept', async () => {
    const { outcomeLine } = await import('../../src/core/report/message');
    const result = applyBlocks(PY, [block(SEARCH, 'def load(path, strict=False):\n    # ... existing code ...\n    return data')], {
      languageId: 'python',
    });
    assert.equal(
      outcomeLine(result.blocks[0]),
      'matched exactly at lines 4-8; REPLACE line 2 `# ... existing code ...` kept file lines 5-7',
    );
  });
});
