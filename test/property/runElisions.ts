// `npm run test:elisions -- --cases N --seed S`: the long run of the placeholder property test
// (test/property/elisions.ts). Prints the figures; exits 1 on any failure, naming seed and case.

import { runElisionProperty } from './elisions';
import { countArg } from '../shared/countArg';

const cases = countArg('cases', 100_000);
const seed = countArg('seed', 1);
const t0 = process.hrtime.bigint();
const summary = runElisionProperty({ cases, seed, maxFailures: 20 });
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
const checked = summary.certain + summary.refused;
console.log(`placeholder property: seed ${seed}, ${summary.cases} cases in ${seconds.toFixed(1)} s`);
console.log(
  `  checked ${checked} (${summary.placeholders} placeholders): applied as the fully written edit ${summary.certain}, refused with nothing written ${summary.refused}; skipped ${summary.skipped} (region not unique, or no edit or anchored run)`,
);
console.log(`  the audit as oracle: it refuses the fully written edit in ${summary.audited} cases (all refused, none applied)`);
console.log(`  placeholders in both halves (aider's style): ${summary.aider} cases, ${summary.aiderCertain} applied`);
console.log(`  failures ${summary.failures.length}`);
for (const f of summary.failures) {
  console.log(`\nFAIL seed ${seed} case ${f.index}: ${f.message}`);
}
if (summary.failures.length > 0) {
  console.log(`\nReproduce one case: node -e "console.log(require('./out/test/property/elisions').runElisionCase(${seed}, CASE))"`);
  process.exit(1);
}
