#!/usr/bin/env node
// @ts-check
// `npm start`: the extension (built by `npm run build` first) in a real VS Code, in your browser.
//
// Starts the cached VS Code server (installing it on first use, see scripts/vscodeServer.mjs) on a copy of
// demo/ in a temp directory, so playing never dirties the repository, and prints the URL to open. The
// extension loads as an extension under development (the URL carries its path), so reloading the page
// after `npm run build` picks up changes. Ctrl+C stops the server and removes the copy.
//
//   npm start                       port 8080, or a free one if 8080 is taken
//   PORT=9000 npm start             a fixed port
//   npm start -- --folder <dir>     open <dir> itself instead of a copy of demo/
//   npm start -- --smoke            headless check instead: open the URL in Chromium, wait for the
//                                   extension's CodeLens in demo-blocks.md, save a screenshot, stop
//
// The server listens on 127.0.0.1 only and without a connection token: anyone on this machine can use it
// while it runs. From another machine, forward the port (ssh -L 8080:127.0.0.1:8080 host).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  copyTree,
  DEFAULT_USER_SETTINGS,
  ensureInstalled,
  freePort,
  killGroup,
  repoRoot,
  startServer,
  workbenchUrl,
} from './vscodeServer.mjs';

const argv = process.argv.slice(2);
const smoke = argv.includes('--smoke');
const folderArg = argv.includes('--folder') ? argv[argv.indexOf('--folder') + 1] : undefined;

async function portToUse() {
  const wanted = Number(process.env.PORT || 8080);
  const free = await new Promise((resolve) => {
    import('node:net').then(({ createServer }) => {
      const s = createServer();
      s.once('error', () => resolve(false));
      s.listen(wanted, '127.0.0.1', () => s.close(() => resolve(true)));
    });
  });
  if (free) {
    return wanted;
  }
  if (process.env.PORT) {
    throw new Error(`port ${wanted} (from PORT) is in use`);
  }
  const other = await freePort();
  console.log(`port ${wanted} is in use; using ${other}`);
  return other;
}

if (!fs.existsSync(path.join(repoRoot, 'dist', 'extension.js'))) {
  console.error('dist/extension.js is missing: run `npm run build` (npm start does it for you)');
  process.exit(2);
}

const install = await ensureInstalled();
const tempRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'resilient-apply-start-'));
const folder = folderArg ? path.resolve(folderArg) : copyTree(path.join(repoRoot, 'demo'), path.join(tempRoot, 'demo'));
const logFile = path.join(tempRoot, 'server.log');
const port = await portToUse();
const server = await startServer({
  install,
  port,
  dataDir: path.join(tempRoot, 'vscode'),
  logFile,
  // The demo is a trusted copy; the Chat view stays where VS Code puts it.
  settings: { ...DEFAULT_USER_SETTINGS, 'workbench.secondarySideBar.defaultVisibility': 'visibleInWorkspace' },
  // Opening the bare server URL (e.g. after a reload without the query) still shows the demo folder.
  extraArgs: ['--default-folder', folder],
});
const url = workbenchUrl({ url: server.url, folder, extensionDevelopmentPath: repoRoot });

let stopping = false;
async function stop(code) {
  if (stopping) {
    return;
  }
  stopping = true;
  await server.stop();
  fs.rmSync(tempRoot, { recursive: true, force: true });
  process.exit(code);
}
process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
process.on('SIGHUP', () => void stop(0));
process.stdout.on('error', () => {});
// However this process ends, the server's process group goes with it.
process.on('exit', () => killGroup(server.pid));

if (smoke) {
  const code = await smokeCheck(url).then(
    () => 0,
    (err) => {
      console.error(`smoke check failed: ${err.message}`);
      console.error(`server log: ${fs.readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n')}`);
      return 1;
    },
  );
  await stop(code);
} else {
  console.log('');
  const vscodeVersion = JSON.parse(fs.readFileSync(path.join(install.vscodeDir, 'package.json'), 'utf8')).version;
  console.log(`Resilient Apply is loaded in VS Code ${vscodeVersion} (server pid ${server.pid}, log ${logFile})`);
  console.log(`workspace: ${folder}${folderArg ? '' : ' (a throwaway copy of demo/)'}`);
  console.log('');
  console.log('Open this URL in your browser (Chrome, Edge or Firefox):');
  console.log('');
  console.log(`  ${url}`);
  console.log('');
  console.log('Try demo-blocks.md. After `npm run build`, reload the page to load the new build.');
  console.log('Press Ctrl+C to stop.');
  const watchdog = setInterval(() => {
    if (server.hasExited()) {
      clearInterval(watchdog);
      console.error(`the VS Code server exited; see ${logFile}:`);
      console.error(fs.readFileSync(logFile, 'utf8').split('\n').slice(-20).join('\n'));
      void stop(1);
    }
  }, 1000);
}

/** Opens the URL headless, waits for our CodeLens on demo-blocks.md, and saves a screenshot. */
async function smokeCheck(workbench) {
  const { launchBrowser, openWorkbench, waitForWorkbench } = await import('./workbench.mjs');
  const { openFile } = await import('../test/e2e/workbench.mjs');
  const browser = await launchBrowser();
  const shot = path.join(repoRoot, 'test-results', 'start.png');
  fs.mkdirSync(path.dirname(shot), { recursive: true });
  let page;
  try {
    ({ page } = await openWorkbench(browser, { url: workbench }));
    await waitForWorkbench(page);
    await openFile(page, 'demo-blocks.md');
    const lens = page.locator('.codelens-decoration a', { hasText: 'Apply' }).first();
    await lens.waitFor({ state: 'visible', timeout: 60_000 });
    await page.screenshot({ path: shot });
    console.log(`smoke check passed: the extension's CodeLens shows in demo-blocks.md (${path.relative(repoRoot, shot)})`);
  } catch (err) {
    await page?.screenshot({ path: shot }).catch(() => {});
    err.message += ` (screenshot: ${path.relative(repoRoot, shot)})`;
    throw err;
  } finally {
    await browser.close();
  }
}
