// applySnippet on real source text, one test per shape of code block (issue 20): a method replaced, a class
// shown with placeholders, a new function inserted beside its neighbour, a whole-file rewrite, a name
// declared twice refused, a language without a grammar read by the outline; then the other grammars.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applySnippet, type SnippetResult, type ApplyOptions } from '../../src/core';
import { testGrammars } from '../shared/grammars';

/** applySnippet with the shipped grammars, plus what every result keeps: edits turn the original into content. */
async function apply(doc: string, code: string, languageId: string, options: ApplyOptions = {}): Promise<SnippetResult> {
  const result = await applySnippet(doc, { code, languageId }, { grammars: testGrammars, fileName: 'file', ...options });
  assert.ok(result.message.length > 0);
  if (result.status === 'applied') {
    let rebuilt = doc;
    for (const edit of [...result.edits].sort((a, b) => b.start - a.start)) {
      rebuilt = rebuilt.slice(0, edit.start) + edit.newText + rebuilt.slice(edit.end);
    }
    assert.equal(rebuilt, result.content, 'edits applied to the original must give content');
    assert.ok(!/\.\.\. existing code/.test(result.content ?? ''), 'a placeholder line was written');
  } else {
    assert.equal(result.content, undefined);
    assert.deepEqual(result.edits, []);
  }
  return result;
}

const CART_TS = `import { Item } from './item';

export class Cart {
  private items: Item[] = [];

  add(item: Item): void {
    this.items.push(item);
  }

  remove(id: string): void {
    this.items = this.items.filter((i) => i.id !== id);
  }
}

export function total(cart: Cart): number {
  return 0;
}
`;

describe('applySnippet: the shapes of a code block', () => {
  test('a method shown alone replaces that method of its class, at the class depth', async () => {
    const result = await apply(CART_TS, 'add(item: Item): void {\n  this.items.push(item);\n  this.changed = true;\n}', 'typescript');
    assert.equal(result.status, 'applied');
    assert.equal(result.content, CART_TS.replace('this.items.push(item);\n', 'this.items.push(item);\n    this.changed = true;\n'));
    assert.deepEqual(
      result.snippet.parts.map((p) => [p.action, p.what]),
      [['replaced', 'method add of class Cart']],
    );
    assert.equal(result.snippet.reader, 'typescript');
    assert.match(result.message, /replaced method add of class Cart/);
  });

  test('a class shown with placeholders keeps what they stand for and adds the new method after its neighbour', async () => {
    const code = [
      'export class Cart {',
      '  // ... existing code ...',
      '',
      '  remove(id: string): void {',
      '    this.items = this.items.filter((i) => i.id === id);',
      '  }',
      '',
      '  clear(): void {',
      '    this.items = [];',
      '  }',
      '}',
    ].join('\n');
    const result = await apply(CART_TS, code, 'typescript');
    assert.equal(result.status, 'applied');
    const expected = CART_TS.replace('i.id !== id', 'i.id === id').replace(
      '    this.items = this.items.filter((i) => i.id === id);\n  }\n',
      '    this.items = this.items.filter((i) => i.id === id);\n  }\n\n  clear(): void {\n    this.items = [];\n  }\n',
    );
    assert.equal(result.content, expected);
  });

  test('a new Python function is inserted after the one it follows in the block, with the file’s two blank lines', async () => {
    const py = 'import os\n\n\ndef load(path):\n    return open(path).read()\n\n\ndef main():\n    print(load("x"))\n';
    const code = 'def load(path):\n    return open(path).read()\n\n\ndef save(path, text):\n    open(path, "w").write(text)\n';
    const result = await apply(py, code, 'python');
    assert.equal(result.status, 'applied');
    assert.equal(
      result.content,
      'import os\n\n\ndef load(path):\n    return open(path).read()\n\n\ndef save(path, text):\n    open(path, "w").write(text)\n\n\ndef main():\n    print(load("x"))\n',
    );
    assert.deepEqual(
      result.snippet.parts.map((p) => p.action),
      ['inserted'],
    );
  });

  test('a block from the top that omits a declaration is a partial edit: the omitted one is kept and named', async () => {
    const js =
      "const fs = require('fs');\n\nfunction read(p) {\n  return fs.readFileSync(p, 'utf8');\n}\n\nfunction old() {\n  return 1;\n}\n\nmodule.exports = { read };\n";
    const code =
      "const fs = require('fs');\n\nfunction read(p) {\n  return fs.readFileSync(p, 'latin1');\n}\n\nmodule.exports = { read };\n";
    const result = await apply(js, code, 'javascript');
    assert.equal(result.status, 'applied');
    assert.equal(result.content, js.replace("'utf8'", "'latin1'"));
    assert.equal(result.snippet.wholeFile, false);
    assert.deepEqual(result.snippet.removed, []);
    assert.match(result.message, /kept function old: the block did not show it/);
  });

  test('a block that shows every top-level declaration is a rewrite: unchanged lines untouched, its removals listed', async () => {
    const js =
      "const fs = require('fs');\n\nclass Store {\n  read(p) {\n    return fs.readFileSync(p, 'utf8');\n  }\n\n  old() {\n    return 1;\n  }\n}\n\nmodule.exports = { Store };\n";
    const code =
      "const fs = require('fs');\n\nclass Store {\n  read(p) {\n    return fs.readFileSync(p, 'latin1');\n  }\n}\n\nmodule.exports = { Store };\n";
    const result = await apply(js, code, 'javascript');
    assert.equal(result.status, 'applied');
    assert.equal(result.content, code);
    assert.equal(result.snippet.wholeFile, true);
    assert.deepEqual(result.snippet.removed, [{ what: 'method old of class Store', startLine: 8, endLine: 10 }]);
    assert.match(result.message, /removed lines 8-10: method old of class Store/);
    // Minimal edits: the first two lines and the exports line are not part of any edit.
    for (const edit of result.edits) {
      assert.ok(edit.start > js.indexOf('  read('), `an edit touches the unchanged head: ${JSON.stringify(edit)}`);
    }
  });

  test('a method whose name two classes declare is refused, listing every place', async () => {
    const ts = 'class A {\n  render() {\n    return 1;\n  }\n}\n\nclass B {\n  render() {\n    return 2;\n  }\n}\n';
    const result = await apply(ts, 'render() {\n  return 3;\n}', 'typescript');
    assert.equal(result.status, 'ambiguous');
    assert.deepEqual(
      result.blocks[0].candidates.map((c) => [c.startLine, c.endLine]),
      [
        [2, 4],
        [8, 10],
      ],
    );
    // Shown with its class, it is no longer ambiguous.
    const inB = await apply(ts, 'class B {\n  render() {\n    return 3;\n  }\n}', 'typescript');
    assert.equal(inB.status, 'applied');
    assert.equal(inB.content, ts.replace('return 2;', 'return 3;'));
  });

  test('a function declared twice at the same level is refused as ambiguous', async () => {
    const js = 'function f() {\n  return 1;\n}\n\nfunction f() {\n  return 2;\n}\n';
    const result = await apply(js, 'function f() {\n  return 3;\n}', 'javascript');
    assert.equal(result.status, 'ambiguous');
    assert.equal(result.blocks[0].candidates.length, 2);
  });

  test('a language without a grammar is read by the indentation outline (Lua)', async () => {
    const lua = [
      'local Greeter = {}',
      '',
      'function Greeter.new(name)',
      '  return setmetatable({ name = name }, { __index = Greeter })',
      'end',
      '',
      'function Greeter:greet()',
      '  print("Hello " .. self.name)',
      'end',
      '',
      'return Greeter',
      '',
    ].join('\n');
    const result = await apply(lua, 'function Greeter:greet()\n  print("Hi " .. self.name)\nend', 'lua');
    assert.equal(result.status, 'applied');
    assert.equal(result.snippet.reader, 'outline');
    assert.equal(result.content, lua.replace('Hello', 'Hi'));
  });

  test('without a grammar source the grammar languages fall back to the outline and say why', async () => {
    const result = await applySnippet(
      CART_TS,
      { code: 'export function total(cart: Cart): number {\n  return 1;\n}' },
      { fileName: 'cart.ts' },
    );
    assert.equal(result.status, 'applied');
    assert.equal(result.snippet.reader, 'outline');
    assert.match(result.snippet.grammarProblem ?? '', /no grammar source/);
    assert.equal(result.content, CART_TS.replace('return 0;', 'return 1;'));
  });

  test('a context declaration the file lacks, with nothing to place it by, is not found', async () => {
    const result = await apply(CART_TS, 'class Basket {\n  // ... existing code ...\n  empty() {}\n}', 'typescript');
    assert.equal(result.status, 'not_found');
    assert.match(result.message, /class Basket/);
  });

  test('a block the file already holds changes nothing and says so', async () => {
    const result = await apply(CART_TS, 'export function total(cart: Cart): number {\n  return 0;\n}', 'typescript');
    assert.equal(result.status, 'not_found');
    assert.ok(result.blocks[0].alreadyApplied);
  });

  test('CRLF files keep their line endings and tabs their tabs', async () => {
    const go = 'package main\r\n\r\nfunc a() int {\r\n\treturn 1\r\n}\r\n\r\nfunc b() int {\r\n\treturn 2\r\n}\r\n';
    const result = await apply(go, 'func b() int {\n    return 3\n}', 'go');
    assert.equal(result.status, 'applied');
    assert.equal(result.content, go.replace('return 2', 'return 3'));
  });
});

describe('applySnippet: the other grammars', () => {
  test('Go: methods of different receivers are told apart', async () => {
    const go =
      'package main\n\ntype A struct{}\ntype B struct{}\n\nfunc (a *A) String() string {\n\treturn "a"\n}\n\nfunc (b B) String() string {\n\treturn "b"\n}\n';
    const result = await apply(go, 'func (b B) String() string {\n\treturn "B"\n}', 'go');
    assert.equal(result.status, 'applied');
    assert.equal(result.content, go.replace('return "b"', 'return "B"'));
  });

  test('Rust: a method of an impl block, shown alone', async () => {
    const rs =
      'struct Point { x: i32 }\n\nimpl Point {\n    fn new(x: i32) -> Self {\n        Point { x }\n    }\n\n    fn x(&self) -> i32 {\n        self.x\n    }\n}\n';
    const result = await apply(rs, 'fn x(&self) -> i32 {\n    self.x * 2\n}', 'rust');
    assert.equal(result.status, 'applied');
    assert.equal(result.content, rs.replace('        self.x\n', '        self.x * 2\n'));
  });

  test('Java: overloads are told apart by their parameters', async () => {
    const java =
      'class Calc {\n    int add(int a, int b) {\n        return a + b;\n    }\n\n    double add(double a, double b) {\n        return a + b;\n    }\n}\n';
    const result = await apply(java, 'double add(double a, double b) {\n    return a + b + 0.5;\n}', 'java');
    assert.equal(result.status, 'applied');
    assert.equal(result.content, java.replace('        return a + b;\n    }\n}', '        return a + b + 0.5;\n    }\n}'));
  });

  test('TSX: a component rewritten as an arrow function', async () => {
    const tsx =
      'import React from "react";\n\nexport const Hello = () => {\n  return <div>hello</div>;\n};\n\nexport const Bye = () => <div>bye</div>;\n';
    const result = await apply(tsx, 'export const Hello = () => {\n  return <div className="x">hello</div>;\n};', 'typescriptreact');
    assert.equal(result.status, 'applied');
    assert.equal(result.content, tsx.replace('<div>hello', '<div className="x">hello'));
  });
});
