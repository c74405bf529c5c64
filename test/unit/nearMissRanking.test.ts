// The near-miss fixtures (test/fixtures/nearMisses.ts): made from real source text in the shapes of
// real failed model edits; the first candidate must be the intended region in >= 98% of them.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { measure, nearMisses, SHAPES } from '../fixtures/nearMisses';

test('near-miss fixtures: the first candidate is the intended region in >= 98% of cases, every shape covered', () => {
  const cases = nearMisses();
  const figures = measure(cases);
  for (const shape of SHAPES) {
    assert.ok((figures.byShape[shape]?.cases ?? 0) >= 20, `too few fixtures of shape ${shape}`);
  }
  const share = figures.top1 / figures.cases;
  const misses = figures.misses.map((c) => `${c.shape} ${c.source} (want lines ${c.expected.startLine}-${c.expected.endLine})`);
  assert.ok(share >= 0.98, `top-1 ${figures.top1}/${figures.cases} = ${(100 * share).toFixed(1)}%; misses:\n${misses.join('\n')}`);
});
