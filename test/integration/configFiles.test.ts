// Configuration snippets merged by key (issue 26) in the real extension host: a package.json fragment
// through @apply and through the Markdown CodeLens (review, Apply, one undo restores the file), a tsconfig
// with comments through the tool's `code`, a YAML subtree through the clipboard command, and an ambiguous
// key refused with nothing changed (and no place offered).
import * as assert from 'node:assert/strict';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import { createApplyParticipantHandler } from '../../src/extension/chat/chatParticipant';
import type { CodeBlockOutcome } from '../../src/extension/snippets/snippetReview';
import { api, ChatRecorder, lensRows, openFile, scratchSuite, undoIn } from './editorHelpers';

const PACKAGE = [
  '{',
  '  "name": "shop",',
  '  "version": "1.0.0",',
  '  "scripts": {',
  '    "build": "tsc -p ./",',
  '    "test": "node --test" // the unit tests',
  '  },',
  '  "devDependencies": {',
  '    "eslint": "^8.57.0",',
  '    "typescript": "^5.4.2"',
  '  }',
  '}',
  '',
].join('\n');

const FRAGMENT = ['"scripts": {', '  // ... existing scripts ...', '  "lint": "eslint ."', '},'].join('\n');
const AFTER = PACKAGE.replace(
  '"test": "node --test" // the unit tests',
  '"test": "node --test", // the unit tests\n    "lint": "eslint ."',
);

async function askApply(prompt: string): Promise<ChatRecorder> {
  const recorder = new ChatRecorder();
  const { codeBlocks, applyService } = await api();
  const handler = createApplyParticipantHandler(applyService, codeBlocks);
  const chatRequest = { prompt, command: undefined, references: [], toolReferences: [] } as unknown as vscode.ChatRequest;
  await handler(chatRequest, { history: [] }, recorder, new vscode.CancellationTokenSource().token);
  return recorder;
}

async function clickButton(recorder: ChatRecorder, title: string): Promise<CodeBlockOutcome> {
  const button = recorder.buttons.find((b) => b.title === title);
  assert.ok(button, `no ${title} button; buttons: ${recorder.buttons.map((b) => b.title).join(' | ')}`);
  const args = JSON.parse(JSON.stringify(button.arguments ?? [])) as unknown[];
  return vscode.commands.executeCommand<CodeBlockOutcome>(button.command, ...args);
}

suite('configuration files: merged by key from every editor way in', () => {
  const dir = scratchSuite();

  test('@apply with a package.json fragment: set by key, the comment kept, Apply as one edit, one undo restores', async () => {
    const path = `${dir()}/package.json`;
    const doc = await openFile(path, PACKAGE);
    const recorder = await askApply(`Add a lint script:\n\n\`\`\`json ${path}\n${FRAGMENT}\n\`\`\`\n`);
    assert.match(recorder.text, /added scripts\.lint|inserted key scripts\.lint/);
    assert.equal(doc.getText(), PACKAGE, 'the reply is a dry run');
    const outcome = await clickButton(recorder, 'Apply');
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), AFTER);
    await undoIn(doc);
    assert.equal(doc.getText(), PACKAGE);
  });

  test('the Markdown CodeLens on a package.json fragment: review, Apply, one undo restores', async function () {
    // The review diff opens editors: on a loaded machine this took longer than the suite's 30 s.
    this.timeout(120_000);
    const path = `${dir()}/package.json`;
    const doc = await openFile(path, PACKAGE);
    const notes = ['# Chat', '', 'Add a lint script:', '', `\`\`\`json ${path}`, FRAGMENT, '```', ''].join('\n');
    const markdown = await openFile(`${dir()}/notes.md`, notes);
    const rows = (await lensRows(markdown.uri)).filter((r) => r.command === 'resilientApply.applyCodeBlockInDocument');
    assert.deepEqual(
      rows.map((r) => r.line),
      [4],
    );
    const outcome = await vscode.commands.executeCommand<CodeBlockOutcome>(rows[0].command, ...rows[0].args);
    assert.equal(outcome.status, 'pending', outcome.summary);
    assert.equal(doc.getText(), PACKAGE, 'nothing changes before the review is applied');
    const applied = await vscode.commands.executeCommand<CodeBlockOutcome>('resilientApply.applyReviewedCodeBlock', outcome.review);
    assert.equal(applied.status, 'applied', applied.summary);
    assert.equal(doc.getText(), AFTER);
    await undoIn(doc);
    assert.equal(doc.getText(), PACKAGE);
  });

  test('the tool\'s "code" on a tsconfig.json with comments: the value set in place, comments and keys not shown kept', async () => {
    const path = `${dir()}/tsconfig.json`;
    const source =
      '{\n\t// the compiler\n\t"compilerOptions": {\n\t\t"strict": true, // always\n\t\t"target": "es2020"\n\t},\n\t"include": ["src"]\n}\n';
    const doc = await openFile(path, source);
    const result = await vscode.lm.invokeTool(
      'resilient-apply_applyBlocks',
      { input: { filePath: path, code: '```jsonc\n{ "compilerOptions": { "target": "es2022" } }\n```' }, toolInvocationToken: undefined },
      new vscode.CancellationTokenSource().token,
    );
    const message = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.match(message, /set compilerOptions\.target \(line 5\)/);
    assert.equal(doc.getText(), source.replace('"es2020"', '"es2022"'));
    await undoIn(doc);
    assert.equal(doc.getText(), source);
  });

  test('@apply: a bare key that fits two objects is refused naming both, nothing changes', async () => {
    const path = `${dir()}/app.json`;
    const source = '{\n  "server": { "timeout": 30 },\n  "client": { "timeout": 10 }\n}\n';
    const doc = await openFile(path, source);
    const recorder = await askApply(`\`\`\`json ${path}\n"timeout": 60\n\`\`\`\n`);
    assert.match(recorder.text, /server\.timeout/);
    assert.match(recorder.text, /client\.timeout/);
    // No "Apply here": written over the chosen line the key would break the JSON.
    assert.deepEqual(
      recorder.buttons.map((b) => b.title),
      ['Copy message for the model'],
    );
    assert.equal(doc.getText(), source);
  });

  test('the clipboard command with a YAML subtree for a compose file: review, Apply sets the nested key in place (no second services:)', async () => {
    const path = `${dir()}/compose.yaml`;
    const source =
      "# Local stack\nservices:\n  web:\n    image: 'shop/web:1.4.2' # pinned\n    ports:\n      - '8080:80'\n  db:\n    image: postgres:16\n";
    const doc = await openFile(path, source);
    await vscode.env.clipboard.writeText('Bump the web image:\n\n```yaml\nservices:\n  web:\n    image: shop/web:1.5.0\n```\n');
    const outcome = await vscode.commands.executeCommand<CodeBlockOutcome>('resilientApply.applyFromClipboard');
    assert.equal(outcome.status, 'pending', outcome.summary);
    assert.equal(doc.getText(), source, 'nothing changes before the review is applied');
    const applied = await vscode.commands.executeCommand<CodeBlockOutcome>('resilientApply.applyReviewedCodeBlock', outcome.review);
    assert.equal(applied.status, 'applied', applied.summary);
    assert.equal(doc.getText(), source.replace("'shop/web:1.4.2'", "'shop/web:1.5.0'"));
    await undoIn(doc);
    assert.equal(doc.getText(), source);
  });
});
