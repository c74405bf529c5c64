// Lines a code block repeats from the file with the other string quotes are the file's lines, in the
// languages where a string's delimiter carries no meaning (decide/snippetQuotes.ts); new lines follow the
// file when every repeated line swapped the same way. Anything where a quote may be a character (escapes,
// strings holding quotes, template literals, regular expressions, JSX text) or another language: as written.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { keepFileQuoteStyle } from '../../src/core/decide/snippetQuotes';
import { applySnippet } from '../../src/core';
import { testGrammars } from '../shared/grammars';

const ts = { fileName: 'a.ts' };

describe('keepFileQuoteStyle', () => {
  test('a repeated import written with double quotes is the file line; a new line follows the file then', () => {
    const file = ["import { a } from './a';", "import b from 'b';", '', 'export const x = 1;'];
    const block = ['import { a } from "./a";', 'import b from "b";', '', 'export const y = "why";'];
    assert.deepEqual(keepFileQuoteStyle(block, file, ts), [
      "import { a } from './a';",
      "import b from 'b';",
      '',
      "export const y = 'why';",
    ]);
  });

  test("indentation and trailing spaces stay the block's; only the text between is the file's", () => {
    assert.deepEqual(keepFileQuoteStyle(['\t\tcall("x");  '], ["    call('x');"], ts), ["\t\tcall('x');  "]);
  });

  test('mixed evidence (one repeated line swapped, one not): repeated lines follow the file, new lines stay', () => {
    const file = ["use('a');", 'use("b");'];
    const block = ['use("a");', 'use("b");', 'use("c");'];
    assert.deepEqual(keepFileQuoteStyle(block, file, ts), ["use('a');", 'use("b");', 'use("c");']);
  });

  test('no repeated line, no evidence: every line as written', () => {
    assert.deepEqual(keepFileQuoteStyle(['f("new");'], ["g('old');"], ts), ['f("new");']);
  });

  test('a quote that may be a character is never swapped', () => {
    const cases: Array<[string, string]> = [
      ["say('it\\'s');", 'say("it\'s");'], // an escape
      ['say(\'say "hi"\');', 'say("say \'hi\'");'], // a string holding the other quote
      ["const t = `${a}` + 'b';", 'const t = `${a}` + "b";'], // a template literal
      ["const r = /'x'/.test(s) && 'y';", 'const r = /"x"/.test(s) && "y";'], // a regular expression
      ["const e = <p title='t'>x</p>;", 'const e = <p title="t">x</p>;'], // JSX
    ];
    for (const [fileLine, blockLine] of cases) {
      assert.deepEqual(keepFileQuoteStyle([blockLine], [fileLine], ts), [blockLine], fileLine);
    }
  });

  test('a line inside a string or comment that spans lines is text: never swapped, nor taken as evidence', () => {
    const sql = ['const q = `', '  WHERE name = "x"', '`;', 'use("a");'];
    assert.deepEqual(keepFileQuoteStyle(sql, ["  WHERE name = 'x'", "use('a');"], ts), [...sql.slice(0, 3), "use('a');"]);
    const doc = ['/**', ' * Says "hi".', ' */', 'say("hi");', 'more("b");'];
    assert.deepEqual(keepFileQuoteStyle(doc, [" * Says 'hi'.", "say('hi');"], ts), [...doc.slice(0, 3), "say('hi');", "more('b');"]);
    const py = ['def f():', '    """', '    Say "hello".', '    """', '    return "a"'];
    assert.deepEqual(keepFileQuoteStyle(py, ["    Say 'hello'.", "    return 'a'"], { fileName: 'a.py' }), [
      ...py.slice(0, 4),
      "    return 'a'",
    ]);
    // A file line inside a template literal is no line to restore to.
    assert.deepEqual(keepFileQuoteStyle(['  "key": "v",'], ['const json = `{', "  'key': 'v',", '}`;'], ts), ['  "key": "v",']);
  });

  test('what a per-line reading cannot tell (found by review): a triple quote, touching strings, nested f-string quotes, a block cut from inside a string or comment', () => {
    const py = { fileName: 'm.py' };
    const evidence = 'from "m" import x';
    const file = ["from 'm' import x"];
    for (const line of ['    """Return the "name" field."""', 'q = """SELECT "id" FROM t"""', "x = \"\"'a' + 'b'", 'v = f"{d["k"]}"']) {
      assert.deepEqual(keepFileQuoteStyle([evidence, line], file, py), ["from 'm' import x", line], line);
    }
    // Cut from inside a docstring: its closing quotes look like an opening with no end; nothing is touched.
    const cut = ['print("a")', '    WHERE "name" = 1', '"""'];
    assert.deepEqual(keepFileQuoteStyle(cut, ["print('a')"], py), cut);
    // A regular expression is skipped whole, its quote no string: the template literal after it is text.
    const regex = ['import a from "a";', "const re = /'/, t = `", '  name: "x"', '`;'];
    assert.deepEqual(keepFileQuoteStyle(regex, ["import a from 'a';", "  name: 'x'"], ts), ["import a from 'a';", ...regex.slice(1)]);
    // One that does not close on its line loses the scan: the block is left as written.
    const lost = ['import a from "a";', "const re = /'", '  name: "x"'];
    assert.deepEqual(keepFileQuoteStyle(lost, ["import a from 'a';", "  name: 'x'"], ts), lost);
    // A JSDoc line of a comment the block does not open is comment text.
    assert.deepEqual(keepFileQuoteStyle(['import a from "a";', ' * Returns "x"'], ["import a from 'a';"], ts), [
      "import a from 'a';",
      ' * Returns "x"',
    ]);
  });

  test('what a line scan must follow or give up on (found by a second review): templates nested across lines, an escaped triple quote, a backtick after a division', () => {
    const nested = [
      'import { sql } from "slonik";',
      'const q = sql`',
      '  ${active ? sql`',
      "    WHERE status = 'active'",
      '  ` : sql``}',
      '`;',
    ];
    // Followed through: the import is the file's; every line in the templates stays as written.
    assert.deepEqual(keepFileQuoteStyle(nested, ["import { sql } from 'slonik';", '    WHERE status = "active"'], ts), [
      "import { sql } from 'slonik';",
      ...nested.slice(1),
    ]);
    const json = [
      'import { readFile } from "node:fs/promises";',
      'return `{',
      '  ${withName ? `',
      '  "name": "${name}",',
      '  ` : ""}',
      '}`;',
    ];
    assert.deepEqual(keepFileQuoteStyle(json, ["import { readFile } from 'node:fs/promises';"], ts), [
      "import { readFile } from 'node:fs/promises';",
      ...json.slice(1),
    ]);
    // An expression of a template that runs over lines (as a formatter writes a long one) is followed too.
    const long = ['log("a");', 'log(`${items', "  .join(', ')}`);", 'log("b");'];
    assert.deepEqual(keepFileQuoteStyle(long, ["log('a');"], ts), ["log('a');", long[1], long[2], "log('b');"]);
    // Inside a docstring, a docstring shown with escaped quotes neither closes nor opens one.
    const doc = [
      'log = getLogger("app")',
      'def make():',
      '    """Write:',
      '        \\"""',
      '        Return the "id" field.',
      '        \\"""',
      '    """',
    ];
    assert.deepEqual(keepFileQuoteStyle(doc, ["log = getLogger('app')", "        Return the 'id' field."], { fileName: 'm.py' }), [
      "log = getLogger('app')",
      ...doc.slice(1),
    ]);
    const division = ['use("a");', 'if (ok) /`/.test(s);', 'const t = `', '  Run "npm test"', '`;', 'if (ok) /`/.test(s);'];
    assert.deepEqual(keepFileQuoteStyle(division, ["use('a');", "  Run 'npm test'"], ts), division);
  });

  test('a comment ends the code: its words stay as they are, the strings before it are swapped', () => {
    assert.deepEqual(keepFileQuoteStyle(['go("x"); // don\'t'], ["go('x'); // don't"], ts), ["go('x'); // don't"]);
    assert.deepEqual(keepFileQuoteStyle(['go("x")  # it\'s'], ["go('x')  # it's"], { fileName: 'a.py' }), ["go('x')  # it's"]);
  });

  test('Python: f-strings swap; a division is no regular expression there; a triple-quoted string stays as written', () => {
    const file = ["    msg = f'{n} items'", "    '''Count them.'''", "    half = total / 2 or 'none'"];
    const block = ['    msg = f"{n} items"', '    """Count them."""', '    half = total / 2 or "none"'];
    assert.deepEqual(keepFileQuoteStyle(block, file, { fileName: 'm.py' }), [file[0], block[1], file[2]]);
  });

  test("other languages' quotes mean something else: left as written", () => {
    for (const fileName of ['a.sh', 'a.rb', 'a.php', 'a.c', 'a.go', 'a.rs', 'A.java', 'a.tsx', 'a.jsx']) {
      assert.deepEqual(keepFileQuoteStyle(['echo "$x"'], ["echo '$x'"], { fileName }), ['echo "$x"'], fileName);
    }
  });

  test('JavaScript with JSX tags in the file or the block: left as written (a line of JSX text may be a quoted phrase)', () => {
    const file = ['return (', '  <p>', "    'Hello'", '  </p>', ');'];
    assert.deepEqual(keepFileQuoteStyle(['    "Hello"'], file, { fileName: 'view.js' }), ['    "Hello"']);
  });

  test('two file lines that read the same but for their quotes: which one the block repeats is not known', () => {
    assert.deepEqual(keepFileQuoteStyle(['use("a");'], ["use('a');", 'use("a");', 'x'], ts), ['use("a");']);
  });
});

describe('code blocks keep the file quote style end to end', () => {
  const file = [
    "import { readFile } from 'node:fs';",
    "import { join } from './path';",
    '',
    'export function one(): string {',
    "  return 'one';",
    '}',
    '',
    'export function two(): string {',
    "  return 'two';",
    '}',
    '',
  ].join('\n');

  test('a block repeating the imports in double quotes changes only the function, in the file quotes', async () => {
    const code = [
      'import { readFile } from "node:fs";',
      'import { join } from "./path";',
      '',
      'export function two(): string {',
      '  return "TWO";',
      '}',
    ].join('\n');
    const result = await applySnippet(file, { code, fileName: 'a.ts' }, { grammars: testGrammars, fileName: 'a.ts' });
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, file.replace("return 'two'", "return 'TWO'"));
    assert.doesNotMatch(result.message, /changed line/);
  });

  test('with preserveQuoteStyle off, the block is written with its own quotes', async () => {
    const code = ['import { readFile } from "node:fs";', 'import { join } from "./path";'].join('\n');
    const result = await applySnippet(
      file,
      { code, fileName: 'a.ts' },
      { grammars: testGrammars, fileName: 'a.ts', preserveQuoteStyle: false },
    );
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, file.replace("'node:fs'", '"node:fs"').replace("'./path'", '"./path"'));
  });

  test('the same block for a shell script is written as it stands (there "$x" and \'$x\' differ)', async () => {
    const sh = ['#!/bin/sh', 'greet() {', "  echo 'hello $USER'", '}', ''].join('\n');
    const code = ['greet() {', '  echo "hello $USER"', '}'].join('\n');
    const result = await applySnippet(sh, { code, fileName: 'g.sh' }, { grammars: testGrammars, fileName: 'g.sh' });
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, sh.replace("'hello $USER'", '"hello $USER"'));
  });
});
