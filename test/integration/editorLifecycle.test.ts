// Editor apply mode, the document's life between showing a choice and applying it: the editor closed (a
// file is re-opened and re-matched; an untitled buffer is gone and the choice is refused), the file changed
// on disk or in the buffer meanwhile (the choice follows its text or is refused), and an edit racing the
// apply. In every case the final text is asserted exactly: re-match or refuse, never corrupt.
import * as assert from 'node:assert/strict';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import type { ApplyOutcome } from '../../src/extension/applyService';
import { api, applyText, Cmd, lensRows, NEAR_MISS, openFile, scratchSuite, TOTAL, waitFor } from './editorHelpers';

const replaced = (text: string) => text.replace('item.price * item.quantity;', 'item.price * item.quantity * 2;');
const HEADER = "import { Item } from './item';\nimport { log } from './log';\n\n";
const WITHOUT_LOOP = TOTAL.replace('  for (const item of items) {\n    sum += item.price * item.quantity;\n  }\n', '');

type Row = Awaited<ReturnType<typeof lensRows>>[number];

/** Puts NEAR_MISS on `doc` and returns the "Apply here" lens of lines 3-5, as the editor would show it. */
async function pendingLens(doc: vscode.TextDocument): Promise<Row> {
  const outcome = await applyText(NEAR_MISS, doc.uri);
  assert.equal(outcome.status, 'pending', outcome.summary);
  const rows = await lensRows(doc.uri);
  const lens = rows.find((r) => r.command === Cmd.applyCandidate && r.title.endsWith('lines 3-5'));
  assert.ok(lens, `no lens for lines 3-5: ${JSON.stringify(rows.map((r) => r.title))}`);
  return lens;
}

/** Runs the lens's command exactly as a click would; an exception here is an error escaping to the user. */
async function choose(lens: Row): Promise<ApplyOutcome> {
  const outcome = await vscode.commands.executeCommand<ApplyOutcome>(lens.command, ...lens.args);
  assert.ok(outcome, 'the apply command returned nothing');
  return outcome;
}

/** Closes every editor showing `doc`; VS Code keeps the TextDocument alive for a while (it is not disposed). */
async function closeEditors(command = 'workbench.action.closeAllEditors'): Promise<void> {
  await vscode.commands.executeCommand(command);
}

/**
 * Closes the editors and makes VS Code dispose the TextDocument (a closed document is otherwise kept for
 * minutes): deleting the file through a WorkspaceEdit does it at once. Then, unless `content` is undefined,
 * the file is written again, the way a branch switch deletes and re-creates it.
 */
async function disposeDocument(doc: vscode.TextDocument, content: string | undefined): Promise<void> {
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  const edit = new vscode.WorkspaceEdit();
  edit.deleteFile(doc.uri);
  assert.ok(await vscode.workspace.applyEdit(edit), 'could not delete the file');
  await waitFor(() => doc.isClosed, 'the document to be disposed');
  if (content !== undefined) {
    await vscode.workspace.fs.writeFile(doc.uri, new TextEncoder().encode(content));
  }
}

/** The live text of a file: the open document's if VS Code has one, else the bytes on disk. */
async function liveText(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString() && !d.isClosed);
  return open ? open.getText() : new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

async function diskText(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

suite('editor apply: document closed or changed between choice and apply', () => {
  const dir = scratchSuite();

  test('lifecycle: file editor closed before choosing (document kept): applied on the live text', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    const lens = await pendingLens(doc);
    await closeEditors();
    const outcome = await choose(lens);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(await liveText(doc.uri), replaced(TOTAL));
    assert.equal(await diskText(doc.uri), TOTAL, 'the apply is an unsaved edit, like any other');
  });

  test('lifecycle: file closed and its document disposed before choosing: re-opened, re-matched, applied', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    const lens = await pendingLens(doc);
    await disposeDocument(doc, TOTAL);
    const outcome = await choose(lens);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(await liveText(doc.uri), replaced(TOTAL));
  });

  test('lifecycle: file closed, then changed on disk (lines above), document kept: the choice follows its text', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    const lens = await pendingLens(doc);
    await closeEditors('workbench.action.closeActiveEditor');
    await vscode.workspace.fs.writeFile(doc.uri, new TextEncoder().encode(HEADER + TOTAL));
    // The kept document reloads from disk.
    await waitFor(() => doc.isClosed || doc.getText() === HEADER + TOTAL, 'the document to see the new file content');
    const outcome = await choose(lens);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(await liveText(doc.uri), replaced(HEADER + TOTAL), 'applied somewhere other than the chosen text');
  });

  test('lifecycle: document disposed, file re-created with lines above: the choice follows its text', async () => {
    // The re-opened document is a new TextDocument whose version numbering starts again: the old choice's
    // version must not be taken for the new document's.
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    const lens = await pendingLens(doc);
    await disposeDocument(doc, HEADER + TOTAL);
    const outcome = await choose(lens);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(await liveText(doc.uri), replaced(HEADER + TOTAL), 'applied somewhere other than the chosen text');
  });

  test('lifecycle: document disposed, file re-created without the candidate: refused, nothing edited', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    const lens = await pendingLens(doc);
    await disposeDocument(doc, WITHOUT_LOOP);
    const outcome = await choose(lens);
    assert.notEqual(outcome.status, 'applied', `applied onto text that is gone: ${outcome.summary}`);
    assert.ok(outcome.summary.length > 0, 'refused without saying why');
    assert.equal(await liveText(doc.uri), WITHOUT_LOOP);
    assert.equal(await diskText(doc.uri), WITHOUT_LOOP);
  });

  test('lifecycle: file closed, candidate removed on disk, document kept: refused, nothing edited', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    const lens = await pendingLens(doc);
    await closeEditors();
    await vscode.workspace.fs.writeFile(doc.uri, new TextEncoder().encode(WITHOUT_LOOP));
    await waitFor(() => doc.isClosed || doc.getText() === WITHOUT_LOOP, 'the document to see the new file content');
    const outcome = await choose(lens);
    assert.notEqual(outcome.status, 'applied', `applied onto text that is gone: ${outcome.summary}`);
    assert.equal(await liveText(doc.uri), WITHOUT_LOOP);
    assert.equal(await diskText(doc.uri), WITHOUT_LOOP);
  });

  test('lifecycle: unsaved candidate text reverted and closed before choosing: refused, disk text kept', async () => {
    // The candidate exists only in the unsaved buffer; closing without saving throws it away.
    const doc = await openFile(`${dir()}/total.ts`, WITHOUT_LOOP);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(2, 0), '  for (const item of items) {\n    sum += item.price * item.quantity;\n  }\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    assert.equal(doc.getText(), TOTAL);
    const lens = await pendingLens(doc);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await waitFor(() => doc.isClosed || doc.getText() === WITHOUT_LOOP, 'the revert');
    const outcome = await choose(lens);
    assert.notEqual(outcome.status, 'applied', `applied onto text that is gone: ${outcome.summary}`);
    assert.equal(await liveText(doc.uri), WITHOUT_LOOP);
    assert.equal(await diskText(doc.uri), WITHOUT_LOOP);
  });

  test('lifecycle: untitled buffer reverted and closed before choosing: refused, no other document edited', async () => {
    const other = await openFile(`${dir()}/other.ts`, TOTAL, false);
    const scratch = await vscode.workspace.openTextDocument({ content: TOTAL, language: 'typescript' });
    await vscode.window.showTextDocument(scratch, { preview: false });
    const lens = await pendingLens(scratch);
    await vscode.window.showTextDocument(scratch);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    await waitFor(() => scratch.isClosed, 'the untitled buffer to be disposed');
    const outcome = await choose(lens);
    assert.equal(outcome.status, 'refused', outcome.summary);
    assert.equal(other.getText(), TOTAL, 'another document was edited');
    assert.equal(await diskText(other.uri), TOTAL);
    const revived = vscode.workspace.textDocuments.filter((d) => d.uri.toString() === scratch.uri.toString() && !d.isClosed);
    assert.deepEqual(
      revived.map((d) => d.getText()),
      [],
      'the closed untitled buffer came back',
    );
    assert.equal((await api()).pendingStore.list().length, 0, 'the closed buffer still has pending blocks');
  });

  test('lifecycle: lines inserted above between choice and apply: applied at the moved place', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    const lens = await pendingLens(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), HEADER);
    assert.ok(await vscode.workspace.applyEdit(edit));
    const outcome = await choose(lens); // before the debounced re-match: the lens still says lines 3-5
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), replaced(HEADER + TOTAL));
  });

  test('lifecycle: the candidate text replaced between choice and apply: refused, the new situation is offered, nothing edited', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    const lens = await pendingLens(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.replace(doc.uri, new vscode.Range(2, 0, 5, 0), '  items.forEach((item) => {\n    sum += item.price;\n  });\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const changed = doc.getText();
    const outcome = await choose(lens);
    assert.notEqual(outcome.status, 'applied', `applied onto text that is gone: ${outcome.summary}`);
    assert.equal(doc.getText(), changed);
    // Whatever is offered now points at the live text, never at the old lines 3-5 loop.
    for (const row of (await lensRows(doc.uri)).filter((r) => r.command === Cmd.applyCandidate)) {
      const choice = row.args[0] as { startLine: number; endLine: number; version: number };
      assert.equal(choice.version, doc.version, `lens ${row.title} was computed on an older version`);
      assert.ok(choice.endLine <= doc.lineCount, `lens ${row.title} points past the end`);
    }
  });

  test('lifecycle: an edit racing the apply: both land, the block at its text', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    const lens = await pendingLens(doc);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), HEADER);
    // Not awaited in between: whichever reaches the document first, the other must re-match or map.
    const [outcome, inserted] = await Promise.all([choose(lens), vscode.workspace.applyEdit(edit)]);
    assert.equal(inserted, true);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), replaced(HEADER + TOTAL));
  });

  test('lifecycle: file deleted while its choice is open: refused with a message naming it, not re-created', async () => {
    const doc = await openFile(`${dir()}/gone.ts`, TOTAL);
    const lens = await pendingLens(doc);
    await disposeDocument(doc, undefined);
    const outcome = await choose(lens);
    assert.equal(outcome.status, 'refused', outcome.summary);
    assert.match(outcome.summary, /gone\.ts/);
    await assert.rejects(Promise.resolve(vscode.workspace.fs.stat(doc.uri)), 'the deleted file was re-created');
    assert.ok(
      !vscode.workspace.textDocuments.some((d) => d.uri.toString() === doc.uri.toString() && !d.isClosed && d.getText() !== ''),
      'a buffer for the deleted file holds text',
    );
  });
});
