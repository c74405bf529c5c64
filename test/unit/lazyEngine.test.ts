// The Node extension bundle keeps the matching engine in dist/engine.js and requires it on first use:
// activation loads only the adapters and parsers (that is what VS Code's activation figure pays for), and
// the first call into the engine loads it and gets the engine's answer. Runs the production build into a
// temp folder and loads dist/extension.js in a child process, with a stand-in for the 'vscode' module
// (every API name of @types/vscode; registerCommand records the ids) in place of an extension host.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const outdir = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-lazy-engine-'));
after(() => fs.rmSync(outdir, { recursive: true, force: true }));

/** Loads the bundle, activates it, then previews one block (a call into the engine); prints JSON. */
const CHILD = String.raw`
const Module = require('node:module');
const fs = require('node:fs');
const [bundle, typesFile] = process.argv.slice(1);
const registered = [];
function standIn(name) {
  const f = function () { return standIn(name + '()'); };
  return new Proxy(f, {
    get(target, key) {
      if (key === 'then' || typeof key === 'symbol') return undefined;
      if (name === 'vscode.commands' && key === 'registerCommand') return (id) => (registered.push(id), standIn(id));
      if (name === 'vscode.workspace' && key === 'getConfiguration') return () => ({ get: (_key, fallback) => fallback });
      return standIn(name + '.' + key);
    },
    set: () => true,
    construct: () => standIn('new ' + name),
  });
}
const vscode = {};
for (const m of fs.readFileSync(typesFile, 'utf8').matchAll(/^\texport (?:const|let|namespace|class|enum|function) (\w+)/gm)) {
  vscode[m[1]] = standIn('vscode.' + m[1]);
}
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
`;

test('the Node bundle activates without the engine and loads dist/engine.js on first use', () => {
  const build = spawnSync(process.execPath, ['esbuild.mjs', '--production', '--outdir', outdir], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(build.status, 0, `production build failed:\n${build.stdout}${build.stderr}`);
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
