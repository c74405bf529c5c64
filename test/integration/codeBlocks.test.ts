// Plain code blocks (issue 20) through every editor way in, in the real extension host: the language
// model tool's `code` input, @apply with a code block in the prompt, the Markdown CodeLens "Apply code
// block to <file>" and the clipboard command, each ending in one WorkspaceEdit that one undo reverts.
// The CodeLens and the clipboard open the review diff first; its Apply command is what the diff's title
// bar button runs.
import * as assert from 'node:assert/strict';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import { createApplyParticipantHandler } from '../../src/extension/chat/chatParticipant';
import type { CodeBlockOutcome } from '../../src/extension/snippets/snippetReview';
import { findCodeBlocks } from '../../src/core/formats/codeBlocks';
import { api, ChatRecorder, fileUri, invokeApplyTool, lensRows, openFile, scratchSuite, undoIn } from './editorHelpers';

const CART = [
  'export class Cart {',
  '  private items: number[] = [];',
  '',
  '  add(price: number): void {',
  '    this.items.push(price);',
  '  }',
  '',
  '  total(): number {',
  '    return this.items.reduce((sum, p) => sum + p, 0);',
  '  }',
  '}',
  '',
  'export function format(amount: number): string {',
  '  return amount.toFixed(2);',
  '}',
  '',
].join('\n');

/** A lazy snippet: the class's opening and closing lines, a placeholder, the changed method. */
const LAZY_TOTAL = [
  'export class Cart {',
  '  // ... existing code ...',
  '',
  '  total(): number {',
  '    return this.items.reduce((sum, p) => sum + p * 1.2, 0);',
  '  }',
  '}',
].join('\n');
const AFTER_TOTAL = CART.replace('sum + p, 0', 'sum + p * 1.2, 0');

const REVIEW_APPLY = 'resilientApply.applyReviewedCodeBlock';
const REVIEW_DISCARD = 'resilientApply.discardReviewedCodeBlock';

async function clickButton(recorder: ChatRecorder, title: string): Promise<CodeBlockOutcome> {
  const button = recorder.buttons.find((b) => b.title === title);
  assert.ok(button, `no ${title} button; buttons: ${recorder.buttons.map((b) => b.title).join(' | ')}`);
  // Through JSON, as chat history keeps a button.
  const args = JSON.parse(JSON.stringify(button.arguments ?? [])) as unknown[];
  return vscode.commands.executeCommand<CodeBlockOutcome>(button.command, ...args);
}

suite('code blocks: tool, @apply, CodeLens, clipboard', () => {
  const dir = scratchSuite();

  test('the tool\'s "code" input: a lazy snippet replaces the method, saved, one undo reverts', async () => {
    const path = `${dir()}/cart.ts`;
    const doc = await openFile(path, CART);
    const message = await invokeApplyTool({ filePath: path, code: `\`\`\`ts\n${LAZY_TOTAL}\n\`\`\`` });
    assert.match(message, /replaced method total/);
    assert.equal(doc.getText(), AFTER_TOTAL);
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(fileUri(path))), AFTER_TOTAL, 'saved for the agent');
    await undoIn(doc);
    assert.equal(doc.getText(), CART, 'one undo reverts the code block');
  });

  test('the tool\'s "code" input: imports repeated in double quotes stay the file\'s single-quoted lines; the new line follows them', async () => {
    const path = `${dir()}/quoted.ts`;
    const source = "import { join } from 'node:path';\n\nexport function where(dir: string): string {\n  return join(dir, 'a');\n}\n";
    const doc = await openFile(path, source);
    const code = 'import { join } from "node:path";\n\nexport function where(dir: string): string {\n  return join(dir, "b");\n}\n';
    const message = await invokeApplyTool({ filePath: path, code: `\`\`\`ts\n${code}\`\`\`` });
    assert.equal(doc.getText(), source.replace("'a'", "'b'"), message);
    assert.doesNotMatch(message, /changed line 1/);
  });

  test('the tool\'s "code" input: a name defined twice is refused with every place, nothing changes', async () => {
    const path = `${dir()}/twice.py`;
    const source = 'class A:\n    def run(self):\n        return 1\n\n\nclass B:\n    def run(self):\n        return 2\n';
    const doc = await openFile(path, source);
    const message = await invokeApplyTool({ filePath: path, code: 'def run(self):\n    return 3\n' });
    assert.match(message, /^The code block was not applied to .*twice\.py: def run fits 2 places: lines 2-3 and lines 7-8\./);
    assert.doesNotMatch(message, /SEARCH|:start_line:/);
    assert.equal(doc.getText(), source);
  });

  test('the tool\'s "code" input: a file the code names other than filePath is refused', async () => {
    const path = `${dir()}/cart.ts`;
    const doc = await openFile(path, CART);
    const message = await invokeApplyTool({ filePath: path, code: `// filepath: src/other.ts\n${LAZY_TOTAL}` });
    assert.match(message, /names the file "src\/other\.ts" but "filePath" is/);
    assert.equal(doc.getText(), CART);
  });

  test('@apply with a code block naming the file: per-part outcome, Apply applies as one edit, one undo reverts', async () => {
    const path = `${dir()}/cart.ts`;
    const doc = await openFile(path, CART);
    const recorder = new ChatRecorder();
    const { codeBlocks, applyService } = await api();
    const handler = createApplyParticipantHandler(applyService, codeBlocks);
    const prompt = `Make the total include tax:\n\n\`\`\`ts ${path}\n${LAZY_TOTAL}\n\`\`\`\n`;
    const chatRequest = { prompt, command: undefined, references: [], toolReferences: [] } as unknown as vscode.ChatRequest;
    await handler(chatRequest, { history: [] }, recorder, new vscode.CancellationTokenSource().token);
    assert.match(recorder.text, /Code block 1/);
    assert.match(recorder.text, /replaced method total/);
    assert.deepEqual(
      recorder.buttons.map((b) => b.title),
      ['Apply', 'Preview'],
    );
    assert.equal(doc.getText(), CART, 'the reply is a dry run');
    const outcome = await clickButton(recorder, 'Apply');
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), AFTER_TOTAL);
    await undoIn(doc);
    assert.equal(doc.getText(), CART);
  });

  test('@apply with two code blocks for the same file: each outcome, then "Apply all 2" as ONE edit, one undo reverts both', async () => {
    const path = `${dir()}/cart.ts`;
    const doc = await openFile(path, CART);
    const recorder = new ChatRecorder();
    const { codeBlocks, applyService } = await api();
    const handler = createApplyParticipantHandler(applyService, codeBlocks);
    const format = 'export function format(amount: number): string {\n  return `$${amount.toFixed(2)}`;\n}';
    const prompt = `Two changes:\n\n\`\`\`ts ${path}\n${LAZY_TOTAL}\n\`\`\`\n\nand\n\n\`\`\`ts ${path}\n${format}\n\`\`\`\n`;
    await handler(
      { prompt, references: [], toolReferences: [] } as unknown as vscode.ChatRequest,
      { history: [] },
      recorder,
      new vscode.CancellationTokenSource().token,
    );
    assert.match(recorder.text, /Code block 1.*replaced method total/s);
    assert.match(recorder.text, /Code block 2.*replaced function format/s);
    assert.match(
      recorder.text,
      /Code blocks 1 and 2\*\* → \[.*cart\.ts\]: they change different lines and apply together as one edit \(one undo\)/,
    );
    assert.deepEqual(
      recorder.buttons.map((b) => b.title.replace(/ to .*cart\.ts$/, ' to cart.ts')),
      ['Apply', 'Preview', 'Apply', 'Preview', 'Apply all 2 to cart.ts'],
    );
    assert.equal(doc.getText(), CART, 'the reply is a dry run');
    const outcome = await clickButton(recorder, recorder.buttons[4].title);
    assert.equal(outcome.status, 'applied', outcome.summary);
    const both = AFTER_TOTAL.replace('return amount.toFixed(2);', () => 'return `$${amount.toFixed(2)}`;');
    assert.equal(doc.getText(), both);
    await undoIn(doc);
    assert.equal(doc.getText(), CART, 'one undo reverts both code blocks');
  });

  test('@apply with two code blocks changing the same method: no "Apply all", each applies on its own, one after the other', async () => {
    const path = `${dir()}/cart.ts`;
    const doc = await openFile(path, CART);
    const recorder = new ChatRecorder();
    const { codeBlocks, applyService } = await api();
    const handler = createApplyParticipantHandler(applyService, codeBlocks);
    const other = LAZY_TOTAL.replace('sum + p * 1.2', 'sum + p * 2');
    const prompt = `\`\`\`ts ${path}\n${LAZY_TOTAL}\n\`\`\`\n\nor\n\n\`\`\`ts ${path}\n${other}\n\`\`\`\n`;
    await handler(
      { prompt, references: [], toolReferences: [] } as unknown as vscode.ChatRequest,
      { history: [] },
      recorder,
      new vscode.CancellationTokenSource().token,
    );
    assert.match(recorder.text, /code blocks 1 and 2 change the same lines, so they cannot apply as one edit/);
    assert.deepEqual(
      recorder.buttons.map((b) => b.title),
      ['Apply', 'Preview', 'Apply', 'Preview'],
    );
    const second = recorder.buttons[2];
    const applied = await vscode.commands.executeCommand<CodeBlockOutcome>(
      second.command,
      ...(JSON.parse(JSON.stringify(second.arguments)) as unknown[]),
    );
    assert.equal(applied.status, 'applied', applied.summary);
    assert.equal(doc.getText(), CART.replace('sum + p, 0', 'sum + p * 2, 0'));
    await undoIn(doc);
    assert.equal(doc.getText(), CART);
  });

  test('@apply: Preview opens the review diff; Discard leaves the file', async () => {
    const path = `${dir()}/cart.ts`;
    const doc = await openFile(path, CART);
    const recorder = new ChatRecorder();
    const { codeBlocks, applyService } = await api();
    const handler = createApplyParticipantHandler(applyService, codeBlocks);
    const chatRequest = {
      prompt: `\`\`\`ts ${path}\n${LAZY_TOTAL}\n\`\`\``,
      references: [],
      toolReferences: [],
    } as unknown as vscode.ChatRequest;
    await handler(chatRequest, { history: [] }, recorder, new vscode.CancellationTokenSource().token);
    const outcome = await clickButton(recorder, 'Preview');
    assert.equal(outcome.status, 'pending');
    assert.ok(outcome.review);
    const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
    assert.ok(tab?.input instanceof vscode.TabInputTextDiff, 'the review is a diff');
    assert.equal(tab.input.original.toString(), doc.uri.toString());
    const preview = await vscode.workspace.openTextDocument(vscode.Uri.parse(outcome.review));
    assert.equal(preview.getText(), AFTER_TOTAL);
    await vscode.commands.executeCommand(REVIEW_DISCARD, outcome.review);
    assert.equal(doc.getText(), CART);
    const again = await vscode.commands.executeCommand<CodeBlockOutcome>(REVIEW_APPLY, outcome.review);
    assert.equal(again.status, 'refused', 'a discarded review cannot be applied');
    assert.equal(doc.getText(), CART);
  });

  test('@apply: a name defined twice is refused with both places; "Apply here (2 of 2)" puts the code there, one undo', async () => {
    const path = `${dir()}/two.ts`;
    const source = [
      'export class Warehouse {',
      '  available(sku: string): number {',
      '    return this.lines.get(sku)?.quantity ?? 0;',
      '  }',
      '}',
      '',
      'export class Store {',
      '  available(sku: string): number {',
      '    return this.lines.get(sku)?.quantity ?? 0;',
      '  }',
      '}',
      '',
    ].join('\n');
    const doc = await openFile(path, source);
    const recorder = new ChatRecorder();
    const { codeBlocks, applyService } = await api();
    const handler = createApplyParticipantHandler(applyService, codeBlocks);
    const prompt = `\`\`\`ts ${path}\navailable(sku: string): number {\n  return 0;\n}\n\`\`\``;
    await handler(
      { prompt, references: [], toolReferences: [] } as unknown as vscode.ChatRequest,
      { history: [] },
      recorder,
      new vscode.CancellationTokenSource().token,
    );
    assert.match(recorder.text, /ambiguous: 2 matches/);
    assert.deepEqual(
      recorder.buttons.map((b) => b.title),
      ['Apply here (1 of 2, lines 2-4)', 'Apply here (2 of 2, lines 8-10)', 'Copy message for the model'],
    );
    const outcome = await clickButton(recorder, 'Apply here (2 of 2, lines 8-10)');
    assert.equal(outcome.status, 'applied', outcome.summary);
    const lines = source.split('\n');
    lines[8] = '    return 0;';
    assert.equal(doc.getText(), lines.join('\n'));
    await undoIn(doc);
    assert.equal(doc.getText(), source);
  });

  test('a Markdown document: "Apply code block to <file>" above each code block naming a file; review, Apply, one undo', async () => {
    const path = `${dir()}/cart.ts`;
    const doc = await openFile(path, CART);
    const notes = [
      '# Chat',
      '',
      'Add tax:',
      '',
      `\`\`\`ts ${path}`,
      LAZY_TOTAL,
      '```',
      '',
      'A shell line names no file:',
      '',
      '```sh',
      'npm test',
      '```',
      '',
    ].join('\n');
    const markdown = await openFile(`${dir()}/notes.md`, notes);
    const rows = (await lensRows(markdown.uri)).filter((r) => r.command === 'resilientApply.applyCodeBlockInDocument');
    assert.deepEqual(
      rows.map((r) => [r.line, r.title]),
      [[4, `$(play) Apply code block to ${path}`]],
    );
    const outcome = await vscode.commands.executeCommand<CodeBlockOutcome>(rows[0].command, ...rows[0].args);
    assert.equal(outcome.status, 'pending', outcome.summary);
    assert.equal(doc.getText(), CART, 'nothing changes before the review is applied');
    const applied = await vscode.commands.executeCommand<CodeBlockOutcome>(REVIEW_APPLY, outcome.review);
    assert.equal(applied.status, 'applied', applied.summary);
    assert.equal(doc.getText(), AFTER_TOTAL);
    await undoIn(doc);
    assert.equal(doc.getText(), CART);
  });

  test('the clipboard command: a plain code block goes to the active editor after review; a new function lands beside its neighbour', async () => {
    const path = `${dir()}/cart.ts`;
    const doc = await openFile(path, CART);
    const snippet = [
      'export function format(amount: number): string {',
      '  return amount.toFixed(2);',
      '}',
      '',
      'export function formatCents(cents: number): string {',
      '  return format(cents / 100);',
      '}',
    ].join('\n');
    await vscode.env.clipboard.writeText(`Here you go:\n\n\`\`\`ts\n${snippet}\n\`\`\`\n`);
    const outcome = await vscode.commands.executeCommand<CodeBlockOutcome>('resilientApply.applyFromClipboard');
    assert.equal(outcome.status, 'pending', outcome.summary);
    assert.equal(doc.getText(), CART);
    const applied = await vscode.commands.executeCommand<CodeBlockOutcome>(REVIEW_APPLY, outcome.review);
    assert.equal(applied.status, 'applied', applied.summary);
    assert.equal(doc.getText(), `${CART}\nexport function formatCents(cents: number): string {\n  return format(cents / 100);\n}\n`);
    await undoIn(doc);
    assert.equal(doc.getText(), CART);
  });

  test('the clipboard command: a review whose file changed meanwhile is matched again on the live text', async () => {
    const path = `${dir()}/cart.ts`;
    const doc = await openFile(path, CART);
    await vscode.env.clipboard.writeText(`\`\`\`ts\n${LAZY_TOTAL}\n\`\`\``);
    const outcome = await vscode.commands.executeCommand<CodeBlockOutcome>('resilientApply.applyFromClipboard');
    assert.equal(outcome.status, 'pending', outcome.summary);
    const edit = new vscode.WorkspaceEdit();
    edit.insert(doc.uri, new vscode.Position(0, 0), '// header\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const applied = await vscode.commands.executeCommand<CodeBlockOutcome>(REVIEW_APPLY, outcome.review);
    assert.equal(applied.status, 'applied', applied.summary);
    assert.equal(doc.getText(), `// header\n${AFTER_TOTAL}`);
  });
});

suite('code blocks: the demo workspace', () => {
  test('every code block in demo-code-blocks.md has the outcome its heading promises', async () => {
    const folder = vscode.workspace.workspaceFolders?.[0];
    assert.ok(folder);
    const demo = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, 'demo-code-blocks.md'));
    const blocks = findCodeBlocks(demo.getText());
    const expected = [
      ['src/inventory.ts', 'applied', /replaced method sell/],
      ['server/handler.go', 'applied', /replaced method Order\.Total/],
      ['src/inventory.ts', 'applied', /inserted method release/],
      ['src/inventory.ts', 'ambiguous', /method available/],
    ] as const;
    assert.deepEqual(
      blocks.map((b) => b.filePath),
      expected.map((e) => e[0]),
    );
    const rows = (await lensRows(demo.uri)).filter((r) => r.command === 'resilientApply.applyCodeBlockInDocument');
    assert.equal(rows.length, blocks.length, 'a CodeLens above each code block');
    const { applier } = (await api()).codeBlocks;
    for (const [i, block] of blocks.entries()) {
      const [file, status, note] = expected[i];
      const doc = await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder.uri, file));
      const match = await applier.match(doc, file, block.code, 'test');
      assert.equal(match.result.status, status, `code block ${i + 1}: ${match.result.message}`);
      assert.match(match.result.message, note);
      assert.notEqual(match.result.snippet.reader, 'outline', `code block ${i + 1} was read by its grammar`);
    }
  });
});
