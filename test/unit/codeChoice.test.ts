import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { codeBlockAt } from '../../src/core/batch/codeChoice';
import { applyBlocks } from '../../src/core/engine';
import { applySnippet } from '../../src/core/batch/snippet';

const TWO_CLASSES = [
  'export class Warehouse {',
  '  available(sku: string): number {',
  '    return this.lines.get(sku)?.quantity ?? 0;',
  '  }',
  '}',
  '',
  'export class Store {',
  '  available(sku: string): number {',
  '    return this.lines.get(sku)?.quantity ?? 0;',
  '  }',
  '}',
  '',
].join('\n');

const place = (text: string, startLine: number, endLine: number) => ({
  startLine,
  endLine,
  text: text
    .split('\n')
    .slice(startLine - 1, endLine)
    .join('\n'),
});

describe('codeBlockAt: a code block put at a chosen place', () => {
  test('the second of two identical methods: only it changes, at its depth', () => {
    const code = 'available(sku: string): number {\n  return 0;\n}\n';
    const block = codeBlockAt(code, place(TWO_CLASSES, 8, 10));
    assert.ok(block);
    const result = applyBlocks(TWO_CLASSES, [block], { fileName: 'inventory.ts' });
    assert.equal(result.status, 'applied', result.message);
    assert.equal(
      result.content,
      TWO_CLASSES.replace(/(class Store \{\n  available\(sku: string\): number \{\n)    return .*\n/, '$1    return 0;\n'),
    );
    assert.equal(result.blocks[0].range?.startLine, 8);
  });

  test('the first one, with code indented deeper than the place', () => {
    const code = '    available(sku: string): number {\n      return 1;\n    }';
    const block = codeBlockAt(code, place(TWO_CLASSES, 2, 4));
    assert.ok(block);
    const result = applyBlocks(TWO_CLASSES, [block], {});
    assert.equal(result.status, 'applied', result.message);
    assert.ok(result.content?.startsWith('export class Warehouse {\n  available(sku: string): number {\n    return 1;\n  }\n}\n'));
    assert.ok(result.content?.includes('class Store {\n  available(sku: string): number {\n    return this.lines'));
  });

  test('a tab-indented file keeps its tabs on the lines the code shares with the place', () => {
    const file = 'func a() {\n\tx := 1\n\treturn x\n}\n';
    const block = codeBlockAt('func a() {\n\tx := 1\n\treturn x + 1\n}', place(file, 1, 4));
    assert.ok(block);
    const result = applyBlocks(file, [block], {});
    assert.equal(result.content, 'func a() {\n\tx := 1\n\treturn x + 1\n}\n');
  });

  test('code with a placeholder line cannot be put anywhere', () => {
    assert.equal(
      codeBlockAt('class A {\n  // ... existing code ...\n}', place(TWO_CLASSES, 1, 5), { languageId: 'typescript' }),
      undefined,
    );
    assert.equal(codeBlockAt('  \n', place(TWO_CLASSES, 1, 5)), undefined);
  });

  test('a configuration key that fits two objects offers no place: written over the line it would break the JSON', async () => {
    const file = '{\n  "server": { "timeout": 30 },\n  "client": { "timeout": 10 }\n}\n';
    const context = { fileName: 'app.json', languageId: 'json' };
    const result = await applySnippet(file, { code: '"timeout": 60' }, context);
    assert.equal(result.status, 'ambiguous');
    const candidates = result.blocks[0].candidates;
    assert.deepEqual(
      candidates.map((c) => [c.startLine, c.note]),
      [
        [2, 'server.timeout'],
        [3, 'client.timeout'],
      ],
    );
    for (const candidate of candidates) {
      assert.equal(codeBlockAt('"timeout": 60', candidate, context), undefined);
    }
    // The same code for a file that is no configuration file still goes where the user points.
    assert.ok(codeBlockAt('"timeout": 60', candidates[0], { fileName: 'notes.txt', languageId: 'plaintext' }));
  });
});
