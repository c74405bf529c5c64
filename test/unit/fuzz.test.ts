// A short slice of the engine fuzz run (npm run fuzz is the long one): a fixed seed and a fixed number of
// cases, so the same cases run however loaded the machine is (a time limit made the slice shrink, and
// fail, under load).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { runFuzz } from '../fuzz/engineFuzz';

const CASES = 400;

test(`fuzz slice: parser and applyBlocks keep every invariant (seed 12, ${CASES} cases)`, () => {
  const lines: string[] = [];
  // Slow calls (over 2 s of CPU) are reported by npm run fuzz; here only a runaway (10 s) fails. The
  // wall-clock limit is only a guard against a hang.
  const s = runFuzz({ seed: 12, cases: CASES, seconds: 600, capMs: 10_000, log: (l) => lines.push(l) });
  assert.equal(s.cases, CASES);
  assert.deepEqual(s.failures, [], lines.join('\n'));
  assert.deepEqual(s.slow, [], 'calls over 10 s of CPU');
});
