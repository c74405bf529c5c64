// A whole chat answer of code blocks over several files (issue 28) in the real extension host: `@apply`
// offers "Apply all to N files", which applies every file as ONE WorkspaceEdit (one undo restores them
// all) or none of them; SEARCH/REPLACE blocks beside code blocks go in the same batch; the language model
// tool takes the answer as `{ patch }` without filePath. The files are copies of small real files from
// node_modules (ms, flatted's Python module, fastest-levenshtein's package.json).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import type { ApplyOutcome } from '../../src/extension/applyService';
import { createApplyParticipantHandler } from '../../src/extension/chat/chatParticipant';
import { api, fileUri, openFile, scratchSuite, undoIn } from './editorHelpers';

const MODULES = path.resolve(__dirname, '../../../node_modules');
const MS = fs.readFileSync(path.join(MODULES, 'ms/index.js'), 'utf8');
const FLATTED = fs.readFileSync(path.join(MODULES, 'flatted/python/flatted.py'), 'utf8');
const PKG = fs.readFileSync(path.join(MODULES, 'fastest-levenshtein/package.json'), 'utf8');

const WEEKS = [
  'function fmtLong(ms) {',
  '  var msAbs = Math.abs(ms);',
  '  if (msAbs >= w) {',
  "    return plural(ms, msAbs, w, 'week');",
  '  }',
  '  if (msAbs >= d) {',
  "    return plural(ms, msAbs, d, 'day');",
  '  }',
  '  // ...existing code...',
  '}',
].join('\n');
const MS_AFTER = MS.replace(
  'function fmtLong(ms) {\n  var msAbs = Math.abs(ms);\n',
  "function fmtLong(ms) {\n  var msAbs = Math.abs(ms);\n  if (msAbs >= w) {\n    return plural(ms, msAbs, w, 'week');\n  }\n",
);
const FLATTED_AFTER = FLATTED.replace('isinstance(value, str)', 'isinstance(value, (str, bytes))');
const PKG_AFTER = PKG.replace('"node": ">= 4.9.1"', '"node": ">= 18"');

/** Claude's shape: prose, a `**path**` heading per fence, a Copilot `# file:` line, a package.json snippet. */
function answer(dir: string): string {
  return [
    'Three changes:',
    '',
    `**${dir}/lib/ms.js**`,
    '',
    '```javascript',
    '// ...existing code...',
    WEEKS,
    '// ...existing code...',
    '```',
    '',
    '```python',
    `# file: ${dir}/py/flatted.py`,
    'def _is_string(value):',
    '    return isinstance(value, (str, bytes))',
    '```',
    '',
    '```json',
    `// filepath: ${dir}/package.json`,
    '{ "engines": { "node": ">= 18" } }',
    '```',
    '',
  ].join('\n');
}

async function ask(prompt: string): Promise<{ text: string; buttons: vscode.Command[] }> {
  let text = '';
  const buttons: vscode.Command[] = [];
  const stream = {
    markdown: (v: string | vscode.MarkdownString) => {
      text += typeof v === 'string' ? v : v.value;
    },
    anchor: (_v: unknown, title?: string) => {
      text += `[${title ?? ''}]`;
    },
    button: (c: vscode.Command) => {
      buttons.push(c);
    },
    filetree: () => undefined,
    progress: () => undefined,
    reference: () => undefined,
    push: () => undefined,
  } as unknown as vscode.ChatResponseStream;
  const { applyService, codeBlocks } = await api();
  const handler = createApplyParticipantHandler(applyService, codeBlocks);
  await handler(
    { prompt, references: [], toolReferences: [] } as unknown as vscode.ChatRequest,
    { history: [] },
    stream,
    new vscode.CancellationTokenSource().token,
  );
  return { text, buttons };
}

/** Clicks a button as chat history keeps it (its arguments through JSON). */
async function click(buttons: vscode.Command[], title: string): Promise<ApplyOutcome> {
  const button = buttons.find((b) => b.title === title);
  assert.ok(button, `no "${title}" button; buttons: ${buttons.map((b) => b.title).join(' | ')}`);
  const args = JSON.parse(JSON.stringify(button.arguments ?? [])) as unknown[];
  return vscode.commands.executeCommand<ApplyOutcome>(button.command, ...args);
}

async function openAll(dir: string): Promise<vscode.TextDocument[]> {
  return [
    await openFile(`${dir}/lib/ms.js`, MS),
    await openFile(`${dir}/py/flatted.py`, FLATTED),
    await openFile(`${dir}/package.json`, PKG),
  ];
}

suite('a whole answer of code blocks over several files', () => {
  const dir = scratchSuite();

  test('@apply: "Apply all to 3 files" applies every file as ONE edit; one undo restores them all', async () => {
    const [ms, flatted, pkg] = await openAll(dir());
    const { text, buttons } = await ask(answer(dir()));
    assert.match(text, /\*\*The whole answer\*\*: 3 files, applied together \(every file or none, one undo\)/);
    assert.match(text, /would update .*lib\/ms\.js/);
    assert.ok(buttons.some((b) => b.title === 'Apply all to 3 files'));
    assert.deepEqual([ms.getText(), flatted.getText(), pkg.getText()], [MS, FLATTED, PKG], 'the reply is a dry run');

    const outcome = await click(buttons, 'Apply all to 3 files');
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.match(outcome.summary, /^Applied the code blocks to 3 files:/);
    assert.deepEqual([ms.getText(), flatted.getText(), pkg.getText()], [MS_AFTER, FLATTED_AFTER, PKG_AFTER]);

    await undoIn(flatted);
    assert.deepEqual([ms.getText(), flatted.getText(), pkg.getText()], [MS, FLATTED, PKG], 'one undo restores every file');
  });

  test('@apply: all or nothing: a file changed after the reply so its block no longer places; Apply all changes no file', async () => {
    const [ms, flatted, pkg] = await openAll(dir());
    const { buttons } = await ask(answer(dir()));
    // The user rewrites ms.js meanwhile: fmtLong is gone, and the lazy snippet's lines between its placeholders have no place.
    const edit = new vscode.WorkspaceEdit();
    edit.replace(ms.uri, new vscode.Range(0, 0, ms.lineCount, 0), 'module.exports = 1;\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const outcome = await click(buttons, 'Apply all to 3 files');
    assert.equal(outcome.status, 'refused', outcome.summary);
    assert.match(outcome.summary, /^Nothing was changed: the code blocks do not apply to every file\./);
    assert.match(outcome.summary, /Code block 1 \(line 5\): The code block was not applied to .*lib\/ms\.js/);
    assert.deepEqual([ms.getText(), flatted.getText(), pkg.getText()], ['module.exports = 1;\n', FLATTED, PKG], 'no other file changed');
  });

  test('@apply: a code block that does not place: no "Apply all", the reason names it by its line; nothing changes', async () => {
    const [ms, flatted, pkg] = await openAll(dir());
    // A lazy snippet for a function flatted.py does not have: its placeholder stands for nothing there.
    const extra = [
      '```python',
      `# file: ${dir()}/py/flatted.py`,
      'def _is_text(value):',
      '    # ... existing code ...',
      '    return False',
      '```',
    ];
    const broken = `${answer(dir())}\n${extra.join('\n')}\n`;
    const line = broken.split('\n').lastIndexOf(extra[1]);
    const { text, buttons } = await ask(broken);
    assert.match(text, /Nothing can be applied together/);
    assert.match(text, new RegExp(`Code block 4 \\(line ${line}\\)`));
    assert.ok(!buttons.some((b) => b.title.startsWith('Apply all to')), buttons.map((b) => b.title).join(' | '));
    assert.deepEqual([ms.getText(), flatted.getText(), pkg.getText()], [MS, FLATTED, PKG]);
  });

  test('@apply: a SEARCH/REPLACE block beside a code block: "Apply all to 2 files" applies both as one edit', async () => {
    const [ms, flatted] = await openAll(dir());
    const prompt = [
      `${dir()}/lib/ms.js`,
      '<<<<<<< SEARCH',
      "  return ms + ' ms';",
      '=======',
      "  return ms + ' milliseconds';",
      '>>>>>>> REPLACE',
      '',
      `\`\`\`py ${dir()}/py/flatted.py`,
      'def _is_string(value):',
      '    return isinstance(value, (str, bytes))',
      '```',
      '',
    ].join('\n');
    const { text, buttons } = await ask(prompt);
    assert.match(text, /\*\*The whole answer\*\*: 2 files/);
    const outcome = await click(buttons, 'Apply all to 2 files');
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.match(outcome.summary, /^Applied the edits \(SEARCH\/REPLACE blocks, code blocks\) to 2 files:/);
    assert.equal(ms.getText(), MS.replace("  return ms + ' ms';", "  return ms + ' milliseconds';"));
    assert.equal(flatted.getText(), FLATTED_AFTER);
    await undoIn(ms);
    assert.deepEqual([ms.getText(), flatted.getText()], [MS, FLATTED]);
  });

  test('the language model tool: `{ patch }` without filePath takes the answer; every file changes and is saved', async () => {
    const [ms, flatted, pkg] = await openAll(dir());
    const result = await vscode.lm.invokeTool(
      'resilient-apply_applyBlocks',
      { input: { patch: answer(dir()) }, toolInvocationToken: undefined },
      new vscode.CancellationTokenSource().token,
    );
    const message = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.match(message, /^Applied the code blocks to 3 files:/);
    assert.deepEqual([ms.getText(), flatted.getText(), pkg.getText()], [MS_AFTER, FLATTED_AFTER, PKG_AFTER]);
    const disk = new TextDecoder().decode(await vscode.workspace.fs.readFile(fileUri(`${dir()}/py/flatted.py`)));
    assert.equal(disk, FLATTED_AFTER, 'saved for the agent');
  });
});
