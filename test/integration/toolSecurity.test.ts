// The language model tool must not edit, read or create files outside the workspace, however the path is
// spelled: climbing out with "..", an absolute path elsewhere, or a symbolic link inside the workspace
// (to a file, to a folder, or dangling) that leads outside. An agent steered by text it read could
// otherwise change files the user never opened to it. Links that stay inside the workspace keep working.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { setup, suite, suiteSetup, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import { createApplyTool } from '../../src/extension/chat/applyTool';
import { nodeRealPathResolver } from '../../src/extension/node/realPath';
import { api, cleanUp, fileUri, scratchDir } from './editorHelpers';

const TOOL = 'resilient-apply_applyBlocks';
const SECRET = 'token = "s3cr3t"\nother = 1\n';
const EDIT = [{ search: 'token = "s3cr3t"', replace: 'token = "stolen"' }];

async function invoke(input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(TOOL, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

function isOpen(fsPath: string): boolean {
  return vscode.workspace.textDocuments.some((d) => d.uri.scheme === 'file' && d.uri.fsPath === fsPath);
}

suite('LM tool: workspace boundary and symbolic links', () => {
  let dir: string;
  let inside: string;
  let outsideDir: string;
  let secret: string;

  suiteSetup(async () => {
    await api();
  });

  setup(() => {
    dir = scratchDir();
    inside = fileUri(dir).fsPath;
    fs.mkdirSync(inside, { recursive: true });
    outsideDir = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'ra-outside-'));
    secret = nodePath.join(outsideDir, 'secret.txt');
    fs.writeFileSync(secret, SECRET);
  });

  teardown(async () => {
    await cleanUp();
    fs.rmSync(outsideDir, { recursive: true, force: true });
  });

  test('a symlinked file pointing outside is refused, and the outside file is neither changed nor opened', async () => {
    fs.symlinkSync(secret, nodePath.join(inside, 'link.txt'));
    const message = await invoke({ filePath: `${dir}/link.txt`, blocks: EDIT });
    assert.match(message, /symbolic link.*leads outside the workspace/);
    assert.match(message, /nothing was applied/);
    assert.ok(message.includes(secret), `names the real target: ${message}`);
    assert.equal(fs.readFileSync(secret, 'utf8'), SECRET);
    assert.equal(isOpen(secret) || isOpen(nodePath.join(inside, 'link.txt')), false, 'the file was not opened');
  });

  test('a file inside a linked folder that points outside is refused', async () => {
    fs.symlinkSync(outsideDir, nodePath.join(inside, 'linkdir'), 'dir');
    const message = await invoke({ filePath: `${dir}/linkdir/secret.txt`, blocks: EDIT });
    assert.match(message, /leads outside the workspace/);
    assert.equal(fs.readFileSync(secret, 'utf8'), SECRET);
    // The same through an absolute path that reads as inside.
    const absolute = await invoke({ filePath: fileUri(`${dir}/linkdir/secret.txt`).path, blocks: EDIT });
    assert.match(absolute, /leads outside the workspace/);
    assert.equal(fs.readFileSync(secret, 'utf8'), SECRET);
  });

  test('creating a file through a linked folder or a dangling link that leads outside is refused', async () => {
    fs.symlinkSync(outsideDir, nodePath.join(inside, 'linkdir'), 'dir');
    const created = await invoke({ filePath: `${dir}/linkdir/new.txt`, blocks: [{ search: '', replace: 'planted\n' }] });
    assert.match(created, /leads outside the workspace/);
    assert.equal(fs.existsSync(nodePath.join(outsideDir, 'new.txt')), false);

    fs.symlinkSync(nodePath.join(outsideDir, 'missing.txt'), nodePath.join(inside, 'dangling.txt'));
    const dangling = await invoke({ filePath: `${dir}/dangling.txt`, blocks: [{ search: '', replace: 'planted\n' }] });
    assert.match(dangling, /leads outside the workspace/);
    assert.equal(fs.existsSync(nodePath.join(outsideDir, 'missing.txt')), false);
    assert.equal(fs.lstatSync(nodePath.join(inside, 'dangling.txt')).isSymbolicLink(), true, 'the link is left as it was');
  });

  test('climbing out with ".." or an absolute path outside is refused', async () => {
    const depth = dir.split('/').length;
    const climbing = await invoke({ filePath: `${'../'.repeat(depth + 3)}${secret.replace(/^\//, '')}`, blocks: EDIT });
    assert.match(climbing, /outside the workspace/);
    const absolute = await invoke({ filePath: secret, blocks: EDIT });
    assert.match(absolute, /outside the workspace/);
    assert.equal(fs.readFileSync(secret, 'utf8'), SECRET);
  });

  test('a link inside the workspace to a guarded file asks for confirmation, like the guarded file itself', async () => {
    fs.mkdirSync(nodePath.join(inside, '.vscode'));
    fs.writeFileSync(nodePath.join(inside, '.vscode', 'tasks.json'), '{}\n');
    fs.symlinkSync(nodePath.join('.vscode', 'tasks.json'), nodePath.join(inside, 'notes.md'));
    const tool = createApplyTool({ resolveRealPath: nodeRealPathResolver(), ...(await api()) });
    const token = new vscode.CancellationTokenSource().token;
    const blocks = [{ search: '{}', replace: '{ "version": "2.0.0" }' }];
    const viaLink = await tool.prepareInvocation!({ input: { filePath: `${dir}/notes.md`, blocks } }, token);
    assert.ok(viaLink?.confirmationMessages, 'no confirmation asked for a link to .vscode/tasks.json');
    const direct = await tool.prepareInvocation!({ input: { filePath: `${dir}/.vscode/tasks.json`, blocks } }, token);
    assert.ok(direct?.confirmationMessages);
    const ordinary = await tool.prepareInvocation!({ input: { filePath: `${dir}/real.md`, blocks } }, token);
    assert.equal(ordinary?.confirmationMessages, undefined);
  });

  test('a link that stays inside the workspace is followed: the real file is edited', async () => {
    const real = nodePath.join(inside, 'real.txt');
    fs.writeFileSync(real, SECRET);
    fs.symlinkSync('real.txt', nodePath.join(inside, 'alias.txt'));
    fs.mkdirSync(nodePath.join(inside, 'sub'));
    fs.symlinkSync(inside, nodePath.join(inside, 'sub', 'up'), 'dir');
    const message = await invoke({ filePath: `${dir}/sub/up/alias.txt`, blocks: EDIT });
    assert.match(message, /^Applied 1 block/);
    assert.equal(fs.readFileSync(real, 'utf8'), SECRET.replace('s3cr3t', 'stolen'));
    assert.equal(fs.lstatSync(nodePath.join(inside, 'alias.txt')).isSymbolicLink(), true, 'the link is still a link');
  });
});
