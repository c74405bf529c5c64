// `npm run test:near-misses -- --cases N --seed S`: the long run of the near-miss edge property test
// (test/property/nearMissEdges.ts). Prints the figures per kind; exits 1 on any failure, naming seed and case.
import { countArg } from '../shared/countArg';
import { runNearMissEdgeProperty } from './nearMissEdges';

const cases = countArg('cases', 4_000);
const seed = countArg('seed', 1);
const t0 = process.hrtime.bigint();
const summary = runNearMissEdgeProperty({ cases, seed, maxFailures: 50 });
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(`near misses at region edges: seed ${seed}, ${summary.cases} cases in ${seconds.toFixed(1)} s`);
let failed = 0;
for (const [kind, k] of Object.entries(summary.byKind)) {
  failed += k.failures;
  console.log(
    `  ${kind}: ${k.cases} cases, first candidate the region in ${k.cases - k.failures} (${((100 * (k.cases - k.failures)) / Math.max(1, k.cases)).toFixed(1)}%)`,
  );
}
console.log(`  failures ${failed}`);
for (const failure of summary.failures) {
  console.log(`FAIL seed ${seed} ${failure}`);
}
process.exit(failed > 0 ? 1 : 0);
