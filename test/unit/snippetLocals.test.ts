// Two things a model does in nearly every code block, found trying the canonical lazy snippet by hand: it
// rewrites a method whose file version has locals (`let sum = 0`), and it shows the class for context as
// `class Cart {` where the file says `export class Cart {`. The locals are the method's body, not members the
// block left out; the missing `export` is context, not an edit.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applySnippet } from '../../src/core';
import { testGrammars } from '../shared/grammars';

const CART = `import { Item } from './item';

export class Cart {
  private items: Item[] = [];

  add(item: Item): void {
    this.items.push(item);
  }

  total(): number {
    let sum = 0;
    for (const item of this.items) {
      sum += item.price;
    }
    return sum;
  }

  clear(): void {
    this.items = [];
  }
}
`;

const NEW_TOTAL = '    return this.items.reduce((sum, item) => sum + item.price * item.quantity, 0);\n';
const EXPECTED = CART.replace(/    let sum = 0;\n[\s\S]*?    return sum;\n/, NEW_TOTAL);

async function apply(code: string, languageId = 'typescript'): Promise<string | undefined> {
  const result = await applySnippet(CART, { code, languageId }, { grammars: testGrammars, fileName: 'cart.ts' });
  assert.equal(result.status, 'applied', result.message);
  return result.content;
}

test('a method shown whole replaces the file method whole, whatever locals the file version declares', async () => {
  assert.equal(
    await apply('total(): number {\n  return this.items.reduce((sum, item) => sum + item.price * item.quantity, 0);\n}'),
    EXPECTED,
  );
});

test('a class shown with placeholders and without its export keeps the export and the elided members', async () => {
  const code = [
    'class Cart {',
    '  // ... existing code ...',
    '',
    '  total(): number {',
    '    return this.items.reduce((sum, item) => sum + item.price * item.quantity, 0);',
    '  }',
    '',
    '  // ... existing code ...',
    '}',
  ].join('\n');
  assert.equal(await apply(code), EXPECTED);
  assert.equal(await apply(`export ${code}`), EXPECTED);
});

test('a header the block changes keeps the file export word the block left out', async () => {
  const code = ['class Cart implements Iterable<Item> {', '  // ... existing code ...', '}'].join('\n');
  assert.equal(await apply(code), CART.replace('export class Cart {', 'export class Cart implements Iterable<Item> {'));
});
