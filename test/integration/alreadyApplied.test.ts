// "Already applied" in the real extension host: a block whose SEARCH is gone but whose REPLACE is in the
// file (the model re-sent an edit that had already landed). The editor path answers "Already applied at
// lines a-b" with nothing pending and no candidate lenses; the LM tool answers with the engine message.
import * as assert from 'node:assert/strict';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import { api, applyText, block, Cmd, lensRows, openFile, scratchSuite, TOTAL } from './editorHelpers';

const TOOL = 'resilient-apply_applyBlocks';

async function invoke(input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(TOOL, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

const RESENT = block('    sum += item.price;', '    sum += item.price * item.quantity;');

suite('already applied: editor and LM tool', () => {
  const dir = scratchSuite();

  test('editor: applying an edit that already landed says "Already applied at line 4", keeps nothing pending, shows no lenses', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    const outcome = await applyText(RESENT, doc.uri);
    assert.equal(outcome.status, 'refused', outcome.summary);
    assert.match(outcome.summary, /^Already applied at line 4 of .*total\.ts/);
    assert.deepEqual(
      outcome.alreadyApplied?.map((a) => ({ block: a.block, range: a.range })),
      [{ block: 1, range: { startLine: 4, endLine: 4 } }],
    );
    assert.equal(doc.getText(), TOTAL);
    const { pendingStore } = await api();
    assert.equal(pendingStore.firstUnresolved(doc.uri), undefined, 'nothing pending');
    const rows = await lensRows(doc.uri);
    assert.equal(rows.filter((r) => r.command === Cmd.applyCandidate).length, 0, 'no candidate lenses');
  });

  test('editor: a batch whose only failing block is already applied applies nothing and keeps nothing pending', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    const text = block('  return sum;', '  return Math.round(sum);') + '\n' + RESENT.replace('<<<<<<< SEARCH\n', '<<<<<<< SEARCH\n');
    const outcome = await applyText(text, doc.uri);
    assert.equal(outcome.status, 'refused', outcome.summary);
    assert.match(outcome.summary, /^Already applied at line 4/);
    assert.equal(doc.getText(), TOTAL);
    assert.equal((await api()).pendingStore.firstUnresolved(doc.uri), undefined);
  });

  test('LM tool: answers not found, already applied at lines a-b, do not re-send; the file is untouched', async () => {
    const doc = await openFile(`${dir()}/total.ts`, TOTAL);
    const message = await invoke({
      filePath: `${dir()}/total.ts`,
      blocks: [
        {
          search: '  for (const item of items) {\n    sum += item.price;\n  }',
          replace: '  for (const item of items) {\n    sum += item.price * item.quantity;\n  }',
        },
      ],
    });
    assert.match(message, /SEARCH text not found in .*total\.ts: already applied at lines 3-5/);
    assert.match(message, /Do not re-send this block/);
    assert.doesNotMatch(message, /Closest matches/);
    assert.equal(doc.getText(), TOTAL);
  });
});
