import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyBlocks } from '../../src/core/engine';
import { TOTAL_FUNCTION } from '../shared/fixtures';
import { type SearchReplaceBlock } from '../../src/core/types';

function blocks(...pairs: [string, string][]): SearchReplaceBlock[] {
  return pairs.map(([search, replace], i) => ({ index: i + 1, sourceLine: 1, search, replace }));
}

const FILE = TOTAL_FUNCTION;

describe('already applied', () => {
  test('REPLACE found once, SEARCH not found: not_found with a note, no candidates, a message not to re-send', () => {
    const r = applyBlocks(FILE, blocks(['    sum += item.price;', '    sum += item.price * item.quantity;']), { fileName: 'cart.ts' });
    assert.equal(r.status, 'not_found');
    const [b] = r.blocks;
    assert.equal(b.status, 'not_found');
    assert.deepEqual(b.alreadyApplied, { startLine: 4, endLine: 4 });
    assert.deepEqual(b.candidates, []);
    assert.ok(b.notes.includes('already applied at line 4'), b.notes.join('|'));
    assert.match(r.message, /already applied at line 4/);
    assert.match(r.message, /Do not re-send this block/);
  });

  test('REPLACE found after normalising indentation and quotes, multi-line: reported at its lines', () => {
    const search = 'let sum = 0;\nfor (const item of items) {\n  sum += item.price;';
    const replace = 'let sum = 0;\nfor (const item of items) {\n  sum += item.price * item.quantity;';
    const r = applyBlocks(FILE, blocks([search, replace]));
    assert.deepEqual(r.blocks[0].alreadyApplied, { startLine: 2, endLine: 4 });
    assert.match(r.message, /already applied at lines 2-4/);
  });

  test('REPLACE that only deletes SEARCH lines proves nothing: ordinary near miss', () => {
    const search = '  let sum = 0;\n  let count = 0;';
    const r = applyBlocks(FILE, blocks([search, '  let sum = 0;']));
    assert.equal(r.blocks[0].alreadyApplied, undefined);
    assert.doesNotMatch(r.message, /already applied/);
  });

  test('REPLACE found at two places is no proof (no hint): ordinary near miss', () => {
    const doc = 'a();\nb();\nnext();\nb();\n';
    const r = applyBlocks(doc, blocks(['x();', 'b();']));
    assert.equal(r.blocks[0].alreadyApplied, undefined);
    const hinted = applyBlocks(doc, [{ ...blocks(['x();', 'b();'])[0], startLine: 4 }]);
    assert.deepEqual(hinted.blocks[0].alreadyApplied, { startLine: 4, endLine: 4 });
  });

  test('SEARCH equal to REPLACE and not found is never "already applied"', () => {
    const r = applyBlocks(FILE, blocks(['  return sum + 1;', '  return sum + 1;']));
    assert.equal(r.blocks[0].alreadyApplied, undefined);
  });

  test('a block that applies still applies when REPLACE is also in the file', () => {
    const doc = 'old();\nnew();\n';
    const r = applyBlocks(doc, blocks(['old();', 'new();']));
    assert.equal(r.status, 'applied');
    assert.equal(r.content, 'new();\nnew();\n');
  });

  test('in a batch: the footer says which block is already applied and to re-send the rest', () => {
    const r = applyBlocks(
      FILE,
      blocks(['  return sum;', '  return Math.round(sum);'], ['    sum += item.price;', '    sum += item.price * item.quantity;']),
      { fileName: 'cart.ts' },
    );
    assert.equal(r.status, 'not_found');
    assert.equal(r.blocks[0].status, 'held_back');
    assert.deepEqual(r.blocks[1].alreadyApplied, { startLine: 4, endLine: 4 });
    assert.match(r.message, /Block 2 of 2: SEARCH text not found in cart\.ts: already applied at line 4/);
    assert.match(r.message, /block 2 is already applied/);
    assert.match(r.message, /Re-send the batch without it/);
  });
});
