// Proves the harness itself: the extension really loads in a real extension host, the workspace is the
// throwaway copy of demo/, edits go through the real WorkspaceEdit/undo machinery, and every command the
// manifest declares is registered at runtime.
import * as assert from 'node:assert/strict';
import { suite, suiteSetup, teardown, test } from 'mocha';
import * as vscode from 'vscode';

const EXTENSION_ID = 'resilient-apply.resilient-apply';

interface DeclaredCommand {
  command: string;
  title?: string;
}

function extension(): vscode.Extension<unknown> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  assert.ok(ext, `extension ${EXTENSION_ID} is not loaded (is extensionDevelopmentPath the repository root?)`);
  return ext;
}

/** The commands the manifest declares, read now so the test follows package.json as commands are added. */
function declaredCommands(): string[] {
  const contributes = (extension().packageJSON as { contributes?: { commands?: DeclaredCommand[] } }).contributes;
  return (contributes?.commands ?? []).map((c) => c.command);
}

function workspaceFile(relativePath: string): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test run has no workspace folder open');
  return vscode.Uri.joinPath(folder.uri, relativePath);
}

suite('harness: real extension host', () => {
  suiteSetup(async () => {
    await extension().activate();
  });

  teardown(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('the extension activates', () => {
    const ext = extension();
    assert.equal(ext.isActive, true);
    assert.equal(ext.packageJSON.name, 'resilient-apply');
  });

  test('the extension exercised is the one the run asked for (the installed .vsix or the development folder)', () => {
    const expected = process.env.RESILIENT_APPLY_EXPECTED_EXTENSION_PATH;
    assert.ok(expected, 'the runner did not say which extension it meant to test');
    assert.equal(extension().extensionPath, expected);
  });

  test('the workspace is a copy of demo/', async () => {
    const blocks = await vscode.workspace.fs.readFile(workspaceFile('demo-blocks.md'));
    assert.match(Buffer.from(blocks).toString('utf8'), /<<<<<<< SEARCH/);
  });

  test('a multi-change WorkspaceEdit is applied, then reverted by a single undo', async () => {
    const doc = await vscode.workspace.openTextDocument(workspaceFile('src/inventory.ts'));
    await vscode.window.showTextDocument(doc);
    const original = doc.getText();
    const versionBefore = doc.version;

    // Two separate changes in one edit: one undo must revert both.
    const first = doc.lineAt(0).range;
    const last = doc.lineAt(doc.lineCount - 1).range;
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, first, '// first line replaced by the harness test');
    edit.insert(doc.uri, last.end, '\n// appended by the harness test');
    assert.equal(await vscode.workspace.applyEdit(edit), true, 'applyEdit refused the edit');

    assert.notEqual(doc.getText(), original);
    assert.equal(doc.lineAt(0).text, '// first line replaced by the harness test');
    assert.equal(doc.lineAt(doc.lineCount - 1).text, '// appended by the harness test');
    assert.ok(doc.isDirty);

    await vscode.commands.executeCommand('undo');

    assert.equal(doc.getText(), original, 'one undo did not restore the original text');
    assert.equal(doc.isDirty, false, 'the document is still dirty after undoing the only edit');
    assert.ok(doc.version > versionBefore);
  });

  test('the clipboard round-trips through env.clipboard', async () => {
    const text = `harness clipboard ${Date.now()}\n\tsecond line`;
    await vscode.env.clipboard.writeText(text);
    assert.equal(await vscode.env.clipboard.readText(), text);
  });

  test('every command declared in package.json is registered', async () => {
    const declared = declaredCommands();
    // An empty list would make the check below vacuous.
    assert.ok(declared.length > 0, 'package.json declares no commands (contributes.commands)');
    const registered = new Set(await vscode.commands.getCommands(true));
    const missing = declared.filter((id) => !registered.has(id));
    assert.ok(missing.length === 0, `declared in package.json but not registered: ${missing.join(', ')}`);
  });
});
