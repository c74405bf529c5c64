#!/usr/bin/env node
// @ts-check
// Runs the extension in a REAL VS Code: the integration suite inside the extension host, then the UI tests
// (test/e2e/*.e2e.mjs) clicking in the web workbench. The VS Code server comes from the npm registry and is
// cached outside the repo (scripts/vscodeServer.mjs); the browser is the system's Chromium.
//
//   node test/runVsCode.mjs                 integration + UI (what `npm test` runs after the build)
//   node test/runVsCode.mjs --integration   integration suite only
//   node test/runVsCode.mjs --e2e           UI tests only
//   node test/runVsCode.mjs --integration --soak   only the editor soak test, 600 steps (`npm run soak`)
//   node test/runVsCode.mjs --installed ... the same suites against the .vsix of `npm run package`, installed
//                                           into the server (what `npm test` runs)
//   node test/runVsCode.mjs --web           the web bundle in the web worker extension host only
//                                           (test/web/index.ts, bundled by test/web/build.mjs)
//   RESILIENT_APPLY_GREP=<text>             only integration tests whose title contains <text>
//   RESILIENT_APPLY_E2E=<text>              only UI test files whose name contains <text>
//   RESILIENT_APPLY_TEST_TIMEOUT=<seconds>  hard bound on the whole run after install (default 900)
//   RESILIENT_APPLY_KEEP_LOGS=1             keep the temp dir with logs even when everything passed
//
// Prerequisites: `npm run build` (dist/extension.js) and `tsc -p ./` (out/test/integration/index.js).
// Output: the mocha result lines, one line per UI test, then `N passed, N failed` alone on a line.
// Exit code: 0 all passed; 1 some test failed; 2 the harness itself failed or timed out. On failure the
// temp directory with the server log, the extension-host logs and the page console is kept and printed.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  copyTree,
  DEFAULT_USER_SETTINGS,
  ensureInstalled,
  freePort,
  killGroup,
  repoRoot,
  startServer,
  TEST_DISABLED_EXTENSIONS,
  workbenchUrl,
} from '../scripts/vscodeServer.mjs';
import { browserPid, launchBrowser, openWorkbench, waitForWorkbench } from '../scripts/workbench.mjs';
import { installStubModel } from './stub-model/install.mjs';

const RESULT_PREFIX = 'RESILIENT_APPLY_INTEGRATION_RESULT ';
const WEB_OUTSIDE_SECRET = 'token = "s3cr3t"\n';
const INSTALL_TIMEOUT_MS = 30 * 60_000;
const TOTAL_TIMEOUT_MS = Number(process.env.RESILIENT_APPLY_TEST_TIMEOUT || 900) * 1000;
const INTEGRATION_TIMEOUT_MS = 8 * 60_000;
const E2E_DEFAULT_TIMEOUT_MS = 2 * 60_000;

const args = new Set(process.argv.slice(2));
const manifest = JSON.parse(fs.readFileSync(path.join(repoRoot, 'package.json'), 'utf8'));
/**
 * --installed: test what users install. The .vsix of `npm run package` is installed into the server's
 * extensions folder, and a test-only host extension with nothing of its own takes the repository's place
 * as the development extension, so every suite runs against the installed package. The host is out/
 * itself (a manifest written there): VS Code runs extensionTestsPath in the extension host of the
 * development extension whose folder holds it, and the compiled suites live in out/.
 */
const installed = args.has('--installed');
const vsixPath = path.join(repoRoot, `${manifest.name}-${manifest.version}.vsix`);
const extensionUnderTest = installed ? path.join(repoRoot, 'out') : repoRoot;
const TEST_HOST_ID = 'resilient-apply-tests.resilient-apply-test-host';

function writeTestHost() {
  const dir = path.join(repoRoot, 'out');
  fs.mkdirSync(dir, { recursive: true });
  const [publisher, name] = TEST_HOST_ID.split('.');
  const host = {
    name,
    publisher,
    displayName: 'Resilient Apply test host (test-only, never packaged)',
    version: '0.0.0',
    private: true,
    engines: manifest.engines,
    activationEvents: ['onStartupFinished'],
    main: './test-host.js',
    browser: './test-host.js',
  };
  fs.writeFileSync(path.join(dir, 'package.json'), `${JSON.stringify(host, null, 2)}\n`);
  fs.writeFileSync(path.join(dir, 'test-host.js'), 'exports.activate = () => {};\nexports.deactivate = () => {};\n');
}
if (args.has('--soak')) {
  // `npm run soak`: only the editor soak test, long (the server's environment reaches the extension host).
  process.env.RESILIENT_APPLY_GREP ||= 'editor soak';
  process.env.RESILIENT_APPLY_SOAK_STEPS ||= '600';
}
const runWeb = args.has('--web');
const runIntegration = !runWeb && (!args.has('--e2e') || args.has('--integration'));
const runE2e = !runWeb && (!args.has('--integration') || args.has('--e2e'));

const totals = { passed: 0, failed: 0, pending: 0 };
const failures = [];
let server;
/** A second server, with the test-only stub language model installed, for UI tests that export stubModel. */
let stubModelServer;
let install;
let browser;
let tempRoot;
let finished = false;

const transcript = [];
function say(line = '') {
  process.stdout.write(`${line}\n`);
  // Kept with the logs (run.log) when the run fails.
  transcript.push(line);
}

function withTimeout(promise, ms, what) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} timed out after ${Math.round(ms / 1000)}s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function tail(file, lines = 30) {
  try {
    return fs.readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(missing)';
  }
}

function findFiles(dir, predicate, found = []) {
  let entries = [];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return found;
  }
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      findFiles(p, predicate, found);
    } else if (predicate(p)) {
      found.push(p);
    }
  }
  return found;
}

/**
 * Errors the extension left in the extension hosts' logs and its own log: an `[error]` entry whose text
 * (message and stack) names this extension. A handler that throws inside an event (a document change,
 * a debounced re-match) fails no test by itself; this makes it fail the run.
 */
function extensionErrorsInLogs(root) {
  const logs = findFiles(root, (p) => /(remote)?exthost\.log$|Resilient Apply\.log$/.test(p));
  const errors = [];
  for (const file of logs) {
    const entries = fs.readFileSync(file, 'utf8').split(/\n(?=\d{4}-\d\d-\d\d \d\d:\d\d:\d\d)/);
    for (const entry of entries) {
      const ours = entry.includes('resilient-apply.resilient-apply') || entry.includes(path.join(repoRoot, 'dist'));
      if (/^\S+ \S+ \[error\]/.test(entry) && (ours || file.endsWith('Resilient Apply.log'))) {
        errors.push(`${path.basename(file)}: ${entry.split('\n').slice(0, 4).join(' | ')}`);
      }
    }
  }
  return errors;
}

async function cleanup() {
  if (browser) {
    const pid = browserPid(browser);
    await withTimeout(browser.close(), 10_000, 'closing the browser').catch(() => {});
    killGroup(pid);
    browser = undefined;
  }
  if (server) {
    await server.stop();
    server = undefined;
  }
  if (stubModelServer) {
    await stubModelServer.stop();
    stubModelServer = undefined;
  }
}

/** Prints the summary, keeps or removes the logs, and exits. Runs once. */
async function finish(harnessError) {
  if (finished) {
    return;
  }
  finished = true;
  await cleanup();
  const ok = !harnessError && totals.failed === 0;
  say('');
  if (harnessError) {
    say(`harness error: ${harnessError.message}`);
  }
  if (failures.length) {
    say('failed:');
    for (const f of failures) {
      say(`  - ${f}`);
    }
  }
  if (!ok && tempRoot) {
    say('');
    say(`logs kept in ${tempRoot}`);
    fs.writeFileSync(path.join(tempRoot, 'run.log'), `${transcript.join('\n')}\n`);
    const serverLog = path.join(tempRoot, 'server.log');
    say(`--- tail of ${serverLog}`);
    say(tail(serverLog));
    // The logs that explain most failures: the server's, the extension host's and our extension's own.
    const important = (p) =>
      /(^|\/)(remoteagent|remoteexthost|window)\.log$/.test(p) || /resilient-apply\.resilient-apply\/.*\.log$/.test(p);
    for (const f of findFiles(tempRoot, important)) {
      say(`--- tail of ${f}`);
      say(tail(f, 20));
    }
    say(`(all logs: find ${tempRoot} -name '*.log')`);
    // Again at the end: CI shows the tail of this output, and the log tails above push the list out of it.
    if (failures.length) {
      say('');
      say('failed (as listed above the logs):');
      for (const f of failures) {
        say(`  - ${f}`);
      }
    }
  } else if (tempRoot && !process.env.RESILIENT_APPLY_KEEP_LOGS) {
    fs.rmSync(tempRoot, { recursive: true, force: true });
  } else if (tempRoot) {
    say(`logs kept in ${tempRoot}`);
  }
  if (totals.pending) {
    say(`${totals.pending} pending`);
  }
  say(`${totals.passed} passed, ${totals.failed + (harnessError && totals.failed === 0 ? 1 : 0)} failed`);
  process.exit(harnessError ? 2 : ok ? 0 : 1);
}

for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    void finish(new Error(`interrupted by ${signal}`));
  });
}
// A reader that goes away (`| head`) must not kill us before the cleanup: ignore EPIPE on our output.
process.stdout.on('error', () => {});
process.stderr.on('error', () => {});
process.on('uncaughtException', (err) => {
  void finish(err);
});
// Last resort, synchronous: whatever way this process ends, the server and browser groups go with it.
process.on('exit', () => {
  killGroup(server?.pid);
  killGroup(stubModelServer?.pid);
  killGroup(browserPid(browser));
});

// test/integration/index.ts prefixes every line it prints with this (read from the extension host's env,
// which it inherits from the server), so its lines can be told apart in the workbench's log stream.
const LINE_PREFIX = '[resilient-apply-tests] ';
process.env.RESILIENT_APPLY_LINE_PREFIX = LINE_PREFIX;

// test/web/index.ts runs in the web worker, which has no environment to read a prefix from: it uses these.
const WEB_LINE_PREFIX = '[resilient-apply-web-tests] ';
const WEB_RESULT_PREFIX = 'RESILIENT_APPLY_WEB_RESULT ';

/**
 * The suite at out/test/integration/index.js in the server's extension host, or with `web` the bundled
 * out/test-web/index.js in the web worker extension host (the development extension then loads its
 * package.json "browser" bundle there).
 *
 * The web workbench parses a payload key extensionDevelopmentKind but exposes it under another name
 * (extensionDevelopmentLocationKind), so the running-location picker never sees it (VS Code 1.139 / code-server
 * 4.139.1). The user setting remote.extensionKind does reach the picker: with ["web"] the development
 * extension, and with it its extensionTestsPath, goes to the web worker host.
 */
async function integrationSuite({ web = false } = {}) {
  const name = web ? 'web' : 'integration';
  const linePrefix = web ? WEB_LINE_PREFIX : LINE_PREFIX;
  const resultPrefix = web ? WEB_RESULT_PREFIX : RESULT_PREFIX;
  const workspace = copyTree(path.join(repoRoot, 'demo'), path.join(tempRoot, name, 'demo'));
  if (web) {
    // The web check asks the language model tool to edit a file through a link that leads outside the
    // workspace: the worker cannot follow links, so it must refuse (and this file must stay as it is).
    fs.mkdirSync(path.join(tempRoot, name, 'outside'), { recursive: true });
    fs.writeFileSync(path.join(tempRoot, name, 'outside', 'secret.txt'), WEB_OUTSIDE_SECRET);
    fs.symlinkSync(path.join('..', 'outside', 'secret.txt'), path.join(workspace, 'linked-secret.txt'));
  }
  const testsIndex = web
    ? path.join(repoRoot, 'out', 'test-web', 'index.js')
    : path.join(repoRoot, 'out', 'test', 'integration', 'index.js');
  const consoleLog = fs.createWriteStream(path.join(tempRoot, `${name}-console.log`));
  say(web ? 'web bundle (web worker extension host)' : 'integration suite (real extension host)');
  server.resetSettings(
    web
      ? {
          ...DEFAULT_USER_SETTINGS,
          'remote.extensionKind': { 'resilient-apply.resilient-apply': ['web'], [TEST_HOST_ID]: ['web'] },
        }
      : undefined,
  );
  /** @type {{ passed: number, failed: number, pending: number, failedTests?: string[] } | null} */
  let result = null;
  let extensionSeen = !web;
  let exitCode = null;
  let resolveExit;
  const exited = new Promise((r) => {
    resolveExit = r;
  });
  const url = workbenchUrl({
    url: server.url,
    folder: workspace,
    extensionDevelopmentPath: extensionUnderTest,
    extensionTestsPath: testsIndex,
  });
  const { context } = await openWorkbench(browser, {
    url,
    onExit: (code, logs) => {
      exitCode = code;
      for (const log of logs ?? []) {
        const file = path.join(tempRoot, `workbench-logs-${name}`, log.relativePath);
        fs.mkdirSync(path.dirname(file), { recursive: true });
        fs.writeFileSync(file, log.contents);
      }
      resolveExit(code);
    },
    onConsole: (text, type) => consoleLog.write(`[${type}] ${text}\n`),
    // While an extensionTestsPath runs, the workbench hands every log line (the extension host's console
    // included) to codeAutomationLog.
    onLog: (level, message) => {
      consoleLog.write(`[workbench ${level}] ${message}\n`);
      const text = String(message);
      if (!text.startsWith(linePrefix)) {
        return;
      }
      const line = text.slice(linePrefix.length);
      const under = /^extension under test: (.*)$/.exec(line);
      if (under) {
        // The web worker has no environment to read the expectation from: the runner checks it here.
        if (path.resolve(under[1]) !== path.resolve(process.env.RESILIENT_APPLY_EXPECTED_EXTENSION_PATH ?? '')) {
          totals.failed += 1;
          failures.push(
            `the ${name} suite exercised the extension at ${under[1]}, not ${process.env.RESILIENT_APPLY_EXPECTED_EXTENSION_PATH}`,
          );
        }
        extensionSeen = true;
      }
      if (line.startsWith(resultPrefix)) {
        try {
          result = JSON.parse(line.slice(resultPrefix.length));
        } catch {
          // Reported below as a missing result.
        }
        return;
      }
      say(line.replace(/^(?=.)/gm, '  ').trimEnd());
    },
  });
  try {
    await withTimeout(exited, INTEGRATION_TIMEOUT_MS, `the ${name} suite`);
  } finally {
    await withTimeout(context.close(), 10_000, 'closing the integration page').catch(() => {});
    consoleLog.end();
  }
  if (result) {
    totals.passed += result.passed;
    totals.failed += result.failed;
    totals.pending += result.pending;
    if (result.failed) {
      const titles = Array.isArray(result.failedTests) ? result.failedTests : [];
      if (titles.length) {
        failures.push(...titles.map((t) => `${name}: ${t}`));
      } else {
        failures.push(`${result.failed} ${name} test(s)`);
      }
    }
  }
  if (!extensionSeen) {
    totals.failed += 1;
    failures.push(`the ${name} suite did not say which extension it exercised`);
  }
  for (const error of extensionErrorsInLogs(tempRoot)) {
    totals.failed += 1;
    failures.push(`an error from the extension in the ${name} run's logs: ${error}`);
  }
  if (web) {
    const secret = fs.readFileSync(path.join(tempRoot, name, 'outside', 'secret.txt'), 'utf8');
    if (secret !== WEB_OUTSIDE_SECRET) {
      totals.failed += 1;
      failures.push('the web host edited a file outside the workspace through a symbolic link');
    }
  }
  if (exitCode !== 0 && (!result || result.failed === 0)) {
    // The suite did not even run to the end (load error, no test files, crash): count it as a failure.
    totals.failed += 1;
    failures.push(`${name} suite exited with code ${exitCode}${result ? '' : ' without reporting results'}`);
  }
}

/**
 * The server a UI test runs on. A test that exports `stubModel = true` (the Chat view tests) gets its own
 * server with the test-only stub language model installed (test/stub-model/), so no other suite ever runs
 * next to a language model.
 */
async function serverFor(mod) {
  if (!mod.stubModel) {
    return server;
  }
  if (!stubModelServer) {
    const dataDir = path.join(tempRoot, 'vscode-stub-model');
    installStubModel(
      install,
      {
        userDataDir: path.join(dataDir, 'user-data'),
        serverDataDir: path.join(dataDir, 'server-data'),
        extensionsDir: path.join(dataDir, 'extensions'),
      },
      path.join(tempRoot, 'stub-model'),
    );
    stubModelServer = await startServer({
      install,
      port: await freePort(),
      dataDir,
      logFile: path.join(tempRoot, 'server-stub-model.log'),
      disableExtensions: TEST_DISABLED_EXTENSIONS,
      installExtensions: installed ? [vsixPath] : [],
    });
    say(`  (server with the test stub language model: ${stubModelServer.url}, pid ${stubModelServer.pid})`);
  }
  return stubModelServer;
}

async function e2eSuite() {
  const dir = path.join(repoRoot, 'test', 'e2e');
  const filter = process.env.RESILIENT_APPLY_E2E;
  const files = fs
    .readdirSync(dir)
    .filter((n) => n.endsWith('.e2e.mjs') && (!filter || n.includes(filter)))
    .sort();
  const shotsDir = path.join(repoRoot, 'test-results', 'e2e');
  fs.rmSync(shotsDir, { recursive: true, force: true });
  fs.mkdirSync(shotsDir, { recursive: true });
  say('');
  say(
    `UI tests (web workbench, ${files.length} file${files.length === 1 ? '' : 's'}; screenshots in ${path.relative(repoRoot, shotsDir)}/)`,
  );
  if (files.length === 0) {
    totals.failed += 1;
    failures.push(`no test/e2e/*.e2e.mjs files${filter ? ` matching ${filter}` : ''}`);
    return;
  }
  for (const file of files) {
    const name = file.replace(/\.e2e\.mjs$/, '');
    const mod = await import(pathToFileURL(path.join(dir, file)).href);
    const title = mod.title ?? name;
    const workspace = copyTree(path.join(repoRoot, 'demo'), path.join(tempRoot, `e2e-${name}`, 'demo'));
    const consoleLog = fs.createWriteStream(path.join(tempRoot, `e2e-${name}-console.log`));
    const started = Date.now();
    let shotCount = 0;
    /** @type {import('playwright-core').Page | undefined} */
    let page;
    /** @type {import('playwright-core').BrowserContext | undefined} */
    let context;
    const screenshot = async (label) => {
      shotCount += 1;
      const file = path.join(shotsDir, `${name}-${String(shotCount).padStart(2, '0')}-${label}.png`);
      await page.screenshot({ path: file });
      return file;
    };
    try {
      await withTimeout(
        (async () => {
          const sessionServer = await serverFor(mod);
          sessionServer.resetSettings();
          ({ context, page } = await openWorkbench(browser, {
            url: workbenchUrl({ url: sessionServer.url, folder: workspace, extensionDevelopmentPath: extensionUnderTest }),
            onConsole: (text, type) => consoleLog.write(`[${type}] ${text}\n`),
          }));
          await waitForWorkbench(page);
          await mod.default({ page, workspace, screenshot, repoRoot, log: (m) => say(`      ${m}`) });
        })(),
        mod.timeoutMs ?? E2E_DEFAULT_TIMEOUT_MS,
        `UI test ${title}`,
      );
      totals.passed += 1;
      say(`  ✔ ${title} (${((Date.now() - started) / 1000).toFixed(1)}s)`);
    } catch (err) {
      totals.failed += 1;
      failures.push(`UI test ${file}: ${err.message.split('\n')[0]}`);
      say(`  ✘ ${title}`);
      // The whole message (assertion diffs are in it), then where it was thrown.
      const message = String(err.message ?? err)
        .split('\n')
        .slice(0, 60);
      const frames = String(err.stack ?? '')
        .split('\n')
        .filter((l) => /^\s+at /.test(l))
        .slice(0, 4);
      say(`      ${[`${err.name ?? 'Error'}: ${message[0]}`, ...message.slice(1), ...frames.map((f) => f.trim())].join('\n      ')}`);
      if (page) {
        await withTimeout(screenshot('FAILED'), 15_000, 'failure screenshot')
          .then((f) => say(`      screenshot: ${path.relative(repoRoot, f)}`))
          .catch(() => {});
      }
    } finally {
      if (context) {
        await withTimeout(context.close(), 10_000, 'closing the page').catch(() => {});
      }
      consoleLog.end();
    }
  }
}

async function main() {
  const prerequisites = [[path.join(repoRoot, 'dist', 'extension.js'), 'npm run build']];
  if (runWeb) {
    prerequisites.push([path.join(repoRoot, 'dist', 'web', 'extension.js'), 'npm run build']);
    prerequisites.push([path.join(repoRoot, 'out', 'test-web', 'index.js'), 'node test/web/build.mjs']);
  }
  if (runIntegration) {
    prerequisites.push([path.join(repoRoot, 'out', 'test', 'integration', 'index.js'), 'npx tsc -p ./']);
  }
  for (const [file, hint] of prerequisites) {
    if (!fs.existsSync(file)) {
      throw new Error(`${path.relative(repoRoot, file)} is missing: run \`${hint}\` first`);
    }
  }
  const installStarted = Date.now();
  install = await withTimeout(ensureInstalled(), INSTALL_TIMEOUT_MS, 'installing VS Code');
  say(
    `VS Code server: ${install.reused ? 'cached' : 'installed'} at ${install.dir} (${Math.round((Date.now() - installStarted) / 1000)}s)`,
  );

  // From here on everything is bounded by one hard timeout, so a hung workbench fails CI in bounded time.
  const hardTimer = setTimeout(() => {
    failures.push(`the run exceeded ${TOTAL_TIMEOUT_MS / 1000}s`);
    void finish(new Error(`timed out after ${TOTAL_TIMEOUT_MS / 1000}s (set RESILIENT_APPLY_TEST_TIMEOUT to change)`));
  }, TOTAL_TIMEOUT_MS);
  hardTimer.unref();

  const started = Date.now();
  tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'resilient-apply-vscode-'));
  const port = await freePort();
  if (installed && !fs.existsSync(vsixPath)) {
    throw new Error(`${path.basename(vsixPath)} is missing: run \`npm run package\` first`);
  }
  if (installed) writeTestHost();
  const dataDir = path.join(tempRoot, 'vscode');
  // The suites check that the extension they exercise is this one (the server's environment reaches them).
  process.env.RESILIENT_APPLY_EXPECTED_EXTENSION_PATH = installed
    ? path.join(dataDir, 'extensions', `${manifest.publisher}.${manifest.name}-${manifest.version}`)
    : repoRoot;
  server = await startServer({
    installExtensions: installed ? [vsixPath] : [],
    install,
    port,
    dataDir,
    logFile: path.join(tempRoot, 'server.log'),
    disableExtensions: TEST_DISABLED_EXTENSIONS,
  });
  say(`server: ${server.url} (pid ${server.pid}); browser: Chromium, headless`);
  say(installed ? `extension under test: ${path.basename(vsixPath)}, installed` : 'extension under test: the development folder');
  browser = await withTimeout(launchBrowser(), 60_000, 'launching Chromium');

  if (runIntegration) {
    const t = Date.now();
    await integrationSuite();
    say(`integration suite took ${((Date.now() - t) / 1000).toFixed(1)}s`);
  }
  if (runWeb) {
    const t = Date.now();
    await integrationSuite({ web: true });
    say(`web suite took ${((Date.now() - t) / 1000).toFixed(1)}s`);
  }
  if (runE2e) {
    const t = Date.now();
    await e2eSuite();
    say(`UI tests took ${((Date.now() - t) / 1000).toFixed(1)}s`);
  }
  // Server and extension-host logs live in the throwaway server data dir; keep them next to the rest.
  say(`VS Code run took ${((Date.now() - started) / 1000).toFixed(1)}s`);
  if (server?.hasExited() || stubModelServer?.hasExited()) {
    throw new Error('the VS Code server died during the run');
  }
}

main().then(
  () => finish(),
  (err) => finish(err),
);
