// Part of `npm run bench`: what one `resilient-apply apply` costs a process that starts cold, as an agent
// loop pays it once per edit. Each run starts a fresh Node process on the built CLI (dist/cli.js) and is
// paired with a run of `node -e 0` right before it, so the figure is the CLI's cost beyond Node's own
// start on the same machine at the same moment (the machine is shared: absolute times mean little).
// dist/cli.js keeps a V8 code cache in the temp folder (src/node/codeCache.ts): the first run of a build
// writes it and the others use it, as the runs of an agent loop do. It starts without V8's optimising
// compiler and turns it on for long jobs (src/node/runLength.ts).
// The machine's speed drifts (node -e 0 itself takes 62-98 ms here at different moments, and what the
// CLI adds grows with it): compare builds in alternating runs, as this table's floor is taken.
// Inputs: 10k- and 100k-line slices of typescript.js with a 50-line content miss (three wrong
// identifiers), the most expensive ordinary outcome (every tier, then the fuzzy search); the same SEARCH
// with the file's own text as REPLACE (already applied: every tier, no fuzzy search); and an exact hit.
// Prints a table with the budgets; never asserts.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');
const RUNS = 15;
const BUDGETS: Record<string, number> = { 'content miss 10k': 30, 'content miss 100k': 150 };

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Wall-clock ms, CPU ms (user + system, from the shell's `times` for its child: what the process cost
 * whatever else the machine was doing) and the exit status of one fresh process.
 */
function timeProcess(args: string[]): { ms: number; cpuMs: number; status: number | null } {
  // stdout to /dev/null: a --dry-run --json answer holds the whole new content (megabytes at 100k lines).
  const script = `${[process.execPath, ...args].map(quote).join(' ')} >/dev/null 2>&1; s=$?; times; exit $s`;
  const t = performance.now();
  const result = spawnSync('bash', ['-c', script], { encoding: 'utf8' });
  const ms = performance.now() - t;
  const children = result.stdout.trim().split('\n').pop() ?? '';
  const secs = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return { ms, cpuMs: (secs[0] + secs[1]) * 1000, status: result.status };
}

function blockText(search: string[], replace: string[]): string {
  return ['<<<<<<< SEARCH', ...search, '=======', ...replace, '>>>>>>> REPLACE', ''].join('\n');
}

function main(): void {
  if (!fs.existsSync(CLI)) {
    console.log(`Cold CLI runs: ${CLI} is missing (npm run build first); skipped.`);
    return;
  }
  const all = fs.readFileSync(require.resolve('typescript/lib/typescript.js'), 'utf8').split(/\r?\n/);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-bench-cli-'));
  const rows: string[][] = [];
  try {
    for (const size of [10_000, 100_000]) {
      const lines = all.slice(20_000, 20_000 + size);
      const file = path.join(dir, `slice-${size}.js`);
      fs.writeFileSync(file, lines.join('\n'));
      const at = Math.floor(size * 0.6);
      const block = lines.slice(at, at + 50);
      const miss = block.map((l, i) => (i === 10 || i === 25 || i === 40 ? l.replace(/[A-Za-z_]\w{3,}/, (w) => `${w}Value`) : l));
      const cases: Array<[string, string, number]> = [
        // REPLACE must not be in the file: a block whose REPLACE is there is answered "already applied"
        // before any fuzzy search (the next row), which is how this row measured until it was fixed.
        [
          `content miss ${size / 1000}k`,
          blockText(
            miss,
            miss.map((l, i) => (i === miss.length - 1 ? `${l} // edited` : l)),
          ),
          1,
        ],
        [`already applied ${size / 1000}k`, blockText(miss, block), 1],
        [
          `exact hit ${size / 1000}k`,
          // A real change (SEARCH equal to REPLACE is refused as invalid): a comment on the last line.
          blockText(
            block,
            block.map((l, i) => (i === block.length - 1 ? `${l} // edited` : l)),
          ),
          0,
        ],
      ];
      for (const [name, text, expectStatus] of cases) {
        const blocks = path.join(dir, `${name.replace(/\W+/g, '-')}.txt`);
        fs.writeFileSync(blocks, text);
        const extra: number[] = [];
        const extraCpu: number[] = [];
        const floors: number[] = [];
        let status: number | null = null;
        for (let i = 0; i < RUNS; i++) {
          const floor = timeProcess(['-e', '0']);
          const run = timeProcess([CLI, 'apply', file, '--blocks', blocks, '--dry-run', '--json']);
          status = run.status;
          floors.push(floor.ms);
          extra.push(run.ms - floor.ms);
          extraCpu.push(run.cpuMs - floor.cpuMs);
        }
        const budget = BUDGETS[name];
        const beyond = median(extra);
        const verdict =
          status !== expectStatus
            ? `exit ${status}, expected ${expectStatus}`
            : budget === undefined
              ? ''
              : beyond <= budget
                ? 'PASS'
                : 'OVER';
        rows.push([
          name,
          median(floors).toFixed(1),
          beyond.toFixed(1),
          median(extraCpu).toFixed(0),
          budget === undefined ? '-' : `<= ${budget}`,
          verdict,
        ]);
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log('');
  console.log(
    `Cold CLI runs (node dist/cli.js apply --dry-run --json, ${RUNS} fresh processes each, median; floor = node -e 0 run just before)`,
  );
  console.log(
    `cpu: user+system time of the process beyond the floor's (10 ms resolution); load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} cores`,
  );
  const header = ['input', 'node -e 0 ms', 'beyond floor ms', 'cpu beyond ms', 'budget ms', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  for (const row of [header, ...rows]) {
    console.log(
      '  ' +
        row
          .map((c, i) => c.padEnd(widths[i]))
          .join('  ')
          .trimEnd(),
    );
  }
}

main();
