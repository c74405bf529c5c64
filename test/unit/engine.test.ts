import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyBlocks } from '../../src/core/engine';
import { TOTAL_FUNCTION } from '../shared/fixtures';
import { type ApplyOptions, type ApplyResult, type SearchReplaceBlock } from '../../src/core/types';

type BlockInput = Partial<SearchReplaceBlock> & { search: string; replace: string };

/** applyBlocks, plus the invariant every result must keep: edits turn the original into content. */
function run(doc: string, blocks: BlockInput[], options?: ApplyOptions): ApplyResult {
  const full = blocks.map((b, i) => ({ index: i + 1, sourceLine: 1, ...b }));
  const result = applyBlocks(doc, full, options);
  assert.equal(typeof result.message, 'string');
  assert.ok(result.message.length > 0);
  if (result.status !== 'applied') {
    assert.equal(result.content, undefined);
    assert.deepEqual(result.edits, []);
    return result;
  }
  assert.equal(reconstruct(doc, result), result.content, 'edits applied to the original must give content');
  return result;
}

function reconstruct(doc: string, result: ApplyResult): string {
  let out = '';
  let pos = 0;
  for (const e of result.edits) {
    assert.ok(e.start >= pos && e.end >= e.start && e.end <= doc.length, `edits sorted, non-overlapping: ${JSON.stringify(result.edits)}`);
    out += doc.slice(pos, e.start) + e.newText;
    pos = e.end;
  }
  return out + doc.slice(pos);
}

const lines = (...l: string[]) => l.join('\n');

describe('ambiguity and line hints', () => {
  const doc = lines('start', 'x = 1', 'a', 'b', 'x = 1', 'c', 'x = 1', 'end', '');

  test('every occurrence is listed in file order and nothing is applied', () => {
    const r = run(doc, [{ search: 'x = 1', replace: 'x = 2' }]);
    assert.equal(r.status, 'ambiguous');
    assert.equal(r.blocks[0].status, 'ambiguous');
    assert.equal(r.blocks[0].tier, 'exact');
    assert.deepEqual(
      r.blocks[0].candidates.map((c) => [c.startLine, c.endLine, c.score, c.text]),
      [
        [2, 2, 1, 'x = 1'],
        [5, 5, 1, 'x = 1'],
        [7, 7, 1, 'x = 1'],
      ],
    );
    const c = r.blocks[0].candidates[1];
    assert.equal(doc.slice(c.start, c.end), 'x = 1');
    assert.match(r.message, /3 places/);
  });

  test(':start_line: picks the nearest occurrence when it is unique', () => {
    const r = run(doc, [{ search: 'x = 1', replace: 'x = 2', startLine: 4 }]);
    assert.equal(r.status, 'applied');
    assert.deepEqual(r.blocks[0].range, { startLine: 5, endLine: 5 });
    assert.match(r.blocks[0].notes.join(' '), /line hint 4 picked the one at line 5/);
    assert.equal(r.content, lines('start', 'x = 1', 'a', 'b', 'x = 2', 'c', 'x = 1', 'end', ''));
  });

  test('a hint among hundreds of occurrences names ten of the others and counts the rest', () => {
    const many = Array.from({ length: 200 }, () => 'pass').join('\n') + '\n';
    const r = run(many, [{ search: 'pass', replace: 'return', startLine: 100 }]);
    assert.equal(r.status, 'applied');
    const note = r.blocks[0].notes.join(' ');
    assert.match(note, /others at lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 189 more\)/);
    assert.ok(r.message.length < 1000, `message of ${r.message.length} characters`);
  });

  test('options.lineHint applies to blocks without their own hint', () => {
    const r = run(doc, [{ search: 'x = 1', replace: 'x = 2' }], { lineHint: 7 });
    assert.deepEqual(r.blocks[0].range, { startLine: 7, endLine: 7 });
  });

  test('a block hint beats options.lineHint', () => {
    const r = run(doc, [{ search: 'x = 1', replace: 'x = 2', startLine: 2 }], { lineHint: 7 });
    assert.deepEqual(r.blocks[0].range, { startLine: 2, endLine: 2 });
  });

  test('a hint equally far from the two nearest occurrences stays ambiguous', () => {
    // Occurrences at lines 2, 5 and 7; line 6 is 1 away from both 5 and 7.
    const r = run(doc, [{ search: 'x = 1', replace: 'x = 2', startLine: 6 }]);
    assert.equal(r.status, 'ambiguous');
    assert.equal(r.blocks[0].candidates.length, 3);
    assert.match(r.blocks[0].notes.join(' '), /did not pick/);
  });

  test('a hint outside lineHintWindow of every occurrence does not pick', () => {
    // (A hint past the end of the file is invalid input, so the hint stays inside the 8 lines.)
    const r = run(doc, [{ search: 'x = 1', replace: 'x = 2', startLine: 8 }], { lineHintWindow: 0 });
    assert.equal(r.status, 'ambiguous');
    const r2 = run(doc, [{ search: 'x = 1', replace: 'x = 2', startLine: 8 }], { lineHintWindow: 1 });
    assert.deepEqual(r2.blocks[0].range, { startLine: 7, endLine: 7 });
  });

  test('ambiguity at a normalising tier lists the re-indented occurrences', () => {
    const r = run(lines('  if (a) {', '    go();', '  }', '\tif (a) {', '\t\tgo();', '\t}'), [
      { search: 'if (a) {\n  go();\n}', replace: 'if (a) {\n  stop();\n}' },
    ]);
    assert.equal(r.status, 'ambiguous');
    assert.equal(r.blocks[0].tier, 'indentation');
    assert.deepEqual(
      r.blocks[0].candidates.map((c) => [c.startLine, c.endLine]),
      [
        [1, 3],
        [4, 6],
      ],
    );
  });
});

describe('partial-line near misses', () => {
  test('a truncated last line is not a match; the whole lines are the candidate', () => {
    const doc = lines('function f() {', '  const total = items.reduce((a, b) => a + b, 0);', '  return total;', '}');
    const r = run(doc, [{ search: 'function f() {\n  const total = items.reduce(', replace: 'x' }]);
    assert.equal(r.status, 'not_found');
    const c = r.blocks[0].candidates[0];
    assert.deepEqual([c.startLine, c.endLine], [1, 2]);
    assert.equal(c.text, 'function f() {\n  const total = items.reduce((a, b) => a + b, 0);');
    assert.equal(c.note, 'matched only part of line 2');
    assert.ok(c.score > 0.5 && c.score < 1);
  });

  test('a dropped period in Markdown prose', () => {
    const doc = lines('# Title', '', 'This is the first sentence.', 'Second line.');
    const r = run(doc, [{ search: 'This is the first sentence', replace: 'This is the only sentence' }], {
      languageId: 'markdown',
    });
    assert.equal(r.status, 'not_found');
    assert.equal(r.blocks[0].candidates[0].note, 'matched only part of line 3');
    assert.equal(r.blocks[0].candidates[0].text, 'This is the first sentence.');
  });

  test('a lone identifier that occurs inside several lines', () => {
    const doc = lines('let counter = 0;', 'counter += 1;', 'print(counter);', 'other();');
    const r = run(doc, [{ search: 'counter', replace: 'count' }]);
    assert.equal(r.status, 'not_found');
    assert.deepEqual(
      r.blocks[0].candidates.map((c) => [c.startLine, c.note]),
      [
        [1, 'matched only part of line 1'],
        [2, 'matched only part of line 2'],
        [3, 'matched only part of line 3'],
      ],
    );
  });

  test('a SEARCH starting mid-line', () => {
    const doc = lines('x = compute(a,', '            b)', 'y = 2');
    const r = run(doc, [{ search: 'compute(a,\n            b)', replace: 'z' }]);
    assert.equal(r.status, 'not_found');
    assert.equal(r.blocks[0].candidates[0].note, 'matched only part of line 1');
    assert.deepEqual([r.blocks[0].candidates[0].startLine, r.blocks[0].candidates[0].endLine], [1, 2]);
  });
});

describe('empty SEARCH', () => {
  test('fills an empty file', () => {
    const r = run('', [{ search: '', replace: 'package main\n\nfunc main() {}' }]);
    assert.equal(r.status, 'applied');
    assert.equal(r.content, 'package main\n\nfunc main() {}\n');
  });

  test('replaces a whitespace-only file, keeping its CRLF line endings', () => {
    const r = run('\r\n  \r\n', [{ search: '', replace: 'a\nb' }]);
    assert.equal(r.status, 'applied');
    assert.equal(r.content, 'a\r\nb\r\n');
  });

  test('is invalid on a non-empty file, with a note saying why', () => {
    const r = run('content\n', [{ search: '', replace: 'x' }], { fileName: 'src/a.ts' });
    assert.equal(r.status, 'invalid');
    assert.equal(r.blocks[0].status, 'invalid');
    assert.match(r.blocks[0].notes[0], /empty SEARCH can only fill an empty file, but src\/a\.ts has 2 lines/);
    assert.match(r.message, /src\/a\.ts/);
  });
});

describe('normalised matches with autoApplyNormalized=false', () => {
  test('are offered as a candidate (score 1) instead of applied', () => {
    const doc = lines('\tif x {', '\t\treturn', '\t}');
    const r = run(doc, [{ search: 'if x {\n    return\n}', replace: 'y' }], { autoApplyNormalized: false });
    assert.equal(r.status, 'not_found');
    const c = r.blocks[0].candidates;
    assert.equal(c.length, 1);
    assert.deepEqual([c[0].startLine, c[0].endLine, c[0].score], [1, 3, 1]);
    assert.match(c[0].note ?? '', /indentation/);
  });

  test('exact matches still apply', () => {
    const r = run('a\nb\n', [{ search: 'a', replace: 'A' }], { autoApplyNormalized: false });
    assert.equal(r.status, 'applied');
  });
});

describe('fuzzy (tier 10)', () => {
  const doc = lines(TOTAL_FUNCTION, 'export function count(items: Item[]): number {', '  return items.length;', '}');
  const typo = lines('  for (const item of items) {', '    sum += item.price * item.quantty;', '  }');
  const replace = lines('  for (const item of items) {', '    sum += item.price * item.quantity * (1 - item.discount);', '  }');

  test('never applies by default: ranked candidates with score and range', () => {
    const r = run(doc, [{ search: typo, replace }]);
    assert.equal(r.status, 'not_found');
    const best = r.blocks[0].candidates[0];
    assert.deepEqual([best.startLine, best.endLine], [3, 5]);
    assert.ok(best.score > 0.9 && best.score < 1, `score ${best.score}`);
    assert.ok(r.blocks[0].candidates.length <= 3);
    assert.match(r.message, /lines 3-5/);
  });

  test('maxCandidates limits the list', () => {
    const r = run(doc, [{ search: typo, replace }], { maxCandidates: 1 });
    assert.equal(r.blocks[0].candidates.length, 1);
  });

  test('autoApplyAbove places a clear winner above the threshold', () => {
    const r = run(doc, [{ search: typo, replace }], { autoApplyAbove: 0.85 });
    assert.equal(r.status, 'applied');
    assert.equal(r.blocks[0].tier, 'fuzzy');
    assert.deepEqual(r.blocks[0].range, { startLine: 3, endLine: 5 });
    assert.ok((r.blocks[0].score ?? 0) >= 0.85);
    assert.match(r.content ?? '', /item\.quantity \* \(1 - item\.discount\)/);
  });

  test('autoApplyAbove does not place below the threshold', () => {
    const r = run(doc, [{ search: typo, replace }], { autoApplyAbove: 0.999 });
    assert.equal(r.status, 'not_found');
    assert.match(r.blocks[0].notes.join(' '), /below autoApplyAbove/);
  });

  test('autoApplyAbove does not place when two regions score about the same', () => {
    const twin = lines('a = compute(1, 2)', 'b = 0', 'a = compute(1, 2)', 'b = 0');
    const r = run(twin, [{ search: 'a = compute(1, 3)', replace: 'a = compute(1, 4)' }], { autoApplyAbove: 0.5 });
    assert.equal(r.status, 'not_found');
    assert.ok(r.blocks[0].candidates.length >= 2);
  });

  test('nothing similar: no candidates, not_found', () => {
    const r = run(doc, [{ search: 'zzzz qqqq wwww', replace: 'x' }]);
    assert.equal(r.status, 'not_found');
    assert.deepEqual(r.blocks[0].candidates, []);
  });
});

describe('batches', () => {
  const doc = lines('one', 'two', 'three', 'four', 'five', '');

  test('blocks apply in order, each against the text the earlier ones left', () => {
    const r = run(doc, [
      { search: 'two', replace: 'two\ntwo-b' },
      { search: 'two-b\nthree', replace: 'THREE' },
    ]);
    assert.equal(r.status, 'applied');
    assert.equal(r.content, lines('one', 'two', 'THREE', 'four', 'five', ''));
    // Block 2's range is in ORIGINAL coordinates: it covers what was line 3 (and block 1's region).
    assert.deepEqual(r.blocks[1].range, { startLine: 2, endLine: 3 });
  });

  test('ranges are reported in original coordinates after earlier blocks change the line count', () => {
    const r = run(doc, [
      { search: 'one', replace: 'zero\nhalf\none' },
      { search: 'four', replace: 'FOUR' },
    ]);
    assert.deepEqual(r.blocks[0].range, { startLine: 1, endLine: 1 });
    assert.deepEqual(r.blocks[1].range, { startLine: 4, endLine: 4 });
    assert.equal(r.content, lines('zero', 'half', 'one', 'two', 'three', 'FOUR', 'five', ''));
    assert.equal(r.edits.length, 2);
  });

  test('atomic: a failing block stops the batch; earlier and later good blocks are held back', () => {
    const r = run(doc, [
      { search: 'one', replace: 'ONE' },
      { search: 'missing line here', replace: 'x' },
      { search: 'five', replace: 'FIVE' },
    ]);
    assert.equal(r.status, 'not_found');
    assert.deepEqual(
      r.blocks.map((b) => b.status),
      ['held_back', 'not_found', 'held_back'],
    );
    assert.deepEqual(r.blocks[2].range, { startLine: 5, endLine: 5 });
    assert.equal(r.content, undefined);
    assert.deepEqual(r.edits, []);
    assert.match(r.message, /block 2/i);
  });

  test("the batch status is the first failure's", () => {
    const r = run(lines('x', 'x', 'y'), [
      { search: 'x', replace: 'z' },
      { search: 'nope nope', replace: 'w' },
    ]);
    assert.equal(r.status, 'ambiguous');
    assert.deepEqual(
      r.blocks.map((b) => b.status),
      ['ambiguous', 'not_found'],
    );
  });

  test('a later block is evaluated after a failure, against the text left by the blocks that placed', () => {
    const r = run(doc, [
      { search: 'one', replace: 'uno' },
      { search: 'absent', replace: 'x' },
      { search: 'uno\ntwo', replace: 'y' },
    ]);
    assert.deepEqual(
      r.blocks.map((b) => b.status),
      ['held_back', 'not_found', 'held_back'],
    );
  });

  test('stale anchor: block 2 quotes lines that block 1 replaced', () => {
    const r = run(doc, [
      { search: 'two\nthree', replace: 'TWO\nTHREE' },
      { search: 'three\nfour', replace: 'x' },
    ]);
    assert.equal(r.status, 'not_found');
    const b2 = r.blocks[1];
    assert.ok(b2.notes.includes('block 2 quotes lines that block 1 replaced'), JSON.stringify(b2.notes));
    assert.equal(b2.candidates.length, 1);
    // The current text of that region (after block 1), in original line numbers.
    assert.equal(b2.candidates[0].text, 'TWO\nTHREE\nfour');
    assert.deepEqual([b2.candidates[0].startLine, b2.candidates[0].endLine], [2, 4]);
    assert.equal(r.blocks[0].status, 'held_back');
  });

  test('blocks whose regions overlap give one merged edit; separate regions give sorted edits', () => {
    // Block 2 rewrites a line block 1 wrote: one region of the original, one edit.
    const merged = run(doc, [
      { search: 'two', replace: 'two\n2.5' },
      { search: '2.5\nthree', replace: 'THREE' },
    ]);
    assert.equal(merged.edits.length, 1);
    assert.equal(merged.content, lines('one', 'two', 'THREE', 'four', 'five', ''));
    // Adjacent lines: two edits that neither overlap nor touch (the line break between stays).
    const near = run(doc, [
      { search: 'two', replace: '2' },
      { search: 'three', replace: '3' },
    ]);
    assert.deepEqual(near.edits, [
      { start: 4, end: 7, newText: '2' },
      { start: 8, end: 13, newText: '3' },
    ]);
    const far = run(doc, [
      { search: 'five', replace: '5' },
      { search: 'one', replace: '1' },
    ]);
    assert.equal(far.edits.length, 2);
    assert.ok(far.edits[0].start < far.edits[1].start);
  });

  test('edits are minimal: unchanged lines inside a block are not part of the edit', () => {
    const r = run(doc, [{ search: 'two\nthree\nfour', replace: 'two\n3\nfour' }]);
    assert.deepEqual(r.edits, [{ start: 8, end: 14, newText: '3\n' }]);
  });

  test('a block whose SEARCH equals its REPLACE is refused as invalid, and the batch applies nothing', () => {
    const r = run(doc, [
      { search: 'one', replace: 'ONE' },
      { search: 'two', replace: 'two' },
    ]);
    assert.equal(r.status, 'invalid');
    assert.equal(r.blocks[1].status, 'invalid');
    assert.match(r.blocks[1].notes.join(' '), /SEARCH and REPLACE are identical/);
    assert.deepEqual(r.edits, []);
    assert.equal(r.content, undefined);
  });

  test('a block that changes only whitespace is an edit, not an identical block', () => {
    const r = run(doc, [{ search: 'two', replace: '  two' }]);
    assert.equal(r.status, 'applied');
    assert.equal(r.content, doc.replace('two', '  two'));
  });
});

describe('deleting lines (empty REPLACE)', () => {
  test('in the middle: the lines and their line breaks go', () => {
    const r = run('a\nb\nc\n', [{ search: 'b', replace: '' }]);
    assert.equal(r.content, 'a\nc\n');
  });

  test('the last line of a file without a final newline: no newline is left dangling', () => {
    const r = run('a\nb\nc', [{ search: 'c', replace: '' }]);
    assert.equal(r.content, 'a\nb');
  });

  test('everything', () => {
    const r = run('a\nb', [{ search: 'a\nb', replace: '' }]);
    assert.equal(r.content, '');
  });

  test('CRLF lines', () => {
    const r = run('a\r\nb\r\nc\r\n', [{ search: 'a\nb', replace: '' }]);
    assert.equal(r.content, 'c\r\n');
  });
});

describe('choices', () => {
  test('a choice picks one occurrence of an ambiguous block, keeping its tier', () => {
    const doc = lines('x = 1', 'y', 'x = 1');
    const r = run(doc, [{ search: 'x = 1', replace: 'x = 2' }], { choices: { 1: { startLine: 3, endLine: 3 } } });
    assert.equal(r.status, 'applied');
    assert.equal(r.blocks[0].tier, 'exact');
    assert.equal(r.content, lines('x = 1', 'y', 'x = 2'));
    assert.match(r.blocks[0].notes.join(' '), /as chosen/);
  });

  test('a choice places a not-found block on a fuzzy candidate, REPLACE re-indented to those lines', () => {
    const doc = lines('func f() {', '\tif ok {', '\t\tcallIt(1)', '\t}', '}');
    const search = lines('if ok {', '    callIt(2)', '}');
    const first = run(doc, [{ search, replace: 'if ok {\n    callIt(3)\n    more()\n}' }]);
    assert.equal(first.status, 'not_found');
    const cand = first.blocks[0].candidates[0];
    assert.deepEqual([cand.startLine, cand.endLine], [2, 4]);
    const r = run(doc, [{ search, replace: 'if ok {\n    callIt(3)\n    more()\n}' }], {
      choices: { 1: { startLine: cand.startLine, endLine: cand.endLine } },
    });
    assert.equal(r.status, 'applied');
    assert.equal(r.blocks[0].tier, 'fuzzy');
    assert.equal(r.content, lines('func f() {', '\tif ok {', '\t\tcallIt(3)', '\t\tmore()', '\t}', '}'));
  });

  test('choices are original coordinates even after an earlier block changed the line count', () => {
    const doc = lines('head', 'a', 'b', 'target old', 'tail');
    const r = run(
      doc,
      [
        { search: 'head', replace: 'head\nextra 1\nextra 2' },
        { search: 'target 0ld', replace: 'target new' },
      ],
      { choices: { 2: { startLine: 4, endLine: 4 } } },
    );
    assert.equal(r.status, 'applied');
    assert.deepEqual(r.blocks[1].range, { startLine: 4, endLine: 4 });
    assert.equal(r.content, lines('head', 'extra 1', 'extra 2', 'a', 'b', 'target new', 'tail'));
  });

  test('a choice outside the file is invalid', () => {
    const r = run('a\nb', [{ search: 'a', replace: 'x' }], { choices: { 1: { startLine: 2, endLine: 9 } } });
    assert.equal(r.status, 'invalid');
    assert.match(r.blocks[0].notes[0], /lines 2-9.*lines 1-2/);
  });
});

describe('messages', () => {
  test('the message names the file and, on success, the normalisation', () => {
    const r = run('\tx := 1\n', [{ search: '    x := 1', replace: '    x := 2' }], { fileName: 'main.go' });
    assert.equal(r.status, 'applied');
    assert.match(r.message, /main\.go/);
    assert.match(r.message, /indentation/);
  });
});

describe('batches on random documents (edits always reconstruct content)', () => {
  test('random multi-block batches agree with a naive sequential application', () => {
    let seed = 99;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let iter = 0; iter < 200; iter++) {
      const n = 3 + Math.floor(rnd() * 12);
      const docLines = Array.from({ length: n }, (_, i) => `line ${i} ${iter}`);
      const eol = rnd() < 0.3 ? '\r\n' : '\n';
      const finalNl = rnd() < 0.7;
      const doc = docLines.join(eol) + (finalNl ? eol : '');
      let current = docLines.slice();
      const blocks: BlockInput[] = [];
      const count = 1 + Math.floor(rnd() * 3);
      for (let b = 0; b < count && current.length > 0; b++) {
        const s = Math.floor(rnd() * current.length);
        const len = 1 + Math.floor(rnd() * Math.min(3, current.length - s));
        const removed = current.slice(s, s + len);
        const kind = rnd();
        const added = kind < 0.2 ? [] : kind < 0.6 ? [`new ${iter}.${b}`, ...removed.slice(1)] : [...removed, `added ${iter}.${b}`];
        blocks.push({ search: removed.join('\n'), replace: added.join('\n') });
        current = [...current.slice(0, s), ...added, ...current.slice(s + len)];
      }
      const r = run(doc, blocks);
      assert.equal(r.status, 'applied', JSON.stringify({ doc, blocks }));
      const expectedBody = current.join(eol);
      const expected = current.length === 0 ? '' : finalNl ? expectedBody + eol : expectedBody;
      assert.equal(r.content, expected, JSON.stringify({ doc, blocks }));
    }
  });
});
