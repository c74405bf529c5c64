// Declarations that share a name without being twins: TypeScript overload groups (signatures followed by
// the implementation are ONE declaration), Rust impl blocks told apart by their trait, Go methods by their
// receiver type, Python's @overload stubs and decorated functions.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applySnippet, type SnippetResult } from '../../src/core';
import { testGrammars } from '../shared/grammars';

async function apply(doc: string, code: string, fileName: string): Promise<SnippetResult> {
  const result = await applySnippet(doc, { code }, { grammars: testGrammars, fileName });
  assert.notEqual(result.snippet.reader, 'outline', 'read by its grammar');
  return result;
}

const PARSE_TS = `import { Token } from './token';

export function parse(input: string): Token[];
export function parse(input: Buffer, encoding: string): Token[];
export function parse(input: string | Buffer, encoding = 'utf8'): Token[] {
  const text = typeof input === 'string' ? input : input.toString(encoding as BufferEncoding);
  return text.split(/\\s+/).map((word) => new Token(word));
}

export function count(tokens: Token[]): number {
  return tokens.length;
}
`;

const EMITTER_TS = `export class Emitter {
  private handlers = new Map<string, Function[]>();

  on(event: 'open', handler: () => void): this;
  on(event: 'data', handler: (chunk: string) => void): this;
  on(event: string, handler: Function): this {
    const list = this.handlers.get(event) ?? [];
    list.push(handler);
    this.handlers.set(event, list);
    return this;
  }

  off(event: string): void {
    this.handlers.delete(event);
  }
}
`;

describe('TypeScript overloads are one declaration', () => {
  test('the group shown whole replaces the group; the function after it stays (no whole-file rewrite)', async () => {
    const code = [
      'export function parse(input: string): Token[];',
      'export function parse(input: Buffer, encoding: string): Token[];',
      "export function parse(input: string | Buffer, encoding = 'utf8'): Token[] {",
      '  const text = typeof input === "string" ? input : input.toString(encoding as BufferEncoding);',
      '  return text.split(/\\s+/).filter(Boolean).map((word) => new Token(word));',
      '}',
    ].join('\n');
    const result = await apply(PARSE_TS, code, 'parse.ts');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.snippet.wholeFile, false);
    assert.match(result.content ?? '', /\.filter\(Boolean\)/);
    assert.match(result.content ?? '', /export function count\(tokens: Token\[\]\): number \{/);
    assert.equal(result.message, 'Applied the code block to parse.ts: replaced function parse (lines 3-8).');
  });

  test('the implementation alone, its parameters changed, replaces only the implementation: the signatures stay', async () => {
    const code = "function parse(input: string | Buffer, encoding: BufferEncoding = 'utf8'): Token[] {\n  return [];\n}";
    const result = await apply(PARSE_TS, code, 'parse.ts');
    assert.equal(result.status, 'applied', result.message);
    const lines = (result.content ?? '').split('\n');
    assert.deepEqual(lines.slice(2, 7), [
      'export function parse(input: string): Token[];',
      'export function parse(input: Buffer, encoding: string): Token[];',
      "export function parse(input: string | Buffer, encoding: BufferEncoding = 'utf8'): Token[] {",
      '  return [];',
      '}',
    ]);
  });

  test('a group gaining a signature replaces the group', async () => {
    const code = [
      'export function parse(input: string): Token[];',
      'export function parse(input: Buffer, encoding: string): Token[];',
      'export function parse(input: Uint8Array): Token[];',
      "export function parse(input: string | Buffer | Uint8Array, encoding = 'utf8'): Token[] {",
      '  return [];',
      '}',
    ].join('\n');
    const result = await apply(PARSE_TS, code, 'parse.ts');
    assert.equal(result.status, 'applied', result.message);
    assert.equal((result.content ?? '').split('\n').filter((l) => l.startsWith('export function parse(')).length, 4);
    assert.match(result.content ?? '', /export function count/);
  });

  test('overloaded methods in a lazy class snippet: the implementation changes, the other members stay', async () => {
    const code = [
      'export class Emitter {',
      '  // ... existing code ...',
      "  on(event: 'open', handler: () => void): this;",
      "  on(event: 'data', handler: (chunk: string) => void): this;",
      '  on(event: string, handler: Function): this {',
      '    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);',
      '    return this;',
      '  }',
      '  // ... existing code ...',
      '}',
    ].join('\n');
    const result = await apply(EMITTER_TS, code, 'emitter.ts');
    assert.equal(result.status, 'applied', result.message);
    assert.match(result.message, /replaced method on of class Emitter/);
    const expected = EMITTER_TS.replace(
      /    const list = .*\n.*\n.*\n/,
      '    this.handlers.set(event, [...(this.handlers.get(event) ?? []), handler]);\n',
    );
    assert.equal(result.content, expected);
  });

  test('an overloaded method shown alone (its implementation) is found in its class', async () => {
    const code = '  on(event: string, handler: Function): this {\n    return this;\n  }';
    const result = await apply(EMITTER_TS, code, 'emitter.ts');
    assert.equal(result.status, 'applied', result.message);
    assert.match(
      result.content ?? '',
      /on\(event: 'data', handler: \(chunk: string\) => void\): this;\n {2}on\(event: string, handler: Function\): this \{\n {4}return this;\n {2}\}/,
    );
  });

  test('a signature shown alone is the signature with its parameters', async () => {
    const code = "  on(event: 'open', handler: () => void): this;";
    const result = await apply(EMITTER_TS, code, 'emitter.ts');
    assert.equal(result.status, 'not_found', 'the file already has it: nothing to change');
    assert.match(result.message, /already holds every line the code block shows \(line 4\)/);
  });

  test('two functions of the same name that are not an overload group are still refused', async () => {
    const js = 'function f(a: string) {\n  return 1;\n}\n\nfunction f(a: number) {\n  return 2;\n}\n';
    const result = await apply(js, 'function f(a: boolean) {\n  return 3;\n}', 'twice.ts');
    assert.equal(result.status, 'ambiguous');
  });
});

const SHAPES_RS = `use std::fmt;

pub struct Circle {
    r: f64,
}

impl Circle {
    pub fn new(r: f64) -> Self {
        Circle { r }
    }

    pub fn fmt(&self) -> String {
        format!("circle {}", self.r)
    }
}

impl fmt::Display for Circle {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        write!(f, "({})", self.r)
    }
}
`;

describe('Rust impl blocks are named by type and trait', () => {
  test('the trait impl is replaced, the inherent impl of the same type stays', async () => {
    const code =
      'impl fmt::Display for Circle {\n    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {\n        write!(f, "circle of radius {}", self.r)\n    }\n}';
    const result = await apply(SHAPES_RS, code, 'shapes.rs');
    assert.equal(result.status, 'applied', result.message);
    assert.match(result.message, /replaced impl fmt::Display for Circle/);
    assert.equal(result.content, SHAPES_RS.replace('"({})"', '"circle of radius {}"'));
  });

  test('a method is resolved within the impl the block shows', async () => {
    const code = 'impl Circle {\n    // ... existing code ...\n    pub fn fmt(&self) -> String {\n        format!("c{}", self.r)\n    }\n}';
    const result = await apply(SHAPES_RS, code, 'shapes.rs');
    assert.equal(result.status, 'applied', result.message);
    assert.match(result.message, /replaced fn fmt of impl Circle/);
    assert.equal(result.content, SHAPES_RS.replace('"circle {}"', '"c{}"'));
  });

  test('a method two impls have, shown without its impl, is refused with both places', async () => {
    const code = '    fn fmt(&self) -> String {\n        String::new()\n    }';
    const result = await apply(SHAPES_RS, code, 'shapes.rs');
    assert.equal(result.status, 'ambiguous');
    assert.deepEqual(
      result.blocks[0].candidates.map((c) => [c.startLine, c.endLine]),
      [
        [12, 14],
        [18, 20],
      ],
    );
  });
});

const CART_GO = `package shop

type Cart struct{ items []int }
type Order struct{ total int }

func (c *Cart) Total() int {
	sum := 0
	for _, p := range c.items {
		sum += p
	}
	return sum
}

func (o Order) Total() int {
	return o.total
}
`;

describe('Go methods are named by receiver type and name', () => {
  test('func (c *Cart) Total() replaces Cart.Total, not Order.Total', async () => {
    const result = await apply(CART_GO, 'func (c *Cart) Total() int {\n\treturn len(c.items)\n}', 'cart.go');
    assert.equal(result.status, 'applied', result.message);
    assert.match(result.message, /replaced method Cart\.Total/);
    assert.match(result.content ?? '', /func \(c \*Cart\) Total\(\) int \{\n\treturn len\(c\.items\)\n\}/);
    assert.match(result.content ?? '', /func \(o Order\) Total\(\) int \{\n\treturn o\.total\n\}/);
  });
});

const LOADER_PY = `from functools import cache
from typing import overload


@overload
def load(path: str) -> dict: ...
@overload
def load(path: bytes) -> bytes: ...
def load(path):
    return open(path).read()


@cache
def settings():
    return load("settings.json")
`;

describe('Python: @overload stubs and decorators', () => {
  test('the implementation alone, its parameters changed, leaves the @overload stubs', async () => {
    const result = await apply(LOADER_PY, 'def load(path, mode="r"):\n    return open(path, mode).read()', 'loader.py');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(
      result.content,
      LOADER_PY.replace('def load(path):\n    return open(path).read()', 'def load(path, mode="r"):\n    return open(path, mode).read()'),
    );
  });

  test('a decorated function keeps its decorator: shown with it, or without it', async () => {
    const withDecorator = await apply(LOADER_PY, '@cache\ndef settings():\n    return load("app.json")', 'loader.py');
    assert.equal(withDecorator.status, 'applied', withDecorator.message);
    assert.equal(withDecorator.content, LOADER_PY.replace('"settings.json"', '"app.json"'));
    const without = await apply(LOADER_PY, 'def settings():\n    return load("app.json")', 'loader.py');
    assert.equal(without.status, 'applied', without.message);
    assert.match(without.content ?? '', /@cache\ndef settings\(\):\n {4}return load\("app\.json"\)/);
  });
});
