// Fast slice of the placeholder property test (test/property/elisions.ts); the long run is
// `npm run test:elisions -- --cases 100000 --seed 1`.

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { runElisionProperty } from '../property/elisions';

const SEED = 19;
const CASES = 600;

test(`placeholders: applied as the fully written edit, or refused with nothing written (${CASES} cases, seed ${SEED})`, () => {
  const summary = runElisionProperty({ cases: CASES, seed: SEED, maxFailures: 5 });
  const report = summary.failures.map((f) => `seed ${SEED} case ${f.index}: ${f.message}`).join('\n\n');
  assert.equal(summary.failures.length, 0, report);
  // Both sides are exercised: most placeholders expand, some are refused.
  assert.ok(summary.certain > CASES / 2, `only ${summary.certain} of ${CASES} cases applied`);
  assert.ok(summary.refused > 5, `only ${summary.refused} refused`);
});
