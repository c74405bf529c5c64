// The language model tool resilient-apply_applyBlocks in the real extension host: listed in vscode.lm.tools,
// invoked through vscode.lm.invokeTool (toolInvocationToken undefined, as an extension outside a chat
// request would), applying to the live buffer through the shared apply service and answering with the
// engine's LLM-facing message. Bad input is answered with a message, never thrown.
import * as assert from 'node:assert/strict';
import { setup, suite, suiteSetup, teardown, test } from 'mocha';
import * as vscode from 'vscode';
import { createApplyTool } from '../../src/extension/chat/applyTool';
import { nodeRealPathResolver } from '../../src/extension/node/realPath';
import { api, cleanUp, fileUri, openFile, scratchDir, waitFor } from './editorHelpers';

const TOOL = 'resilient-apply_applyBlocks';

const SERVICE = [
  'export class Service {',
  '  constructor(private readonly timeout = 5000) {}',
  '',
  '  start(): void {',
  '    if (this.timeout > 0) {',
  "      console.log('starting');",
  '    }',
  '  }',
  '',
  '  stop(): void {',
  "    console.log('stopping');",
  '  }',
  '}',
  '',
].join('\n');

async function invoke(input: object): Promise<string> {
  const result = await vscode.lm.invokeTool(TOOL, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
  const texts = result.content
    .filter((p): p is vscode.LanguageModelTextPart => p instanceof vscode.LanguageModelTextPart)
    .map((p) => p.value);
  assert.equal(texts.length, result.content.length, 'every result part is text');
  return texts.join('');
}

async function diskText(uri: vscode.Uri): Promise<string> {
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

suite('LM tool: resilient-apply_applyBlocks', () => {
  let dir: string;
  let path: string;
  let doc: vscode.TextDocument;

  suiteSetup(async () => {
    await api();
  });

  setup(async () => {
    dir = scratchDir();
    path = `${dir}/service.ts`;
    doc = await openFile(path, SERVICE);
  });

  teardown(async () => {
    await cleanUp();
  });

  test('is listed in vscode.lm.tools with its schema and tags', async () => {
    const tool = await waitFor(() => vscode.lm.tools.find((t) => t.name === TOOL), `${TOOL} in vscode.lm.tools`);
    assert.match(tool.description, /ambiguous/);
    assert.match(tool.description, /closest real text/);
    const schema = tool.inputSchema as { properties: Record<string, unknown>; required?: string[] };
    assert.deepEqual(Object.keys(schema.properties).sort(), ['blocks', 'code', 'filePath', 'patch', 'text']);
    // filePath may be left out with a patch that names its files (checked in core, with a message).
    assert.equal(schema.required, undefined);
    assert.ok(tool.tags.includes('edit'));
  });

  test('applies an exact block to the live buffer, saves it, and one undo reverts it', async () => {
    const message = await invoke({
      filePath: path,
      blocks: [
        { search: '  constructor(private readonly timeout = 5000) {}', replace: '  constructor(private readonly timeout = 30000) {}' },
      ],
    });
    assert.match(message, /^Applied 1 block to .*service\.ts/);
    const expected = SERVICE.replace('timeout = 5000', 'timeout = 30000');
    assert.equal(doc.getText(), expected);
    // The file was clean before, so disk and buffer agree for whatever the agent runs next.
    assert.equal(doc.isDirty, false);
    assert.equal(await diskText(doc.uri), expected);
    await vscode.window.showTextDocument(doc);
    await vscode.commands.executeCommand('undo');
    assert.equal(doc.getText(), SERVICE);
  });

  test('applies an indentation-drifted block and says which normalisation it needed', async () => {
    // The model quoted the method flush left and wrote its replacement flush left too.
    const message = await invoke({
      filePath: path,
      blocks: [{ search: "stop(): void {\n  console.log('stopping');\n}\n", replace: "stop(): void {\n  console.log('stopped');\n}\n" }],
    });
    assert.match(message, /indentation/);
    assert.equal(doc.getText(), SERVICE.replace("console.log('stopping')", "console.log('stopped')"));
  });

  test('accepts blocks in the marker format through "text"', async () => {
    const text = '<<<<<<< SEARCH\n  start(): void {\n=======\n  start(): boolean {\n>>>>>>> REPLACE\n';
    const message = await invoke({ filePath: path, text });
    assert.match(message, /^Applied 1 block/);
    assert.ok(doc.getText().includes('  start(): boolean {'));
  });

  test('answers a near miss with ranked candidates and leaves the document untouched', async () => {
    const message = await invoke({
      filePath: path,
      blocks: [{ search: '    if (this.timeout >= 0) {\n      console.log("starting up");\n    }', replace: '    // gone' }],
    });
    assert.match(message, /SEARCH text not found in .*service\.ts/);
    assert.match(message, /\[0\.\d\d\] lines 5-7:/);
    assert.match(message, /console\.log\('starting'\);/, 'quotes the real text of the file');
    assert.equal(doc.getText(), SERVICE);
    assert.equal(doc.isDirty, false);
  });

  test('refuses an ambiguous block and lists every occurrence', async () => {
    const message = await invoke({ filePath: path, blocks: [{ search: '  }', replace: '  } // end' }] });
    assert.match(message, /matches 2 places in .*service\.ts: lines 8, 12\. Nothing was applied\./);
    assert.match(message, /line 8/);
    assert.match(message, /line 12/);
    assert.equal(doc.getText(), SERVICE);
  });

  test('a startLine picks one of several occurrences', async () => {
    const message = await invoke({ filePath: path, blocks: [{ search: '  }', replace: '  } // end of stop', startLine: 12 }] });
    assert.match(message, /^Applied 1 block/);
    assert.equal(doc.getText(), SERVICE.replace("    console.log('stopping');\n  }", "    console.log('stopping');\n  } // end of stop"));
  });

  test('a multi-block call is atomic: one failing block leaves the file untouched', async () => {
    const message = await invoke({
      filePath: path,
      blocks: [
        { search: "      console.log('starting');", replace: "      console.log('go');" },
        { search: '  restart(): void {', replace: '  reboot(): void {' },
      ],
    });
    assert.match(message, /block 2/i);
    assert.equal(doc.getText(), SERVICE);
  });

  test('rejects malformed input with a message naming the field, without throwing', async () => {
    const cases: [object, RegExp][] = [
      [{ blocks: [{ search: 'a', replace: 'b' }] }, /"filePath" is missing/],
      [{ filePath: 42, blocks: [{ search: 'a', replace: 'b' }] }, /"filePath" must be a string, got a number \(42\)/],
      [{ filePath: path, blocks: [{ search: 'a', replace: 'b' }], text: 'x' }, /either "blocks" or "text", not both/],
      [{ filePath: path }, /neither "blocks" nor "text"/],
      [{ filePath: path, blocks: [{ search: 7, replace: 'b' }] }, /blocks\[0\]\.search must be a string, got a number \(7\)/],
      [{ filePath: path, blocks: [{ search: 'a', replace: 'b', startLine: 0 }] }, /blocks\[0\]\.startLine must be a positive integer/],
      [{ filePath: path, text: '<<<<<<< SEARCH\nx\n>>>>>>> REPLACE\n' }, /"text" is malformed/],
      [{ filePath: '/etc/passwd', blocks: [{ search: 'a', replace: 'b' }] }, /outside the workspace/],
      [{ filePath: '../outside.ts', blocks: [{ search: 'a', replace: 'b' }] }, /outside the workspace/],
      [{ filePath: `${dir}/missing.ts`, blocks: [{ search: 'a', replace: 'b' }] }, /does not exist/],
      [{ filePath: dir, blocks: [{ search: 'a', replace: 'b' }] }, /is a folder/],
      [{ filePath: path, text: 'other.ts\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n' }, /names the file "other\.ts"/],
    ];
    for (const [input, expected] of cases) {
      const message = await invoke(input);
      assert.match(message, expected, `for ${JSON.stringify(input)}`);
    }
    assert.equal(doc.getText(), SERVICE);
  });

  test('accepts an absolute path inside the workspace', async () => {
    const message = await invoke({ filePath: fileUri(path).path, blocks: [{ search: '  stop(): void {', replace: '  halt(): void {' }] });
    assert.match(message, /^Applied 1 block/);
    assert.ok(doc.getText().includes('  halt(): void {'));
  });

  test('creates a new file from a block with an empty SEARCH', async () => {
    const created = `${dir}/created.ts`;
    const message = await invoke({ filePath: created, blocks: [{ search: '', replace: 'export const created = true;\n' }] });
    assert.match(message, /Created/);
    assert.equal(await diskText(fileUri(created)), 'export const created = true;\n');
  });

  test('prepareInvocation summarises the blocks, and asks for confirmation only for sensitive files', async () => {
    const tool = createApplyTool({ resolveRealPath: nodeRealPathResolver(), ...(await api()) });
    const token = new vscode.CancellationTokenSource().token;
    const input = {
      filePath: path,
      blocks: [
        { search: '  stop(): void {', replace: '  halt(): void {' },
        { search: 'a\nb', replace: '' },
      ],
    };
    const ordinary = await tool.prepareInvocation!({ input }, token);
    assert.ok(ordinary);
    assert.match(String(ordinary.invocationMessage), /Applying 2 SEARCH\/REPLACE blocks to .*service\.ts/);
    assert.equal(ordinary.confirmationMessages, undefined);

    const sensitive = await tool.prepareInvocation!({ input: { ...input, filePath: '.vscode/settings.json' } }, token);
    assert.ok(sensitive?.confirmationMessages);
    assert.equal(sensitive.confirmationMessages.title, 'Apply 2 SEARCH/REPLACE blocks to .vscode/settings.json?');
    const body =
      typeof sensitive.confirmationMessages.message === 'string'
        ? sensitive.confirmationMessages.message
        : sensitive.confirmationMessages.message.value;
    assert.match(body, /1\. Replace ` stop\(\): void \{ ` \(1 line\) with ` halt\(\): void \{ ` \(1 line\)/);
    assert.match(body, /2\. Replace ` a ` \(2 lines\) with nothing \(deletes\)/);

    const bad = await tool.prepareInvocation!({ input: { nope: true } }, token);
    assert.equal(bad?.confirmationMessages, undefined, 'invoke answers bad input; nothing to confirm');
  });
});
