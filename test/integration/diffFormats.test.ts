// Unified diffs and apply_patch patches in the real extension host, through every way in: paste (the
// registered paste provider), CodeLens in a .diff document, the @apply participant's handler and its
// buttons, and the language model tool's `patch` input. Each case carries the drift models produce
// (indentation, quotes) and a stale line number, or a hunk whose context occurs twice.
import * as assert from 'node:assert/strict';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import type { ApplyOutcome } from '../../src/extension/applyService';
import { createApplyParticipantHandler } from '../../src/extension/chat/chatParticipant';
import { api, applyText, Cmd, fileUri, invokeApplyTool, lensRows, openFile, scratchSuite } from './editorHelpers';

const SERVER = [
  'import http from "node:http";',
  '',
  'function greet(name) {',
  "\treturn 'Hello, ' + name;",
  '}',
  '',
  'function start(port) {',
  '\tconst server = http.createServer(handler);',
  '\tserver.listen(port);',
  '\treturn server;',
  '}',
  '',
].join('\n');

/** The same edit three ways the model might write it: spaces for tabs, double quotes, stale numbers. */
function unifiedDiff(path: string): string {
  return [
    'Here is the change:',
    '',
    '```diff',
    `--- a/${path}`,
    `+++ b/${path}`,
    '@@ -3,3 +3,3 @@',
    ' function greet(name) {',
    '-    return "Hello, " + name;',
    '+    return "Hi, " + name;',
    ' }',
    '@@ -40,3 +40,3 @@',
    ' function start(port) {',
    '     const server = http.createServer(handler);',
    '-    server.listen(port);',
    '+    server.listen(port, "127.0.0.1");',
    '```',
    '',
  ].join('\n');
}

const EXPECTED = SERVER.replace("\treturn 'Hello, ' + name;", "\treturn 'Hi, ' + name;").replace(
  '\tserver.listen(port);',
  '\tserver.listen(port, "127.0.0.1");',
);

function applyPatch(path: string): string {
  return [
    '*** Begin Patch',
    `*** Update File: ${path}`,
    '@@ function start(port) {',
    '-    server.listen(port);',
    '+    server.listen(port, "127.0.0.1");',
    '@@ function greet(name) {',
    '-    return "Hello, " + name;',
    '+    return "Hi, " + name;',
    '*** End Patch',
    '',
  ].join('\n');
}

/** A file where the same two lines occur twice, far apart. */
const TWICE = ['x = 1', 'y = 2', ...Array<string>(30).fill('pad()'), 'x = 1', 'y = 2', ''].join('\n');
const TWICE_DIFF = ['@@ -80,2 +80,2 @@', ' x = 1', '-y = 2', '+y = 3', ''].join('\n');

async function paste(doc: vscode.TextDocument, text: string) {
  const { pasteProvider } = await api();
  const dataTransfer = new vscode.DataTransfer();
  dataTransfer.set('text/plain', new vscode.DataTransferItem(text));
  return pasteProvider.provideDocumentPasteEdits(
    doc,
    [new vscode.Range(0, 0, 0, 0)],
    dataTransfer,
    { only: undefined, triggerKind: vscode.DocumentPasteTriggerKind.Automatic },
    new vscode.CancellationTokenSource().token,
  );
}

/** The chat view's side of a request: a stream that records markdown and buttons. */
async function askApply(prompt: string): Promise<{ text: string; buttons: vscode.Command[] }> {
  let text = '';
  const buttons: vscode.Command[] = [];
  const stream = {
    markdown: (v: string | vscode.MarkdownString) => {
      text += typeof v === 'string' ? v : v.value;
    },
    anchor: () => undefined,
    button: (c: vscode.Command) => {
      buttons.push(c);
    },
    filetree: () => undefined,
    progress: () => undefined,
    reference: () => undefined,
    push: () => undefined,
  } as unknown as vscode.ChatResponseStream;
  const request = {
    prompt,
    command: undefined,
    references: [],
    toolReferences: [],
    toolInvocationToken: undefined as never,
    model: undefined as unknown as vscode.LanguageModelChat,
  } as unknown as vscode.ChatRequest;
  await createApplyParticipantHandler((await api()).applyService)(
    request,
    { history: [] },
    stream,
    new vscode.CancellationTokenSource().token,
  );
  return { text, buttons };
}

suite('diff formats: unified diff and apply_patch', () => {
  const dir = scratchSuite();

  test('paste: a unified diff with drift and a stale line number applies as the default paste edit', async () => {
    const path = `${dir()}/server.js`;
    const doc = await openFile(path, SERVER);
    const edits = await paste(doc, unifiedDiff(path));
    assert.ok(edits && edits.length === 1, 'no paste edit offered');
    assert.equal(edits[0].title, 'Apply unified diff (2 hunks)');
    assert.equal(edits[0].insertText, '');
    assert.ok(edits[0].additionalEdit, 'a diff that places itself rides along as additionalEdit');
    assert.ok(await vscode.workspace.applyEdit(edits[0].additionalEdit));
    assert.equal(doc.getText(), EXPECTED);
  });

  test('paste: an apply_patch patch with @@ anchors applies', async () => {
    const path = `${dir()}/server.js`;
    const doc = await openFile(path, SERVER);
    const edits = await paste(doc, applyPatch(path));
    assert.ok(edits && edits.length === 1 && edits[0].additionalEdit, 'no applying paste edit');
    assert.equal(edits[0].title, 'Apply apply_patch patch (2 hunks)');
    assert.ok(await vscode.workspace.applyEdit(edits[0].additionalEdit));
    assert.equal(doc.getText(), EXPECTED);
  });

  test('a hunk whose context occurs twice is refused with both places and the file untouched', async () => {
    const doc = await openFile(`${dir()}/twice.py`, TWICE);
    const outcome = await applyText(TWICE_DIFF, doc.uri);
    assert.equal(outcome.status, 'pending');
    const result = outcome.plan!.parts[0].result;
    assert.equal(result.blocks[0].status, 'ambiguous');
    assert.deepEqual(
      result.blocks[0].candidates.map((c) => c.startLine),
      [1, 33],
    );
    assert.equal(doc.getText(), TWICE);
  });

  test('CodeLens in a .diff file: one lens per hunk plus "Apply all"; the lens applies to the named file', async () => {
    const path = `${dir()}/server.js`;
    const target = await openFile(path, SERVER, false);
    const diffDoc = await openFile(
      `${dir()}/change.diff`,
      unifiedDiff(path)
        .split('\n')
        .filter((l) => !l.startsWith('```'))
        .join('\n'),
    );
    const rows = await lensRows(diffDoc.uri);
    assert.deepEqual(
      rows.map((r) => r.title),
      [`$(play) Apply to ${path}`, '$(run-all) Apply all 2 hunks', `$(play) Apply to ${path}`],
    );
    const all = rows[1];
    const outcome = await vscode.commands.executeCommand<ApplyOutcome>(all.command, ...all.args);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(target.getText(), EXPECTED);
  });

  test('@apply: a pasted diff gets per-hunk outcomes, the stale line is reported, and Apply all applies', async () => {
    const path = `${dir()}/server.js`;
    const doc = await openFile(path, SERVER);
    const { text, buttons } = await askApply(unifiedDiff(path));
    assert.match(text, /\*\*Block 1\*\*: matched after normalising/);
    assert.match(text, /hunk header said line 40, applied at line 7/);
    const applyAll = buttons.find((b) => b.title === 'Apply all');
    assert.ok(applyAll, `buttons: ${buttons.map((b) => b.title).join(' | ')}`);
    const args = JSON.parse(JSON.stringify(applyAll.arguments ?? [])) as unknown[];
    const outcome = await vscode.commands.executeCommand<ApplyOutcome>(applyAll.command, ...args);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), EXPECTED);
  });

  test('@apply: an apply_patch hunk whose context occurs twice after its anchor lists both places', async () => {
    const doc = await openFile(`${dir()}/twice.py`, TWICE);
    await vscode.window.showTextDocument(doc);
    const { text, buttons } = await askApply(
      ['*** Begin Patch', `*** Update File: ${dir()}/twice.py`, '@@', ' x = 1', '-y = 2', '+y = 3', '*** End Patch'].join('\n'),
    );
    assert.match(text, /ambiguous/);
    assert.deepEqual(buttons.filter((b) => /^Apply here/.test(b.title)).length, 2);
    assert.equal(doc.getText(), TWICE);
  });

  test('LM tool: the patch input applies a unified diff and an apply_patch patch; ambiguity is refused', async () => {
    const path = `${dir()}/server.js`;
    await openFile(path, SERVER, false);
    const first = await invokeApplyTool({ filePath: path, patch: unifiedDiff(path) });
    assert.match(first, /^Applied 2 blocks to /);
    assert.match(first, /hunk header said line 40, applied at line 7/);
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(fileUri(path))), EXPECTED, 'saved for the agent');

    const other = `${dir()}/other.js`;
    await openFile(other, SERVER, false);
    const second = await invokeApplyTool({ filePath: other, patch: applyPatch(other) });
    assert.match(second, /^Applied 2 blocks/);
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(fileUri(other))), EXPECTED);

    const twice = `${dir()}/twice.py`;
    await openFile(twice, TWICE, false);
    const refused = await invokeApplyTool({ filePath: twice, patch: TWICE_DIFF });
    assert.match(refused, /lines 1-2/);
    assert.match(refused, /lines 33-34/);
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(fileUri(twice))), TWICE);
  });

  test('clipboard command: a diff on the clipboard applies to the file it names', async () => {
    const path = `${dir()}/server.js`;
    const doc = await openFile(path, SERVER);
    await vscode.env.clipboard.writeText(applyPatch(path));
    const outcome = await vscode.commands.executeCommand<ApplyOutcome>(Cmd.applyFromClipboard);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), EXPECTED);
  });
});
