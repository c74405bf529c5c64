// `npm run test:config -- --cases N --seed S`: the long run of the configuration merge property test
// (test/property/configMerge.ts), per format. Prints the figures; exits 1 on any failure, naming seed and case.

import { runConfigProperty, CONFIG_FORMATS_UNDER_TEST } from './configMerge';
import { countArg } from '../shared/countArg';

const cases = countArg('cases', 20_000);
const seed = countArg('seed', 1);
const t0 = process.hrtime.bigint();
const summaries = runConfigProperty(CONFIG_FORMATS_UNDER_TEST, { cases, seed, maxFailures: 10 });
const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
console.log(`configuration merge property: seed ${seed}, ${cases} cases per format in ${seconds.toFixed(1)} s`);
let failed = 0;
for (const [name, s] of Object.entries(summaries)) {
  const refused =
    Object.entries(s.refused)
      .map(([reason, n]) => `${reason} ${n}`)
      .join(', ') || 'none';
  const shapes = Object.entries(s.byShape)
    .map(([shape, n]) => `${shape} ${n}`)
    .join(', ');
  console.log(
    `  ${name}: ${s.cases} cases, merged as the edit ${s.merged} (${shapes}; byte-identical no-ops ${s.unchanged}), refused ${refused}, skipped ${s.skipped}, failures ${s.failures.length}`,
  );
  for (const f of s.failures) {
    console.log(`\nFAIL ${name} seed ${seed} case ${f.index}: ${f.message}`);
  }
  failed += s.failures.length;
}
if (failed > 0) {
  console.log(
    `\nReproduce one case: node -e "const m=require('./out/test/property/configMerge');console.log(m.runConfigCase(m.CONFIG_FORMATS_UNDER_TEST.find(f=>f.name==='FORMAT'), ${seed}, CASE))"`,
  );
  process.exit(1);
}
