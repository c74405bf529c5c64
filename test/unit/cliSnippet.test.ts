// `resilient-apply apply FILE --snippet SNIPPET`: a plain code block placed by its declarations, with the
// outcome, exit codes, --json and --dry-run of `apply`. Spawns the compiled out/src/cli.js on temp files.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runSync as run, runJsonSync as runJson, workspace } from './cliHarness';

const SHOP = [
  'class Cart:',
  '    def __init__(self):',
  '        self.items = []',
  '',
  '    def helper(self):',
  '        return 1',
  '',
  '',
  'class Order:',
  '    def helper(self):',
  '        return 2',
  '',
  '',
  'def total(items):',
  '    return sum(items)',
  '',
].join('\n');

const CART = [
  'export class Cart {',
  '  private items: number[] = [];',
  '',
  '  add(price: number): void {',
  '    this.items.push(price);',
  '  }',
  '',
  '  total(): number {',
  '    return this.items.reduce((sum, p) => sum + p, 0);',
  '  }',
  '}',
  '',
].join('\n');

const read = (dir: string, name: string): string => fs.readFileSync(path.join(dir, name), 'utf8');

describe('resilient-apply apply --snippet: the shapes', () => {
  test('one declaration replaces the one of the same kind and name; the rest of the file is untouched', () => {
    const dir = workspace({ 'shop.py': SHOP, 'total.py': 'def total(items):\n    return sum(items) * 2\n' });
    const r = run(dir, ['apply', 'shop.py', '--snippet', 'total.py']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /replaced function total/);
    assert.equal(read(dir, 'shop.py'), SHOP.replace('return sum(items)\n', 'return sum(items) * 2\n'));
  });

  test('a lazy snippet with placeholders, fenced, from stdin: the method changes, the placeholders keep the code they stand for', () => {
    const dir = workspace({ 'cart.ts': CART });
    const snippet = [
      '```ts cart.ts',
      'export class Cart {',
      '  // ... existing code ...',
      '',
      '  total(): number {',
      '    return this.items.reduce((sum, p) => sum + p * 1.2, 0);',
      '  }',
      '}',
      '```',
      '',
    ].join('\n');
    const r = run(dir, ['apply', 'cart.ts', '--snippet', '-'], snippet);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(read(dir, 'cart.ts'), CART.replace('sum + p, 0', 'sum + p * 1.2, 0'));
    assert.doesNotMatch(read(dir, 'cart.ts'), /existing code/);
  });

  test('--dry-run --json: status, content and per-part notes; the file untouched', () => {
    const dir = workspace({ 'shop.py': SHOP });
    const { code, json } = runJson(dir, ['apply', 'shop.py', '--snippet', '-', '--dry-run'], 'def total(items):\n    return 0\n');
    assert.equal(code, 0);
    assert.equal(json.status, 'applied');
    assert.equal(json.file, 'shop.py');
    assert.equal(json.content, SHOP.replace('return sum(items)\n', 'return 0\n'));
    assert.ok(
      json.blocks.some((b: { notes?: string[] }) => b.notes?.includes('replaced function total')),
      JSON.stringify(json.blocks),
    );
    assert.equal(read(dir, 'shop.py'), SHOP);
  });

  test('a missing file is created from code without placeholders; with placeholders it is refused', () => {
    const dir = workspace({});
    const created = run(dir, ['apply', 'new.py', '--snippet', '-'], 'def hello():\n    return 1\n');
    assert.equal(created.code, 0, created.stderr);
    assert.equal(read(dir, 'new.py'), 'def hello():\n    return 1\n');
    const { code, json } = runJson(dir, ['apply', 'other.py', '--snippet', '-'], 'def hello():\n    # ... existing code ...\n');
    assert.equal(code, 3);
    assert.match(json.message, /file not found: other\.py \(a code block creates a file only from code without placeholders\)/);
    assert.equal(fs.existsSync(path.join(dir, 'other.py')), false);
  });
});

describe('resilient-apply apply --snippet: refusals keep the file', () => {
  test('2: a name defined twice without the enclosing lines is ambiguous, every place listed', () => {
    const dir = workspace({ 'shop.py': SHOP });
    const { code, json } = runJson(dir, ['apply', 'shop.py', '--snippet', '-'], 'def helper(self):\n    return 3\n');
    assert.equal(code, 2);
    assert.equal(json.status, 'ambiguous');
    assert.deepEqual(
      json.blocks[0].candidates.map((c: { startLine: number; endLine: number }) => [c.startLine, c.endLine]),
      [
        [5, 6],
        [10, 11],
      ],
    );
    assert.equal(read(dir, 'shop.py'), SHOP);
  });

  test('1: a declaration the file does not have, with nothing to place it by, is not found, saying why', () => {
    const dir = workspace({ 'shop.py': SHOP });
    const snippet = 'class Basket:\n    # ... existing code ...\n    def helper(self):\n        return 3\n';
    const { code, json } = runJson(dir, ['apply', 'shop.py', '--snippet', '-'], snippet);
    assert.equal(code, 1);
    assert.equal(json.status, 'not_found');
    assert.match(json.message, /class Basket has no place in the file\.\nWhy: nothing the code block shows is in the file/);
    assert.equal(read(dir, 'shop.py'), SHOP);
  });

  const invalid: [string, string[], string, RegExp][] = [
    [
      'a snippet naming another file',
      ['--snippet', '-'],
      '```py other.py\nx = 1\n```\n',
      /the snippet in stdin is for other\.py, not shop\.py/,
    ],
    [
      'a // filepath: line naming another file',
      ['--snippet', '-'],
      '# filepath: lib/other.py\nx = 1\n',
      /is for lib\/other\.py, not shop\.py/,
    ],
    ['an unclosed fence', ['--snippet', '-'], '```py\nx = 1\n', /the code block opened at line 1 \(```py\) has no closing fence/],
    ['text after the code block', ['--snippet', '-'], '```py\nx = 1\n```\nmore\n', /line 4 follows the code block that ends at line 3/],
    [
      'SEARCH/REPLACE blocks given as a snippet',
      ['--snippet', '-'],
      '<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n',
      /holds SEARCH\/REPLACE blocks, not code \(give edit formats with --blocks\)/,
    ],
    ['an empty snippet', ['--snippet', '-'], '\n\n', /the code is empty/],
    ['--blocks with --snippet', ['--snippet', '-', '--blocks', 'x.txt'], 'x = 1\n', /give either --blocks or --snippet, not both/],
    ['--line-hint with --snippet', ['--snippet', '-', '--line-hint', '3'], 'x = 1\n', /--line-hint picks among the places of a block/],
    ['a missing snippet file', ['--snippet', 'nope.py'], '', /cannot read the snippet from nope\.py/],
  ];
  for (const [name, args, stdin, message] of invalid) {
    test(`3: ${name}, one JSON object naming what is wrong`, () => {
      const dir = workspace({ 'shop.py': SHOP });
      const { code, json } = runJson(dir, ['apply', 'shop.py', ...args], stdin);
      assert.equal(code, 3);
      assert.equal(json.status, 'invalid');
      assert.match(json.message, message);
      assert.equal(read(dir, 'shop.py'), SHOP);
    });
  }
});
