// Engine defects found while trying placeholders (issue 19, rule 7); each test failed before its fix.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyBlocks } from '../../src/core/engine';
import { findFuzzyCandidates } from '../../src/core/match/fuzzy/search';
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

  test('a near miss for a region the file has grown lines inside spans from the line matching SEARCH first line to its last', () => {
    for (let extra = 3; extra <= 6; extra++) {
      for (const at of [3, 5]) {
        const grown = [...SUMMARIZE.slice(0, at), ...GROWN_LINES.slice(0, extra), ...SUMMARIZE.slice(at)];
        grown[1] = '  const totals = new Map(); // by customer'; // not exact: a near miss
        const doc = [...BEFORE, ...grown, ...AFTER];
        const where = `${extra} lines grown after line ${at}`;
        for (const everyRival of [false, true]) {
          const r = findFuzzyCandidates(doc, SUMMARIZE, { maxCandidates: 3, minScore: 0.3, everyRival });
          const best = r.windows[0];
          assert.deepEqual(
            { start: best.start, end: best.end },
            { start: BEFORE.length, end: BEFORE.length + grown.length },
            `${where}: ${JSON.stringify(r.windows)}`,
          );
          // The halves of the region are not listed beside it.
          assert.ok(
            r.windows.slice(1).every((w) => w.end <= best.start || w.start >= best.end),
            where,
          );
          // Flagged when the span is what found it (a gap of up to a quarter of SEARCH the evidence bridges itself).
          assert.ok(best.grown === undefined ? extra <= 3 : best.grown === extra, `${where}: grown ${best.grown}`);
        }
        // Through the engine: the candidate covers the whole region and says what SEARCH lacks.
        const text = doc.join('\n');
        const edit = block(SUMMARIZE.join('\n'), SUMMARIZE.join('\n').replace('summarize', 'summarise'));
        const r = applyBlocks(text, [edit], { fileName: 'sum.js' });
        assert.equal(r.status, 'not_found', where);
        assert.equal(r.content, undefined, 'nothing written');
        const c = r.blocks[0].candidates[0];
        assert.deepEqual([c.startLine, c.endLine], [BEFORE.length + 1, BEFORE.length + grown.length], where);
        if (extra > 3) {
          assert.match(r.message, new RegExp(`the file has ${extra} lines here that SEARCH lacks`));
          // A region found this way is never placed without the user, whatever autoApplyAbove says.
          const auto = applyBlocks(text, [edit], { fileName: 'sum.js', autoApplyAbove: 0.3 });
          assert.equal(auto.status, 'not_found', where);
          assert.match(
            auto.message,
            new RegExp(`the file has grown ${extra} lines inside the best fuzzy candidate since SEARCH was written; not applied`),
          );
        }
      }
    }
  });
});

const SUMMARIZE = [
  'function summarize(orders) {',
  '  const totals = new Map();',
  '  for (const order of orders) {',
  '    const key = order.customer.id;',
  '    totals.set(key, (totals.get(key) ?? 0) + order.amount);',
  '  }',
  '  const rows = [...totals].sort((a, b) => b[1] - a[1]);',
  '  return rows.map(([id, total]) => `${id}: ${total}`);',
  '}',
];
const GROWN_LINES = [
  '    if (order.cancelled) {',
  '      continue;',
  '    }',
  "    audit.note('summarized', order.id);",
  '    counter.increment();',
  '    logger.trace(order);',
];
const BEFORE = ["import { audit } from './audit';", '', 'export const LIMIT = 10;', ''];
const AFTER = ['', 'export function other() {', '  return 1;', '}', ''];
