// Check of the WEB bundle (package.json "browser") in the web workbench's web worker extension host.
// test/runVsCode.mjs --web opens the workbench with the payload extensionDevelopmentKind=web, so the
// development extension and this file (its extensionTestsPath) run in the worker. The worker can only
// `require('vscode')`, so this file is bundled by test/web/build.mjs (no mocha, no Node built-ins) and
// kept small: it proves where it runs, then applies an exact and an indentation-drifted block to an
// untitled document through the extension's own command and undoes them. The web bundle holds no engine:
// those applies, right after activation, only work once activate() has read and evaluated
// dist/web/engine.js and the command waited for it (src/extension/engineGate.ts).
import * as vscode from 'vscode';

const EXTENSION_ID = 'resilient-apply.resilient-apply';
/** Lines the runner picks out of the workbench log (the worker has no process.env to pass one in). */
const LINE_PREFIX = '[resilient-apply-web-tests] ';
export const RESULT_PREFIX = 'RESILIENT_APPLY_WEB_RESULT ';

interface Outcome {
  status: string;
  summary: string;
}

function say(line: string): void {
  console.log(LINE_PREFIX + line);
}

function check(condition: boolean, what: string): void {
  if (!condition) {
    throw new Error(what);
  }
}

function equal<T>(actual: T, expected: T, what: string): void {
  check(actual === expected, `${what}: expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

function block(search: string, replace: string): string {
  return ['<<<<<<< SEARCH', search, '=======', replace, '>>>>>>> REPLACE', ''].join('\n');
}

/** Polls until the document holds `expected` (undo reaches the extension host a moment after the command). */
async function waitForText(doc: vscode.TextDocument, expected: string, what: string): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (doc.getText() !== expected && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 50));
  }
  equal(doc.getText(), expected, what);
}

const checks: [string, () => Promise<void>][] = [
  [
    'runs in the web worker extension host',
    async () => {
      const g = globalThis as { process?: { versions?: { node?: string } }; navigator?: unknown; document?: unknown };
      check(g.process?.versions?.node === undefined, `a Node process is visible (node ${g.process?.versions?.node})`);
      check(g.navigator !== undefined, 'navigator is undefined: not a browser worker');
      check(g.document === undefined, 'document is defined: not a worker');
      equal(vscode.env.uiKind, vscode.UIKind.Web, 'vscode.env.uiKind');
      // getExtension only sees extensions of this host: the extension is loaded here, next to this file.
      const extension = vscode.extensions.getExtension(EXTENSION_ID);
      check(extension !== undefined, `${EXTENSION_ID} is not loaded in this (web worker) extension host`);
      if (!extension!.isActive) {
        await extension!.activate();
      }
      check(extension!.isActive, `${EXTENSION_ID} did not activate`);
      // test/runVsCode.mjs compares this with the extension it meant to test (development folder or .vsix).
      say(`extension under test: ${extension!.extensionUri.path}`);
      const commands = await vscode.commands.getCommands(true);
      check(commands.includes('resilientApply.applyText'), 'resilientApply.applyText is not registered');
    },
  ],
  [
    'applyText applies an exact and an indentation-drifted block; undo reverts each',
    async () => {
      const original = 'function greet(name) {\n  if (name) {\n    return "hi " + name;\n  }\n  return "hi";\n}\n';
      const doc = await vscode.workspace.openTextDocument({ language: 'javascript', content: original });
      await vscode.window.showTextDocument(doc);

      const exact = await vscode.commands.executeCommand<Outcome>('resilientApply.applyText', {
        text: block('  return "hi";', '  return "hello";'),
        target: doc.uri.toString(),
        notify: false,
      });
      equal(exact.status, 'applied', `exact block (${exact.summary})`);
      const afterExact = original.replace('  return "hi";', '  return "hello";');
      equal(doc.getText(), afterExact, 'text after the exact block');

      // SEARCH and REPLACE lost the file's two-space outer indent: placed by indentation normalising and
      // written back at the file's indentation.
      const drifted = await vscode.commands.executeCommand<Outcome>('resilientApply.applyText', {
        text: block('if (name) {\n  return "hi " + name;\n}', 'if (name) {\n  return "hi, " + name + "!";\n}'),
        target: doc.uri.toString(),
        notify: false,
      });
      equal(drifted.status, 'applied', `drifted block (${drifted.summary})`);
      const afterDrifted = afterExact.replace('    return "hi " + name;', '    return "hi, " + name + "!";');
      equal(doc.getText(), afterDrifted, 'text after the indentation-drifted block');

      await vscode.commands.executeCommand('undo');
      await waitForText(doc, afterExact, 'text after one undo');
      await vscode.commands.executeCommand('undo');
      await waitForText(doc, original, 'text after a second undo');
      await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    },
  ],
  [
    'the language model tool refuses a file reached through a symbolic link it cannot follow',
    async () => {
      // test/runVsCode.mjs --web links linked-secret.txt in the workspace to a file outside it.
      check(typeof vscode.lm?.invokeTool === 'function', 'vscode.lm.invokeTool is missing');
      const result = await vscode.lm.invokeTool(
        'resilient-apply_applyBlocks',
        {
          input: { filePath: 'linked-secret.txt', blocks: [{ search: 'token = "s3cr3t"', replace: 'token = "stolen"' }] },
          toolInvocationToken: undefined,
        },
        new vscode.CancellationTokenSource().token,
      );
      const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      check(
        /symbolic link .* whose target cannot be checked here/.test(text) && /nothing was applied/.test(text),
        `the tool answered: ${text}`,
      );
    },
  ],
  [
    'a code block through the tool\'s "code" input: read by its tree-sitter grammar in the worker, placed by its neighbour',
    async () => {
      const folder = vscode.workspace.workspaceFolders?.[0];
      check(folder !== undefined, 'no workspace folder');
      const uri = vscode.Uri.joinPath(folder!.uri, 'src', 'inventory.ts');
      const doc = await vscode.workspace.openTextDocument(uri);
      const before = doc.getText();
      const code = [
        'export class Warehouse {',
        '  // ... existing code ...',
        '',
        '  reserve(sku: string, quantity: number): boolean {',
        '    // ... existing code ...',
        '  }',
        '',
        '  release(sku: string): void {',
        '    this.lines.delete(sku);',
        '  }',
        '}',
      ].join('\n');
      // The grammar is read from the installed extension through the file system API, here in the worker.
      const api = vscode.extensions.getExtension(EXTENSION_ID)!.exports as {
        codeBlocks: {
          applier: {
            match(
              d: vscode.TextDocument,
              l: string,
              c: string,
              s: string,
            ): Promise<{ result: { status: string; snippet: { reader: string } } }>;
          };
        };
      };
      const dry = await api.codeBlocks.applier.match(doc, 'src/inventory.ts', code, 'web-test');
      equal(dry.result.status, 'applied', 'the dry run');
      check(dry.result.snippet.reader !== 'outline', `read by ${dry.result.snippet.reader}, not by the TypeScript grammar`);
      const result = await vscode.lm.invokeTool(
        'resilient-apply_applyBlocks',
        { input: { filePath: 'src/inventory.ts', code }, toolInvocationToken: undefined },
        new vscode.CancellationTokenSource().token,
      );
      const text = result.content.map((p) => (p instanceof vscode.LanguageModelTextPart ? p.value : '')).join('');
      check(/inserted method release/.test(text), `the tool answered: ${text}`);
      const after = before.replace(
        '    line.reserved += quantity;\n    return true;\n  }\n}\n\nexport class Store',
        '    line.reserved += quantity;\n    return true;\n  }\n\n  release(sku: string): void {\n    this.lines.delete(sku);\n  }\n}\n\nexport class Store',
      );
      check(after !== before, 'the demo file changed; update the check');
      equal(doc.getText(), after, 'the file after the code block');
    },
  ],
  [
    'a C# code block in the worker: the C# grammar (5 MB) is read from the installed extension on first use',
    async () => {
      const content = [
        'namespace Shop',
        '{',
        '    public class Cart',
        '    {',
        '        public Cart() { }',
        '',
        '        public int Count()',
        '        {',
        '            return 0;',
        '        }',
        '    }',
        '}',
        '',
      ].join('\n');
      const doc = await vscode.workspace.openTextDocument({ language: 'csharp', content });
      const api = vscode.extensions.getExtension(EXTENSION_ID)!.exports as {
        codeBlocks: {
          applier: {
            match(
              d: vscode.TextDocument,
              l: string,
              c: string,
              s: string,
            ): Promise<{ result: { status: string; content?: string; snippet: { reader: string; grammarProblem?: string } } }>;
          };
        };
      };
      const code = 'public int Count()\n{\n    return 1;\n}';
      const dry = await api.codeBlocks.applier.match(doc, 'Cart.cs', code, 'web-test');
      equal(dry.result.snippet.reader, 'csharp', `the reader (${dry.result.snippet.grammarProblem ?? 'no grammar problem'})`);
      equal(dry.result.status, 'applied', 'the dry run');
      equal(dry.result.content, content.replace('return 0;', 'return 1;'), 'the text the dry run gives');
    },
  ],
];

export async function run(): Promise<void> {
  let passed = 0;
  let failed = 0;
  for (const [title, body] of checks) {
    const started = Date.now();
    try {
      await body();
      passed++;
      say(`✔ ${title} (${Date.now() - started}ms)`);
    } catch (err) {
      failed++;
      say(`✘ ${title}\n    ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  say(RESULT_PREFIX + JSON.stringify({ passed, failed, pending: 0 }));
  if (failed > 0) {
    throw new Error(`${failed} web check(s) failed`);
  }
}
