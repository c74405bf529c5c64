// The placement defects issue 25 found in code blocks written as chat models write them (section 3), one
// test per defect, each on a reproduction written for it: the file and the block, and the file the user
// wants (or the refusal a model can act on). Every apply is also checked for what all results keep: the
// edits turn the original into the content, and no placeholder line is written.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applySnippet, type SnippetResult } from '../../src/core';
import { testGrammars } from '../shared/grammars';

async function apply(doc: string, code: string, fileName: string): Promise<SnippetResult> {
  const result = await applySnippet(doc, { code, fileName }, { grammars: testGrammars, fileName });
  if (result.status === 'applied') {
    let rebuilt = doc;
    for (const edit of [...result.edits].sort((a, b) => b.start - a.start)) {
      rebuilt = rebuilt.slice(0, edit.start) + edit.newText + rebuilt.slice(edit.end);
    }
    assert.equal(rebuilt, result.content, 'edits applied to the original must give content');
    assert.ok(!/\.\.\. (existing|rest)/.test(result.content ?? ''), 'a placeholder line was written');
  }
  return result;
}

/** The result must be `expected`, with the message shown when it is not. */
function assertApplied(result: SnippetResult, expected: string): void {
  assert.equal(result.status, 'applied', result.message);
  assert.equal(result.content, expected, result.message);
}

const lines = (...l: string[]): string => l.join('\n');

const PAGE_HTML = lines(
  '<!DOCTYPE html>',
  '<html>',
  '<head>',
  '  <title>Counter</title>',
  '</head>',
  '<body>',
  '  <button id="inc">+</button>',
  '  <script>',
  '    function increment(counter) {',
  '      counter.value += 1;',
  '      return counter;',
  '    }',
  '',
  '    function reset(counter) {',
  '      counter.value = 0;',
  '    }',
  '  </script>',
  '</body>',
  '</html>',
  '',
);

const BASKET_PY = lines(
  'class Basket:',
  '    """A basket of items."""',
  '',
  '    def __init__(self):',
  '        self.items = []',
  '',
  '    def add(self, item):',
  '        self.items.append(item)',
  '',
  '',
  'def total(basket):',
  '    return sum(basket.items)',
  '',
);

describe('issue 25, section 3: code-block placement defects', () => {
  test('inserted declarations at the wrong depth: a new function beside indented functions takes its neighbour’s depth', async () => {
    // An inline <script> in HTML: the outline reads the functions at the top level, indented by four.
    const beside = await apply(
      PAGE_HTML,
      lines('function reset(counter) {', '  counter.value = 0;', '}', '', 'function decrement(counter) {', '  counter.value -= 1;', '}'),
      'page.html',
    );
    assertApplied(
      beside,
      PAGE_HTML.replace(
        '      counter.value = 0;\n    }\n',
        '      counter.value = 0;\n    }\n\n    function decrement(counter) {\n      counter.value -= 1;\n    }\n',
      ),
    );
    // The same, shown inside the <script> element with a placeholder for the functions above.
    const inScript = await apply(
      PAGE_HTML,
      lines('<script>', '  // ... existing code ...', '', '  function decrement(counter) {', '    counter.value -= 1;', '  }', '</script>'),
      'page.html',
    );
    assertApplied(
      inScript,
      PAGE_HTML.replace(
        '      counter.value = 0;\n    }\n',
        '      counter.value = 0;\n    }\n\n    function decrement(counter) {\n      counter.value -= 1;\n    }\n',
      ),
    );
    // A Python method shown at column 0 after its neighbour lands at the class body's depth.
    const method = await apply(
      BASKET_PY,
      lines('def add(self, item):', '    self.items.append(item)', '', 'def remove(self, item):', '    self.items.remove(item)'),
      'basket.py',
    );
    assertApplied(
      method,
      BASKET_PY.replace(
        '        self.items.append(item)\n',
        '        self.items.append(item)\n\n    def remove(self, item):\n        self.items.remove(item)\n',
      ),
    );
  });

  test('inserted declarations at the wrong depth: a 2-space block in a 4-space file is written with four', async () => {
    // A block indented by two spaces, for a file indented by four, is written with four.
    const ts = lines('export class Cart {', '    add(): void {', '        this.count++;', '    }', '}', '');
    const twoSpace = await apply(
      ts,
      lines('add(): void {', '  this.count++;', '}', '', 'clear(): void {', '  if (this.count > 0) {', '    this.count = 0;', '  }', '}'),
      'cart.ts',
    );
    assertApplied(
      twoSpace,
      ts.replace(
        '        this.count++;\n    }\n',
        '        this.count++;\n    }\n\n    clear(): void {\n        if (this.count > 0) {\n            this.count = 0;\n        }\n    }\n',
      ),
    );
  });

  test('python class header: a blank or comment line between the header and the first member stays, and no member is written twice', async () => {
    const py = lines(
      'class Basket:',
      '',
      '    # Items are kept in insertion order.',
      '    # Totals are computed on demand.',
      '    def __init__(self):',
      '        self.items = []',
      '',
      '    def add(self, item):',
      '        self.items.append(item)',
      '',
    );
    const changed = await apply(
      py,
      lines(
        'class Basket:',
        '    # ... existing code ...',
        '',
        '    def add(self, item):',
        '        self.items.append(item)',
        '        self.changed = True',
      ),
      'basket.py',
    );
    assertApplied(
      changed,
      py.replace('        self.items.append(item)\n', '        self.items.append(item)\n        self.changed = True\n'),
    );
    const first = await apply(
      py,
      lines(
        'class Basket:',
        '    # ... existing code ...',
        '    def __init__(self):',
        '        self.items = []',
        '        self.total = 0',
        '    # ... existing code ...',
      ),
      'basket.py',
    );
    assertApplied(first, py.replace('        self.items = []\n', '        self.items = []\n        self.total = 0\n'));
    const withComments = await apply(
      py,
      lines(
        'class Basket:',
        '    # Items are kept in insertion order.',
        '    # Totals are computed on demand.',
        '    def __init__(self):',
        '        self.items = []',
        '        self.total = 0',
        '',
        '    # ... existing code ...',
      ),
      'basket.py',
    );
    assertApplied(withComments, py.replace('        self.items = []\n', '        self.items = []\n        self.total = 0\n'));
  });

  test('a name at two depths: the method is told from the module function by its parameters, and overloads by theirs', async () => {
    const py = lines(
      'def describe(item):',
      '    return f"{item.name}: {item.price}"',
      '',
      '',
      'class Shelf:',
      '    def __init__(self, items):',
      '        self.items = items',
      '',
      '    def describe(self):',
      '        return ", ".join(describe(i) for i in self.items)',
      '',
    );
    const method = await apply(py, lines('def describe(self):', '    return "; ".join(describe(i) for i in self.items)'), 'shelf.py');
    assertApplied(method, py.replace('", ".join', '"; ".join'));
    const moduleFunction = await apply(py, lines('def describe(item):', '    return f"{item.name} costs {item.price}"'), 'shelf.py');
    assertApplied(moduleFunction, py.replace('{item.name}: {item.price}', '{item.name} costs {item.price}'));
    // Neither one's parameters nor its text: refused, with both places.
    const neither = await apply(py, lines('def describe(thing):', '    return str(thing)'), 'shelf.py');
    assert.equal(neither.status, 'ambiguous', neither.message);
    assert.deepEqual(
      neither.blocks[0].candidates.map((c) => c.startLine),
      [1, 9],
    );

    const java = lines(
      'package demo;',
      '',
      'public class Widget {',
      '    private final String name;',
      '    private final int size;',
      '',
      '    public Widget() {',
      '        this("widget", 1);',
      '    }',
      '',
      '    public Widget(String name) {',
      '        this(name, 1);',
      '    }',
      '',
      '    public Widget(String name, int size) {',
      '        this.name = name;',
      '        this.size = size;',
      '    }',
      '}',
      '',
    );
    // A constructor shown alone is one of the class's constructors, never the class.
    const byParams = await apply(java, lines('public Widget(String name) {', '    this(name.trim(), 1);', '}'), 'Widget.java');
    assertApplied(byParams, java.replace('this(name, 1);', 'this(name.trim(), 1);'));
    const unknownParams = await apply(java, lines('public Widget(String label) {', '    this(label.trim(), 1);', '}'), 'Widget.java');
    assert.notEqual(unknownParams.status, 'applied', unknownParams.message);
    assert.match(unknownParams.message, /Widget/);
    for (const candidate of unknownParams.blocks[0].candidates) {
      assert.ok(candidate.endLine - candidate.startLine < 5, `a candidate spans several constructors: ${JSON.stringify(candidate)}`);
    }
  });

  test('blank lines: kept between a placeholder and the new member, at the end of the file, and indented as the file indents them', async () => {
    const py = lines('import os', '', '', 'def load(path):', '    return open(path).read()', '');
    const atEnd = await apply(
      py,
      lines('# ... existing code ...', '', 'def save(path, text):', '    open(path, "w").write(text)'),
      'io.py',
    );
    assertApplied(atEnd, `${py}\n\ndef save(path, text):\n    open(path, "w").write(text)\n`);

    const ts = lines('export class Cart {', '  add(): void {', '    this.count++;', '  }', '}', '');
    const afterPlaceholder = await apply(
      ts,
      lines('export class Cart {', '  // ... existing code ...', '', '  clear(): void {', '    this.count = 0;', '  }', '}'),
      'cart.ts',
    );
    assertApplied(
      afterPlaceholder,
      ts.replace('    this.count++;\n  }\n', '    this.count++;\n  }\n\n  clear(): void {\n    this.count = 0;\n  }\n'),
    );

    // A file whose blank lines inside bodies carry the indentation keeps that on the lines it writes.
    const indentedBlanks = lines('class Cart {', '  add() {', '    const a = 1;', '    ', '    return a;', '  }', '}', '');
    const kept = await apply(indentedBlanks, lines('add() {', '  const a = 2;', '', '  return a;', '}'), 'cart.js');
    assertApplied(kept, indentedBlanks.replace('const a = 1;', 'const a = 2;'));
  });

  test('a trailing placeholder without the closing braces stands for the rest of the class, closers included', async () => {
    const cs = lines(
      'using System;',
      '',
      'namespace Demo.Shop',
      '{',
      '    public class Cart',
      '    {',
      '        private int count;',
      '',
      '        public void Add()',
      '        {',
      '            count++;',
      '        }',
      '',
      '        public void Clear()',
      '        {',
      '            count = 0;',
      '        }',
      '    }',
      '}',
      '',
    );
    const block = lines(
      'namespace Demo.Shop',
      '{',
      '    public class Cart',
      '    {',
      '        private int count;',
      '',
      '        public void Add()',
      '        {',
      '            count += 1;',
      '        }',
      '',
      '        // ... rest of the class unchanged ...',
    );
    assertApplied(await apply(cs, block, 'Shop.cs'), cs.replace('count++;', 'count += 1;'));

    const ts = lines(
      'export class Cart {',
      '  private count = 0;',
      '',
      '  add(): void {',
      '    this.count++;',
      '  }',
      '',
      '  clear(): void {',
      '    this.count = 0;',
      '  }',
      '}',
      '',
    );
    const tsBlock = lines(
      'export class Cart {',
      '  add(): void {',
      '    this.count += 2;',
      '  }',
      '',
      '  // ... rest of the class unchanged ...',
    );
    assertApplied(await apply(ts, tsBlock, 'cart.ts'), ts.replace('this.count++;', 'this.count += 2;'));
  });

  test('lines outside the block’s anchors are not deleted: an HTML <head> block keeps the doctype, <body> and </html>', async () => {
    const page = lines(
      '<!DOCTYPE html>',
      '<html>',
      '<head>',
      '  <title>Counter</title>',
      '</head>',
      '<body>',
      '  <p>Hi</p>',
      '</body>',
      '</html>',
      '',
    );
    const head = lines('<head>', '  <title>Counter app</title>', '  <!-- ... existing code ... -->', '</head>');
    assertApplied(await apply(page, head, 'page.html'), page.replace('<title>Counter</title>', '<title>Counter app</title>'));
    const body = lines('<body>', '  <!-- ... existing code ... -->', '  <footer>2026</footer>', '</body>');
    assertApplied(await apply(page, body, 'page.html'), page.replace('  <p>Hi</p>\n', '  <p>Hi</p>\n  <footer>2026</footer>\n'));
  });

  test('a new member takes no closing line of the last member: a new test joins the describe after the existing tests', async () => {
    const suite = lines(
      "const { add, sub } = require('./math');",
      '',
      "describe('math', () => {",
      "  test('adds', () => {",
      '    expect(add(1, 2)).toBe(3);',
      '  });',
      '});',
      '',
    );
    const after = await apply(
      suite,
      lines(
        "describe('math', () => {",
        '  // ... existing tests ...',
        '',
        "  test('adds negatives', () => {",
        '    expect(add(-1, -2)).toBe(-3);',
        '  });',
        '});',
      ),
      'math.test.js',
    );
    assertApplied(
      after,
      suite.replace('toBe(3);\n  });\n', "toBe(3);\n  });\n\n  test('adds negatives', () => {\n    expect(add(-1, -2)).toBe(-3);\n  });\n"),
    );
    const beside = await apply(
      suite,
      lines(
        "describe('math', () => {",
        "  test('adds', () => {",
        '    expect(add(1, 2)).toBe(3);',
        '  });',
        '',
        "  test('adds zero', () => {",
        '    expect(add(0, 2)).toBe(2);',
        '  });',
        '});',
      ),
      'math.test.js',
    );
    assertApplied(
      beside,
      suite.replace('toBe(3);\n  });\n', "toBe(3);\n  });\n\n  test('adds zero', () => {\n    expect(add(0, 2)).toBe(2);\n  });\n"),
    );
  });
});
