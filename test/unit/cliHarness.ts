// Shared helpers for the CLI tests: run the compiled CLI (out/src/cli.js, the same source esbuild
// bundles into dist/cli.js) as a real process on scratch folders.
import { after } from 'node:test';
import * as assert from 'node:assert/strict';
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const CLI = path.resolve(__dirname, '../../src/cli.js');

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-cli-'));
after(() => fs.rmSync(root, { recursive: true, force: true }));
let counter = 0;

/** A fresh directory holding `files`, removed after the test file ends. */
export function workspace(files: Record<string, string | Buffer> = {}): string {
  const dir = path.join(root, `w${++counter}`);
  fs.mkdirSync(dir);
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

export interface Run {
  code: number | null;
  signal?: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI to its end and waits for it (for tests that run one after another). */
export function runSync(cwd: string, args: string[], stdin?: string): Run {
  const result = spawnSync(process.execPath, [CLI, ...args], { cwd, input: stdin ?? '', encoding: 'utf8' });
  return { code: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

/** Runs the CLI to its end; async so that tests can run side by side. */
export function run(cwd: string, args: string[], stdin?: string): Promise<Run> {
  return finish(start(cwd, args), stdin ?? '');
}

/** Runs a shell command line with $NODE and $CLI set, for redirections node cannot express (closed fds). */
export function runShell(cwd: string, script: string): Promise<Run> {
  const child = spawn('/bin/sh', ['-c', script], { cwd, env: { ...process.env, NODE: process.execPath, CLI } });
  return finish(child, '');
}

/** Collects a started child's output and exit. */
export function finish(child: ChildProcess, stdin = ''): Promise<Run> {
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
  });
  child.stderr?.setEncoding('utf8').on('data', (d: string) => {
    stderr += d;
  });
  child.stdin?.on('error', () => undefined).end(stdin);
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** The one JSON object a run printed, whatever its fields; fails the test on anything else. */
function oneJsonObject(r: Run): Record<string, unknown> {
  let json: unknown;
  try {
    json = JSON.parse(r.stdout);
  } catch {
    assert.fail(`--json output is not one JSON object:\n${JSON.stringify(r.stdout)}\nstderr:\n${r.stderr}`);
  }
  assert.ok(json !== null && typeof json === 'object' && !Array.isArray(json), `not an object: ${r.stdout}`);
  return json as Record<string, unknown>;
}

/** The one JSON object an `apply --json` run must print, with the report's fields; fails the test on anything else. */
export function parseOneJson(r: Run): any {
  const report = oneJsonObject(r);
  assert.ok(['applied', 'not_found', 'ambiguous', 'invalid'].includes(report.status as string), `status ${String(report.status)}`);
  assert.equal(typeof report.message, 'string');
  assert.ok(Array.isArray(report.blocks));
  return report;
}

export async function runJson(cwd: string, args: string[], stdin?: string): Promise<{ code: number | null; json: any; stderr: string }> {
  const r = await run(cwd, [...args, '--json'], stdin);
  return { code: r.code, json: parseOneJson(r), stderr: r.stderr };
}

/** runSync with --json added: the exit code and the one JSON object printed (any command's shape). */
export function runJsonSync(cwd: string, args: string[], stdin?: string): { code: number | null; json: any } {
  const r = runSync(cwd, [...args, '--json'], stdin);
  return { code: r.code, json: oneJsonObject(r) };
}

/** Starts the CLI without waiting, for tests that kill it or close its pipes. */
export function start(cwd: string, args: string[]) {
  return spawn(process.execPath, [CLI, ...args], { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
}

export const block = (search: string, replace: string): string =>
  `<<<<<<< SEARCH\n${search}${search === '' ? '' : '\n'}=======\n${replace}${replace === '' ? '' : '\n'}>>>>>>> REPLACE\n`;

/** Names of temp or backup files the CLI may leave next to a target. */
export function leftovers(dir: string): string[] {
  return fs.readdirSync(dir).filter((n) => /\.(tmp|bak)$/.test(n));
}

/** A pid that belonged to a process that has exited (so a temp file naming it is stale). */
export function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
  return Number(child.stdout);
}
