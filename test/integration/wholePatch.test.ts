// Whole patches in the real extension host: an apply_patch patch or a unified diff that adds, updates,
// deletes and moves files, through @apply (its handler and the Apply button), the CodeLens above a patch
// in a document, and the language model tool without "filePath". One WorkspaceEdit carries the file
// operations and the text edits: one undo restores every file; a hunk that does not place leaves every
// file as it was; a path outside the workspace (a move's new name too, also through a linked folder) is
// refused. A deletion or an overwrite asks first: a modal in the editor, which these tests answer through
// the internal commands' policy argument (as the existing createMissing one), and in agent mode the
// tool's prepareInvocation confirmation, which the tests read and then invoke the tool as VS Code would.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { suite, test } from 'mocha';
import * as vscode from 'vscode';
import type { ApplyOutcome } from '../../src/extension/applyService';
import { createApplyTool } from '../../src/extension/chat/applyTool';
import { createApplyParticipantHandler } from '../../src/extension/chat/chatParticipant';
import { nodeRealPathResolver } from '../../src/extension/node/realPath';
import { api, applyText, Cmd, fileUri, lensRows, openFile, scratchSuite, waitFor } from './editorHelpers';

const APP = ['export function start(port) {', '  const server = create();', '  server.listen(8080);', '  return server;', '}', ''].join(
  '\n',
);
const APP_AFTER = APP.replace('listen(8080)', 'listen(port)');
const OLD = 'export const legacy = true;\n';
const NAME = ['export const name = 1;', 'export const other = 2;', ''].join('\n');

/** Adds `fresh.ts`, updates `app.ts`, deletes `old.ts`. */
function patch(dir: string, listen = '  server.listen(8080);'): string {
  return [
    '*** Begin Patch',
    `*** Add File: ${dir}/fresh.ts`,
    '+export const fresh = 1;',
    `*** Update File: ${dir}/app.ts`,
    '@@',
    '   const server = create();',
    `-${listen}`,
    '+  server.listen(port);',
    `*** Delete File: ${dir}/old.ts`,
    '*** End Patch',
    '',
  ].join('\n');
}

async function exists(relativePath: string): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(fileUri(relativePath));
    return true;
  } catch {
    return false;
  }
}

async function disk(relativePath: string): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(fileUri(relativePath)));
}

/** The files of `patch(dir)` before it applies: app.ts open in an editor, old.ts on disk. */
async function workspaceBefore(dir: string): Promise<vscode.TextDocument> {
  await openFile(`${dir}/old.ts`, OLD, false);
  return openFile(`${dir}/app.ts`, APP);
}

async function assertAsBefore(dir: string, app: vscode.TextDocument, what: string): Promise<void> {
  assert.equal(app.getText(), APP, `${what}: app.ts`);
  assert.equal(await exists(`${dir}/fresh.ts`), false, `${what}: fresh.ts must not exist`);
  assert.equal(await exists(`${dir}/old.ts`), true, `${what}: old.ts must exist`);
  assert.equal(await disk(`${dir}/old.ts`), OLD, `${what}: old.ts`);
}

async function assertApplied(dir: string, app: vscode.TextDocument): Promise<void> {
  assert.equal(app.getText(), APP_AFTER, 'app.ts updated (in the file own indentation)');
  assert.equal(await disk(`${dir}/fresh.ts`), 'export const fresh = 1;\n', 'fresh.ts added');
  assert.equal(await exists(`${dir}/old.ts`), false, 'old.ts deleted');
}

/** One undo, from the editor of a file the patch edited (where the user would press Ctrl+Z). */
async function undoFrom(document: vscode.TextDocument): Promise<void> {
  await vscode.window.showTextDocument(document, { preview: false });
  await vscode.commands.executeCommand('undo');
}

async function askApply(prompt: string): Promise<{ text: string; buttons: vscode.Command[] }> {
  let text = '';
  const buttons: vscode.Command[] = [];
  const stream = {
    markdown: (v: string | vscode.MarkdownString) => {
      text += typeof v === 'string' ? v : v.value;
    },
    anchor: (_v: unknown, title?: string) => {
      text += title ?? '';
    },
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

async function tool() {
  return createApplyTool({ resolveRealPath: nodeRealPathResolver(), ...(await api()) });
}

/** prepareInvocation then invoke, as agent mode does once the user confirmed. */
async function invokeConfirmed(input: object): Promise<{ message: string; confirmation?: string }> {
  const t = await tool();
  const token = new vscode.CancellationTokenSource().token;
  const prepared = await t.prepareInvocation!({ input }, token);
  const result = await t.invoke({ input, toolInvocationToken: undefined }, token);
  const message = result!.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
  return { message, confirmation: prepared?.confirmationMessages?.title };
}

suite('whole patch: files added, updated, deleted and moved as one edit', () => {
  const dir = scratchSuite();

  test('whole patch via @apply: the reply lists every file; Apply changes all three; one undo restores all of them', async () => {
    const app = await workspaceBefore(dir());
    const { text, buttons } = await askApply(patch(dir()));
    assert.match(text, /apply_patch patch\*\* in your message: 3 files/);
    assert.match(text, new RegExp(`added ${dir()}/fresh\\.ts`.replace(/\//g, '\\/')));
    assert.match(text, /deleted .*old\.ts/);
    assert.match(text, /patch deletes .*old\.ts: Apply asks first/);
    const apply = buttons.find((b) => b.title === 'Apply apply_patch patch (3 files)');
    assert.ok(apply, `buttons: ${buttons.map((b) => b.title).join(' | ')}`);
    await assertAsBefore(dir(), app, 'the reply is a dry run');

    // The button as chat history stores it; the modal's answer is the policy argument.
    const [args] = JSON.parse(JSON.stringify(apply.arguments)) as [{ text: string }];
    const outcome = await vscode.commands.executeCommand<ApplyOutcome>(apply.command, { ...args, fileChanges: 'always' });
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.match(
      outcome.summary,
      /^Applied the apply_patch patch to 3 files:\n- added .*fresh\.ts\n- updated .*app\.ts: .*\n- deleted .*old\.ts$/,
    );
    await assertApplied(dir(), app);

    await undoFrom(app);
    await assertAsBefore(dir(), app, 'after one undo');
  });

  test('whole patch refused by the user: "never" (what the modal does when dismissed) changes nothing', async () => {
    const app = await workspaceBefore(dir());
    const outcome = await vscode.commands.executeCommand<ApplyOutcome>(Cmd.applyText, {
      text: patch(dir()),
      target: app.uri.toString(),
      notify: false,
      fileChanges: 'never',
    });
    assert.equal(outcome.status, 'refused');
    assert.match(outcome.summary, /^Nothing was changed: the apply_patch patch deletes .*old\.ts, and that was not agreed to\.$/);
    await assertAsBefore(dir(), app, 'refused');
  });

  test('whole patch via the tool without filePath: the deletion is confirmed first, every file changes and is saved, one undo restores all', async () => {
    const app = await workspaceBefore(dir());
    const { message, confirmation } = await invokeConfirmed({ patch: patch(dir()) });
    assert.match(confirmation ?? '', /^The apply_patch patch deletes .*old\.ts\. Apply it\?$/);
    assert.match(message, /^Applied the apply_patch patch to 3 files:/);
    await assertApplied(dir(), app);
    assert.equal(await disk(`${dir()}/app.ts`), APP_AFTER, 'saved for the agent');

    await undoFrom(app);
    await assertAsBefore(dir(), app, 'after one undo');
  });

  test('whole patch overwriting a file via the tool: the confirmation names it; one undo brings the old file back', async () => {
    const app = await workspaceBefore(dir());
    const over = [
      '*** Begin Patch',
      `*** Add File: ${dir()}/old.ts`,
      '+export const legacy = false;',
      `*** Update File: ${dir()}/app.ts`,
      '@@',
      '-  server.listen(8080);',
      '+  server.listen(port);',
      '*** End Patch',
    ].join('\n');
    const { message, confirmation } = await invokeConfirmed({ patch: over });
    assert.match(confirmation ?? '', /^The apply_patch patch overwrites .*old\.ts\. Apply it\?$/);
    assert.match(
      message,
      /^Applied the apply_patch patch to 2 files:\n- added .*old\.ts \(overwriting the file there\)\n- updated .*app\.ts/,
    );
    assert.equal(await disk(`${dir()}/old.ts`), 'export const legacy = false;\n');
    assert.equal(app.getText(), APP_AFTER);

    await undoFrom(app);
    assert.equal(app.getText(), APP);
    // The overwrite was a text edit of the open file (saved for the agent): undo brings its text back in the editor.
    const old = vscode.workspace.textDocuments.find((d) => d.uri.toString() === fileUri(`${dir()}/old.ts`).toString());
    assert.equal(old?.getText(), OLD, 'one undo brings the overwritten file back');
  });

  test('whole patch moving onto an existing file via the tool: asked first; one undo brings both files back', async () => {
    await openFile(`${dir()}/old.ts`, OLD, false);
    await openFile(`${dir()}/name.ts`, NAME, false);
    const move = [
      '*** Begin Patch',
      `*** Update File: ${dir()}/name.ts`,
      `*** Move to: ${dir()}/old.ts`,
      '@@',
      '-export const name = 1;',
      '+export const name = 3;',
      '*** End Patch',
    ].join('\n');
    const { message, confirmation } = await invokeConfirmed({ patch: move });
    assert.match(confirmation ?? '', /^The apply_patch patch overwrites .*old\.ts\. Apply it\?$/);
    assert.match(message, /^Applied the apply_patch patch to 1 file:\n- moved .*name\.ts -> .*old\.ts \(overwriting the file there\)/);
    assert.equal(await disk(`${dir()}/old.ts`), NAME.replace('name = 1', 'name = 3'), 'moved, edited and saved');
    assert.equal(await exists(`${dir()}/name.ts`), false);

    const moved = vscode.workspace.textDocuments.find((d) => d.uri.toString() === fileUri(`${dir()}/old.ts`).toString());
    await undoFrom(moved!);
    await waitFor(async () => (await exists(`${dir()}/name.ts`)) && moved?.getText() === OLD, 'both files back after one undo');
    assert.equal(await disk(`${dir()}/name.ts`), NAME);
  });

  test('whole patch via vscode.lm.invokeTool: a patch of several files with no filePath needs no confirmation and applies', async () => {
    const a = await openFile(`${dir()}/a.ts`, APP, false);
    const diff = [
      `--- a/${dir()}/a.ts`,
      `+++ b/${dir()}/a.ts`,
      '@@ -3 +3 @@',
      '-  server.listen(8080);',
      '+  server.listen(port);',
      '--- /dev/null',
      `+++ b/${dir()}/b.ts`,
      '@@ -0,0 +1 @@',
      '+export const b = 1;',
      '',
    ].join('\n');
    const result = await vscode.lm.invokeTool(
      'resilient-apply_applyBlocks',
      { input: { patch: diff }, toolInvocationToken: undefined },
      new vscode.CancellationTokenSource().token,
    );
    const message = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
    assert.match(message, /^Applied the unified diff to 2 files:\n- updated .*a\.ts: .*\n- added .*b\.ts$/);
    assert.equal(a.getText(), APP_AFTER);
    assert.equal(await disk(`${dir()}/b.ts`), 'export const b = 1;\n');
  });

  test('whole patch with a failing hunk: every file stays as it was (editor and tool)', async () => {
    const app = await workspaceBefore(dir());
    const bad = patch(dir(), '  server.listen(9999);');
    const outcome = await applyText(bad, app.uri);
    assert.equal(outcome.status, 'refused');
    assert.match(outcome.summary, /^Nothing was changed: the apply_patch patch does not apply to every file\./);
    await assertAsBefore(dir(), app, 'editor');

    const { message } = await invokeConfirmed({ patch: bad });
    assert.match(message, /^Nothing was changed: the apply_patch patch does not apply to every file\./);
    assert.match(message, /server\.listen\(8080\)/, 'the closest real text for the model');
    await assertAsBefore(dir(), app, 'tool');
  });

  test('whole patch outside the workspace: a path or a move target outside, also through a linked folder, is refused', async () => {
    const outsideDir = fs.mkdtempSync(nodePath.join(os.tmpdir(), 'ra-outside-'));
    try {
      const name = await openFile(`${dir()}/name.ts`, NAME, false);
      fs.symlinkSync(outsideDir, fileUri(`${dir()}/linkdir`).fsPath, 'dir');
      const move = (to: string) =>
        [
          '*** Begin Patch',
          `*** Update File: ${dir()}/name.ts`,
          `*** Move to: ${to}`,
          '@@',
          '-export const name = 1;',
          '+export const name = 3;',
          '*** End Patch',
        ].join('\n');
      const depth = dir().split('/').length;

      const climbing = await invokeConfirmed({ patch: move(`${'../'.repeat(depth + 2)}stolen.ts`) });
      assert.match(climbing.message, /outside the workspace/);
      const linked = await invokeConfirmed({ patch: move(`${dir()}/linkdir/stolen.ts`) });
      assert.match(linked.message, /leads outside the workspace/);
      const editor = await applyText(move(`${dir()}/linkdir/stolen.ts`), name.uri);
      assert.equal(editor.status, 'invalid');
      assert.match(editor.summary, /leads outside the workspace/);
      const deleting = await applyText(`*** Begin Patch\n*** Delete File: ${nodePath.join(outsideDir, 'x.ts')}\n*** End Patch\n`, name.uri);
      assert.match(deleting.summary, /outside the workspace/);

      assert.deepEqual(fs.readdirSync(outsideDir), [], 'nothing was created outside');
      assert.equal(await disk(`${dir()}/name.ts`), NAME);
      assert.equal(name.getText(), NAME);
    } finally {
      fs.rmSync(outsideDir, { recursive: true, force: true });
    }
  });

  test('whole patch via CodeLens: one lens above a patch that moves a file; it renames and edits as one undo step', async () => {
    const name = await openFile(`${dir()}/name.ts`, NAME, false);
    const patchDoc = await openFile(
      `${dir()}/rename.diff`,
      [
        `diff --git a/${dir()}/name.ts b/${dir()}/renamed.ts`,
        'similarity index 80%',
        `rename from ${dir()}/name.ts`,
        `rename to ${dir()}/renamed.ts`,
        `--- a/${dir()}/name.ts`,
        `+++ b/${dir()}/renamed.ts`,
        '@@ -1,2 +1,2 @@',
        '-export const name = 1;',
        '+export const name = 3;',
        ' export const other = 2;',
        '',
      ].join('\n'),
    );
    const rows = await lensRows(patchDoc.uri);
    assert.deepEqual(
      rows.map((r) => [r.line, r.title]),
      [[0, '$(run-all) Apply unified diff: 1 file (moves 1)']],
    );
    const outcome = await vscode.commands.executeCommand<ApplyOutcome>(rows[0].command, ...rows[0].args);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.match(outcome.summary, /moved .*name\.ts -> .*renamed\.ts/);
    assert.equal(await exists(`${dir()}/name.ts`), false);
    const renamed = vscode.workspace.textDocuments.find((d) => d.uri.toString() === fileUri(`${dir()}/renamed.ts`).toString());
    assert.equal(renamed?.getText(), NAME.replace('name = 1', 'name = 3'));

    await undoFrom(renamed!);
    assert.equal(await exists(`${dir()}/renamed.ts`), false, 'one undo moves it back');
    assert.equal(await disk(`${dir()}/name.ts`), NAME);
    assert.ok(name);
  });
});
