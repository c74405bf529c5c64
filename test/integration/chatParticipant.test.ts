// The @apply participant's real request handler, driven in the real extension host with a recording
// response stream (a plain object implementing ChatResponseStream that keeps what the handler streams).
// The buttons it emits are then executed exactly as the chat view would: vscode.commands.executeCommand
// with the button's command and arguments, after a JSON round trip because chat history stores them.
import * as assert from 'node:assert/strict';
import { setup, suite, suiteSetup, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import type { ApplyOutcome } from '../../src/extension/applyService';
import { createApplyParticipantHandler, type ApplyChatMetadata } from '../../src/extension/chat/chatParticipant';
import { api, block, cleanUp, lensRows, openFile, rewrite, scratchDir, waitFor } from './editorHelpers';

type Part =
  | { kind: 'markdown'; value: string }
  | { kind: 'anchor'; value: vscode.Uri | vscode.Location; title?: string }
  | { kind: 'button'; value: vscode.Command }
  | { kind: 'progress'; value: string }
  | { kind: 'reference'; value: vscode.Uri | vscode.Location }
  | { kind: 'filetree'; value: vscode.ChatResponseFileTree[] }
  | { kind: 'other'; value: vscode.ChatResponsePart };

/** Records every call the handler makes on its response stream. */
class RecordingStream implements vscode.ChatResponseStream {
  readonly parts: Part[] = [];
  markdown(value: string | vscode.MarkdownString): void {
    this.parts.push({ kind: 'markdown', value: typeof value === 'string' ? value : value.value });
  }
  anchor(value: vscode.Uri | vscode.Location, title?: string): void {
    this.parts.push({ kind: 'anchor', value, title });
  }
  button(command: vscode.Command): void {
    this.parts.push({ kind: 'button', value: command });
  }
  filetree(value: vscode.ChatResponseFileTree[]): void {
    this.parts.push({ kind: 'filetree', value });
  }
  progress(value: string): void {
    this.parts.push({ kind: 'progress', value });
  }
  reference(value: vscode.Uri | vscode.Location): void {
    this.parts.push({ kind: 'reference', value });
  }
  push(part: vscode.ChatResponsePart): void {
    this.parts.push({ kind: 'other', value: part });
  }

  get text(): string {
    return this.parts
      .filter((p): p is Extract<Part, { kind: 'markdown' }> => p.kind === 'markdown')
      .map((p) => p.value)
      .join('');
  }
  get buttons(): vscode.Command[] {
    return this.parts.filter((p): p is Extract<Part, { kind: 'button' }> => p.kind === 'button').map((p) => p.value);
  }
  get anchors(): Extract<Part, { kind: 'anchor' }>[] {
    return this.parts.filter((p): p is Extract<Part, { kind: 'anchor' }> => p.kind === 'anchor');
  }
  button_(title: string | RegExp): vscode.Command {
    const found = this.buttons.find((b) => (typeof title === 'string' ? b.title === title : title.test(b.title)));
    assert.ok(found, `no button ${title}; buttons: ${this.buttons.map((b) => b.title).join(' | ')}`);
    return found;
  }
}

interface RequestInit {
  prompt?: string;
  command?: string;
  references?: vscode.ChatPromptReference[];
}

/** A ChatRequest as the chat view hands it to a participant (no model: @apply never uses one). */
function request(init: RequestInit): vscode.ChatRequest {
  return {
    prompt: init.prompt ?? '',
    command: init.command,
    references: init.references ?? [],
    toolReferences: [],
    toolInvocationToken: undefined as never,
    model: undefined as unknown as vscode.LanguageModelChat,
  };
}

async function ask(init: RequestInit): Promise<{ stream: RecordingStream; result: vscode.ChatResult }> {
  const stream = new RecordingStream();
  const handler = createApplyParticipantHandler((await api()).applyService);
  const result = (await handler(request(init), { history: [] }, stream, new vscode.CancellationTokenSource().token)) ?? {};
  return { stream, result };
}

/** Runs a button as the chat view does; arguments go through JSON like chat history stores them. */
async function click(button: vscode.Command): Promise<ApplyOutcome> {
  const args = JSON.parse(JSON.stringify(button.arguments ?? [])) as unknown[];
  return vscode.commands.executeCommand<ApplyOutcome>(button.command, ...args);
}

const CONFIG = [
  'export const defaults = {',
  '  retries: 3,',
  '  timeoutMs: 5000,',
  "  mode: 'fast',",
  '};',
  '',
  'export function connect(url: string) {',
  '  if (!url) {',
  '    return null;',
  '  }',
  '  return open(url, defaults);',
  '}',
  '',
  'export function disconnect(handle: Handle) {',
  '  if (!handle) {',
  '    return null;',
  '  }',
  '  return handle.close();',
  '}',
  '',
].join('\n');

suite('chat participant @apply', () => {
  let dir: string;
  let doc: vscode.TextDocument;

  suiteSetup(async () => {
    await api();
  });

  setup(async () => {
    dir = scratchDir();
    doc = await openFile(`${dir}/config.ts`, CONFIG);
  });

  teardown(async () => {
    await cleanUp();
  });

  test('/help explains the block format with an example and offers no buttons', async () => {
    const { stream, result } = await ask({ command: 'help' });
    assert.match(stream.text, /<<<<<<< SEARCH\n[\s\S]*\n=======\n[\s\S]*\n>>>>>>> REPLACE/);
    assert.match(stream.text, /\/clipboard/);
    assert.equal(stream.buttons.length, 0);
    assert.equal((result.metadata as ApplyChatMetadata).command, 'help');
  });

  test('an exact block in the prompt: outcome line, anchor, Apply and Preview; Apply edits the active editor', async () => {
    const prompt = `please apply\n${block('  timeoutMs: 5000,', '  timeoutMs: 30000,')}`;
    const { stream, result } = await ask({ prompt });
    assert.match(stream.text, /\*\*Block 1\*\*: matched exactly at line 3/);
    assert.deepEqual(
      stream.buttons.map((b) => b.title),
      ['Apply', 'Preview'],
    );
    const anchor = stream.anchors.find((a) => a.value instanceof vscode.Location);
    assert.ok(anchor && anchor.value instanceof vscode.Location);
    assert.equal(anchor.value.uri.toString(), doc.uri.toString());
    assert.equal(anchor.value.range.start.line, 2);
    assert.deepEqual(result.metadata, { command: undefined, blocks: 1, unique: 1, ready: true });
    assert.equal(doc.getText(), CONFIG, 'the reply itself changes nothing');

    const outcome = await click(stream.button_('Apply'));
    assert.equal(outcome.status, 'applied');
    assert.equal(doc.getText(), CONFIG.replace('timeoutMs: 5000', 'timeoutMs: 30000'));
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), CONFIG, 'one undo reverts the apply');
  });

  test('an indentation-drifted block says which normalisation matched it', async () => {
    const prompt = block('if (!url) {\n  return null;\n}', 'if (!url) {\n  throw new TypeError(url);\n}');
    const { stream } = await ask({ prompt });
    assert.match(stream.text, /matched after normalising indentation at lines 8-10/);
    await click(stream.button_('Apply'));
    assert.ok(doc.getText().includes('  if (!url) {\n    throw new TypeError(url);\n  }'), doc.getText());
  });

  test('a near miss: ranked candidates with "Apply here (NN%, lines a-b)" and no plain Apply; choosing one applies there', async () => {
    const prompt = block('  return open(url, default);', '  return open(url, { ...defaults, secure: true });');
    const { stream, result } = await ask({ prompt });
    assert.match(stream.text, /not found, best \d+% at line 11/);
    const titles = stream.buttons.map((b) => b.title);
    assert.ok(!titles.includes('Apply'), titles.join(' | '));
    assert.match(titles[0], /^Apply here \(\d+%, line 11\)$/);
    assert.ok(titles.includes('Preview (line 11)'));
    assert.ok(titles.includes('Copy message for the model'));
    assert.match(stream.text, /```\n {2}return open\(url, defaults\);\n```/, 'quotes the real candidate text');
    assert.equal((result.metadata as ApplyChatMetadata).unique, 0);

    const outcome = await click(stream.button_(/^Apply here \(\d+%, line 11\)$/));
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), CONFIG.replace('  return open(url, defaults);', '  return open(url, { ...defaults, secure: true });'));
  });

  /** A file long enough that line 350 is out of view when the editor shows its top. */
  const LONG = Array.from({ length: 400 }, (_, i) => `export const value${i + 1} = ${i + 1};`).join('\n') + '\n';
  const shownIn = (uri: vscode.Uri) => vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
  const inView = (editor: vscode.TextEditor, line: number) => editor.visibleRanges.some((r) => r.start.line <= line && line <= r.end.line);

  test('Apply in a reply opens the file when no editor shows it, scrolls to the changed lines and highlights them', async () => {
    const long = await openFile(`${dir}/long.ts`, LONG);
    const { stream } = await ask({ prompt: block('export const value350 = 350;', 'export const value350 = 3500;') });
    const apply = stream.button_('Apply');
    // The user closed the file after the reply was rendered.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    assert.equal(shownIn(long.uri), undefined);
    const outcome = await click(apply);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(long.getText(), LONG.replace('value350 = 350;', 'value350 = 3500;'));
    const editor = shownIn(long.uri);
    assert.ok(editor, 'Apply did not open the changed file');
    // Like every apply, it is an unsaved change (one undo away), even in a file it had to open.
    assert.ok(editor.document.isDirty, 'the apply was saved');
    await waitFor(() => inView(editor, 349), 'line 350 in view');
    const services = await api();
    assert.deepEqual(
      services.feedback.highlighted(long.uri).map((r) => [r.start.line, r.end.line]),
      [[349, 349]],
      'the changed line is highlighted',
    );
  });

  test('Apply here in a reply scrolls the open editor to the chosen lines and highlights them', async () => {
    const long = await openFile(`${dir}/long.ts`, LONG);
    const { stream } = await ask({
      prompt: block('export const value350 = 35;\nexport const value351 = 351;', 'export const value350 = 0;\nexport const value351 = 0;'),
    });
    const applyHere = stream.button_(/^Apply here \(\d+%, lines 350-351\)$/);
    const editor = shownIn(long.uri);
    assert.ok(editor);
    editor.revealRange(new vscode.Range(0, 0, 0, 0), vscode.TextEditorRevealType.AtTop);
    await waitFor(() => !inView(editor, 349), 'the top of the file in view');
    const outcome = await click(applyHere);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(
      long.getText(),
      LONG.replace('value350 = 350;\nexport const value351 = 351;', 'value350 = 0;\nexport const value351 = 0;'),
    );
    await waitFor(() => inView(editor, 349) && inView(editor, 350), 'lines 350-351 in view');
    const services = await api();
    assert.deepEqual(
      services.feedback.highlighted(long.uri).map((r) => [r.start.line, r.end.line]),
      [[349, 350]],
    );
  });

  test('Copy message for the model puts the engine message on the clipboard', async () => {
    const { stream } = await ask({ prompt: block('  retries: 4,\n  timeout: 5000,', '  retries: 5,') });
    await click(stream.button_('Copy message for the model'));
    const copied = await vscode.env.clipboard.readText();
    assert.match(copied, /SEARCH text not found in .*config\.ts\. Closest matches/);
    assert.match(copied, /\[0\.\d\d\] lines 2-3:/);
  });

  test('an ambiguous block: one "Apply here (i of n)" per occurrence; choosing the second edits only it', async () => {
    // Both functions end their guard with the same two lines.
    const ambiguous = block('    return null;\n  }', '    return undefined;\n  }');
    const { stream } = await ask({ prompt: ambiguous });
    assert.match(stream.text, /ambiguous: 2 matches at lines 9-10, 16-17/);
    assert.deepEqual(
      stream.buttons.filter((b) => b.title.startsWith('Apply here')).map((b) => b.title),
      ['Apply here (1 of 2, lines 9-10)', 'Apply here (2 of 2, lines 16-17)'],
    );
    const outcome = await click(stream.button_('Apply here (2 of 2, lines 16-17)'));
    assert.equal(outcome.status, 'applied', outcome.summary);
    const lines = doc.getText().split('\n');
    assert.equal(lines[8], '    return null;', 'the first occurrence is untouched');
    assert.equal(lines[15], '    return undefined;');
  });

  test('a batch: "Apply all" applies every block as one edit, reverted by one undo', async () => {
    const prompt = block('  retries: 3,', '  retries: 5,') + '\n' + block("  mode: 'fast',", "  mode: 'safe',");
    const { stream, result } = await ask({ prompt });
    assert.match(stream.text, /All 2 blocks match one place each\./);
    assert.equal((result.metadata as ApplyChatMetadata).ready, true);
    const outcome = await click(stream.button_('Apply all'));
    assert.equal(outcome.status, 'applied');
    const after = CONFIG.replace('retries: 3', 'retries: 5').replace("mode: 'fast'", "mode: 'safe'");
    assert.equal(doc.getText(), after);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), CONFIG);
  });

  test('a batch with a near miss offers "Choose in editor", which shows the candidates as CodeLens rows', async () => {
    const prompt = block('  retries: 3,', '  retries: 5,') + '\n' + block('  return handle.closed();', '  return handle.close(true);');
    const { stream } = await ask({ prompt });
    assert.match(stream.text, /1 of 2 blocks match one place/);
    assert.ok(!stream.buttons.some((b) => b.title === 'Apply all'));
    const outcome = await click(stream.button_('Choose in editor'));
    assert.equal(outcome.status, 'pending');
    assert.equal(doc.getText(), CONFIG, 'nothing applied while a block waits for a choice');
    const rows = await waitFor(async () => {
      const r = await lensRows(doc.uri);
      return r.some((row) => /Apply here/.test(row.title)) ? r : undefined;
    }, 'CodeLens rows for the pending block');
    assert.ok(
      rows.some((row) => /Apply here .*\b18\b/.test(row.title)),
      rows.map((r) => r.title).join(' | '),
    );
  });

  test('a button re-validates on click: the chosen text moved, so it applies where the text is now', async () => {
    const { stream } = await ask({ prompt: block('  return open(url, default);', '  return open(url, { ...defaults });') });
    const apply = stream.button_(/^Apply here \(\d+%, line 11\)$/);
    // A formatter (or the user) inserts lines above after the reply was rendered.
    await rewrite(doc, (text) => `// header\n// added later\n${text}`);
    const outcome = await click(apply);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.lineAt(12).text, '  return open(url, { ...defaults });');
    assert.equal(
      doc
        .getText()
        .split('\n')
        .filter((l) => l.includes('return open(')).length,
      1,
    );
  });

  test('a button whose chosen text is gone applies nothing and shows the new situation', async () => {
    const { stream } = await ask({ prompt: block('  return open(url, default);', '  return open(url, { ...defaults });') });
    const apply = stream.button_(/^Apply here \(\d+%, line 11\)$/);
    await rewrite(doc, (text) => text.replace('  return open(url, defaults);\n', ''));
    const changed = doc.getText();
    const outcome = await click(apply);
    assert.notEqual(outcome.status, 'applied');
    assert.equal(doc.getText(), changed, 'nothing was applied at a stale place');
  });

  test('Preview opens a diff whose right side is the result', async () => {
    const { stream } = await ask({ prompt: block('  timeoutMs: 5000,', '  timeoutMs: 1000,') });
    const button = stream.button_('Preview');
    const args = JSON.parse(JSON.stringify(button.arguments)) as unknown[];
    const uri = await vscode.commands.executeCommand<vscode.Uri>(button.command, ...args);
    assert.ok(uri, 'preview returned no uri');
    const preview = await vscode.workspace.openTextDocument(uri);
    assert.equal(preview.getText(), CONFIG.replace('timeoutMs: 5000', 'timeoutMs: 1000'));
    assert.equal(doc.getText(), CONFIG, 'preview changes nothing');
  });

  test('/clipboard reads the blocks from the clipboard', async () => {
    await vscode.env.clipboard.writeText(block("  mode: 'fast',", "  mode: 'turbo',"));
    const { stream } = await ask({ command: 'clipboard' });
    assert.match(stream.text, /matched exactly at line 4/);
    await click(stream.button_('Apply'));
    assert.ok(doc.getText().includes("  mode: 'turbo',"));
  });

  test('blocks from an attached file go to an attached target file, not the active editor', async () => {
    const transcript = await openFile(
      `${dir}/transcript.md`,
      `# Chat\n\nThe fix:\n\n\`\`\`\n${block('  retries: 3,', '  retries: 9,')}\`\`\`\n`,
      false,
    );
    const other = await openFile(`${dir}/other.ts`, 'export const unrelated = 1;\n');
    assert.equal(vscode.window.activeTextEditor?.document.uri.toString(), other.uri.toString());
    const references: vscode.ChatPromptReference[] = [
      { id: 'vscode.file', value: doc.uri, range: [20, 35] },
      { id: 'vscode.file', value: transcript.uri, range: [0, 19] },
    ];
    const { stream } = await ask({ prompt: '#file:transcript.md #file:config.ts', references });
    assert.match(stream.text, /matched exactly at line 2/);
    const outcome = await click(stream.button_('Apply'));
    assert.equal(outcome.status, 'applied');
    assert.ok(doc.getText().includes('  retries: 9,'));
    assert.equal(other.getText(), 'export const unrelated = 1;\n');
  });

  test('blocks in an attached selection (a Location) are read from that range only', async () => {
    const text = `${block('  retries: 3,', '  retries: 4,')}\n${block('  timeoutMs: 5000,', '  timeoutMs: 6000,')}`;
    const scratch = await openFile(`${dir}/scratch.md`, text, false);
    const second = new vscode.Location(scratch.uri, new vscode.Range(6, 0, 11, 0));
    await vscode.window.showTextDocument(doc);
    const { stream } = await ask({ prompt: '', references: [{ id: 'vscode.selection', value: second }] });
    assert.match(stream.text, /\*\*Block 1\*\*: matched exactly at line 3/);
    assert.doesNotMatch(stream.text, /Block 2/);
  });

  test('a block naming a file goes to that file', async () => {
    const other = await openFile(`${dir}/named.ts`, 'export const named = 1;\n', false);
    const { stream } = await ask({ prompt: block('export const named = 1;', 'export const named = 2;', `${dir}/named.ts`) });
    assert.ok(
      stream.anchors.some((a) => a.value instanceof vscode.Uri && a.value.toString() === other.uri.toString()),
      'the reply links the named file',
    );
    await click(stream.button_('Apply'));
    assert.equal(other.getText(), 'export const named = 2;\n');
    assert.equal(doc.getText(), CONFIG);
  });

  test('malformed blocks: an error naming the block and line, and no buttons', async () => {
    const { stream, result } = await ask({ prompt: '<<<<<<< SEARCH\n  retries: 3,\n>>>>>>> REPLACE\n' });
    assert.match(stream.text, /Nothing can be applied: the blocks are malformed/);
    assert.match(stream.text, /block 1/i);
    assert.match(stream.text, /line \d/);
    assert.equal(stream.buttons.length, 0);
    assert.ok((result.metadata as ApplyChatMetadata).error);
  });

  test('no blocks at all: says how to give them', async () => {
    const { stream } = await ask({ prompt: 'hello' });
    assert.match(stream.text, /No SEARCH\/REPLACE blocks/);
    assert.match(stream.text, /\/help/);
    assert.equal(stream.buttons.length, 0);
  });
});
