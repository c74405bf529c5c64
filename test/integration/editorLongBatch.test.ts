// Long batches in the editor: thousands of blocks match in near-linear time with a progress
// notification, apply as one WorkspaceEdit (one undo), and a cancelled batch applies nothing.
import * as assert from 'node:assert/strict';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import { parseBlocks } from '../../src/core/formats/parser';
import { api, applyText, block, openFile, scratchSuite } from './editorHelpers';

const LINES = 3000;
const source = Array.from({ length: LINES }, (_, i) => `const value${i} = ${i};`).join('\n') + '\n';
const edited = source.replace(/= (\d+);/g, '= $1 * 2;');
const batch = Array.from({ length: LINES }, (_, i) => block(`const value${i} = ${i};`, `const value${i} = ${i} * 2;`)).join('');

suite('editor apply: long batches', () => {
  const dir = scratchSuite();

  test(`${LINES} blocks apply as one edit and one undo reverts them all`, async () => {
    const doc = await openFile(`${dir()}/long.ts`, source);
    const outcome = await applyText(batch, doc.uri);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), edited);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), source);
  });

  test('a cancelled long batch applies nothing and says it was cancelled', async () => {
    const doc = await openFile(`${dir()}/cancelled.ts`, source);
    const { applyService } = await api();
    const cancel = new vscode.CancellationTokenSource();
    cancel.cancel();
    const blocks = parseBlocks(batch);
    const plan = await applyService.plan(blocks, doc.uri, 'test', cancel.token);
    const result = plan.parts[0].result;
    assert.ok(result.cancelled, `not cancelled: ${result.message.slice(0, 200)}`);
    assert.notEqual(result.status, 'applied');
    assert.match(result.message, /Cancelled after \d+ of 3000 blocks; nothing was applied/);
    const outcome = await applyService.applyBlocks(blocks, {
      fallback: doc.uri,
      source: 'test',
      notify: false,
      keepPending: false,
      token: cancel.token,
    });
    assert.notEqual(outcome.status, 'applied');
    assert.equal(doc.getText(), source, 'a cancelled batch must not touch the document');
  });
});
