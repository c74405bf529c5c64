// demo-blocks.md promises an outcome for each of its blocks ("exact", "indentation drift", …); npm start
// shows it to people, so check the promises still hold against the demo files, as the editor sees them.
import * as assert from 'node:assert/strict';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import { applyBlocks } from '../../src/core/engine';
import { editBlocks, parseEdits } from '../../src/core/formats/edits';
import { applyEdits } from '../../src/core/batch/hunkPlacement';
import { parseBlocks } from '../../src/core/formats/parser';
import { normalizeBlockPath } from '../../src/extension/targets';

const EXPECTED: { file: string; status: string; tier?: string }[] = [
  { file: 'server/handler.go', status: 'applied', tier: 'exact' },
  { file: 'server/handler.go', status: 'applied', tier: 'indentation' },
  { file: 'src/Invoice.cs', status: 'applied', tier: 'line-endings' },
  { file: 'docs/release-notes.md', status: 'applied', tier: 'quotes' },
  { file: 'src/inventory.ts', status: 'not_found' },
  { file: 'src/inventory.ts', status: 'ambiguous', tier: 'exact' },
];

async function documentText(relativePath: string): Promise<string> {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'no workspace folder open');
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, relativePath));
  return doc.getText();
}

suite('harness: the demo workspace', () => {
  test('every block in demo-blocks.md has the outcome its heading promises', async () => {
    const blocks = parseBlocks(await documentText('demo-blocks.md'));
    assert.deepEqual(
      blocks.map((b) => b.filePath),
      EXPECTED.map((e) => e.file),
    );
    for (const [i, block] of blocks.entries()) {
      const file = EXPECTED[i].file;
      const result = applyBlocks(await documentText(file), [block], { fileName: file });
      const outcome = result.blocks[0];
      const actual = outcome.tier === undefined ? { file, status: result.status } : { file, status: result.status, tier: outcome.tier };
      assert.deepEqual(actual, EXPECTED[i], `block ${block.index}: ${result.message}`);
    }
  });

  test('every diff in demo-patches.md has the outcome its heading promises', async () => {
    const text = await documentText('demo-patches.md');
    // One patch per section: parse each section on its own, as a user copies it.
    const sections = text.split(/^## /m).slice(1);
    const promised = [
      { file: 'server/handler.go', status: 'applied', tier: 'indentation', note: /hunk header said line 61, applied at line 29/ },
      { file: 'src/inventory.ts', status: 'applied', tier: 'exact', note: /after the @@ anchor "export class Store \{" \(line 42\)/ },
      { file: 'src/inventory.ts', status: 'ambiguous', tier: 'exact', note: /lines 32-36[\s\S]*lines 55-59/ },
    ];
    assert.equal(sections.length, promised.length);
    for (const [i, section] of sections.entries()) {
      const blocks = editBlocks(parseEdits(section));
      assert.equal(blocks.length, 1, `section ${i + 1}`);
      const { file, status, tier, note } = promised[i];
      assert.equal(normalizeBlockPath(blocks[0].filePath ?? ''), file);
      const result = applyEdits(await documentText(file), blocks, { fileName: file });
      assert.deepEqual({ status: result.status, tier: result.blocks[0].tier }, { status, tier }, result.message);
      assert.match(result.message, note);
    }
  });

  test('the C# demo file has CRLF line endings and the Go file tab indentation', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const cs = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'src/Invoice.cs'));
    assert.equal(cs.eol, vscode.EndOfLine.CRLF);
    assert.match(await documentText('server/handler.go'), /^\treturn total$/m);
  });
});
