// `npm run test:snippets -- --cases N --seed S`: the long run of the code-block property
// (test/property/snippets.ts). Prints the figures; exits 1 on any failure, naming seed and case.
import { runSnippetProperty } from './snippets';
import { countArg } from '../shared/countArg';

void (async () => {
  const cases = countArg('cases', 2_000);
  const seed = countArg('seed', 1);
  const t0 = process.hrtime.bigint();
  const summary = await runSnippetProperty({ cases, seed, maxFailures: 50 });
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  console.log(`code-block property: seed ${seed}, ${summary.cases} cases in ${seconds.toFixed(1)} s`);
  console.log(
    `  applied exactly ${summary.applied}, refused ${JSON.stringify(summary.refused)}, skipped ${summary.skipped} (no body line to edit)`,
  );
  console.log(`  by shape ${JSON.stringify(summary.byShape)}`);
  console.log(`  failures ${summary.failures.length}`);
  for (const f of summary.failures) {
    console.log(`\nFAIL seed ${seed} case ${f.index}: ${f.message}`);
  }
  if (summary.failures.length > 0) {
    process.exit(1);
  }
})();
