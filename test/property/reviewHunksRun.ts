// `npm run test:review -- --cases N --seed S`: the long run of the review's hunk property test
// (test/property/reviewHunks.ts). Prints the figures; exits 1 on any failure, naming seed and case.
import { countArg } from '../shared/countArg';
import { runReviewProperty } from './reviewHunks';

const cases = countArg('cases', 20_000);
const seed = countArg('seed', 1);
const t0 = process.hrtime.bigint();
const summary = runReviewProperty({ cases, seed });
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(`review hunks property: seed ${seed}, ${summary.cases} cases in ${seconds.toFixed(1)} s`);
console.log(
  `  ${summary.hunks} hunks, ${summary.undone} undone (in random order), ${summary.refusedEdited} typed in and refused, ${summary.typed} edits typed between hunks`,
);
console.log(`  failures ${summary.failures.length}`);
for (const failure of summary.failures) {
  console.log(`FAIL ${failure}`);
}
process.exit(summary.failures.length > 0 ? 1 : 0);
