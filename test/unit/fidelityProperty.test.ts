// Fast slice of the write-fidelity property test (test/property/fidelity.ts); the long run is
// `npm run test:property -- --cases 100000 --seed 1`.

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { runProperty } from '../property/fidelity';

const SEED = 20240613;
const CASES = 3000;

test(`write fidelity: apply(F, P(region), P(E(region))) === F' and inconsistent SEARCH never applies (${CASES} cases, seed ${SEED})`, () => {
  const summary = runProperty({ cases: CASES, seed: SEED, maxFailures: 5 });
  const report = summary.failures.map((f) => `seed ${SEED} case ${f.index}: ${f.message}`).join('\n\n');
  assert.equal(summary.failures.length, 0, report);
  assert.ok(summary.checked > CASES / 2, `only ${summary.checked} of ${CASES} cases were checkable`);
  for (const property of ['round-trip', 'inconsistent-indent', 'changed-token']) {
    assert.ok((summary.byProperty[property] ?? 0) > 50, property);
  }
});
