// The Node extension bundle keeps the matching engine in dist/engine.js and requires it on first use:
// activation loads only the adapters and parsers (that is what VS Code's activation figure pays for), and
// the first call into the engine loads it and gets the engine's answer. The web bundle keeps it in
// dist/web/engine.js, which activate() starts reading through the file system API (the web worker host
// can load nothing synchronously); entry points wait for it, and a failure to load is the error of each.
// Runs the production build into a temp folder and loads the bundles in a child process, with a stand-in
// for the 'vscode' module (every API name of @types/vscode; registerCommand records the ids) in place of an
// extension host.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
// A folder named dist, like the extension's: the web bundle reads <extension>/dist/web/engine.js.
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-lazy-engine-'));
const outdir = path.join(tmp, 'dist');
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

/**
 * The child scripts' stand-in for the 'vscode' module: every API name of @types/vscode, each a proxy that
 * answers any member with another stand-in; override(name, key) answers the members a test needs.
 */
const STAND_IN = String.raw`
const fs = require('node:fs');
function vscodeStandIn(typesFile, override) {
  function standIn(name) {
    const f = function () { return standIn(name + '()'); };
    return new Proxy(f, {
      get(target, key) {
        if (key === 'then' || typeof key === 'symbol') return undefined;
        if (name === 'vscode.workspace' && key === 'getConfiguration') return () => ({ get: (_key, fallback) => fallback });
        const answer = override(name, key);
        return answer !== undefined ? answer : standIn(name + '.' + key);
      },
      set: () => true,
      construct: () => standIn('new ' + name),
    });
  }
  const vscode = {};
  for (const m of fs.readFileSync(typesFile, 'utf8').matchAll(/^\texport (?:const|let|namespace|class|enum|function) (\w+)/gm)) {
    vscode[m[1]] = standIn('vscode.' + m[1]);
  }
  return { vscode, standIn };
}
`;

/** Loads the bundle, activates it, then previews one block (a call into the engine); prints JSON. */
const CHILD = String.raw`${STAND_IN}
const Module = require('node:module');
const [bundle, typesFile] = process.argv.slice(1);
const registered = [];
const { vscode, standIn } = vscodeStandIn(typesFile, (name, key) =>
  name === 'vscode.commands' && key === 'registerCommand' ? (id) => (registered.push(id), standIn(id)) : undefined,
);
const load = Module._load;
Module._load = function (request, ...rest) { return request === 'vscode' ? vscode : load.call(this, request, ...rest); };
const engineLoaded = () => Object.keys(require.cache).some((file) => file.endsWith('engine.js'));
const extension = require(bundle);
const api = extension.activate({ subscriptions: [], extensionUri: standIn('uri'), globalState: standIn('state'), workspaceState: standIn('state') });
const afterActivate = engineLoaded();
const block = { index: 0, search: 'b', replace: 'B', sourceLine: 1 };
const part = {
  label: 'x.txt', text: 'a\nb\nc\n', blocks: [block], choices: {}, result: { blocks: [{ index: 0, status: 'applied' }] },
  document: { uri: standIn('uri'), languageId: 'plaintext' },
};
const preview = api.applyService.previewContent(part, {});
console.log(JSON.stringify({ registered, afterActivate, afterFirstUse: engineLoaded(), preview }));
// The code cache is written some seconds after activation (src/extensionLoader.ts): stay that long.
if (process.env.STAY_MS) setTimeout(() => {}, Number(process.env.STAY_MS));
`;

/** The production build into outdir, once for both tests. */
let built = false;
function buildOnce(): void {
  if (built) {
    return;
  }
  const build = spawnSync(process.execPath, ['esbuild.mjs', '--production', '--outdir', outdir], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, `production build failed:\n${build.stdout}${build.stderr}`);
  built = true;
}

test('the Node bundle activates without the engine and loads dist/engine.js on first use', () => {
  buildOnce();
  assert.ok(fs.existsSync(path.join(outdir, 'engine.js')), 'the build wrote no engine.js');

  const types = path.join(ROOT, 'node_modules', '@types', 'vscode', 'index.d.ts');
  const run = spawnSync(process.execPath, ['-e', CHILD, path.join(outdir, 'extension.js'), types], { encoding: 'utf8' });
  assert.equal(run.status, 0, `loading the bundle failed:\n${run.stderr}`);
  const result = JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as {
    registered: string[];
    afterActivate: boolean;
    afterFirstUse: boolean;
    preview: string;
  };

  // activate() really ran: every command the manifest declares was registered.
  const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    contributes: { commands: { command: string }[] };
  };
  for (const { command } of manifest.contributes.commands) {
    assert.ok(result.registered.includes(command), `activate() did not register ${command}`);
  }
  assert.equal(result.afterActivate, false, 'activation loaded dist/engine.js');
  assert.equal(result.afterFirstUse, true, 'the first call into the engine did not load dist/engine.js');
  assert.equal(result.preview, 'a\nB\nc\n', "the engine's answer did not come back through the lazy forwarder");
});

test('the Node host entry runs the bundle through a code cache: the first start writes it, the next uses it, alike', () => {
  buildOnce();
  // os.tmpdir() follows TMPDIR: a cache folder of this test's own (src/node/codeCache.ts cacheDirectory).
  const tmpdir = path.join(tmp, 'cache-home');
  fs.mkdirSync(tmpdir);
  const types = path.join(ROOT, 'node_modules', '@types', 'vscode', 'index.d.ts');
  const start = () => {
    const run = spawnSync(process.execPath, ['-e', CHILD, path.join(outdir, 'extension.js'), types], {
      encoding: 'utf8',
      env: { ...process.env, TMPDIR: tmpdir, STAY_MS: '5500' },
    });
    assert.equal(run.status, 0, `loading the bundle failed:\n${run.stderr}`);
    return run.stdout.trim().split('\n').pop();
  };
  const caches = () =>
    fs
      .readdirSync(tmpdir, { recursive: true, encoding: 'utf8' })
      .filter((name) => /extension-[\w.-]+\.cache$/.test(name))
      .map((name) => ({ name, mtimeMs: fs.statSync(path.join(tmpdir, name)).mtimeMs }));
  const first = start();
  const written = caches();
  assert.equal(written.length, 1, `the first start wrote no cache (or several): ${JSON.stringify(written)}`);
  const second = start();
  // saveCache writes only when V8 did not accept the cache: an unchanged file means the second start used it.
  assert.deepEqual(caches(), written, 'the second start did not use the cache the first one wrote');
  assert.equal(second, first, 'the start with the cache activated differently');
  assert.ok(fs.statSync(path.join(outdir, 'extension-main.js')).size < 150_000, 'the Node bundle is over 150,000 bytes');
});

/**
 * Loads the web bundle, activates it, checks the engine is not usable before dist/web/engine.js has been
 * read (it is not in the bundle), lets the read finish, then previews one block and runs the applyText
 * command's gate. With `fail`, reading the engine file fails. Prints JSON.
 */
const WEB_CHILD = String.raw`${STAND_IN}
const Module = require('node:module');
const path = require('node:path');
const [bundle, typesFile, fail] = process.argv.slice(1);
const handlers = {};
const errorsShown = [];
const reads = [];
let finishRead;
const readGate = new Promise((resolve) => (finishRead = resolve));
const { vscode, standIn } = vscodeStandIn(typesFile, (name, key) => {
  if (name === 'vscode.commands' && key === 'registerCommand') return (id, handler) => ((handlers[id] = handler), standIn(id));
  if (name === 'vscode.window' && key === 'showErrorMessage') return (message) => (errorsShown.push(message), Promise.resolve(undefined));
  if (name === 'vscode.Uri' && key === 'joinPath') return (base, ...parts) => ({ fsPath: path.join(base.fsPath, ...parts), toString: () => 'file://' + path.join(base.fsPath, ...parts) });
  if (name === 'vscode.workspace' && key === 'fs') return {
    readFile: async (uri) => {
      reads.push(path.relative(root, uri.fsPath));
      await readGate;
      if (fail) throw new Error('EntryNotFound (FileSystemError)');
      return new Uint8Array(fs.readFileSync(uri.fsPath));
    },
  };
  return undefined;
});
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'vscode') return vscode;
  if (request === bundle) return load.call(this, request, ...rest);
  throw new Error('the web bundle required ' + request + ' (the web worker host serves only vscode)');
};
const root = path.resolve(path.dirname(bundle), '..', '..');
const extension = require(bundle);
const api = extension.activate({ subscriptions: [], extensionUri: { fsPath: root, toString: () => 'file://' + root }, globalState: standIn('state'), workspaceState: standIn('state') });
const block = { index: 0, search: 'b', replace: 'B', sourceLine: 1 };
const part = {
  label: 'x.txt', text: 'a\nb\nc\n', blocks: [block], choices: {}, result: { blocks: [{ index: 0, status: 'applied' }] },
  document: { uri: standIn('uri'), languageId: 'plaintext' },
};
const attempt = () => { try { return { preview: api.applyService.previewContent(part, {}) }; } catch (e) { return { error: e.message }; } };
(async () => {
  const beforeLoad = attempt();
  const readsAtActivation = [...reads];
  finishRead();
  // The applyText command waits for the engine; with a bad target it then answers 'refused' or fails with the load error.
  let command;
  try {
    const outcome = await handlers['resilientApply.applyText']({ text: 'not a block', notify: false });
    command = { status: outcome.status };
  } catch (e) {
    command = { error: e.message };
  }
  console.log(JSON.stringify({ readsAtActivation, beforeLoad, afterLoad: attempt(), command, errorsShown }));
})();
`;

interface WebRun {
  readsAtActivation: string[];
  beforeLoad: { preview?: string; error?: string };
  afterLoad: { preview?: string; error?: string };
  command: { status?: string; error?: string };
  errorsShown: string[];
}

function runWeb(fail: boolean): WebRun {
  buildOnce();
  const types = path.join(ROOT, 'node_modules', '@types', 'vscode', 'index.d.ts');
  const args = ['-e', WEB_CHILD, path.join(outdir, 'web', 'extension.js'), types, ...(fail ? ['fail'] : [])];
  const run = spawnSync(process.execPath, args, { encoding: 'utf8' });
  assert.equal(run.status, 0, `loading the web bundle failed:\n${run.stderr}`);
  return JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as WebRun;
}

test('the web bundle holds no engine: activate() starts reading dist/web/engine.js, entry points wait for it', () => {
  const result = runWeb(false);
  assert.deepEqual(result.readsAtActivation, [path.join('dist', 'web', 'engine.js')], 'activate() did not start reading the engine');
  assert.match(
    result.beforeLoad.error ?? '',
    /still loading/,
    `the engine answered before dist/web/engine.js was read: ${JSON.stringify(result.beforeLoad)}`,
  );
  assert.equal(result.afterLoad.preview, 'a\nB\nc\n', "the engine's answer did not come back through the web stand-in");
  assert.deepEqual(result.command, { status: 'invalid' });
  assert.deepEqual(result.errorsShown, []);
  // The adapters alone, within bench:editor's budget: the engine is some 440,000 bytes, so a leak of it is far
  // over. The whole-answer adapters (issue 28) took it to 160,000; whole patches, re-matching and the tool
  // input's checks moved into the engine brought it back to about 143,000.
  assert.ok(fs.statSync(path.join(outdir, 'web', 'extension.js')).size < 150_000, 'the web bundle is over 150,000 bytes');
});

test('the web bundle reports an engine that cannot be loaded on first use, once, naming the problem', () => {
  const result = runWeb(true);
  const problem = /could not load its matching engine.*EntryNotFound/;
  assert.match(result.afterLoad.error ?? '', problem);
  assert.match(result.command.error ?? '', problem);
  assert.equal(result.errorsShown.length, 1, `error messages shown: ${JSON.stringify(result.errorsShown)}`);
  assert.match(result.errorsShown[0], problem);
});
