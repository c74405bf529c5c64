// `npm run bench:huge` (and the end of `npm run bench`): the CLI on a 20 MB and a 50 MB file (issue 28).
// Each row is one fresh process on the built CLI (dist/cli.js, --dry-run): an exact edit, a near miss
// whose SEARCH has one line that stands once in the file (the candidate must name that region), and a
// code block (read by the indentation outline: a grammar is not run past GRAMMAR_TEXT_LIMIT). The floor
// is a process that reads the file, splits it into lines and runs indexOf, in the same run: the machine
// is shared, so the ratios say more than the times. Peak memory is the process's maximum resident set
// (bench/peakMemory.ts), also as a multiple of the file's size. Prints a table; never asserts.
// Input: copies of typescript.js (each with its `ts` namespace renamed, so no region repeats exactly)
// up to the size, with one small function inserted at 60%.

import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const CLI = path.resolve(__dirname, '..', '..', 'dist', 'cli.js');
const PEAK = path.resolve(__dirname, 'peakMemory.js');
const MB = 1024 * 1024;

const RARE = ['function rareUniqueHelper(alpha, beta) {', '  const gamma = alpha * 31 + beta;', '  return gamma % 1000003;', '}'];

function hugeFile(bytes: number): string {
  const source = fs.readFileSync(require.resolve('typescript/lib/typescript.js'), 'utf8');
  const copies: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const copy = source.replace(/\bts\b/g, `ts${i}`);
    copies.push(copy);
    size += copy.length + 1;
  }
  const lines = copies.join('\n').slice(0, bytes).split('\n');
  lines.pop(); // a line the cut left partial
  lines.splice(Math.floor(lines.length * 0.6), 0, ...RARE);
  return lines.join('\n') + '\n';
}

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

interface Run {
  ms: number;
  cpuMs: number;
  peakKb: number;
  status: number | null;
  out: string;
}

/** One fresh process: wall ms, CPU ms (the shell's `times` for its child), peak memory, exit status, stdout. */
function run(args: string[], dir: string): Run {
  const peakFile = path.join(dir, 'peak');
  const outFile = path.join(dir, 'out');
  const script = `${[process.execPath, '--require', PEAK, ...args].map(quote).join(' ')} >${quote(outFile)} 2>&1; s=$?; times; exit $s`;
  const t = performance.now();
  const result = spawnSync('bash', ['-c', script], { encoding: 'utf8', env: { ...process.env, RA_PEAK_FILE: peakFile } });
  const ms = performance.now() - t;
  const children = result.stdout.trim().split('\n').pop() ?? '';
  const secs = [...children.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  const peakKb = fs.existsSync(peakFile) ? Number(fs.readFileSync(peakFile, 'utf8')) : NaN;
  return { ms, cpuMs: (secs[0] + secs[1]) * 1000, peakKb, status: result.status, out: fs.readFileSync(outFile, 'utf8') };
}

function blockText(search: string[], replace: string[]): string {
  return ['<<<<<<< SEARCH', ...search, '=======', ...replace, '>>>>>>> REPLACE', ''].join('\n');
}

function main(): void {
  if (!fs.existsSync(CLI) || !fs.existsSync(PEAK)) {
    console.log(`Huge files: ${CLI} or ${PEAK} is missing (npm run build and tsc first); skipped.`);
    return;
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-bench-huge-'));
  const rows: string[][] = [];
  try {
    const changed = RARE.map((l) => l.replace('31', '37'));
    fs.writeFileSync(path.join(dir, 'exact.txt'), blockText(RARE.slice(0, 2), changed.slice(0, 2)));
    // Two of three lines mistyped: only the first stands in the file as written.
    const typo = [RARE[0], '  const gama = alpha * 31 + betta;', '  return gama % 1000003;'];
    fs.writeFileSync(path.join(dir, 'miss.txt'), blockText(typo, changed.slice(0, 3)));
    fs.writeFileSync(path.join(dir, 'block.js'), changed.join('\n') + '\n');
    const floorScript = `const t=require('fs').readFileSync(process.argv[1],'utf8');const l=t.split('\\n');if(t.indexOf(${JSON.stringify(RARE[1])})<0||!l.length)process.exit(1)`;
    for (const size of [20, 50]) {
      const file = path.join(dir, `huge${size}.js`);
      fs.writeFileSync(file, hugeFile(size * MB));
      const floor = run(['-e', floorScript, file], dir);
      const row = (name: string, r: Run, verdict: string) =>
        rows.push([
          `${size} MB`,
          name,
          verdict,
          r.ms.toFixed(0),
          r.cpuMs.toFixed(0),
          `${(r.ms / floor.ms).toFixed(1)}x`,
          (r.peakKb / 1024).toFixed(0),
          `${((r.peakKb * 1024) / (size * MB)).toFixed(1)}x`,
        ]);
      row('floor: read, split, indexOf', floor, floor.status === 0 ? 'ok' : 'FAILED');
      const apply = (args: string[]) => run([CLI, 'apply', file, ...args, '--dry-run', '--json'], dir);
      const exact = apply(['--blocks', path.join(dir, 'exact.txt')]);
      row('exact edit', exact, verdictOf(exact.out, 'applied'));
      const miss = apply(['--blocks', path.join(dir, 'miss.txt')]);
      const line = fileLineOf(file, RARE[0]);
      row(`near miss (rare line ${line})`, miss, verdictOf(miss.out, 'not_found', line));
      const block = apply(['--snippet', path.join(dir, 'block.js')]);
      row('code block', block, verdictOf(block.out, 'applied'));
      fs.rmSync(file);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  printTable(rows);
}

/** 1-based line of the first line equal to text. */
function fileLineOf(file: string, text: string): number {
  return fs.readFileSync(file, 'utf8').split('\n').indexOf(text) + 1;
}

/** The outcome the row expects, checked on the --json answer: its status, and for a miss the top candidate's region. */
function verdictOf(out: string, status: string, candidateLine?: number): string {
  let json: { status?: string; blocks?: Array<{ candidates?: Array<{ startLine: number; endLine: number }> }> };
  try {
    json = JSON.parse(out);
  } catch {
    return 'FAILED: no JSON';
  }
  if (json.status !== status) {
    return `FAILED: ${json.status}`;
  }
  if (candidateLine !== undefined) {
    const top = json.blocks?.[0]?.candidates?.[0];
    return top && top.startLine <= candidateLine && candidateLine <= top.endLine
      ? `top ${top.startLine}-${top.endLine}`
      : 'FAILED: region not named';
  }
  return status;
}

function printTable(rows: string[][]): void {
  const head = ['file', 'case', 'outcome', 'ms', 'cpu ms', 'ratio to floor', 'peak MB', 'peak / file'];
  const all = [head, ...rows];
  const widths = head.map((_, i) => Math.max(...all.map((r) => r[i].length)));
  console.log('\nHuge files: one fresh CLI process per row (--dry-run --json), floor taken in the same run');
  for (const r of all) {
    console.log(r.map((c, i) => c.padEnd(widths[i])).join('  '));
  }
}

main();
