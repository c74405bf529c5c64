// Engine defects found while trying placeholders (issue 19, rule 7); each test failed before its fix.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyBlocks } from '../../src/core/engine';
import type { SearchReplaceBlock } from '../../src/core/types';

function block(search: string, replace: string, extra: Partial<SearchReplaceBlock> = {}): SearchReplaceBlock {
  return { index: 1, search, replace, sourceLine: 1, ...extra };
}

describe('engine defects (issue 19)', () => {
  test('whitespace at the end of a SEARCH line the file lacks does not take a space REPLACE puts inside the line', () => {
    const file = 'x = 1\ntotal = a\ny = 2\n';
    for (const [search, replace, want] of [
      ['total = a ', 'total = a + b', 'total = a + b'],
      ['x = 1\ntotal = a \ny = 2', 'x = 1\ntotal = a + b\ny = 2', 'total = a + b'],
      ['total = a\t', 'total = a\t+ b', 'total = a\t+ b'],
      ['total = a  ', 'total = a  + b', 'total = a  + b'],
    ]) {
      const r = applyBlocks(file, [block(search, replace)]);
      assert.equal(r.status, 'applied');
      assert.equal(r.content, `x = 1\n${want}\ny = 2\n`, JSON.stringify(search));
    }
    // Spacing between tokens SEARCH shares with the file is still the file's.
    const spaced = applyBlocks('f(a,  b)\n', [block('f(a, b)', 'f(a, c)')]);
    assert.equal(spaced.content, 'f(a,  c)\n');
  });

  test('a :start_line: hint past the end of the file applies a SEARCH that occurs once, noting the stale hint', () => {
    const r = applyBlocks('a\nb\nc\n', [block('b', 'B', { startLine: 40 })], { fileName: 'f.txt' });
    assert.equal(r.status, 'applied');
    assert.equal(r.content, 'a\nB\nc\n');
    assert.match(r.message, /line hint 40 is stale: it is beyond the end of f\.txt, which has 3 lines; SEARCH occurs once, at line 2/);
    const option = applyBlocks('a\nb\nc\n', [block('b', 'B')], { lineHint: 9 });
    assert.equal(option.status, 'applied');
  });
});
