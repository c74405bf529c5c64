// Issue 13 in the real editor and through the language model tool: inconsistent indentation is a near
// miss; a rescaled indent unit maps new lines through the same function (also after a REAL format-on-save
// run of the built-in JSON formatter between the model's view and the apply); identity keeps REPLACE's
// "\t    " indentation byte for byte on a CRLF file; changed lines keep the file's dash and quotes.
import * as assert from 'node:assert/strict';
import { suite, suiteSetup, suiteTeardown, test } from 'mocha';
import * as vscode from 'vscode';
import { applyText, block, invokeApplyTool, openFile, scratchSuite } from './editorHelpers';

const PY = 'for item in items:\n    if item.ok:\n        total += item.price\n';
const PY_BAD_SEARCH = 'for item in items:\n    if item.ok:\n    total += item.price';
const PY_BAD_REPLACE = 'for item in items:\n    if item.ok:\n    total += item.price * 2';

const PERL = 'sub f {\r\n    if ($x) {\r\n\tprint 1;\r\n    }\r\n}\r\n';
const PERL_SEARCH = 'sub f {\n    if ($x) {\n\tprint 1;';
const PERL_REPLACE = 'sub f {\n    if ($x) {\n\tprint 1;\n\tprint 2;\n\t    nested();';
const PERL_AFTER = 'sub f {\r\n    if ($x) {\r\n\tprint 1;\r\n\tprint 2;\r\n\t    nested();\r\n    }\r\n}\r\n';

const TS = 'export const labels = {\n  saved: "Der Text wurde „gespeichert“ — alles gut.",\n};\n';
const TS_SEARCH = '  saved: "Der Text wurde "gespeichert" - alles gut.",';
const TS_REPLACE = '  saved: "Der Text wurde "gesichert" - alles gut.",';
const TS_AFTER = 'export const labels = {\n  saved: "Der Text wurde „gesichert“ — alles gut.",\n};\n';

const YAML = 'jobs:\n    build:\n        runs-on: ubuntu-latest\n';
const YAML_SEARCH = 'jobs:\n  build:\n    runs-on: ubuntu-latest';
const YAML_REPLACE = 'jobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm test';
const YAML_AFTER = 'jobs:\n    build:\n        runs-on: ubuntu-latest\n        steps:\n            - run: npm test\n';

suite('write fidelity (issue 13): editor apply', () => {
  const dir = scratchSuite();

  test("class 1: a body at its header's depth is a near miss; the document is unchanged", async () => {
    const doc = await openFile(`${dir()}/loop.py`, PY);
    const outcome = await applyText(block(PY_BAD_SEARCH, PY_BAD_REPLACE), doc.uri);
    assert.notEqual(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), PY);
    const candidate = outcome.plan?.parts[0]?.result.blocks[0]?.candidates[0];
    assert.ok(candidate, outcome.summary);
    assert.equal(candidate.startLine, 1);
    assert.match(candidate.note ?? '', /indentation disagrees: line 3/);
  });

  test('class 2: a 2-space SEARCH against a 4-space file: new lines rescaled, not shifted', async () => {
    const doc = await openFile(`${dir()}/ci.yaml`, YAML);
    const outcome = await applyText(block(YAML_SEARCH, YAML_REPLACE), doc.uri);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), YAML_AFTER);
  });

  test('class 3: Perl "\\t    " on a CRLF file: REPLACE\'s indentation is written byte for byte', async () => {
    const doc = await openFile(`${dir()}/f.pl`, PERL);
    const outcome = await applyText(block(PERL_SEARCH, PERL_REPLACE), doc.uri);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), PERL_AFTER);
  });

  test("class 4: the changed line keeps the file's em dash and typographic quotes inside the literal", async () => {
    const doc = await openFile(`${dir()}/labels.ts`, TS);
    const outcome = await applyText(block(TS_SEARCH, TS_REPLACE), doc.uri);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), TS_AFTER);
  });
});

suite('write fidelity (issue 13): language model tool', () => {
  const dir = scratchSuite();

  test('class 1: refused with the disagreeing line named; the file is unchanged', async () => {
    const doc = await openFile(`${dir()}/loop.py`, PY);
    const message = await invokeApplyTool({ filePath: `${dir()}/loop.py`, blocks: [{ search: PY_BAD_SEARCH, replace: PY_BAD_REPLACE }] });
    assert.match(message, /inconsistent indentation/);
    assert.match(message, /line 3 has 8 spaces in the file, 4 spaces in SEARCH/);
    assert.equal(doc.getText(), PY);
  });

  test("classes 2-4 give the file's bytes", async () => {
    const cases: Array<[string, string, string, string, string]> = [
      ['ci.yaml', YAML, YAML_SEARCH, YAML_REPLACE, YAML_AFTER],
      ['f.pl', PERL, PERL_SEARCH, PERL_REPLACE, PERL_AFTER],
      ['labels.ts', TS, TS_SEARCH, TS_REPLACE, TS_AFTER],
    ];
    for (const [name, before, search, replace, after] of cases) {
      const doc = await openFile(`${dir()}/${name}`, before);
      const message = await invokeApplyTool({ filePath: `${dir()}/${name}`, blocks: [{ search, replace }] });
      assert.match(message, /^Applied 1 block/, message);
      assert.equal(doc.getText(), after, name);
    }
  });
});

suite("write fidelity (issue 13): real JSON format-on-save between the model's view and the apply", () => {
  const dir = scratchSuite();
  const json = () => vscode.workspace.getConfiguration('', { languageId: 'json' });
  const settings: Array<[string, unknown]> = [
    ['editor.formatOnSave', true],
    ['editor.tabSize', 4],
    ['editor.insertSpaces', true],
    ['editor.detectIndentation', false],
  ];

  suiteSetup(async function () {
    this.timeout(120_000);
    const ext = vscode.extensions.getExtension('vscode.json-language-features');
    assert.ok(ext, 'the built-in JSON language features extension must be enabled in test sessions');
    await ext.activate();
    for (const [key, value] of settings) {
      await json().update(key, value, vscode.ConfigurationTarget.Workspace, true);
    }
    // The workspace settings reach the workbench's save participants asynchronously: warm up on a probe
    // file until a save is seen to format, so each test's first save is a formatting one.
    await formattedOnSave('ra-tests/format-probe.json', 40);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  suiteTeardown(async () => {
    for (const [key] of settings) {
      await json().update(key, undefined, vscode.ConfigurationTarget.Workspace, true);
    }
  });

  /** Opens the model's 2-space view, changes it, and saves with the JSON formatter re-indenting to 4. */
  async function formattedOnSave(path: string, attempts = 5): Promise<{ doc: vscode.TextDocument; view: string }> {
    const doc = await openFile(path, '{\n  "name": "demo",\n  "server": {\n    "port": 8080\n  }\n}\n');
    const editor = await vscode.window.showTextDocument(doc);
    // The editor indents with 4 spaces (the settings above; set on the editor too, since a document
    // opened before they reach the workbench keeps the 2 spaces detected from its text).
    editor.options = { tabSize: 4, insertSpaces: true };
    // The JSON language server starts asynchronously: wait until it offers formatting edits.
    const ready = Date.now() + 30_000;
    for (;;) {
      const edits = await vscode.commands.executeCommand<vscode.TextEdit[]>('vscode.executeFormatDocumentProvider', doc.uri, {
        tabSize: 4,
        insertSpaces: true,
      });
      if (edits && edits.length > 0) {
        break;
      }
      assert.ok(Date.now() < ready, 'the built-in JSON formatter never answered');
      await new Promise((r) => setTimeout(r, 250));
    }
    // A real save: the format-on-save participant runs the JSON formatter before writing. The first
    // save of a session can come before the [json] settings reach the workbench: then edit and save again.
    let view = '';
    for (let attempt = 1; !doc.getText().includes('\n        "port"'); attempt++) {
      assert.ok(attempt <= attempts, `format on save did not re-indent the document:\n${doc.getText()}`);
      await editor.edit((e) => e.replace(doc.lineAt(1).range, `  "name": "demo-app-${attempt}",`));
      view = doc.getText();
      assert.equal(doc.isDirty, true);
      await vscode.commands.executeCommand('workbench.action.files.save');
      const deadline = Date.now() + 3_000;
      while (!doc.getText().includes('\n        "port"') && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
      }
    }
    assert.match(doc.getText(), /^\{\n    "name": "demo-app-\d+",\n    "server": \{\n        "port": 8080\n    \}\n\}\n?$/);
    assert.equal(doc.isDirty, false, 'the formatted text was saved');
    return { doc, view };
  }

  const search = '  "server": {\n    "port": 8080\n  }';
  const replace = '  "server": {\n    "port": 8080,\n    "tls": {\n      "enabled": true\n    }\n  }';
  /** The formatted file with the block applied at the file's 4-space indentation. */
  const after = (formatted: string) =>
    formatted.replace(
      '        "port": 8080\n    }',
      '        "port": 8080,\n        "tls": {\n            "enabled": true\n        }\n    }',
    );

  test('editor: the block written against the 2-space view lands rescaled in the formatted file', async () => {
    const { doc, view } = await formattedOnSave(`${dir()}/app-config.json`);
    assert.ok(view.includes(search), "SEARCH is the model's view");
    const formatted = doc.getText();
    const outcome = await applyText(block(search, replace), doc.uri);
    assert.equal(outcome.status, 'applied', outcome.summary);
    assert.equal(doc.getText(), after(formatted));
  });

  test('language model tool: the same', async () => {
    const { doc } = await formattedOnSave(`${dir()}/tool.json`);
    const formatted = doc.getText();
    const message = await invokeApplyTool({ filePath: `${dir()}/tool.json`, blocks: [{ search, replace }] });
    assert.match(message, /^Applied 1 block/, message);
    assert.equal(doc.getText(), after(formatted));
  });
});
