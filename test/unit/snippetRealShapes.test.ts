// Code blocks in the shapes the code-block corpus (test/fixtures/codeBlockCorpus) found mishandled, one
// small readable test per cause: each failed before its fix (a garbled or shortened file, a refusal).
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applySnippet, type SnippetResult } from '../../src/core';
import { outlineText } from '../../src/core/match/structure/outline';
import { testGrammars } from '../shared/grammars';

async function apply(doc: string, code: string, languageId: string, fileName = 'file'): Promise<SnippetResult> {
  return applySnippet(doc, { code, languageId, fileName }, { grammars: testGrammars, fileName, languageId });
}

const CONTROLLER_CS = [
  'namespace Shop',
  '{',
  '    public class Controller',
  '    {',
  '        public int Count(string sku)',
  '        {',
  '            return 0;',
  '        }',
  '',
  '        public void Adjust(string sku, int delta)',
  '        {',
  '            Log(sku);',
  '        }',
  '    }',
  '}',
  '',
].join('\n');

describe('code blocks: shapes real answers have', () => {
  test('the outline reads Allman braces: a header whose `{` stands on the next line opens a body', () => {
    const [ns] = outlineText(CONTROLLER_CS.split('\n')).decls;
    assert.deepEqual([ns.kind, ns.name, ns.start, ns.end], ['namespace', 'Shop', 0, 14]);
    const [cls] = ns.children;
    assert.deepEqual([cls.name, cls.start, cls.end], ['Controller', 2, 13]);
    assert.deepEqual(
      cls.children.map((d) => [d.name, d.start, d.end, d.interior?.start, d.interior?.end]),
      [
        ['Count', 4, 7, 6, 7],
        ['Adjust', 9, 12, 11, 12],
      ],
    );
  });

  test('a C# method at column 0 replaces the class’s method at its depth (was interleaved with the class lines)', async () => {
    const code = 'public void Adjust(string sku, int delta)\n{\n    Log(sku);\n    Log(delta);\n}';
    const result = await apply(CONTROLLER_CS, code, 'csharp', 'Controller.cs');
    assert.equal(result.status, 'applied');
    assert.equal(result.content, CONTROLLER_CS.replace('            Log(sku);\n', '            Log(sku);\n            Log(delta);\n'));
  });

  test('a line found only further on (`}` of a later rule) anchors nothing: the rules after a new one are kept', async () => {
    const css = '.a {\n  color: red;\n}\n\n.b {\n  margin: 0;\n}\n';
    const code = '/* ... existing code ... */\n\n.a {\n  color: red;\n}\n\n.title {\n  font-weight: 600;\n}\n\n/* ... existing code ... */';
    const result = await apply(css, code, 'css', 'site.css');
    assert.equal(result.status, 'applied');
    assert.equal(result.content, '.a {\n  color: red;\n}\n\n.title {\n  font-weight: 600;\n}\n\n.b {\n  margin: 0;\n}\n');
  });

  test('a new block whose first line looks like the next one of the file is inserted, not written over it', async () => {
    const js = [
      'Stream.create = function() {',
      '  return new Stream();',
      '};',
      '',
      'Stream.prototype.append = function(stream) {',
      '  this.streams.push(stream);',
      '};',
      '',
    ].join('\n');
    const code =
      '// ... existing code ...\nStream.create = function() {\n  return new Stream();\n};\n\nStream.prototype.size = function() {\n  return this.streams.length;\n};\n\n// ... existing code ...';
    const result = await apply(js, code, 'javascript', 'stream.js');
    assert.equal(result.status, 'applied');
    assert.equal(
      result.content,
      js.replace(
        '};\n\nStream.prototype.append',
        '};\n\nStream.prototype.size = function() {\n  return this.streams.length;\n};\n\nStream.prototype.append',
      ),
    );
  });

  test('a method inserted in a class whose doc comments stand apart gets one blank line, not the comment’s two', async () => {
    const js =
      'class A {\n  /**\n   * One.\n   */\n\n  one() {\n    return 1;\n  }\n\n  /**\n   * Three.\n   */\n\n  three() {\n    return 3;\n  }\n}\n';
    const code =
      'class A {\n  // ... existing code ...\n  one() {\n    return 1;\n  }\n\n  two() {\n    return 2;\n  }\n  // ... existing code ...\n}';
    const result = await apply(js, code, 'javascript', 'a.js');
    assert.equal(result.status, 'applied');
    assert.equal(result.content, js.replace('    return 1;\n  }\n', '    return 1;\n  }\n\n  two() {\n    return 2;\n  }\n'));
  });

  test('a field added under the only field keeps the block’s spacing (no blank line), not the methods’ gap', async () => {
    const ts =
      'export class P {\n    private headers: string[];\n\n    constructor() {\n        this.headers = [];\n    }\n\n    get(): number {\n        return 1;\n    }\n}\n';
    const code = 'export class P {\n    private headers: string[];\n    private strict = false;\n\n    // ... existing code ...\n}';
    const result = await apply(ts, code, 'typescript', 'p.ts');
    assert.equal(result.status, 'applied');
    assert.equal(result.content, ts.replace('string[];\n', 'string[];\n    private strict = false;\n'));
  });

  test('a comment that leaves code out but asks for a change (no placeholder) is refused, not written over the body', async () => {
    const ts = 'function kind(n: number): string {\n    if (n === 2) {\n        return "error";\n    }\n    return "warning";\n}\n';
    const code = 'function kind(n: number): string {\n    // ... same checks as before, but also map 4 to "hint" ...\n}';
    const result = await apply(ts, code, 'typescript', 'kind.ts');
    assert.equal(result.status, 'invalid');
    assert.match(result.message, /leaves code out/);
  });
});
