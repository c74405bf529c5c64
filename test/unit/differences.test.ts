import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyBlocks } from '../../src/core/engine';
import { describeDifferences } from '../../src/core/report/lineDiff';

describe('what differs, per candidate', () => {
  test('changed, missing and extra lines, numbered in SEARCH and in the file', () => {
    const search = '// compute the total\n  let sum = 0;\n  sum += xx;\n  return sum;';
    const region = { startLine: 4, text: '  let sum = 0;\n  sum += x;\n  // note\n  return sum;' };
    assert.deepEqual(describeDifferences(search, region), [
      'SEARCH line 1 is not in the file here',
      '- SEARCH line 3: sum += xx;',
      '+ file line 5: sum += x;',
      'file line 6 is not in SEARCH',
    ]);
  });

  test('indentation and spacing are not differences; blank lines are not reported', () => {
    assert.deepEqual(describeDifferences('a(1,  2);\n\nb();', { startLine: 1, text: '    a(1, 2);\n    b();' }), []);
  });

  test('at most 8 lines, then a count of the rest', () => {
    const search = Array.from({ length: 12 }, (_, i) => `line${i} = ${i};`).join('\n');
    const text = Array.from({ length: 12 }, (_, i) => `line${i} = ${i + 100};`).join('\n');
    const d = describeDifferences(search, { startLine: 1, text });
    assert.equal(d.length, 9);
    assert.match(d[8], /^… and 16 more difference lines$/);
  });

  test('the message shows the differences under each candidate and keeps the candidate text and the closing instruction', () => {
    const doc = 'function f() {\n  const a = 1;\n  const b = 2;\n  return a + b;\n}\n';
    const r = applyBlocks(doc, [
      { index: 1, sourceLine: 1, search: 'function f() {\n  const a = 1;\n  const b = 3;\n  return a + b;\n}', replace: 'x' },
    ]);
    assert.equal(r.status, 'not_found');
    assert.deepEqual(r.blocks[0].candidates[0].differences, ['- SEARCH line 3: const b = 3;', '+ file line 3: const b = 2;']);
    assert.match(
      r.message,
      / {6}const b = 2;\n {6}return a \+ b;\n {4}\}\n {4}What differs from SEARCH:\n {6}- SEARCH line 3: const b = 3;\n {6}\+ file line 3: const b = 2;/,
    );
    assert.match(r.message, /Re-emit SEARCH copied exactly from the lines above/);
  });

  test('a huge line is quoted cut, with a note, and the message stays small', () => {
    const long = 'var x = [' + '1,'.repeat(150_000) + '];';
    const doc = `${long}\nvar y = 2;\n`;
    const r = applyBlocks(doc, [{ index: 1, sourceLine: 1, search: `${long.slice(0, -2)}0];\nvar y = 2;`, replace: 'x' }]);
    assert.equal(r.status, 'not_found');
    assert.ok(r.blocks[0].candidates.length > 0);
    assert.ok(r.message.length < 10_000, `message length ${r.message.length}`);
    assert.match(r.message, /line cut: 300011 characters in all/);
  });
});
