// Two readings of a code block that decide what the file keeps (issue 25):
// - a declaration's doc comment the block leaves out is kept: a new function with its own JSDoc goes above
//   the JSDoc of the neighbour it precedes, and a block showing every function bare is not a rewrite that
//   drops the file's docs;
// - a line next to a placeholder that is like the file's line there, but not it, may be that line changed or
//   a line added beside it: it is applied as a change only when surely so, else refused naming both ways.
// Swept over every function of real JavaScript files (mocha's errors.js, lodash.includes), each case
// checked against the file it must give.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applySnippet, type SnippetResult } from '../../src/core';
import { testGrammars } from '../shared/grammars';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const REAL_FILES = ['node_modules/mocha/lib/errors.js', 'node_modules/lodash.includes/index.js'];

async function apply(doc: string, code: string, fileName: string): Promise<SnippetResult> {
  return applySnippet(doc, { code, fileName }, { grammars: testGrammars, fileName });
}

const lines = (...l: string[]): string => l.join('\n');

/** A top-level `function name(...) {` ... `}` with a JSDoc right above it: its lines [docStart, end]. */
interface DocumentedFunction {
  name: string;
  docStart: number;
  start: number;
  end: number;
}

function documentedFunctions(fileLines: readonly string[]): DocumentedFunction[] {
  const found: DocumentedFunction[] = [];
  fileLines.forEach((line, start) => {
    const name = /^function (\w+)\(.*\) \{$/.exec(line)?.[1];
    if (!name || fileLines[start - 1]?.trim() !== '*/') {
      return;
    }
    let docStart = start - 1;
    while (docStart > 0 && !fileLines[docStart].startsWith('/**')) {
      docStart--;
    }
    const end = fileLines.findIndex((l, i) => i > start && l === '}');
    if (end > start) {
      found.push({ name, docStart, start, end });
    }
  });
  return found;
}

describe('code blocks: the doc comments a block leaves out are kept', () => {
  test('a new function with a JSDoc, before a neighbour shown without its JSDoc, goes above that JSDoc', async () => {
    const file = lines(
      '/**',
      ' * Adds.',
      ' */',
      'export function add(a: number, b: number) {',
      '  return a + b;',
      '}',
      '',
      '/**',
      ' * Subtracts.',
      ' */',
      'export function sub(a: number, b: number) {',
      '  return a - b;',
      '}',
      '',
    );
    const mul = lines('/**', ' * Multiplies.', ' */', 'export function mul(a: number, b: number) {', '  return a * b;', '}');
    const block = lines(mul, '', 'export function sub(a: number, b: number) {', '  return a - b;', '}', '');
    const result = await apply(file, block, 'calc.ts');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, file.replace('/**\n * Subtracts.', `${mul}\n\n/**\n * Subtracts.`), result.message);
  });

  for (const real of REAL_FILES) {
    test(`${real}: a new documented function before each documented function shown bare goes above its JSDoc`, async () => {
      const file = fs.readFileSync(path.join(ROOT, real), 'utf8');
      const fileLines = file.split('\n');
      const functions = documentedFunctions(fileLines);
      assert.ok(functions.length >= 10, `${real} has ${functions.length} documented functions`);
      for (const f of functions) {
        const added = lines('/**', ` * Says where ${f.name} is.`, ' */', `function before_${f.name}() {`, `  return '${f.name}';`, '}');
        const shown = fileLines.slice(f.start, f.end + 1).join('\n');
        const result = await apply(
          file,
          lines('// ... existing code ...', '', added, '', shown, '', '// ... existing code ...'),
          'real.js',
        );
        const expected = [...fileLines.slice(0, f.docStart), ...added.split('\n'), '', ...fileLines.slice(f.docStart)].join('\n');
        assert.equal(result.status, 'applied', `${f.name}: ${result.message}`);
        assert.equal(result.content, expected, `${f.name}: ${result.message}`);
      }
    });
  }

  test('a block showing every function of a file without their JSDoc, one changed, changes that one and keeps every JSDoc', async () => {
    const file = fs.readFileSync(path.join(ROOT, 'node_modules/mocha/lib/errors.js'), 'utf8');
    const fileLines = file.split('\n');
    const functions = documentedFunctions(fileLines);
    const target = functions[3];
    const bodyLine = fileLines.findIndex((l, i) => i > target.start && i < target.end && l.trim() !== '');
    const changedLine = `${fileLines[bodyLine]} // checked`;
    // The file as a model writes it back for brevity: every top-level line, the JSDoc above each function left out.
    const dropped = new Set(functions.flatMap((f) => Array.from({ length: f.start - f.docStart }, (_, k) => f.docStart + k)));
    const block = fileLines
      .map((l, i) => (i === bodyLine ? changedLine : l))
      .filter((_, i) => !dropped.has(i))
      .join('\n');
    const result = await apply(file, block, 'errors.js');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, fileLines.map((l, i) => (i === bodyLine ? changedLine : l)).join('\n'), result.message);
    assert.doesNotMatch(result.message, /rewrite/);
  });
});

describe('code blocks: a line beside a placeholder like the file line there', () => {
  const GO = lines(
    'package main',
    '',
    'import "fmt"',
    '',
    'func add(a, b int) int {',
    '\treturn a + b',
    '}',
    '',
    'func sub(a, b int) int {',
    '\treturn a - b',
    '}',
    '',
    'func main() {',
    '\tfmt.Println("start")',
    '\tfmt.Println(add(1, 2))',
    '}',
    '',
  );

  test('a different call after a placeholder, like the last one: refused, naming the line and both ways', async () => {
    const result = await apply(GO, lines('func main() {', '\t// ... existing code ...', '\tfmt.Println(sub(3, 1))', '}', ''), 'main.go');
    assert.equal(result.status, 'ambiguous', result.message);
    assert.match(result.message, /can be read two ways at line 15/);
    assert.match(result.message, /may change that line or be a new line after it/);
    assert.match(result.message, /show the file's line before it \(line 14\) unchanged/);
    assert.equal(result.content ?? GO, GO);
  });

  test('shown with the file line before it, the same line is a change; shown after the last line, an addition', async () => {
    const changed = await apply(GO, lines('func main() {', '\tfmt.Println("start")', '\tfmt.Println(sub(3, 1))', '}', ''), 'main.go');
    assert.equal(changed.content, GO.replace('add(1, 2))', 'sub(3, 1))'), changed.message);
    const added = await apply(
      GO,
      lines('func main() {', '\t// ... existing code ...', '\tfmt.Println(add(1, 2))', '\tfmt.Println(sub(3, 1))', '}', ''),
      'main.go',
    );
    assert.equal(added.content, GO.replace('add(1, 2))\n', 'add(1, 2))\n\tfmt.Println(sub(3, 1))\n'), added.message);
  });

  test('the file line with something added, or a last return changed, is that line edited', async () => {
    const grown = await apply(
      GO,
      lines('func main() {', '\t// ... existing code ...', '\tfmt.Println(add(1, 2), "done")', '}', ''),
      'main.go',
    );
    assert.equal(grown.content, GO.replace('add(1, 2))', 'add(1, 2), "done")'), grown.message);
    const returned = await apply(GO, lines('func add(a, b int) int {', '\t// ... existing code ...', '\treturn b + a', '}', ''), 'main.go');
    assert.equal(returned.content, GO.replace('return a + b', 'return b + a'), returned.message);
  });

  test('an import like the file first one, before a placeholder, is refused rather than taking its place', async () => {
    const file = lines(
      "import { readFile } from 'node:fs/promises';",
      "import { join } from 'node:path';",
      '',
      'export const root = join(".");',
      '',
    );
    const result = await apply(file, lines("import { writeFile } from 'node:fs/promises';", '// ... existing code ...', ''), 'io.ts');
    assert.notEqual(result.status, 'applied', result.message);
    assert.equal(result.content ?? file, file);
  });

  for (const real of REAL_FILES) {
    test(`${real}: each function's last statement replaced after a placeholder is changed in place, added after, or refused, never anything else`, async () => {
      const file = fs.readFileSync(path.join(ROOT, real), 'utf8');
      const fileLines = file.split('\n');
      let changed = 0;
      let added = 0;
      let refused = 0;
      for (const f of documentedFunctions(fileLines)) {
        const last = f.end - 1;
        const statement = fileLines[last];
        if (statement.trim() === '' || /^\s*[})\]]/.test(statement) || f.end - f.start < 3) {
          continue;
        }
        // Two edits a model makes to a last statement: a new name in it, and its first word replaced.
        for (const edit of [statement.replace(/(\w+)(?!.*\w)/, '$1Checked'), statement.replace(/\w+/, 'note')]) {
          const block = lines(fileLines[f.start], '  // ... existing code ...', edit, '}');
          const result = await apply(file, block, 'real.js');
          if (result.status === 'applied') {
            // The line changed where it stands, or (a line unlike it) added after it; nothing else moves.
            const asChanged = fileLines.map((l, i) => (i === last ? edit : l)).join('\n');
            const asAdded = [...fileLines.slice(0, last + 1), edit, ...fileLines.slice(last + 1)].join('\n');
            assert.ok(result.content === asChanged || result.content === asAdded, `${f.name}: ${result.message}\n${edit}`);
            result.content === asChanged ? changed++ : added++;
          } else {
            refused++;
            assert.ok(['ambiguous', 'invalid'].includes(result.status), `${f.name}: ${result.status} ${result.message}`);
          }
        }
      }
      assert.ok(changed > 0 && refused > 0, `changed ${changed}, added ${added}, refused ${refused}: both a change and a refusal occur`);
    });
  }
});

describe('code blocks: lines after a placeholder that close what they never open', () => {
  // commander's Command class: 89 methods at two spaces, the class closed at column 0.
  const real = 'node_modules/commander/lib/command.js';
  const file = fs.readFileSync(path.join(ROOT, real), 'utf8');
  const fileLines = file.split('\n');
  const methods = fileLines.flatMap((line, start) => {
    if (!/^ {2}[a-zA-Z_]\w*\(.*\) \{$/.test(line)) {
      return [];
    }
    const end = fileLines.findIndex((l, i) => i > start && l === '  }');
    return end > start + 1 ? [{ start, end }] : [];
  });
  /** The file with a statement added as the method's first line. */
  const withStatement = (m: { start: number }) => [
    ...fileLines.slice(0, m.start + 1),
    '    this._checked = true;',
    ...fileLines.slice(m.start + 1),
  ];

  test(`${real}: each method, shown as Copilot writes it (a column-0 placeholder, the method, the class's closing brace, a placeholder), is changed exactly`, async () => {
    assert.ok(methods.length >= 50, `${methods.length} methods`);
    let applied = 0;
    const refused: string[] = [];
    for (const m of methods) {
      const edited = withStatement(m);
      const block = lines('// ...existing code...', ...edited.slice(m.start, m.end + 2), '}', '// ...existing code...');
      const result = await apply(file, block, 'command.js');
      if (result.status === 'applied') {
        applied++;
        assert.equal(result.content, edited.join('\n'), `${fileLines[m.start]}: ${result.message}`);
      } else {
        // A method whose brackets a line scan cannot count (a template literal over two lines) stays refused.
        refused.push(fileLines[m.start].trim());
      }
    }
    assert.ok(applied >= methods.length * 0.9, `${applied} of ${methods.length} applied; refused: ${refused.join(' ')}`);
  });

  test(`${real}: the tail of each method and its closing brace after a placeholder is changed exactly when its first line is once in the file`, async () => {
    let applied = 0;
    let unsure = 0;
    for (const m of methods) {
      if (m.end - m.start < 4) {
        continue;
      }
      // The method's last two lines before its `}`, a new statement between them.
      const tail = fileLines.slice(m.end - 2, m.end);
      const edited = [...fileLines.slice(0, m.end - 1), '    this._checked = true;', ...fileLines.slice(m.end - 1)];
      const block = lines('// ...existing code...', tail[0], '    this._checked = true;', tail[1], '  }', '// ...existing code...');
      const result = await apply(file, block, 'command.js');
      const once = fileLines.filter((l) => l.trim() === tail[0].trim()).length === 1;
      if (result.status === 'applied') {
        applied++;
        assert.ok(once, `${tail[0]}: applied though the line stands more than once`);
        assert.equal(result.content, edited.join('\n'), `${fileLines[m.start]}: ${result.message}`);
      } else {
        unsure++;
      }
    }
    assert.ok(applied > 20 && unsure > 0, `applied ${applied}, refused ${unsure}`);
  });

  test('lines that close more than they open with nothing in the file to say what: refused as before', async () => {
    const result = await apply(
      file,
      lines('// ...existing code...', '    return this.nowhere;', '  }', '}', '// ...existing code...'),
      'command.js',
    );
    assert.notEqual(result.status, 'applied', result.message);
  });
});

describe('code blocks: found by review', () => {
  test('a new return after a placeholder never lands after the file return, where it would never run', async () => {
    const file = lines('function foo(x: number): number {', '  a();', '  return x;', '}', '');
    const result = await apply(
      file,
      lines('function foo(x: number): number {', '  // ... existing code ...', '  return computeSomethingElse(x, y);', '}', ''),
      'foo.ts',
    );
    if (result.status === 'applied') {
      assert.equal(result.content, file.replace('return x;', 'return computeSomethingElse(x, y);'), result.message);
    } else {
      assert.equal(result.content ?? file, file);
    }
  });

  test('a whole file shown without a decorator is a rewrite that drops it (a doc comment left out is kept, above)', async () => {
    const file = lines(
      'import pytest',
      '',
      '',
      '@pytest.mark.skip(reason="slow")',
      'def test_add():',
      '    assert 1 + 1 == 2',
      '',
      '',
      'def test_sub():',
      '    assert 1 - 1 == 0',
      '',
    );
    const rewritten = file.replace('@pytest.mark.skip(reason="slow")\n', '').replace('1 - 1 == 0', '2 - 1 == 1');
    const result = await apply(file, rewritten, 't_test.py');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, rewritten, result.message);
    assert.match(result.message, /rewrite of the whole file/);
  });

  test('a method after a placeholder two columns left of it is a member, at the members depth, its body too', async () => {
    const py = await apply(
      lines('class A:', '    def foo(self):', '        return 1', ''),
      lines('class A:', '  # ... existing code ...', '    def bar(self):', '        return 2', ''),
      'a.py',
    );
    assert.equal(
      py.content,
      lines('class A:', '    def foo(self):', '        return 1', '', '    def bar(self):', '        return 2', ''),
      py.message,
    );
    const ts = await apply(
      lines('class A {', '    foo(): number {', '        return 1;', '    }', '}', ''),
      lines('class A {', '  // ... existing code ...', '    bar(): number {', '        return 2;', '    }', '}', ''),
      'a.ts',
    );
    assert.equal(
      ts.content,
      lines(
        'class A {',
        '    foo(): number {',
        '        return 1;',
        '    }',
        '',
        '    bar(): number {',
        '        return 2;',
        '    }',
        '}',
        '',
      ),
      ts.message,
    );
  });
});

describe('code blocks: the file goes on after the block ends', () => {
  // bulma's docs/_sass/docs/examples.scss, commit b85d1898 (the commit corpus): SCSS is read by its
  // indentation only; the second rule, with no placeholder after it, had replaced every rule to the file's end.
  const rule = (name: string, image: string) =>
    lines(`.${name} {`, `  background-image: url(${image});`, '  background-size: cover;', '  border-radius: 0.5em;', '}');
  const tail = Array.from({ length: 12 }, (_, k) => lines(`.after-${k} {`, `  @include mx.thing(${k});`, '}')).join('\n\n');
  const file = [
    rule('overlay-parent', 'https://example.com/a.jpg'),
    '.middle {\n  color: red;\n}',
    rule('center-parent', 'https://example.com/b.jpg'),
    tail,
    '',
  ].join('\n\n');

  test('a last statement block shown with a placeholder before it, the file ending with it: its body is replaced', async () => {
    const py = lines('import sys', '', '', 'def main(argv=None):', '    return 0', '', '', 'if __name__ == "__main__":', '    main()', '');
    const result = await apply(
      py,
      lines('# ... existing code ...', '', 'if __name__ == "__main__":', '    sys.exit(main(sys.argv))', ''),
      'cli.py',
    );
    assert.equal(result.content, py.replace('    main()', '    sys.exit(main(sys.argv))'), result.message);
  });

  test('two rules changed, a placeholder between and none after: each changed, every rule after kept', async () => {
    const block = [
      rule('overlay-parent', '/assets/one.jpg'),
      '// ... existing code ...',
      rule('center-parent', '/assets/one.jpg'),
      '',
    ].join('\n\n');
    const result = await apply(file, block, 'examples.scss');
    assert.equal(result.status, 'applied', result.message);
    assert.equal(
      result.content,
      file.replace('https://example.com/a.jpg', '/assets/one.jpg').replace('https://example.com/b.jpg', '/assets/one.jpg'),
      result.message,
    );
  });
});
