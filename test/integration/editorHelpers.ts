// Shared helpers for the editor apply-mode suites (not a suite itself: index.ts loads only *.test.js).
// Everything runs against the real extension: its activate() exports, its registered commands and
// providers, real documents in the throwaway workspace.
import * as assert from 'node:assert/strict';
import { setup, suiteSetup, teardown } from 'mocha';
import * as vscode from 'vscode';
import { TOTAL_FUNCTION } from '../shared/fixtures';
import type { ApplyOutcome } from '../../src/extension/applyService';
import type { ResilientApplyApi } from '../../src/extension/extension';

export const EXTENSION_ID = 'resilient-apply.resilient-apply';

export const Cmd = {
  applyFromClipboard: 'resilientApply.applyFromClipboard',
  applySelectedBlocks: 'resilientApply.applySelectedBlocks',
  applyCandidate: 'resilientApply.applyCandidate',
  previewCandidate: 'resilientApply.previewCandidate',
  dismissBatch: 'resilientApply.dismissBatch',
  applyBlocksInDocument: 'resilientApply.applyBlocksInDocument',
  applyText: 'resilientApply.applyText',
  acceptBestCandidate: 'resilientApply.acceptBestCandidate',
  dismissPending: 'resilientApply.dismissPending',
} as const;

export async function api(): Promise<ResilientApplyApi> {
  const ext = vscode.extensions.getExtension<ResilientApplyApi>(EXTENSION_ID);
  assert.ok(ext, `${EXTENSION_ID} is not loaded`);
  const services = await ext.activate();
  assert.ok(services?.applyService, 'activate() did not return the services');
  return services;
}

function root(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'no workspace folder');
  return folder.uri;
}

let counter = 0;

/** A fresh folder name under the workspace for one test's files. */
export function scratchDir(): string {
  counter++;
  return `ra-tests/t${Date.now().toString(36)}${counter}`;
}

/** Writes a file into the workspace (exact bytes) and opens it in an editor. */
export async function openFile(relativePath: string, content: string, show = true): Promise<vscode.TextDocument> {
  const uri = vscode.Uri.joinPath(root(), relativePath);
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(content));
  const doc = await vscode.workspace.openTextDocument(uri);
  if (show) {
    await vscode.window.showTextDocument(doc, { preview: false });
  }
  return doc;
}

/** Workspace-relative path → uri. */
export function fileUri(relativePath: string): vscode.Uri {
  return vscode.Uri.joinPath(root(), relativePath);
}

/** One SEARCH/REPLACE block in aider's marker format, optionally naming its file on the line before. */
export function block(search: string, replace: string, filePath?: string): string {
  const lines: string[] = [];
  if (filePath) {
    lines.push(filePath);
  }
  lines.push('<<<<<<< SEARCH');
  if (search !== '') {
    lines.push(search);
  }
  lines.push('=======');
  if (replace !== '') {
    lines.push(replace);
  }
  lines.push('>>>>>>> REPLACE');
  return lines.join('\n') + '\n';
}

/** A small file shared by the near-miss suites. */
export const TOTAL = TOTAL_FUNCTION;

/** The model misremembered one identifier: a near miss whose best candidate is lines 3-5 of TOTAL. */
export const NEAR_MISS = block(
  '  for (const item of items) {\n    sum += item.price * item.qty;\n  }',
  '  for (const item of items) {\n    sum += item.price * item.quantity * 2;\n  }',
);

/** Lenses of every provider for a document, as VS Code hands them to the editor (titles resolved). */
export async function codeLenses(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri, 100)) ?? [];
  // The review of applied changes (Keep | Undo, test/integration/review.test.ts) is not what these suites look at.
  return lenses.filter(
    (l) =>
      !l.command?.command?.startsWith('resilientApply.review.') &&
      (l.command?.command?.startsWith('resilientApply.') || l.command?.title.includes('$(')),
  );
}

/** Our lenses sorted as rows: by line, then in provider order. */
export async function lensRows(uri: vscode.Uri): Promise<{ line: number; title: string; command: string; args: unknown[] }[]> {
  const lenses = await codeLenses(uri);
  return lenses
    .map((l, i) => ({
      i,
      line: l.range.start.line,
      title: l.command?.title ?? '',
      command: l.command?.command ?? '',
      args: l.command?.arguments ?? [],
    }))
    .sort((a, b) => a.line - b.line || a.i - b.i)
    .map(({ line, title, command, args }) => ({ line, title, command, args }));
}

/** Polls until `check` returns a truthy value (the re-match after an edit is debounced). */
export async function waitFor<T>(check: () => T | Promise<T>, what: string, timeoutMs = 5000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) {
      return value as NonNullable<T>;
    }
    if (Date.now() > deadline) {
      assert.fail(`timed out waiting for ${what}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Drops pending batches and closes every editor, so tests do not see each other. */
export async function cleanUp(): Promise<void> {
  const services = await api();
  services.pendingStore.dismissAll();
  for (const doc of vscode.workspace.textDocuments) {
    if (!doc.isDirty) {
      continue;
    }
    // Closing a dirty editor would ask to save and block the run. Test files are throwaway: save them;
    // untitled buffers are reverted and closed.
    if (doc.uri.scheme === 'file' || doc.uri.scheme === 'vscode-remote') {
      await doc.save();
    } else if (doc.uri.scheme === 'untitled') {
      await vscode.window.showTextDocument(doc, { preview: false });
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    }
  }
  await vscode.commands.executeCommand('workbench.action.closeAllEditors');
}

/** Replaces the whole text of a document the way a formatter would (one edit, through the real editor model). */
export async function rewrite(doc: vscode.TextDocument, transform: (text: string) => string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  const text = doc.getText();
  edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(text.length)), transform(text));
  assert.equal(await vscode.workspace.applyEdit(edit), true, 'the simulated formatter edit was refused');
}

/**
 * Registers the hooks every editor suite shares (the extension active, a fresh folder per test, clean-up
 * after it) and returns a getter for the current test's folder.
 */
export function scratchSuite(): () => string {
  let dir = '';
  suiteSetup(async () => {
    await api();
  });
  setup(() => {
    dir = scratchDir();
  });
  teardown(cleanUp);
  return () => dir;
}

/** Runs the internal applyText command (what the "Apply to" lenses and the chat buttons use) on `target`. */
export async function applyText(text: string, target: vscode.Uri): Promise<ApplyOutcome> {
  return vscode.commands.executeCommand<ApplyOutcome>(Cmd.applyText, { text, target: target.toString(), notify: false });
}

/** The language model tool as agent mode calls it (lm.invokeTool); its text parts joined. */
export async function invokeApplyTool(input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(
    'resilient-apply_applyBlocks',
    { input, toolInvocationToken: undefined },
    new vscode.CancellationTokenSource().token,
  );
  return result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
}

/** Ctrl+Z in the editor of `doc` (shown first, so the undo is that document's). */
export async function undoIn(doc: vscode.TextDocument): Promise<void> {
  await vscode.window.showTextDocument(doc, { preview: false });
  await vscode.commands.executeCommand('undo');
}

/** What the @apply handler streams in a test: its markdown (an anchor as `[title]`) and its buttons. */
export class ChatRecorder implements vscode.ChatResponseStream {
  text = '';
  buttons: vscode.Command[] = [];
  markdown(value: string | vscode.MarkdownString): void {
    this.text += typeof value === 'string' ? value : value.value;
  }
  anchor(_value: vscode.Uri | vscode.Location, title?: string): void {
    this.text += `[${title ?? ''}]`;
  }
  button(command: vscode.Command): void {
    this.buttons.push(command);
  }
  filetree(): void {}
  progress(): void {}
  reference(): void {}
  push(): void {}
}
