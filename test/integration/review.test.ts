// Review each change (issue 27) in the real editor: an apply through the language model tool marks each
// changed place with Keep | Undo lenses; Undo of one change restores exactly it (also after typing
// elsewhere), never over the user's typing; Keep all ends the review; Ctrl+Z walks back through a
// change's Undo and the apply to the original; a whole patch over two files has a review in each, and the
// files list (quick pick) opens the picked file at its first change.
import * as assert from 'node:assert/strict';
import { setup, suite, suiteSetup, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import { changeHunks } from '../../src/core';
import { changesLine } from '../../src/extension/review/registerReview';
import { api, cleanUp, openFile, scratchDir, waitFor } from './editorHelpers';

const TOOL = 'resilient-apply_applyBlocks';

const ORIGINAL = [
  'export function alpha(x: number): number {',
  '  const doubled = x * 2;',
  '  return doubled + 1;',
  '}',
  '',
  'export function beta(name: string): string {',
  '  const trimmed = name.trim();',
  '  return `hello ${trimmed}`;',
  '}',
  '',
  'export function gamma(items: number[]): number {',
  '  let total = 0;',
  '  for (const item of items) {',
  '    total += item;',
  '  }',
  '  return total;',
  '}',
  '',
].join('\n');

const CHANGES: Array<[string, string]> = [
  ['x * 2', 'x * 3'],
  ['`hello ${trimmed}`', '`hi ${trimmed}`'],
  ['total += item;', 'total += item * 2;'],
];

const AFTER = CHANGES.reduce((text, [from, to]) => text.replace(from, to), ORIGINAL);

/** The text with only the changes numbered in `kept` (0-based) applied. */
function withChanges(kept: number[], text = ORIGINAL): string {
  return CHANGES.reduce((t, [from, to], k) => (kept.includes(k) ? t.replace(from, to) : t), text);
}

async function invoke(input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(TOOL, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

interface Lens {
  title: string;
  command: string;
  args: unknown[];
  line: number;
}

/** The review's lenses of a document, top to bottom. */
async function reviewLenses(uri: vscode.Uri): Promise<Lens[]> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
  return lenses
    .filter((l) => l.command?.command.startsWith('resilientApply.review.'))
    .map((l) => ({
      title: l.command?.title ?? '',
      command: l.command?.command ?? '',
      args: l.command?.arguments ?? [],
      line: l.range.start.line,
    }))
    .sort((a, b) => a.line - b.line);
}

async function runLens(uri: vscode.Uri, title: string): Promise<unknown> {
  const lens = (await reviewLenses(uri)).find((l) => l.title === title);
  assert.ok(lens, `a lens "${title}"`);
  return vscode.commands.executeCommand(lens.command, ...lens.args);
}

async function pendingCount(uri: vscode.Uri): Promise<number> {
  const { review } = await api();
  return review.pending(uri).length;
}

suite('review each change: Keep or Undo every changed place of an apply', function () {
  // The first code block loads the grammars: slow on a busy machine.
  this.timeout(120_000);
  let path: string;
  let doc: vscode.TextDocument;

  suiteSetup(async () => {
    await api();
  });

  setup(async () => {
    path = `${scratchDir()}/review.ts`;
    doc = await openFile(path, ORIGINAL);
  });

  teardown(async () => {
    await vscode.workspace.getConfiguration('resilientApply').update('review', undefined, vscode.ConfigurationTarget.Workspace);
    await cleanUp();
  });

  async function applyThroughTool(): Promise<string> {
    const message = await invoke({ filePath: path, code: `\`\`\`ts\n${AFTER}\`\`\`` });
    assert.equal(doc.getText(), AFTER, message);
    return message;
  }

  test('a code block changing three places through the tool is marked; Undo of the middle change restores only it', async () => {
    await applyThroughTool();
    assert.equal(await pendingCount(doc.uri), 3);
    const titles = (await reviewLenses(doc.uri)).map((l) => `${l.line}:${l.title}`);
    assert.deepEqual(titles, [
      '1:Keep all',
      '1:Undo all',
      '1:Keep',
      '1:Undo change 1 of 3',
      '7:Keep',
      '7:Undo change 2 of 3',
      '13:Keep',
      '13:Undo change 3 of 3',
    ]);
    assert.equal(await runLens(doc.uri, 'Undo change 2 of 3'), 1);
    assert.equal(doc.getText(), withChanges([0, 2]));
    assert.deepEqual(
      (await reviewLenses(doc.uri)).filter((l) => l.title.startsWith('Undo change')).map((l) => `${l.line}:${l.title}`),
      ['1:Undo change 1 of 2', '13:Undo change 2 of 2'],
    );
  });

  test('hovering a change shows the lines it replaced; no hover of ours outside the changes or after Keep', async () => {
    await applyThroughTool();
    const ours = async (line: number) => {
      const hovers =
        (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', doc.uri, new vscode.Position(line, 4))) ?? [];
      return hovers
        .flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)))
        .filter((text) => text.includes('Before the apply'));
    };
    const middle = await ours(7);
    assert.equal(middle.length, 1);
    assert.match(
      middle[0],
      /\*\*Before the apply\*\* \(1 line; Undo puts it back\):\n\n```typescript\n  return `hello \$\{trimmed\}`;\n```$/,
    );
    assert.deepEqual(await ours(4), [], 'a line no change touched');
    await runLens(doc.uri, 'Keep all');
    assert.deepEqual(await ours(7), [], 'the review ended');
  });

  test('@apply replies name the changes an Apply makes', () => {
    assert.equal(
      changesLine(ORIGINAL, AFTER, doc.uri),
      '3 changes: lines 2, 8 and 14; after Apply, review them in the editor (Keep or Undo each)',
    );
    assert.equal(changesLine(ORIGINAL, withChanges([1]), doc.uri), '1 change: line 8', 'one change is not reviewed by default');
  });

  test('Keep all clears the marks; Keep of each change ends the review after the last', async () => {
    await applyThroughTool();
    await runLens(doc.uri, 'Keep all');
    assert.equal(await pendingCount(doc.uri), 0);
    assert.deepEqual(await reviewLenses(doc.uri), []);
    assert.equal(doc.getText(), AFTER);

    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    await waitFor(() => doc.getText() === ORIGINAL, 'the apply undone');
    await applyThroughTool();
    for (const title of ['Keep', 'Keep', 'Keep']) {
      await runLens(doc.uri, title);
    }
    assert.equal((await api()).review.pending(doc.uri).length, 0);
  });

  test('typing between the changes, then Undo of the last change restores it exactly and keeps the typing', async () => {
    await applyThroughTool();
    const editor = await vscode.window.showTextDocument(doc);
    assert.ok(
      await editor.edit((b) => {
        b.insert(new vscode.Position(0, 0), '// header typed by the user\n');
        b.insert(new vscode.Position(4, 0), '\n// between alpha and beta\n');
        b.insert(new vscode.Position(9, 0), '// after beta\n');
      }),
    );
    const typed = doc.getText();
    assert.equal(await runLens(doc.uri, 'Undo change 3 of 3'), 1);
    assert.equal(doc.getText(), typed.replace('total += item * 2;', 'total += item;'));
    assert.equal(await pendingCount(doc.uri), 2);
  });

  test('Ctrl+Z after an Undo of a change walks back to the apply, then to the original', async () => {
    await applyThroughTool();
    assert.equal(await runLens(doc.uri, 'Undo change 2 of 3'), 1);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    await waitFor(() => doc.getText() === AFTER, 'the change back as applied');
    assert.equal(await pendingCount(doc.uri), 3, 'the marks follow the undo: the change is to review again');
    await vscode.commands.executeCommand('undo');
    await waitFor(() => doc.getText() === ORIGINAL, 'the original text');
    assert.equal((await api()).review.pending(doc.uri).length, 0, 'an undone apply ends its review');
  });

  test('a change the user typed in is not undone: nothing is written over the typing', async () => {
    await applyThroughTool();
    const editor = await vscode.window.showTextDocument(doc);
    const line = AFTER.split('\n').findIndex((l) => l.includes('hi ${trimmed}'));
    assert.ok(await editor.edit((b) => b.insert(new vscode.Position(line, doc.lineAt(line).text.length), ' // mine')));
    const typed = doc.getText();
    assert.equal(await runLens(doc.uri, 'Undo change 2 of 3'), 0);
    assert.equal(doc.getText(), typed);
    assert.equal(await runLens(doc.uri, 'Undo all'), 2, 'Undo all restores the others');
    assert.equal(doc.getText(), withChanges([1]).replace('`hi ${trimmed}`;', '`hi ${trimmed}`; // mine'));
  });

  test('a whole patch over two files has a review in each', async () => {
    const dir = path.slice(0, path.lastIndexOf('/'));
    const other = await openFile(`${dir}/other.ts`, ORIGINAL, false);
    const diff = [`--- a/${path}`, `+++ b/${path}`, ...hunksOf(), `--- a/${dir}/other.ts`, `+++ b/${dir}/other.ts`, ...hunksOf()].join(
      '\n',
    );
    const message = await invoke({ patch: `${diff}\n` });
    assert.equal(doc.getText(), withChanges([0, 2]), message);
    assert.equal(other.getText(), withChanges([0, 2]));
    assert.equal(await pendingCount(doc.uri), 2);
    assert.equal(await pendingCount(other.uri), 2);
    // The files list (quick pick): both files are offered; picking one opens it at its first change.
    // Reviews other tests left in this extension host are ended first, so the list holds these two.
    const { review } = await api();
    const ours = [doc.uri.toString(), other.uri.toString()];
    review
      .files()
      .filter((uri) => !ours.includes(uri.toString()))
      .forEach((uri) => review.end(uri));
    assert.deepEqual(review.files().map(String).sort(), [...ours].sort());
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const picking = vscode.commands.executeCommand('resilientApply.review.files');
    await new Promise((resolve) => setTimeout(resolve, 500));
    await vscode.commands.executeCommand('workbench.action.quickOpenSelectNext');
    await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
    await picking;
    const editor = vscode.window.activeTextEditor;
    assert.ok(editor, 'picking a file opens it');
    assert.ok(ours.includes(editor.document.uri.toString()), editor.document.uri.toString());
    const firstChange = review.pending(editor.document.uri)[0].line;
    assert.equal(editor.selection.active.line, firstChange, 'the cursor is on the first change to review');
  });

  test('a CRLF file without a last newline, changed at its first and last lines and a line removed: each change undone exactly', async () => {
    // The review reads only the lines the edit touched (appliedEdits.ts): its first and last lines, a
    // line ending it must not lose, and a removal that leaves no line of its own.
    const crlf = ['first line', 'keep 1', 'remove me', 'keep 2', 'keep 3', 'last line'].join('\r\n');
    const crlfPath = `${scratchDir()}/review-crlf.txt`;
    const file = await openFile(crlfPath, crlf);
    const blocks = [
      ['first line', 'first line changed'],
      ['keep 1\nremove me\nkeep 2', 'keep 1\nkeep 2'],
      ['last line', 'last line changed'],
    ]
      .map(([search, replace]) => `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`)
      .join('');
    const message = await invoke({ filePath: crlfPath, text: blocks });
    assert.equal(file.getText(), ['first line changed', 'keep 1', 'keep 2', 'keep 3', 'last line changed'].join('\r\n'), message);
    const pending = (await api()).review.pending(file.uri);
    assert.deepEqual(
      pending.map((h) => h.line),
      [0, 2, 4],
    );
    // Read from the touched lines only, the hunks are those of the whole texts, line endings and all.
    assert.deepEqual(
      pending.map((h) => h.hunk),
      changeHunks(crlf, file.getText()),
    );
    assert.equal(await runLens(file.uri, 'Undo change 3 of 3'), 1);
    assert.equal(file.getText(), ['first line changed', 'keep 1', 'keep 2', 'keep 3', 'last line'].join('\r\n'));
    assert.equal(await runLens(file.uri, 'Undo change 2 of 2'), 1);
    assert.equal(file.getText(), ['first line changed', 'keep 1', 'remove me', 'keep 2', 'keep 3', 'last line'].join('\r\n'));
    assert.equal(await runLens(file.uri, 'Undo change 1 of 1'), 1);
    assert.equal(file.getText(), crlf);
    // One line in the middle: the lines around it come from the document, with its line ending.
    await vscode.workspace.getConfiguration('resilientApply').update('review', 'always', vscode.ConfigurationTarget.Workspace);
    await invoke({ filePath: crlfPath, text: '<<<<<<< SEARCH\nkeep 2\n=======\nkeep two\n>>>>>>> REPLACE\n' });
    assert.deepEqual(
      (await api()).review.pending(file.uri).map((h) => h.hunk),
      changeHunks(crlf, file.getText()),
    );
    assert.equal(await runLens(file.uri, 'Undo change 1 of 1'), 1);
    assert.equal(file.getText(), crlf);
  });

  test('resilientApply.review: "never" marks nothing, "always" marks a single change; the tool answers the same', async () => {
    const config = vscode.workspace.getConfiguration('resilientApply');
    await config.update('review', 'never', vscode.ConfigurationTarget.Workspace);
    const unreviewed = await applyThroughTool();
    assert.equal((await api()).review.pending(doc.uri).length, 0);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    await waitFor(() => doc.getText() === ORIGINAL, 'the apply undone');
    await config.update('review', undefined, vscode.ConfigurationTarget.Workspace);
    assert.equal(await applyThroughTool(), unreviewed, "the tool's answer to the model is the same with a review");
    assert.equal(await pendingCount(doc.uri), 3);
    await config.update('review', 'always', vscode.ConfigurationTarget.Workspace);
    await runLens(doc.uri, 'Keep all');
    const message = await invoke({
      filePath: path,
      text: '<<<<<<< SEARCH\n  let total = 0;\n=======\n  let total = 1;\n>>>>>>> REPLACE\n',
    });
    assert.equal(await pendingCount(doc.uri), 1, message);
    assert.deepEqual(
      (await reviewLenses(doc.uri)).map((l) => l.title),
      ['Keep', 'Undo change 1 of 1'],
    );
  });
});

/** Unified-diff hunks changing alpha and gamma of ORIGINAL. */
function hunksOf(): string[] {
  return [
    '@@ -1,3 +1,3 @@',
    ' export function alpha(x: number): number {',
    '-  const doubled = x * 2;',
    '+  const doubled = x * 3;',
    '   return doubled + 1;',
    '@@ -13,3 +13,3 @@',
    '   for (const item of items) {',
    '-    total += item;',
    '+    total += item * 2;',
    '   }',
  ];
}
