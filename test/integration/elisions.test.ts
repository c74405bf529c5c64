// Elisions (issue 19) in the real editor: a REPLACE that shortens unchanged lines to `# ... existing
// code ...` is expanded from the file by every way in (paste, applyText, the language model tool,
// @apply), one undo restores the file, an uncertain placeholder is refused with nothing changed, and what
// each placeholder kept is shown in the same words in the message, the chat reply, the hover on a
// waiting block and the Preview (its hover and its title).
import * as assert from 'node:assert/strict';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import { createApplyParticipantHandler } from '../../src/extension/chat/chatParticipant';
import type { CandidateChoice } from '../../src/extension/pendingStore';
import type { BlockPasteEdit } from '../../src/extension/pasteProvider';
import { api, applyText, block, Cmd, invokeApplyTool, lensRows, openFile, scratchSuite, waitFor } from './editorHelpers';

const LOADER = [
  'import json',
  '',
  '',
  'def load(path):',
  '    with open(path) as f:',
  '        data = json.load(f)',
  '    validate(data)',
  '    return data',
  '',
  '',
  'def save(path, data):',
  '    with open(path, "w") as f:',
  '        json.dump(data, f)',
  '',
].join('\n');

const SEARCH = [
  'def load(path):',
  '    with open(path) as f:',
  '        data = json.load(f)',
  '    validate(data)',
  '    return data',
].join('\n');

/** REPLACE as models shorten it: the unchanged middle is one placeholder line. */
const ELIDED = 'def load(path, strict=False):\n    # ... existing code ...\n    return data';
const EXPANDED = LOADER.replace('def load(path):', 'def load(path, strict=False):');
/** What the placeholder kept, in the words of the message. */
const KEPT = 'REPLACE line 2 `# ... existing code ...` kept file lines 5-7';

/** A line REPLACE adds after the placeholder pairs with no SEARCH line: where the placeholder ends is not certain. */
const UNCERTAIN = 'def load(path):\n    # ... existing code ...\n    log(path)\n    return data';

/** A near miss (the model wrote `fh` for `f`), so a batch with it waits for a choice. */
const NEAR_MISS = block(
  'def save(path, data):\n    with open(path, "w") as fh:\n        json.dump(data, fh)',
  'def save(path, data):\n    with open(path, "w") as f:\n        json.dump(data, f, indent=2)',
);

async function paste(doc: vscode.TextDocument, text: string): Promise<BlockPasteEdit> {
  const { pasteProvider } = await api();
  const dataTransfer = new vscode.DataTransfer();
  dataTransfer.set('text/plain', new vscode.DataTransferItem(text));
  const edits = await pasteProvider.provideDocumentPasteEdits(
    doc,
    [new vscode.Range(0, 0, 0, 0)],
    dataTransfer,
    { only: undefined, triggerKind: vscode.DocumentPasteTriggerKind.Automatic },
    new vscode.CancellationTokenSource().token,
  );
  assert.ok(edits && edits.length === 1, 'no paste edit offered');
  return edits[0];
}

/** @apply's reply to `prompt`: its Markdown text and its buttons. */
async function askApply(prompt: string): Promise<{ text: string; buttons: vscode.Command[] }> {
  const markdown: string[] = [];
  const buttons: vscode.Command[] = [];
  const stream = {
    markdown: (value: string | vscode.MarkdownString) => markdown.push(typeof value === 'string' ? value : value.value),
    button: (command: vscode.Command) => buttons.push(command),
    anchor: () => undefined,
    filetree: () => undefined,
    progress: () => undefined,
    reference: () => undefined,
    push: () => undefined,
  } as unknown as vscode.ChatResponseStream;
  const handler = createApplyParticipantHandler((await api()).applyService);
  const request = {
    prompt,
    command: undefined,
    references: [],
    toolReferences: [],
    toolInvocationToken: undefined as never,
    model: undefined as unknown as vscode.LanguageModelChat,
  } as vscode.ChatRequest;
  await handler(request, { history: [] }, stream, new vscode.CancellationTokenSource().token);
  return { text: markdown.join(''), buttons };
}

/** The text of every hover at `position` (our providers and any other). */
async function hoverText(uri: vscode.Uri, position: vscode.Position): Promise<string> {
  const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', uri, position)) ?? [];
  return hovers
    .flatMap((h) => h.contents)
    .map((c) => (typeof c === 'string' ? c : c.value))
    .join('\n');
}

suite('elisions: placeholders in REPLACE in the editor', () => {
  const dir = scratchSuite();

  test('a pasted block whose REPLACE elides lines applies with them kept, and one undo restores the file', async () => {
    const doc = await openFile(`${dir()}/loader.py`, LOADER);
    const edit = await paste(doc, block(SEARCH, ELIDED));
    assert.equal(edit.insertText, '');
    assert.ok(edit.additionalEdit, 'the block places itself and rides along with the paste');
    assert.equal(doc.getText(), LOADER, 'offering the paste changes nothing');
    assert.ok(await vscode.workspace.applyEdit(edit.additionalEdit));
    assert.equal(doc.getText(), EXPANDED, 'the with block and the validation are kept');
    assert.ok(!doc.getText().includes('existing code'), 'no placeholder written');
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), LOADER);
    // The same block through the apply command (clipboard, CodeLens): the summary says what was kept.
    const outcome = await applyText(block(SEARCH, ELIDED), doc.uri);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.match(outcome.summary, /^Applied 1\/1 block to .*loader\.py/);
    assert.ok(outcome.summary.endsWith(`; ${KEPT}`), outcome.summary);
    assert.equal(doc.getText(), EXPANDED);
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), LOADER);
  });

  test('an unplaceable placeholder is refused with a message naming REPLACE line N, the document unchanged', async () => {
    const doc = await openFile(`${dir()}/loader.py`, LOADER);
    const edit = await paste(doc, block(SEARCH, UNCERTAIN));
    assert.equal(edit.additionalEdit, undefined, 'nothing may ride along with the paste');
    assert.match(edit.title, /cannot apply, shows why/);
    const outcome = await applyText(block(SEARCH, UNCERTAIN), doc.uri);
    assert.equal(outcome.status, 'refused', outcome.summary);
    assert.match(outcome.summary, /REPLACE line 2 `# \.\.\. existing code \.\.\.`/);
    assert.match(outcome.summary, /write those lines out in REPLACE, or split the edit into smaller blocks/);
    assert.equal(doc.getText(), LOADER);
    assert.equal(doc.isDirty, false);
  });

  test('the language model tool and @apply say the same of an applied elided block and of a refused one', async () => {
    const path = `${dir()}/loader.py`;
    const doc = await openFile(path, LOADER);
    // @apply first (a dry run with buttons), then the tool applies the same block.
    const chat = await askApply(block(SEARCH, ELIDED));
    assert.ok(chat.text.includes(`matched exactly at lines 4-8; ${KEPT}`), chat.text);
    const applied = await invokeApplyTool({ filePath: path, blocks: [{ search: SEARCH, replace: ELIDED }] });
    assert.match(applied, /^Applied 1 block to .*loader\.py/);
    assert.ok(applied.includes(KEPT), applied);
    assert.equal(doc.getText(), EXPANDED);

    const refusedByTool = await invokeApplyTool({
      filePath: path,
      blocks: [{ search: SEARCH.replace('load(path)', 'load(path, strict=False)'), replace: UNCERTAIN }],
    });
    const refusedInChat = await askApply(block(SEARCH.replace('load(path)', 'load(path, strict=False)'), UNCERTAIN));
    const copy = refusedInChat.buttons.find((b) => b.title === 'Copy message for the model');
    assert.ok(copy, `no Copy message button; buttons: ${refusedInChat.buttons.map((b) => b.title).join(' | ')}`);
    assert.equal(copy.arguments?.[0], refusedByTool, 'the model gets the same message from either');
    assert.match(refusedByTool, /REPLACE line 2 `# \.\.\. existing code \.\.\.`/);
    assert.equal(doc.getText(), EXPANDED, 'the refusal changed nothing');
  });

  test('a block waiting with its batch: its hover and the Preview (hover and title) say what each placeholder kept', async () => {
    const doc = await openFile(`${dir()}/loader.py`, LOADER);
    const outcome = await applyText(block(SEARCH, ELIDED) + NEAR_MISS, doc.uri);
    assert.equal(outcome.status, 'pending', outcome.summary);
    // The hover on the waiting block's lines (4-8).
    const onBlock = await waitFor(async () => {
      const text = await hoverText(doc.uri, new vscode.Position(5, 8));
      return text.includes('block 1 matched') ? text : undefined;
    }, 'the hover on the waiting block');
    assert.ok(onBlock.includes(KEPT), onBlock);
    assert.match(onBlock, /waits for block 2/);
    // Elsewhere no such hover.
    assert.ok(!(await hoverText(doc.uri, new vscode.Position(0, 2))).includes(KEPT));

    const lens = await waitFor(
      async () =>
        (await lensRows(doc.uri)).find((r) => r.command === Cmd.previewCandidate && (r.args[0] as CandidateChoice).blockIndex === 2),
      'the Preview lens of block 2',
    );
    const uri = await vscode.commands.executeCommand<vscode.Uri>(lens.command, ...lens.args);
    assert.ok(uri, 'preview returned no document');
    const previewDoc = await vscode.workspace.openTextDocument(uri);
    assert.ok(previewDoc.getText().startsWith(EXPANDED.split('def save')[0]), previewDoc.getText());
    assert.equal(doc.getText(), LOADER, 'preview must not edit the document');
    // Line 4 of the preview is the one block 1 changed.
    const inPreview = await hoverText(uri, new vscode.Position(3, 4));
    assert.ok(inPreview.includes(`Block 1: ${KEPT}`), inPreview);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'the active tab is not a diff');
    assert.ok(tab.label.includes(`Block 1: ${KEPT}`), tab.label);
  });
});
