// `npm run fuzz -- [--cases N] [--seed S] [--seconds T] [--case K] [--cap-ms M]`: the long fuzz run of
// the parser and applyBlocks (see engineFuzz.ts). Exits 1 on any failure; slow calls are reported.

import { runFuzz } from './engineFuzz';

function arg(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  if (at === -1) {
    return fallback;
  }
  const value = Number(process.argv[at + 1]);
  if (!Number.isFinite(value)) {
    console.error(`--${name} needs a number, got ${JSON.stringify(process.argv[at + 1])}`);
    process.exit(2);
  }
  return value;
}

const seed = arg('seed', 1);
const cases = arg('cases', 10_000);
const seconds = arg('seconds', 3_600);
const capMs = arg('cap-ms', 2_000);
const only = process.argv.includes('--case') ? arg('case', 0) : undefined;

console.log(
  `fuzz: seed ${seed}, ${only !== undefined ? `case ${only}` : `up to ${cases} cases or ${seconds} s`}, time cap ${capMs} ms CPU per call`,
);
const s = runFuzz({ seed, cases, seconds, capMs, only, log: (l) => console.log(l) });
console.log(
  `fuzz: ${s.cases} cases, ${s.calls} applyBlocks calls, ${s.blocks} blocks in ${s.seconds.toFixed(1)} s; ` +
    `failures ${s.failures.length}; slowest call ${s.maxCallMs.toFixed(0)} ms CPU; calls over the cap ${s.slow.length}`,
);
console.log(`fuzz: batch statuses ${JSON.stringify(s.statuses)}`);
for (const slow of s.slow.slice(0, 20)) {
  console.log(`  slow: case ${slow.caseNo}: ${slow.ms.toFixed(0)} ms ${slow.what}`);
}
process.exit(s.failures.length > 0 ? 1 : 0);
