// Placeholders in both halves (aider's style): SEARCH's pieces found in order, the lines between kept.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyBlocks } from '../../src/core/engine';
import { splitAtPlaceholders } from '../../src/core/decide/elidedSearch';

const FILE = [
  'class Store:',
  '    def __init__(self):',
  '        self.items = []',
  '        self.log = []',
  '',
  '    def add(self, item):',
  '        self.items.append(item)',
  '        return item',
  '',
  '    def clear(self):',
  '        self.items = []',
  '',
].join('\n');

function run(search: string, replace: string, fileName = 's.py') {
  return applyBlocks(FILE, [{ index: 1, sourceLine: 1, search, replace }], { fileName });
}

describe('placeholders in SEARCH and REPLACE', () => {
  test('splitAtPlaceholders: pieces between runs', () => {
    assert.deepEqual(splitAtPlaceholders(['a', '...', 'b', '# ...', '// ...', 'c'], {}).pieces, [
      [0, 1],
      [2, 3],
      [5, 6],
    ]);
  });

  test('pieces are found in order, the file lines between them kept, REPLACE pieces replace SEARCH pieces', () => {
    const r = run(
      'class Store:\n...\n        self.items.append(item)\n        return item',
      'class Store:\n...\n        self.items.append(item)\n        self.log.append(item)\n        return item',
    );
    assert.equal(r.status, 'applied');
    assert.equal(r.content, FILE.replace('        return item', '        self.log.append(item)\n        return item'));
    assert.deepEqual(r.blocks[0].elisions, [{ replaceStartLine: 2, replaceEndLine: 2, text: '...', kept: { startLine: 2, endLine: 6 } }]);
    assert.match(r.message, /REPLACE line 2 `\.\.\.` kept file lines 2-6/);
  });

  test('each piece must be unique after the previous one: the second `self.items = []` is, the first is not', () => {
    const after = run(
      '    def add(self, item):\n# ...\n        self.items = []',
      '    def add(self, item):\n# ...\n        self.items = list()',
    );
    assert.equal(after.status, 'applied');
    assert.ok(after.content!.endsWith('    def clear(self):\n        self.items = list()\n'));
    const first = run('...\n        self.items = []', '...\n        self.items = list()');
    assert.equal(first.status, 'ambiguous');
    assert.match(first.message, /SEARCH line 2 \(between SEARCH's placeholders\) occur 2 times/);
  });

  test('placeholder counts must pair', () => {
    const r = run('class Store:\n...\n        return item', 'class Store2:\n        return item');
    assert.equal(r.status, 'invalid');
    assert.match(r.message, /SEARCH has 1 placeholder \(SEARCH line 2 `\.\.\.`\) and REPLACE has 0 placeholders; .* counts must be equal/);
  });

  test('REPLACE lines where SEARCH has none are refused', () => {
    const r = run('...\n        self.log = []', 'x = 1\n...\n        self.log = None');
    assert.equal(r.status, 'invalid');
    assert.match(r.message, /REPLACE line 1 stands where SEARCH has no lines \(before its first placeholder\)/);
  });

  test('blank lines after the last placeholder name no place: changing them is refused (found by the property test)', () => {
    const r = run('    def clear(self):\n...\n\n', '    def clear(self):\n...\n');
    assert.equal(r.status, 'invalid');
    assert.match(r.message, /REPLACE changes the blank lines SEARCH has after its last placeholder/);
  });

  test('a piece not found after the previous one: not found, nothing written', () => {
    const r = run('    def clear(self):\n...\n    def add(self, item):', '    def clear(self):\n...\n    def put(self, item):');
    assert.equal(r.status, 'not_found');
    assert.equal(r.content, undefined);
    assert.match(r.message, /SEARCH line 3 \(between SEARCH's placeholders\) is not in s\.py after file line 10/);
  });

  test('rule 4: where the file has the placeholder-looking line, SEARCH is text', () => {
    const stub = 'class P(Protocol):\n    def f(self) -> int:\n        ...\n    def g(self) -> int:\n        ...\n';
    const r = applyBlocks(
      stub,
      [{ index: 1, sourceLine: 1, search: '    def g(self) -> int:\n        ...', replace: '    def g(self) -> str:\n        ...' }],
      {
        fileName: 'p.py',
      },
    );
    assert.equal(r.status, 'applied');
    assert.equal(r.content, stub.replace('g(self) -> int', 'g(self) -> str'));
    assert.equal(r.blocks[0].elisions, undefined);
  });
});
