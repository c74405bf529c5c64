// One typed verdict per block: every kind the engine can decide, produced by the real engine and read
// back through verdictOf, with the data that kind needs; the message and chat line follow the verdict.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyBlocks } from '../../src/core/engine';
import { choiceNeededLine, outcomeLine } from '../../src/core/report/message';
import { type BlockVerdict, isPlaced, verdictOf, type VerdictKind } from '../../src/core/decide/outcome';
import type { ApplyOptions, ApplyResult } from '../../src/core/types';

function run(doc: string, blocks: Array<{ search: string; replace: string }>, options?: ApplyOptions): ApplyResult {
  return applyBlocks(
    doc,
    blocks.map((b, i) => ({ index: i + 1, sourceLine: 1, ...b })),
    options,
  );
}

function verdicts(r: ApplyResult): BlockVerdict[] {
  return r.blocks.map(verdictOf);
}

const DOC = 'function area(w, h) {\n  return w * h;\n}\n\nfunction perimeter(w, h) {\n  return 2 * (w + h);\n}\n';

describe('block verdicts', () => {
  const seen = new Set<VerdictKind>();
  const check = (v: BlockVerdict, kind: VerdictKind) => {
    assert.equal(v.kind, kind);
    seen.add(kind);
  };

  test('applied: tier, range and score', () => {
    const r = run(DOC, [{ search: '  return w * h;', replace: '  return w * h * 1;' }]);
    const [v] = verdicts(r);
    check(v, 'applied');
    assert.deepEqual(v, { kind: 'applied', tier: 'exact', range: { startLine: 2, endLine: 2 }, score: 1 });
    assert.equal(outcomeLine(r.blocks[0]), 'matched exactly at line 2');
  });

  test('held back: a block that matched while another failed keeps its place, and the batch is not applied', () => {
    const r = run(DOC, [
      { search: '  return w * h;', replace: '  return h * w;' },
      { search: 'function volume(w, h, d) {', replace: 'x' },
    ]);
    assert.equal(r.status, 'not_found');
    const [held] = verdicts(r);
    check(held, 'held-back');
    assert.deepEqual(held, { kind: 'held-back', tier: 'exact', range: { startLine: 2, endLine: 2 }, score: 1 });
    assert.ok(isPlaced(r.blocks[0]) && !isPlaced(r.blocks[1]));
    assert.match(r.message, /Block 1 matched and will apply once it is fixed/);
  });

  test('ambiguous: every occurrence, in file order, with the deciding tier', () => {
    const r = run(DOC, [{ search: '}', replace: '};' }]);
    const [v] = verdicts(r);
    check(v, 'ambiguous');
    assert.ok(v.kind === 'ambiguous');
    assert.deepEqual(
      v.occurrences.map((c) => c.startLine),
      [3, 7],
    );
    assert.equal(v.tier, 'exact');
    assert.match(choiceNeededLine(r.blocks[0], 'a.js') ?? '', /^Block 1 matches 2 places in a\.js \(lines 3-3, 7-7\)/);
  });

  test('already applied: where REPLACE already is', () => {
    const r = run(DOC, [{ search: '  return w + h;', replace: '  return 2 * (w + h);' }]);
    const [v] = verdicts(r);
    check(v, 'already-applied');
    assert.deepEqual(v, { kind: 'already-applied', at: { startLine: 6, endLine: 6 } });
    assert.match(r.message, /already applied at line 6/);
    assert.equal(choiceNeededLine(r.blocks[0], 'a.js'), undefined, 'nothing to choose');
  });

  test('stale: SEARCH quotes lines an earlier block of the batch replaced; their current text is the candidate', () => {
    const r = run(DOC, [
      { search: 'function area(w, h) {\n  return w * h;\n}', replace: 'const area = (w, h) => w * h;' },
      { search: '  return w * h;', replace: '  return h * w;' },
    ]);
    const [first, second] = verdicts(r);
    check(first, 'held-back');
    check(second, 'stale');
    assert.ok(second.kind === 'stale');
    assert.deepEqual(second.replacedBy, [1]);
    assert.equal(second.current[0].text, 'const area = (w, h) => w * h;');
    assert.match(r.message, /block 2 quotes lines that block 1 replaced/);
  });

  test('not found: ranked candidates, or none', () => {
    const near = run(DOC, [{ search: 'function area(w, h) {\n  return w * hh;\n}', replace: 'x' }]);
    const [v] = verdicts(near);
    check(v, 'not-found');
    assert.ok(v.kind === 'not-found' && v.candidates.length > 0 && !v.truncated);
    assert.match(outcomeLine(near.blocks[0]), /^not found, best \d+% at lines 1-3$/);
    const none = run(DOC, [{ search: 'zzzz qqqq', replace: 'x' }]);
    const [w] = verdicts(none);
    assert.ok(w.kind === 'not-found' && w.candidates.length === 0);
    assert.equal(outcomeLine(none.blocks[0]), 'not found, nothing similar in the file');
  });

  test('invalid: the problems, said where they are', () => {
    const r = run(DOC, [{ search: '', replace: 'x' }]);
    const [v] = verdicts(r);
    check(v, 'invalid');
    assert.ok(v.kind === 'invalid');
    assert.match(v.problems[0], /empty SEARCH can only fill an empty file, but the file has \d+ lines/);
    assert.equal(outcomeLine(r.blocks[0]), `invalid: ${v.problems[0]}`);
    // A hint past the end is stale, not invalid: it picks nothing among the two '}', which stay ambiguous.
    const hint = verdictOf(run(DOC, [{ search: '}', replace: '};' }], { lineHint: 99 }).blocks[0]);
    assert.ok(hint.kind === 'ambiguous');
  });

  test('every kind was produced by the engine above', () => {
    const all: VerdictKind[] = ['applied', 'held-back', 'ambiguous', 'already-applied', 'stale', 'not-found', 'invalid'];
    assert.deepEqual([...seen].sort(), [...all].sort());
  });
});
