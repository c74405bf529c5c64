// The indentation and brace outline on Allman-style braces (the `{` alone on the line below the header: C#,
// PHP, C, D), for languages without a grammar and for C#/PHP when their grammar cannot be loaded. Every test
// here forces the outline: applySnippet gets no grammar source, so it reads structure as it does then.
// Before the fix a header without its `{` was a one-line declaration and a method header not read at all,
// so a method landed over its neighbour's lines (the code-block corpus' cs-* and php-* cases).
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { outlineText, walkDecls } from '../../src/core/match/structure/outline';
import { applySnippet, type SnippetResult } from '../../src/core';

const ORDERS_CS = `using System;
using System.Collections.Generic;

namespace Shop.Orders
{
    /// <summary>Orders of one customer.</summary>
    public class OrderBook
    {
        private readonly List<Order> _orders = new List<Order>();

        public OrderBook(string customer)
        {
            Customer = customer;
        }

        public string Customer { get; }

        [Obsolete("use Place")]
        public void Add(Order order)
        {
            if (order == null)
            {
                throw new ArgumentNullException(nameof(order));
            }
            _orders.Add(order);
        }

        public decimal Total()
        {
            decimal sum = 0;
            foreach (var order in _orders)
            {
                sum += order.Amount;
            }
            return sum;
        }

        private sealed class Line
        {
            public string Sku { get; set; }

            public decimal Total()
            {
                return 0;
            }
        }
    }
}
`;

/** Every declaration as `kind name lines` (1-based), nested ones after their parent, indented by depth. */
function shape(text: string): string[] {
  return [...walkDecls(outlineText(text.split('\n')).decls)].map(
    ({ decl, parents }) => `${'  '.repeat(parents.length)}${decl.kind} ${decl.name} ${decl.lead + 1}-${decl.start + 1}-${decl.end + 1}`,
  );
}

/** applySnippet read by the outline alone (no grammar source), checking what every result keeps. */
async function applyByOutline(doc: string, code: string, languageId: string): Promise<SnippetResult> {
  const result = await applySnippet(doc, { code, languageId }, { fileName: `file.${languageId}` });
  assert.equal(result.snippet.reader, 'outline');
  if (result.status === 'applied') {
    let rebuilt = doc;
    for (const edit of [...result.edits].sort((a, b) => b.start - a.start)) {
      rebuilt = rebuilt.slice(0, edit.start) + edit.newText + rebuilt.slice(edit.end);
    }
    assert.equal(rebuilt, result.content);
  } else {
    assert.equal(result.content, undefined);
  }
  return result;
}

describe('outline: Allman braces', () => {
  test('a header and the `{` on the next line are one declaration with its body; nested classes and methods too', () => {
    assert.deepEqual(shape(ORDERS_CS), [
      'namespace Shop.Orders 4-4-48',
      '  class OrderBook 6-7-47',
      '    function OrderBook 11-11-14',
      '    function Add 18-19-26',
      '    function Total 28-28-36',
      '    class Line 38-38-46',
      '      function Total 42-42-45',
    ]);
    assert.equal(outlineText(ORDERS_CS.split('\n')).errors, 0);
  });

  test('the body is the lines between the braces; `if`, `foreach`, `using` and `lock` blocks in it are no declarations', () => {
    const cs = [
      'public void Save(string path)',
      '{',
      '    using (var stream = File.OpenWrite(path))',
      '    {',
      '        lock (_gate)',
      '        {',
      '            Write(stream);',
      '        }',
      '    }',
      '}',
    ].join('\n');
    const decls = outlineText(cs.split('\n')).decls;
    assert.deepEqual(
      decls.map((d) => [d.name, d.start, d.end, d.interior]),
      [['Save', 0, 9, { start: 2, end: 9 }]],
    );
    assert.deepEqual(decls[0].children, []);
  });

  test("C in GNU style (the function's `{` at column 0, a struct's brace below its tag) and K&R side by side", () => {
    const c = [
      'struct point',
      '{',
      '  int x;',
      '  int y;',
      '};',
      '',
      'static int',
      'distance (const struct point *a, const struct point *b)',
      '{',
      '  return abs (a->x - b->x) + abs (a->y - b->y);',
      '}',
      '',
      'int origin(struct point *p) {',
      '  return p->x == 0 && p->y == 0;',
      '}',
    ].join('\n');
    assert.deepEqual(shape(c), ['struct point 1-1-5', 'function distance 8-8-11', 'function origin 13-13-15']);
  });

  test('a statement ending in `;` or `,` above a lone `{` is no header', () => {
    const lines = ['int[] values = Load(path),', '{', '    1, 2', '};'];
    assert.deepEqual(outlineText(lines).decls, []);
  });
});

describe('outline: code blocks on Allman braces', () => {
  test('a method dedented to column 0 replaces the method of the same name, written at the class depth', async () => {
    const code = [
      'public void Add(Order order)',
      '{',
      '    ArgumentNullException.ThrowIfNull(order);',
      '    _orders.Add(order);',
      '}',
    ].join('\n');
    const result = await applyByOutline(ORDERS_CS, code, 'csharp');
    assert.equal(result.status, 'applied', result.message);
    const expected = ORDERS_CS.replace(
      /            if \(order == null\)\n[^]*?            \}\n/,
      '            ArgumentNullException.ThrowIfNull(order);\n',
    );
    assert.notEqual(expected, ORDERS_CS);
    assert.equal(result.content, expected);
  });

  test('a class skeleton with placeholders inserts a new method after its neighbour, the rest kept', async () => {
    const code = [
      'namespace Shop.Orders',
      '{',
      '    public class OrderBook',
      '    {',
      '        // ... existing code ...',
      '',
      '        public decimal Total()',
      '        {',
      '            return _orders.Sum(o => o.Amount);',
      '        }',
      '',
      '        public int Count()',
      '        {',
      '            return _orders.Count;',
      '        }',
      '',
      '        // ... existing code ...',
      '    }',
      '}',
    ].join('\n');
    const result = await applyByOutline(ORDERS_CS, code, 'csharp');
    assert.equal(result.status, 'applied', result.message);
    const total = /        public decimal Total\(\)\n[^]*?\n        \}\n/.exec(ORDERS_CS)?.[0] ?? '';
    assert.ok(total.length > 0);
    const newTotal = '        public decimal Total()\n        {\n            return _orders.Sum(o => o.Amount);\n        }\n';
    const count = '\n        public int Count()\n        {\n            return _orders.Count;\n        }\n';
    assert.equal(result.content, ORDERS_CS.replace(total, newTotal + count));
  });

  test('a name declared twice where the block points (Total of the class and of its nested class) is refused', async () => {
    const code = 'public decimal Total()\n{\n    return 1;\n}';
    const result = await applyByOutline(ORDERS_CS, code, 'csharp');
    assert.equal(result.status, 'ambiguous', result.message);
    assert.match(result.message, /28|42/);
  });

  test('the nested class is told apart by its enclosing declaration in the block', async () => {
    const code = [
      'private sealed class Line',
      '{',
      '    // ... existing code ...',
      '    public decimal Total()',
      '    {',
      '        return 1;',
      '    }',
      '}',
    ].join('\n');
    const result = await applyByOutline(ORDERS_CS, code, 'csharp');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, ORDERS_CS.replace('                return 0;', '                return 1;'));
  });

  test('a D class (a C-like language without a grammar) in Allman style: a method replaced inside it', async () => {
    const d = [
      'module shapes;',
      '',
      'class Circle',
      '{',
      '    double radius;',
      '',
      '    this(double r)',
      '    {',
      '        radius = r;',
      '    }',
      '',
      '    double area() const',
      '    {',
      '        return 3.14 * radius * radius;',
      '    }',
      '}',
      '',
    ].join('\n');
    const code = 'double area() const\n{\n    import std.math : PI;\n    return PI * radius * radius;\n}';
    const result = await applyByOutline(d, code, 'd');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(
      result.content,
      d.replace('        return 3.14 * radius * radius;', '        import std.math : PI;\n        return PI * radius * radius;'),
    );
  });
});
