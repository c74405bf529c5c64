// A short slice of the engine fuzz run (npm run fuzz is the long one): a fixed seed, a few seconds.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { runFuzz } from '../fuzz/engineFuzz';

test('fuzz slice: parser and applyBlocks keep every invariant (seed 12, up to 3 s)', () => {
  const lines: string[] = [];
  // Slow calls (over 2 s of CPU) are reported by npm run fuzz; here only a runaway (10 s) fails.
  const s = runFuzz({ seed: 12, cases: 2_000, seconds: 3, capMs: 10_000, log: (l) => lines.push(l) });
  assert.ok(s.cases >= 50, `only ${s.cases} cases ran`);
  assert.deepEqual(s.failures, [], lines.join('\n'));
  assert.deepEqual(s.slow, [], 'calls over 10 s of CPU');
});
