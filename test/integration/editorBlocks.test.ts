// Blocks sitting in a document (a Markdown chat transcript, an untitled scratch buffer): a CodeLens above
// each block, "Apply to <file>" / "Apply to active editor", and Apply Selected Blocks.
import * as assert from 'node:assert/strict';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import type { ApplyOutcome } from '../../src/extension/applyService';
import { block, Cmd, lensRows, openFile, scratchSuite, waitFor } from './editorHelpers';

let untitledCount = 0;

/**
 * A new untitled buffer with `content`, under a name no earlier test used: VS Code reuses "Untitled-1"
 * for the next buffer, and until the workbench has let go of a closed one, a CodeLens request by URI can
 * still describe the old buffer (under load for longer than any wait).
 */
async function untitled(content: string, language = 'markdown'): Promise<vscode.TextDocument> {
  const uri = vscode.Uri.from({ scheme: 'untitled', path: `blocks-${process.pid}-${++untitledCount}` });
  const doc = await vscode.languages.setTextDocumentLanguage(await vscode.workspace.openTextDocument(uri), language);
  const edit = new vscode.WorkspaceEdit();
  edit.insert(uri, new vscode.Position(0, 0), content);
  assert.ok(await vscode.workspace.applyEdit(edit), 'filled the untitled buffer');
  await vscode.window.showTextDocument(doc, { preview: false });
  return doc;
}

suite('editor apply: blocks in a document', () => {
  const dir = scratchSuite();

  test('a transcript gets "Apply to <file>" above each block and "Apply all"; the lens applies the block', async () => {
    const x = await openFile(`${dir()}/x.ts`, 'export const x = 1;\nexport const y = 2;\n', false);
    const transcript = [
      'The assistant said:',
      '',
      `${dir()}/x.ts`,
      '```ts',
      '<<<<<<< SEARCH',
      'export const x = 1;',
      '=======',
      'export const x = 100;',
      '>>>>>>> REPLACE',
      '```',
      '',
      '```ts',
      '<<<<<<< SEARCH',
      'export const y = 2;',
      '=======',
      'export const y = 200;',
      '>>>>>>> REPLACE',
      '```',
      '',
    ].join('\n');
    const doc = await untitled(transcript);
    const rows = (await lensRows(doc.uri)).filter((r) => r.command === Cmd.applyBlocksInDocument);
    assert.deepEqual(
      rows.map((r) => [r.line, r.title]),
      [
        [2, `$(play) Apply to ${dir()}/x.ts`],
        [2, '$(run-all) Apply all 2 blocks'],
        [11, `$(play) Apply to ${dir()}/x.ts`],
      ],
    );
    const first = await vscode.commands.executeCommand<ApplyOutcome>(rows[0].command, ...rows[0].args);
    assert.equal(first.status, 'applied', first.summary);
    assert.equal(x.getText(), 'export const x = 100;\nexport const y = 2;\n');
    assert.equal(doc.getText(), transcript, 'the transcript itself is never edited');
    const second = await vscode.commands.executeCommand<ApplyOutcome>(rows[2].command, ...rows[2].args);
    assert.equal(second.status, 'applied', second.summary);
    assert.equal(x.getText(), 'export const x = 100;\nexport const y = 200;\n');
  });

  test('"Apply to active editor" targets the editor the user came from, not the scratch buffer', async () => {
    const code = await openFile(`${dir()}/target.py`, 'def f():\n    return 1\n');
    const scratch = await untitled(block('    return 1', '    return 2'), 'plaintext');
    // The lens provider reads the buffer as the workbench last sent it: wait for this content's lens.
    const applyRows = async () => (await lensRows(scratch.uri)).filter((r) => r.command === Cmd.applyBlocksInDocument);
    const rows = await waitFor(async () => {
      const now = await applyRows();
      return now.length === 1 && now[0].title === '$(play) Apply to active editor' ? now : undefined;
    }, 'the "Apply to active editor" lens of this buffer');
    const outcome = await vscode.commands.executeCommand<ApplyOutcome>(rows[0].command, ...rows[0].args);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(code.getText(), 'def f():\n    return 2\n');
  });

  test('Apply Selected Blocks applies only the selected block', async () => {
    const code = await openFile(`${dir()}/sel.ts`, 'one\ntwo\n');
    const text = block('one', 'ONE', `${dir()}/sel.ts`) + '\n' + block('two', 'TWO', `${dir()}/sel.ts`);
    const scratch = await untitled(text);
    const editor = await vscode.window.showTextDocument(scratch);
    // Select the second block (path line through the REPLACE marker).
    const start = text.split('\n').indexOf(`${dir()}/sel.ts`, 1);
    editor.selection = new vscode.Selection(start, 0, start + 6, 0);
    const outcome = await vscode.commands.executeCommand<ApplyOutcome>(Cmd.applySelectedBlocks);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(code.getText(), 'one\nTWO\n');
  });

  test('the lenses follow the transcript as it is edited (asked again at the same version, the same lenses)', async () => {
    const doc = await untitled(block('one', 'ONE'));
    const titles = async () => (await lensRows(doc.uri)).filter((r) => r.command === Cmd.applyBlocksInDocument).map((r) => r.title);
    await waitFor(async () => ((await titles()).length === 1 ? true : undefined), 'the lens of the first block');
    assert.deepEqual(await titles(), ['$(play) Apply to active editor'], 'asked again, nothing changed');
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(doc.lineCount, 0), `\n${block('two', 'TWO')}`);
    assert.ok(await vscode.workspace.applyEdit(edit));
    const after = await waitFor(async () => {
      const now = await titles();
      return now.length === 3 ? now : undefined;
    }, 'the lenses of both blocks after the edit');
    assert.deepEqual(after, ['$(play) Apply to active editor', '$(run-all) Apply all 2 blocks', '$(play) Apply to active editor']);
    const remove = new vscode.WorkspaceEdit();
    remove.delete(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0));
    assert.ok(await vscode.workspace.applyEdit(remove));
    await waitFor(async () => ((await titles()).length === 0 ? true : undefined), 'no lens once the blocks are gone');
  });

  test('a malformed block in a transcript shows an error lens naming block and line', async () => {
    const doc = await untitled('Text\n<<<<<<< SEARCH\nfoo\n>>>>>>> REPLACE\n');
    const rows = await lensRows(doc.uri);
    assert.equal(rows.length, 1);
    assert.match(rows[0].title, /^\$\(error\) Block 1 is malformed at line 4/);
  });
});
