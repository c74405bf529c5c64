// Editor apply mode, unique outcomes: the clipboard command on one and on two files, exact and normalised
// matches, the file's style kept (tabs, CRLF, quote characters), one undo per apply, bad input refused.
import * as assert from 'node:assert/strict';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import type { ApplyOutcome } from '../../src/extension/applyService';
import { block, Cmd, fileUri, openFile, scratchSuite } from './editorHelpers';

async function clipboardApply(text: string): Promise<ApplyOutcome> {
  await vscode.env.clipboard.writeText(text);
  const outcome = await vscode.commands.executeCommand<ApplyOutcome>(Cmd.applyFromClipboard);
  assert.ok(outcome, 'the clipboard command returned nothing');
  return outcome;
}

suite('editor apply: unique matches', () => {
  const dir = scratchSuite();

  test('clipboard command: an exact block applies to the active editor', async () => {
    const doc = await openFile(`${dir()}/greet.ts`, 'export function greet(name: string) {\n  return "Hello, " + name;\n}\n');
    const outcome = await clipboardApply(block('  return "Hello, " + name;', '  return `Hello, ${name}!`;'));
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.match(outcome.summary, /^Applied 1\/1 block/);
    assert.equal(doc.getText(), 'export function greet(name: string) {\n  return `Hello, ${name}!`;\n}\n');
  });

  test('clipboard command: blocks naming two files change both in one apply', async () => {
    const a = await openFile(`${dir()}/a.ts`, 'export const a = 1;\nexport const shared = "a";\n');
    const b = await openFile(`${dir()}/b.ts`, 'export const b = 2;\nexport const shared = "b";\n', false);
    // b.ts is not even open in an editor; the block's path finds it in the workspace.
    const text =
      block('export const a = 1;', 'export const a = 10;', `${dir()}/a.ts`) +
      '\n' +
      block('export const b = 2;', 'export const b = 20;', `${dir()}/b.ts`);
    const outcome = await clipboardApply(text);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.match(outcome.summary, /Applied 2\/2 blocks/);
    assert.equal(a.getText(), 'export const a = 10;\nexport const shared = "a";\n');
    assert.equal(b.getText(), 'export const b = 20;\nexport const shared = "b";\n');
    // Unsaved in both: the apply edits the live buffers, not the files on disk.
    assert.equal(a.isDirty, true);
    assert.equal(b.isDirty, true);
  });

  test('a batch where one file fails applies nothing to either file', async () => {
    const a = await openFile(`${dir()}/a.ts`, 'export const a = 1;\n');
    const b = await openFile(`${dir()}/b.ts`, 'export const b = 2;\n', false);
    const text =
      block('export const a = 1;', 'export const a = 10;', `${dir()}/a.ts`) + block('this line is nowhere at all', 'x', `${dir()}/b.ts`);
    const outcome = await clipboardApply(text);
    assert.notEqual(outcome.status, 'applied');
    assert.equal(a.getText(), 'export const a = 1;\n');
    assert.equal(b.getText(), 'export const b = 2;\n');
  });

  test('matching uses the live buffer, unsaved edits included', async () => {
    const doc = await openFile(`${dir()}/live.ts`, 'const value = 1;\n');
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(1, 0), 'const unsaved = 2;\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const outcome = await clipboardApply(block('const unsaved = 2;', 'const unsaved = 3;'));
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), 'const value = 1;\nconst unsaved = 3;\n');
  });

  test('normalised: indentation drift applies and says so; tab-indented file keeps its tabs', async () => {
    const doc = await openFile(`${dir()}/handler.go`, 'func handle() {\n\tif ok {\n\t\treturn 1\n\t}\n\treturn 0\n}\n');
    // The model wrote 4-space indentation; the file uses tabs.
    const outcome = await clipboardApply(
      block('    if ok {\n        return 1\n    }', '    if ok {\n        log("ok")\n        return 1\n    }'),
    );
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.match(outcome.summary, /normalising indentation/);
    assert.equal(doc.getText(), 'func handle() {\n\tif ok {\n\t\tlog("ok")\n\t\treturn 1\n\t}\n\treturn 0\n}\n');
  });

  test('CRLF file keeps CRLF line endings in replaced and added lines', async () => {
    const doc = await openFile(`${dir()}/crlf.cs`, 'class A\r\n{\r\n    int x = 1;\r\n}\r\n');
    assert.equal(doc.eol, vscode.EndOfLine.CRLF);
    const outcome = await clipboardApply(block('    int x = 1;', '    int x = 2;\n    int y = 3;'));
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), 'class A\r\n{\r\n    int x = 2;\r\n    int y = 3;\r\n}\r\n');
  });

  test('quote style: \' vs " follows the file', async () => {
    const doc = await openFile(`${dir()}/quotes.js`, "const mode = 'fast';\nconst name = 'demo';\n");
    // The model used double quotes everywhere; the file uses single quotes.
    const outcome = await clipboardApply(block('const mode = "fast";', 'const mode = "slow";'));
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), "const mode = 'slow';\nconst name = 'demo';\n");
  });

  test('quote style: curly quotes in the file stay curly', async () => {
    const doc = await openFile(`${dir()}/notes.txt`, 'The banner says “Welcome back” to everyone.\nSecond line.\n');
    // Straight quotes from the model; the file has curly ones.
    const outcome = await clipboardApply(
      block('The banner says "Welcome back" to everyone.', 'The banner says "Welcome home" to everyone.'),
    );
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), 'The banner says “Welcome home” to everyone.\nSecond line.\n');
  });

  test('one undo reverts a whole multi-block apply', async () => {
    const original = 'one();\ntwo();\nthree();\nfour();\n';
    const doc = await openFile(`${dir()}/undo.ts`, original);
    const outcome = await clipboardApply(block('one();', 'ONE();') + block('four();', 'FOUR();'));
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), 'ONE();\ntwo();\nthree();\nFOUR();\n');
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), original);
  });

  test('malformed blocks: error names the block and line, nothing applied', async () => {
    const original = 'alpha\nbeta\n';
    const doc = await openFile(`${dir()}/bad.txt`, original);
    const text = block('alpha', 'ALPHA') + '<<<<<<< SEARCH\nbeta\n>>>>>>> REPLACE\n';
    const outcome = await clipboardApply(text);
    assert.equal(outcome.status, 'invalid');
    assert.match(outcome.summary, /Block 2/);
    assert.match(outcome.summary, /line 8/);
    assert.match(outcome.summary, /=======/);
    assert.equal(doc.getText(), original);
  });

  test('clipboard without blocks is refused with a message', async () => {
    await openFile(`${dir()}/none.txt`, 'text\n');
    const outcome = await clipboardApply('just some text, no markers');
    assert.equal(outcome.status, 'invalid');
    assert.match(outcome.summary, /no SEARCH\/REPLACE blocks/);
  });

  test('a block naming a missing file says so; with an empty SEARCH it can create the file', async () => {
    await openFile(`${dir()}/present.ts`, 'x\n');
    const missing = await vscode.commands.executeCommand<ApplyOutcome>(Cmd.applyText, {
      text: block('some code', 'other code', `${dir()}/missing.ts`),
      notify: false,
    });
    assert.equal(missing.status, 'refused');
    assert.match(missing.summary, /missing\.ts does not exist/);

    const created = await vscode.commands.executeCommand<ApplyOutcome>(Cmd.applyText, {
      text: block('', 'export const created = true;', `${dir()}/new/created.ts`),
      createMissing: 'always',
      notify: false,
    });
    assert.equal(created.status, 'applied', created.summary);
    const bytes = await vscode.workspace.fs.readFile(fileUri(`${dir()}/new/created.ts`));
    assert.match(new TextDecoder().decode(bytes), /^export const created = true;\n?$/);

    const refused = await vscode.commands.executeCommand<ApplyOutcome>(Cmd.applyText, {
      text: block('', 'x', `${dir()}/never.ts`),
      createMissing: 'never',
      notify: false,
    });
    assert.equal(refused.status, 'refused');
    assert.match(refused.summary, /never\.ts does not exist/);
  });

  test('read-only documents are refused with a message', async () => {
    const scheme = 'ra-test-readonly';
    const registration = vscode.workspace.registerTextDocumentContentProvider(scheme, {
      provideTextDocumentContent: () => 'const locked = 1;\n',
    });
    try {
      const uri = vscode.Uri.from({ scheme, path: '/locked.ts' });
      const doc = await vscode.workspace.openTextDocument(uri);
      await vscode.window.showTextDocument(doc);
      const outcome = await vscode.commands.executeCommand<ApplyOutcome>(Cmd.applyText, {
        text: block('const locked = 1;', 'const locked = 2;'),
        target: uri.toString(),
        notify: false,
      });
      assert.equal(outcome.status, 'refused');
      assert.match(outcome.summary, /read-only/);
      assert.equal(doc.getText(), 'const locked = 1;\n');
    } finally {
      registration.dispose();
    }
  });
});
