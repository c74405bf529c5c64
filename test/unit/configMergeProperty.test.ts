// Fast slice of the configuration merge property test (test/property/configMerge.ts); the long run is
// `npm run test:config -- --cases 20000 --seed 1`.

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { CONFIG_FORMATS_UNDER_TEST, runConfigProperty } from '../property/configMerge';

const SEED = 5;
const CASES = 250;

for (const format of CONFIG_FORMATS_UNDER_TEST) {
  test(`config merge ${format.name}: the snippet's edit or a refusal, never a key not shown changed, always parses (${CASES} cases, seed ${SEED})`, () => {
    const summary = runConfigProperty([format], { cases: CASES, seed: SEED, maxFailures: 3 })[format.name];
    const report = summary.failures.map((f) => `seed ${SEED} case ${f.index}: ${f.message}`).join('\n\n');
    assert.equal(summary.failures.length, 0, report);
    assert.ok(summary.merged > CASES * 0.6, `only ${summary.merged} of ${CASES} merged`);
    assert.ok(summary.unchanged > 5, `only ${summary.unchanged} byte-identical no-ops`);
  });
}
