#!/usr/bin/env node
// @ts-check
// Runs the same integration suite (out/test/integration/index.js) in DESKTOP VS Code via
// @vscode/test-electron, for people with a desktop VS Code or network access to download one.
// `npm run test:desktop` builds first. Not used by CI here (no VS Code download is possible there;
// `npm test` runs the suite in the VS Code server instead, see test/runVsCode.mjs).
//
//   VSCODE_EXECUTABLE=/path/to/code npm run test:desktop   use an installed VS Code
//   npm run test:desktop                                   download VS Code stable into .vscode-test/
//   VSCODE_VERSION=1.97.0 npm run test:desktop             download that version (the engines minimum)
//
// On Linux without a display it re-runs itself under `xvfb-run -a` (Debian: apt-get install xvfb).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTests } from '@vscode/test-electron';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.RESILIENT_APPLY_UNDER_XVFB) {
  const probe = spawnSync('sh', ['-c', 'command -v xvfb-run'], { encoding: 'utf8' });
  if (probe.status !== 0) {
    console.error('No DISPLAY and no xvfb-run: install xvfb (apt-get install -y xvfb) or run with a display.');
    process.exit(2);
  }
  const result = spawnSync('xvfb-run', ['-a', process.execPath, fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, RESILIENT_APPLY_UNDER_XVFB: '1' },
  });
  process.exit(result.status ?? 1);
}

const testsIndex = path.join(repoRoot, 'out', 'test', 'integration', 'index.js');
for (const file of [path.join(repoRoot, 'dist', 'extension.js'), testsIndex]) {
  if (!fs.existsSync(file)) {
    console.error(`${path.relative(repoRoot, file)} is missing: run \`npm run build && npx tsc -p ./\` first`);
    process.exit(2);
  }
}

// The suite expects a throwaway copy of demo/ as its workspace, as in the web runner.
const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'resilient-apply-desktop-'));
const workspace = path.join(tempRoot, 'workspace');
fs.cpSync(path.join(repoRoot, 'demo'), workspace, { recursive: true });

let exitCode = 0;
try {
  await runTests({
    vscodeExecutablePath: process.env.VSCODE_EXECUTABLE || undefined,
    version: process.env.VSCODE_VERSION || undefined,
    extensionDevelopmentPath: repoRoot,
    extensionTestsPath: testsIndex,
    launchArgs: [
      workspace,
      '--disable-extensions',
      '--disable-workspace-trust',
      '--skip-welcome',
      '--skip-release-notes',
      '--user-data-dir',
      path.join(tempRoot, 'user-data'),
    ],
  });
} catch (err) {
  console.error(`desktop integration run failed: ${err.message ?? err}`);
  exitCode = 1;
} finally {
  fs.rmSync(tempRoot, { recursive: true, force: true });
}
process.exit(exitCode);
