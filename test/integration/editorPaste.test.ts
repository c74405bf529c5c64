// Paste: the extension's registered DocumentPasteEditProvider, called the way VS Code calls it (a
// DataTransfer holding text/plain), and its edits applied through the real WorkspaceEdit machinery.
import * as assert from 'node:assert/strict';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import type { BlockPasteEdit } from '../../src/extension/pasteProvider';
import { api, block, Cmd, lensRows, openFile, scratchSuite, waitFor } from './editorHelpers';

async function paste(doc: vscode.TextDocument, text: string, range = new vscode.Range(0, 0, 0, 0)): Promise<BlockPasteEdit[] | undefined> {
  const { pasteProvider } = await api();
  const dataTransfer = new vscode.DataTransfer();
  dataTransfer.set('text/plain', new vscode.DataTransferItem(text));
  const token = new vscode.CancellationTokenSource().token;
  return pasteProvider.provideDocumentPasteEdits(
    doc,
    [range],
    dataTransfer,
    { only: undefined, triggerKind: vscode.DocumentPasteTriggerKind.Automatic },
    token,
  );
}

function yieldsToText(edit: vscode.DocumentPasteEdit): boolean {
  return (edit.yieldTo ?? []).some((k) => k.value === vscode.DocumentDropOrPasteEditKind.Text.value);
}

suite('editor apply: paste', () => {
  const dir = scratchSuite();

  test('pasted blocks in a code file: the default edit inserts nothing and carries the resolved edits', async () => {
    const source = 'const port = 8080;\nconst host = "localhost";\n';
    const doc = await openFile(`${dir()}/server.ts`, source);
    const edits = await paste(doc, block('const port = 8080;', 'const port = 9090;'), new vscode.Range(2, 0, 2, 0));
    assert.ok(edits && edits.length === 1, 'no paste edit offered');
    const [edit] = edits;
    assert.equal(edit.insertText, '', 'the raw markers must not be inserted');
    assert.match(edit.title, /^Apply SEARCH\/REPLACE blocks/);
    assert.equal(edit.kind.value, 'resilientApply.searchReplace');
    assert.equal(yieldsToText(edit), false, 'in code files it is the default paste');
    // VS Code applies the first edit whose kind editor.pasteAs.preferences names; ours is in the default.
    const preferences = vscode.workspace.getConfiguration('editor', doc.uri).get<string[]>('pasteAs.preferences') ?? [];
    assert.ok(
      preferences.includes(edit.kind.value),
      `editor.pasteAs.preferences does not name ${edit.kind.value}: ${JSON.stringify(preferences)}`,
    );
    assert.ok(edit.additionalEdit, 'a block that places itself rides along as additionalEdit');
    assert.deepEqual(
      edit.additionalEdit.entries().map(([uri]) => uri.toString()),
      [doc.uri.toString()],
    );
    assert.equal(doc.getText(), source, 'providing an edit must not change the document');
    assert.ok(await vscode.workspace.applyEdit(edit.additionalEdit));
    assert.equal(doc.getText(), 'const port = 9090;\nconst host = "localhost";\n');
  });

  test('in Markdown and plain text the edit is offered but plain text stays the default', async () => {
    for (const name of ['notes.md', 'notes.txt']) {
      const doc = await openFile(`${dir()}/${name}`, 'Some words here.\n');
      const edits = await paste(doc, block('Some words here.', 'Other words here.'));
      assert.ok(edits && edits.length === 1, `no paste edit offered in ${name}`);
      assert.equal(yieldsToText(edits[0]), true, `${name}: plain text must stay the default`);
      assert.equal(edits[0].kind.value, 'resilientApply.searchReplaceOffer', `${name}: only the offer kind, not the preferred one`);
    }
  });

  test('resilientApply.paste.applyByDefault=false makes plain text the default in code files too', async () => {
    const config = vscode.workspace.getConfiguration('resilientApply');
    const doc = await openFile(`${dir()}/opt.ts`, 'let a = 1;\n');
    try {
      await config.update('paste.applyByDefault', false, vscode.ConfigurationTarget.Workspace);
      const edits = await paste(doc, block('let a = 1;', 'let a = 2;'));
      assert.ok(edits && edits.length === 1);
      assert.equal(yieldsToText(edits[0]), true);
      assert.equal(edits[0].kind.value, 'resilientApply.searchReplaceOffer');
    } finally {
      await config.update('paste.applyByDefault', undefined, vscode.ConfigurationTarget.Workspace);
    }
  });

  test('text without blocks gets no edit from us', async () => {
    const doc = await openFile(`${dir()}/plain.ts`, 'x\n');
    assert.equal(await paste(doc, 'just text\n======='), undefined);
  });

  test('a pasted near miss inserts nothing and, once applied, shows the candidates as CodeLens', async () => {
    const source = 'function area(w, h) {\n  return w * h;\n}\n';
    const doc = await openFile(`${dir()}/area.js`, source);
    const edits = await paste(
      doc,
      block('function area(width, h) {\n  return w * h;\n}', 'function area(w, h) {\n  return Math.abs(w * h);\n}'),
    );
    assert.ok(edits && edits.length === 1);
    const [edit] = edits;
    assert.equal(edit.insertText, '');
    assert.equal(edit.additionalEdit, undefined, 'nothing may be applied for a near miss');
    const { pasteProvider } = await api();
    // VS Code calls resolve right before applying the chosen paste edit.
    await pasteProvider.resolveDocumentPasteEdit(edit);
    const lens = await waitFor(
      async () => (await lensRows(doc.uri)).find((r) => r.command === Cmd.applyCandidate),
      'the candidate CodeLens after the paste',
    );
    assert.match(lens.title, /Apply here · \d+% · lines 1-3/);
    assert.equal(doc.getText(), source);
  });

  test('switching the paste to plain text (paste widget) drops the pending choices', async () => {
    const source = 'function area(w, h) {\n  return w * h;\n}\n';
    const doc = await openFile(`${dir()}/area.js`, source);
    const text = block('function area(width, h) {\n  return w * h;\n}', 'function area(w, h) {\n  return Math.abs(w * h);\n}');
    const edits = await paste(doc, text);
    assert.ok(edits && edits.length === 1);
    const { pasteProvider } = await api();
    await pasteProvider.resolveDocumentPasteEdit(edits[0]);
    await waitFor(async () => (await lensRows(doc.uri)).some((r) => r.command === Cmd.applyCandidate), 'the candidate CodeLens');
    // What VS Code does when the user picks "Insert Plain Text" in the paste widget: the raw text lands.
    const insert = new vscode.WorkspaceEdit();
    insert.insert(doc.uri, new vscode.Position(3, 0), text);
    assert.ok(await vscode.workspace.applyEdit(insert));
    await waitFor(async () => !(await lensRows(doc.uri)).some((r) => r.command === Cmd.applyCandidate), 'the candidates to go away');
  });

  test('pasting over a selection keeps the selection', async () => {
    const doc = await openFile(`${dir()}/sel.ts`, 'const keep = "me";\nconst change = 1;\n');
    const selection = new vscode.Range(0, 6, 0, 10); // "keep"
    const edits = await paste(doc, block('const change = 1;', 'const change = 2;'), selection);
    assert.ok(edits && edits.length === 1);
    assert.equal(edits[0].insertText, 'keep');
  });

  test('malformed pasted blocks: an edit that applies nothing and reports block and line', async () => {
    const doc = await openFile(`${dir()}/broken.ts`, 'a\n');
    const edits = await paste(doc, '<<<<<<< SEARCH\na\n>>>>>>> REPLACE\n');
    assert.ok(edits && edits.length === 1);
    assert.equal(edits[0].insertText, '');
    assert.equal(edits[0].additionalEdit, undefined);
    assert.match(edits[0].title, /malformed/);
    const followUp = edits[0].followUp;
    assert.equal(followUp.kind, 'error');
    assert.match(followUp.kind === 'error' ? followUp.message : '', /Block 1 \(line 3\)/);
  });
});
