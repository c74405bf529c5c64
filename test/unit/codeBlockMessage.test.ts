// The wording of a code block's outcome (report/message.ts formatCodeBlockMessage, through applySnippet):
// someone who sent a plain code block never sent SEARCH, :start_line: or "block 1", so the message says
// what happened to the code block, lists every place, and says how to re-send it.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applySnippet, type SnippetResult } from '../../src/core';
import { testGrammars } from '../shared/grammars';

const CART_TS = `import { Item } from './item';

export class Cart {
  private items: Item[] = [];

  add(item: Item): void {
    this.items.push(item);
  }

  total(): number {
    return this.items.reduce((s, i) => s + i.price, 0);
  }
}

export class Order {
  total(): number {
    return 0;
  }
}
`;

async function apply(code: string, doc = CART_TS, fileName = 'cart.ts'): Promise<SnippetResult> {
  const result = await applySnippet(doc, { code }, { grammars: testGrammars, fileName });
  // Block wording never reaches a code block's reader.
  assert.doesNotMatch(result.message, /SEARCH text|:start_line:|\bblocks? \d|Applied \d+ blocks?/, result.message);
  return result;
}

describe('code block messages', () => {
  test('applied: what each part did, where it is now', async () => {
    const one = await apply('export class Cart {\n  // ... existing code ...\n  count(): number {\n    return this.items.length;\n  }\n}');
    assert.equal(one.status, 'applied');
    assert.equal(one.message, 'Applied the code block to cart.ts: inserted method count of class Cart (lines 14-16).');
    assert.equal(one.content?.split('\n').slice(13, 16).join('\n'), '  count(): number {\n    return this.items.length;\n  }');

    const two = await apply(
      'export class Cart {\n  // ... existing code ...\n  add(item: Item): void {\n    this.items.unshift(item);\n  }\n\n  total(): number {\n    return 1;\n  }\n}',
    );
    assert.equal(
      two.message,
      'Applied the code block to cart.ts:\n- replaced method add of class Cart (lines 6-8)\n- replaced method total of class Cart (lines 10-12)',
    );
  });

  test('ambiguous: every place listed and quoted, and how to re-send the code block', async () => {
    const result = await apply('  total(): number {\n    return 42;\n  }');
    assert.equal(result.status, 'ambiguous');
    const lines = result.message.split('\n');
    assert.equal(lines[0], 'The code block was not applied to cart.ts: method total fits 2 places: lines 10-12 and lines 16-18.');
    assert.match(lines[1], /^Why: the declarations it shows belong to different enclosing declarations/);
    assert.ok(lines.includes('  lines 10-12:') && lines.includes('  lines 16-18:'));
    assert.ok(lines.includes('        return 0;'), 'each place is quoted');
    assert.match(lines[lines.length - 1], /^To pick one, re-send the code block with the enclosing declaration around it/);
  });

  test('not found: the closest text of the file, ranked, and what to re-send', async () => {
    const result = await apply('function totals(): number {\n  return this.items.reduce((s, i) => s + i.price, 0);\n}');
    assert.equal(result.status, 'not_found');
    assert.match(
      result.message,
      /^The code block was not applied to cart\.ts: function totals has no place in the file\.\nWhy: nothing the code block shows/,
    );
    assert.match(result.message, /The closest text in cart\.ts \(ranked by similarity\):\n\n {2}\[0\.\d+\] lines \d+-\d+:/);
    assert.match(result.message, /Re-send the code block with lines of the file around the new code/);
  });

  test('invalid: a language without a grammar and a code block with no structure and no line of the file', async () => {
    const doc = 'alpha beta\ngamma delta\n';
    const result = await apply('frobnicate the widget\nwith care', doc, 'notes.unknownext');
    assert.equal(result.status, 'invalid');
    assert.equal(result.snippet.reader, 'outline');
    assert.match(
      result.message,
      /^The code block was not applied to notes\.unknownext: it shows no declaration that the outline \(this language has no grammar here\) can read, and none of its lines is in the file/,
    );
  });

  test('invalid: a code block that does not parse says where, once', async () => {
    const result = await apply(
      '  // ... existing code ...\n  subtotal(x) {\n    return x;\n  }\n  // ... existing code ...\n  quantity += 1;',
    );
    assert.equal(result.status, 'invalid');
    assert.match(
      result.message,
      /^The code block was not applied to cart\.ts: it does not parse as typescript \(a syntax error near line \d+ of the code block/,
    );
    assert.doesNotMatch(result.message, /the code block: the code block/);
  });

  test('a whole-file rewrite lists what it removes', async () => {
    const rewrite = CART_TS.replace(/\n {2}add\(item: Item\): void \{\n.*\n {2}\}\n/, '\n').replace('s + i.price', 's + i.price * 2');
    const result = await apply(rewrite);
    assert.equal(result.status, 'applied');
    assert.match(
      result.message,
      /^Applied the code block to cart\.ts as a rewrite of the whole file \(lines [\d-]+ changed\); removed lines 6-8: method add of class Cart\.$/,
    );
  });

  test('nothing to change: the file already holds the code block', async () => {
    const result = await apply('  add(item: Item): void {\n    this.items.push(item);\n  }');
    assert.equal(
      result.message,
      'Nothing to apply to cart.ts: the file already holds every line the code block shows (lines 6-8). Do not re-send it.',
    );
  });
});
