// Ambiguity as the model sees it: places that differ only in what it cannot see (CR, trailing
// whitespace) are the same text, fuzzy twins are all listed, and line hints must be real lines.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyBlocks } from '../../src/core/engine';
import { BlockParseError, parseBlocks } from '../../src/core/formats/parser';
import { type ApplyOptions, type ApplyResult, type SearchReplaceBlock } from '../../src/core/types';

type BlockInput = Partial<SearchReplaceBlock> & { search: string; replace: string };

function run(doc: string, blocks: BlockInput[], options?: ApplyOptions): ApplyResult {
  return applyBlocks(
    doc,
    blocks.map((b, i) => ({ index: i + 1, sourceLine: 1, ...b })),
    options,
  );
}

const starts = (r: ApplyResult) => r.blocks[0].candidates.map((c) => [c.startLine, c.endLine]);

describe('invisible differences count as the same text', () => {
  test('lines 1-2 CRLF and 4-5 LF holding the same two lines: ambiguous, both listed', () => {
    const doc = 'alpha\r\nbeta\r\nmid\nalpha\nbeta\nend\n';
    const r = run(doc, [{ search: 'alpha\nbeta', replace: 'gamma' }]);
    assert.equal(r.status, 'ambiguous');
    assert.deepEqual(starts(r), [
      [1, 2],
      [4, 5],
    ]);
    assert.match(r.blocks[0].notes.join('\n'), /line 1 differs only in line endings or trailing whitespace/);
    assert.equal(r.content, undefined);
  });

  test('trailing spaces on one copy: ambiguous, both listed', () => {
    const doc = 'alpha  \nbeta\t\nmid\nalpha\nbeta\nend\n';
    const r = run(doc, [{ search: 'alpha\nbeta', replace: 'gamma' }]);
    assert.equal(r.status, 'ambiguous');
    assert.deepEqual(starts(r), [
      [1, 2],
      [4, 5],
    ]);
  });

  test('a line hint still picks one, and the CRLF copy keeps its line endings', () => {
    const doc = 'alpha\r\nbeta\r\nmid\nalpha\nbeta\nend\n';
    const first = run(doc, [{ search: 'alpha\nbeta', replace: 'gamma\ndelta', startLine: 1 }]);
    assert.equal(first.status, 'applied');
    assert.equal(first.content, 'gamma\r\ndelta\r\nmid\nalpha\nbeta\nend\n');
    assert.equal(first.blocks[0].tier, 'line-endings');
    const second = run(doc, [{ search: 'alpha\nbeta', replace: 'gamma', startLine: 4 }]);
    assert.equal(second.status, 'applied');
    assert.equal(second.content, 'alpha\r\nbeta\r\nmid\ngamma\nend\n');
    assert.equal(second.blocks[0].tier, 'exact');
  });

  test('a visible difference is still a different place', () => {
    const doc = 'alpha\r\nbeta!\r\nmid\nalpha\nbeta\nend\n';
    const r = run(doc, [{ search: 'alpha\nbeta', replace: 'gamma' }]);
    assert.equal(r.status, 'applied');
    assert.deepEqual(r.blocks[0].range, { startLine: 4, endLine: 5 });
  });
});

describe('fuzzy twins', () => {
  const twin = [
    'function area(r) {',
    '  const pi = 3.14159;',
    '  const sq = r * r;',
    '  const out = pi * sq;',
    '  log("area", out);',
    '  check(out > 0);',
    '  save(out);',
    '  return out;',
  ];
  const doc = ['// header', ...twin, ...twin, 'function other() {', '  return 42;', '}', ''].join('\n');
  // A line the file does not have, in the middle: 9 SEARCH lines against 8-line twins side by side.
  const nearMiss = [...twin.slice(0, 4), '  trace(out);', ...twin.slice(4)].join('\n');

  test('byte-identical twins (lines 2-9 and 10-17) are both listed', () => {
    const r = run(doc, [{ search: nearMiss, replace: 'x' }], { maxCandidates: 10 });
    assert.equal(r.status, 'not_found');
    assert.deepEqual(starts(r), [
      [2, 9],
      [10, 17],
    ]);
    assert.equal(r.blocks[0].candidates[0].score, r.blocks[0].candidates[1].score);
    assert.match(r.message, /2-9 and 10-17 hold the same text/);
  });

  test('autoApplyAbove refuses when the best has a twin, and says why', () => {
    const r = run(doc, [{ search: nearMiss, replace: 'x' }], { maxCandidates: 10, autoApplyAbove: 0.77 });
    assert.equal(r.status, 'not_found');
    assert.equal(r.content, undefined);
    assert.match(r.blocks[0].notes.join('\n'), /twin with the same text; not applied/);
  });

  test('autoApplyAbove refuses when a rival shares a line with the best and so is not listed', () => {
    const search = [...twin.slice(0, 4), '  trace(out);', ...twin.slice(4, 7), '  const result = out;', twin[7]];
    const r = run(doc, [{ search: search.join('\n'), replace: 'x' }], { autoApplyAbove: 0.7 });
    assert.equal(r.status, 'not_found');
    // Exact-line evidence now finds both twins themselves, so the refusal may name the twin instead.
    assert.match(r.blocks[0].notes.join('\n'), /does not lead the next \(lines \d+-\d+, score|twin with the same text; not applied/);
  });

  test('autoApplyAbove still places a clear winner', () => {
    const single = ['// header', ...twin, 'function other() {', '  return 42;', '}', ''].join('\n');
    const r = run(single, [{ search: nearMiss, replace: 'x' }], { autoApplyAbove: 0.77 });
    assert.equal(r.status, 'applied');
    assert.deepEqual(r.blocks[0].range, { startLine: 2, endLine: 9 });
  });
});

describe('line hints must be lines of the file', () => {
  const doc = 'x = 1\na\nx = 1\nb\n';

  test(':start_line: with more digits than a safe integer is a parse error naming block and line', () => {
    const input = [
      '<<<<<<< SEARCH',
      'x',
      '=======',
      'y',
      '>>>>>>> REPLACE',
      '<<<<<<< SEARCH',
      ':start_line:100000000000000000000000',
      'x',
      '=======',
      'y',
      '>>>>>>> REPLACE',
      '',
    ].join('\n');
    assert.throws(
      () => parseBlocks(input),
      (e: unknown) =>
        e instanceof BlockParseError &&
        e.info.block === 2 &&
        e.info.line === 7 &&
        /Block 2 \(line 7\).*'100000000000000000000000'.*too large/.test(e.message),
    );
  });

  test('a huge numbered-view prefix strips but gives no hint', () => {
    const input = ['<<<<<<< SEARCH', '100000000000000000000000 | x = 1', '=======', 'x = 2', '>>>>>>> REPLACE'].join('\n');
    const [block] = parseBlocks(input);
    assert.equal(block.search, 'x = 1');
    assert.equal(block.startLine, undefined);
  });

  for (const bad of [1e23, 2.5, 0, -3, Number.NaN, Number.POSITIVE_INFINITY]) {
    test(`options.lineHint ${bad} is invalid input, nothing applied`, () => {
      const r = run(doc, [{ search: 'x = 1', replace: 'x = 2' }], { lineHint: bad });
      assert.equal(r.status, 'invalid');
      assert.equal(r.content, undefined);
      assert.match(r.blocks[0].notes[0], /the lineHint option is .*, which is not a line number/);
      assert.doesNotMatch(r.message, /line hint 1e\+23 picked/);
    });
  }

  test('a block hint of 1e23 (from JSON input) is invalid', () => {
    const r = run(doc, [{ search: 'x = 1', replace: 'x = 2', startLine: 1e23 }]);
    assert.equal(r.status, 'invalid');
    assert.match(r.message, /of block 1 is 1e\+23, which is not a line number/);
  });

  test('a hint beyond the last line is stale: SEARCH that occurs once applies, and the note names the file length', () => {
    const once = run(doc, [{ search: 'b', replace: 'B', startLine: 5 }], { fileName: 'a.py' });
    assert.equal(once.status, 'applied');
    assert.equal(once.content, 'x = 1\na\nx = 1\nB\n');
    assert.match(once.message, /line hint 5 is stale: it is beyond the end of a\.py, which has 4 lines; SEARCH occurs once, at line 4/);
    // It picks nothing among several occurrences (it was written for another version of the file).
    const r = run(doc, [{ search: 'x = 1', replace: 'x = 2', startLine: 5 }], { fileName: 'a.py' });
    assert.equal(r.status, 'ambiguous');
    assert.match(r.message, /line hint 5 is stale/);
    const last = run(doc, [{ search: 'x = 1', replace: 'x = 2', startLine: 4 }]);
    assert.equal(last.status, 'applied');
    assert.deepEqual(last.blocks[0].range, { startLine: 3, endLine: 3 });
  });
});
