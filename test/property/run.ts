// `npm run test:property -- --cases N --seed S`: the long run of the write-fidelity property test
// (test/property/fidelity.ts). Prints the figures; exits 1 on any failure, naming seed and case.

import { runProperty } from './fidelity';
import { countArg } from '../shared/countArg';

const cases = countArg('cases', 100_000);
const seed = countArg('seed', 1);
const t0 = process.hrtime.bigint();
const summary = runProperty({ cases, seed, maxFailures: 50 });
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(`write-fidelity property: seed ${seed}, ${summary.cases} cases in ${seconds.toFixed(1)} s`);
console.log(
  `  checked ${summary.checked} (${Object.entries(summary.byProperty)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}), skipped ${summary.skipped} (region not unique, or no edit applicable)`,
);
console.log(
  `  round-trip cases by perturbation: ${Object.entries(summary.byPerturbation)
    .sort()
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}`,
);
console.log(`  failures ${summary.failures.length}`);
for (const f of summary.failures) {
  console.log(`\nFAIL seed ${seed} case ${f.index}: ${f.message}`);
}
if (summary.failures.length > 0) {
  console.log(`\nReproduce one case: node -e "console.log(require('./out/test/property/fidelity').runCase(${seed}, CASE))"`);
  process.exit(1);
}
