import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyBlocks } from '../../src/core/engine';
import { buildReplacement } from '../../src/core/write/transform';
import { alignLines } from '../../src/core/write/align';
import { deriveIndentMap, mapIndent } from '../../src/core/match/indent';
import { quoteStyler } from '../../src/core/match/quotes';
import { type ApplyOptions, type ApplyResult } from '../../src/core/types';

function apply(doc: string, search: string, replace: string, options?: ApplyOptions): ApplyResult {
  const result = applyBlocks(doc, [{ index: 1, sourceLine: 1, search, replace }], options);
  if (result.status === 'applied') {
    let out = '';
    let pos = 0;
    for (const e of result.edits) {
      out += doc.slice(pos, e.start) + e.newText;
      pos = e.end;
    }
    assert.equal(out + doc.slice(pos), result.content, 'edits applied to the original must give content');
  }
  return result;
}

function content(doc: string, search: string, replace: string, options?: ApplyOptions): string {
  const r = apply(doc, search, replace, options);
  assert.equal(r.status, 'applied', r.message);
  return r.content!;
}

describe('indentation of changed lines', () => {
  test('C file indented with tabs, SEARCH and REPLACE in spaces: tabs stay tabs', () => {
    const doc = 'int f(int x) {\n\tif (x > 0) {\n\t\treturn x;\n\t}\n\treturn 0;\n}\n';
    const out = content(
      doc,
      'if (x > 0) {\n    return x;\n}',
      'if (x > 0) {\n    /* positive */\n    return x * 2;\n} else if (x < 0) {\n    return -x;\n}',
    );
    assert.equal(
      out,
      'int f(int x) {\n\tif (x > 0) {\n\t\t/* positive */\n\t\treturn x * 2;\n\t} else if (x < 0) {\n\t\treturn -x;\n\t}\n\treturn 0;\n}\n',
    );
  });

  test('an exact match (identity relation): a new line keeps the indentation the model wrote', () => {
    // Issue 13: under the identity relation REPLACE's leading whitespace is written byte for byte
    // (this used to be re-expressed through a guessed tab width).
    const doc = 'func g() {\n\tx := 1\n}\n';
    const out = content(doc, '\tx := 1', '\tx := 1\n    y := 2');
    assert.equal(out, 'func g() {\n\tx := 1\n    y := 2\n}\n');
  });

  test('comment alignment narrower than a tab survives in a tab file', () => {
    const doc = '/*\n\t * a\n\t */\n';
    const out = content(doc, '\t * a', '\t * a\n\t * b');
    assert.equal(out, '/*\n\t * a\n\t * b\n\t */\n');
  });

  test('space file, SEARCH in tabs: new lines in spaces', () => {
    const doc = 'def f():\n    if x:\n        pass\n';
    const out = content(doc, 'if x:\n\tpass', 'if x:\n\tpass\n\treturn 1');
    assert.equal(out, 'def f():\n    if x:\n        pass\n        return 1\n');
  });
});

describe('line endings', () => {
  test('CRLF file: new and unchanged lines are joined with CRLF, the file ending is kept', () => {
    const doc = 'a\r\nb\r\nc\r\n';
    assert.equal(content(doc, 'a\nb', 'a\nx\ny\nb'), 'a\r\nx\r\ny\r\nb\r\nc\r\n');
  });

  test('CRLF file without a final newline keeps having none', () => {
    const doc = 'a\r\nb';
    assert.equal(content(doc, 'a\nb', 'a\nb\nc'), 'a\r\nb\r\nc');
  });

  test('LF file without a final newline keeps having none when the last line changes', () => {
    assert.equal(content('x\ny', 'y', 'z\nw'), 'x\nz\nw');
  });

  test('mixed line endings: unchanged lines keep their own', () => {
    const doc = 'a\r\nb\nc\r\nd\n';
    assert.equal(content(doc, 'a\nb\nc', 'a\nb\nnew\nc'), 'a\r\nb\nnew\r\nc\r\nd\n');
  });
});

describe('quotes', () => {
  test('German and French quotes on unchanged lines are kept byte for byte', () => {
    const doc = 'Er sagte „Hallo“.\nIl a dit «bonjour».\nZeile drei.\n';
    const out = content(doc, 'Er sagte "Hallo".\nIl a dit "bonjour".\nZeile drei.', 'Er sagte "Hallo".\nIl a dit "bonjour".\nZeile 3.');
    assert.equal(out, 'Er sagte „Hallo“.\nIl a dit «bonjour».\nZeile 3.\n');
  });

  test('a changed line in German prose gets German quotes', () => {
    const doc = 'Er sagte „Hallo“ und ging.\n';
    assert.equal(content(doc, 'Er sagte "Hallo" und ging.', 'Er sagte "Tschüss" und blieb.'), 'Er sagte „Tschüss“ und blieb.\n');
  });

  test('a changed line in French prose gets guillemets', () => {
    const doc = 'Il a dit «bonjour» hier.\n';
    assert.equal(content(doc, 'Il a dit "bonjour" hier.', 'Il a dit "au revoir" hier.'), 'Il a dit «au revoir» hier.\n');
  });

  test('curly apostrophes and quotes in English prose (curly in, curly out)', () => {
    const doc = 'It’s “fine”, she said.\n';
    assert.equal(content(doc, `It's "fine", she said.`, `It's "great", she said. Don't worry.`), 'It’s “great”, she said. Don’t worry.\n');
  });

  test('SEARCH said "x" where the file says \'x\': REPLACE strings follow the file', () => {
    const doc = "const a = {'k': 'v'};\n";
    assert.equal(content(doc, 'const a = {"k": "v"};', 'const a = {"k": "v", "k2": "v2"};'), "const a = {'k': 'v', 'k2': 'v2'};\n");
  });

  test('preserveQuoteStyle=false writes REPLACE quotes as given', () => {
    const doc = "x = 'a'\n";
    assert.equal(content(doc, 'x = "a"', 'x = "b"', { preserveQuoteStyle: false }), 'x = "b"\n');
  });

  test('code whose region has straight quotes is not curled because a string contains curly ones', () => {
    const doc = 'const s = "“quoted”";\n';
    assert.equal(
      content(doc, 'const s = "“quoted”";', 'const s = "“quoted”";\nconst t = "plain";'),
      'const s = "“quoted”";\nconst t = "plain";\n',
    );
  });
});

describe('other transforms', () => {
  test('$ sequences in REPLACE are literal', () => {
    const doc = 'price = 1\n';
    assert.equal(content(doc, 'price = 1', "price = '$1' + \"$&\" + `$$` + $'"), "price = '$1' + \"$&\" + `$$` + $'\n");
  });

  test('trailing whitespace of changed lines is stripped in code', () => {
    assert.equal(content('a = 1\nb = 2\n', 'a = 1', 'a = 10   \nc = 3\t'), 'a = 10\nc = 3\nb = 2\n');
  });

  test('Markdown keeps trailing spaces (hard line breaks) on changed lines', () => {
    const doc = '# Notes\n\nFirst line  \nsecond line\n';
    const out = content(doc, 'First line  \nsecond line', 'First line  \nsecond line  \nthird line', { languageId: 'markdown' });
    assert.equal(out, '# Notes\n\nFirst line  \nsecond line  \nthird line\n');
  });

  test('unchanged lines keep the file trailing whitespace even in code', () => {
    const doc = 'keep   \nchange\n';
    assert.equal(content(doc, 'keep\nchange', 'keep\nchanged'), 'keep   \nchanged\n');
  });

  test('REPLACE lines unchanged from SEARCH are the file lines after a whitespace-tier match', () => {
    const doc = 'foo( a, b );\nbar( c );\n';
    // The changed line keeps the file's spacing around the tokens REPLACE kept (issue 13).
    assert.equal(content(doc, 'foo(a, b);\nbar(c);', 'foo(a, b);\nbaz(c);'), 'foo( a, b );\nbaz( c );\n');
  });

  test('unicode dashes on unchanged lines stay, and on changed lines where REPLACE kept them', () => {
    const doc = 'Range 1–10\nNext — line\n';
    assert.equal(content(doc, 'Range 1-10\nNext - line', 'Range 1-10\nNext - row'), 'Range 1–10\nNext — row\n');
  });
});

describe('fuzzy and chosen regions: SEARCH -> REPLACE changes carried onto the file (three-way)', () => {
  const file = [
    'function setup(config) {',
    '  const server = createServer(config);',
    '  server.listen(config.port);',
    '  registerRoutes(server);',
    '  return server;',
    '}',
  ].join('\n');

  test('a line SEARCH dropped stays in the file', () => {
    // SEARCH omits "server.listen(...)"; REPLACE changes only the return line.
    const search = [
      'function setup(config) {',
      '  const server = createServer(config);',
      '  registerRoutes(server);',
      '  return server;',
      '}',
    ].join('\n');
    const replace = [
      'function setup(config) {',
      '  const server = createServer(config);',
      '  registerRoutes(server);',
      '  return Object.freeze(server);',
      '}',
    ].join('\n');
    const out = content(file, search, replace, { autoApplyAbove: 0.8 });
    assert.equal(out, file.replace('  return server;', '  return Object.freeze(server);'));
  });

  test('a line SEARCH invented (not in the file) is not written when REPLACE keeps it', () => {
    const search = [
      'function setup(config) {',
      '  validate(config);',
      '  const server = createServer(config);',
      '  server.listen(config.port);',
      '  registerRoutes(server);',
      '  return server;',
      '}',
    ].join('\n');
    const replace = search.replace('  return server;', '  return server; // ready');
    const out = content(file, search, replace, { autoApplyAbove: 0.8 });
    assert.equal(out, file.replace('  return server;', '  return server; // ready'));
  });

  test('a garbled line REPLACE leaves alone is written back as the file has it', () => {
    const search = file.replace('server.listen(config.port);', 'srv.lsten(cfg.prt);');
    const replace = search.replace('  return server;', '  return null;');
    const out = content(file, search, replace, { autoApplyAbove: 0.8 });
    assert.equal(out, file.replace('  return server;', '  return null;'));
  });
});

describe('building blocks', () => {
  test('alignLines finds the longest common subsequence of lines', () => {
    const pairs = alignLines(['a', 'b', 'c', 'd'], ['a', 'x', 'c', 'd', 'e'], (x, y) => x === y);
    assert.deepEqual(pairs, [
      [0, 0],
      [2, 2],
      [3, 3],
    ]);
  });

  test('deriveIndentMap: prefix, tab width and inconsistency', () => {
    assert.deepEqual(
      deriveIndentMap([
        ['', '\t'],
        ['  ', '\t  '],
      ]),
      { kind: 'add', prefix: '\t' },
    );
    const cols = deriveIndentMap([
      ['    ', '\t'],
      ['        ', '\t\t'],
    ]);
    assert.deepEqual(cols, { kind: 'columns', searchWidth: 4, fileWidth: 4, num: 1, den: 1, offset: 0, tabs: true });
    assert.equal(mapIndent(cols!, '            '), '\t\t\t');
    assert.equal(
      deriveIndentMap([
        ['', '  '],
        ['', '    '],
      ]),
      undefined,
    );
  });

  test('buildReplacement marks lines written back from the file', () => {
    const lines = buildReplacement({
      fileLines: ['\tone', '\ttwo'],
      searchLines: ['one', 'two'],
      pairs: [
        [0, 0],
        [1, 1],
      ],
      replaceLines: ['one', 'one and a half', 'two'],
      indent: { kind: 'add', prefix: '\t' },
      lineNumbersStripped: false,
      restoredTags: [],
      keepTrailingWhitespace: false,
      preserveQuoteStyle: true,
    });
    assert.deepEqual(lines, [{ text: '\tone', fileLine: 0 }, { text: '\tone and a half' }, { text: '\ttwo', fileLine: 1 }]);
  });

  test('quoteStyler: nothing to do for straight-to-straight', () => {
    assert.equal(quoteStyler([['"', '"']], 'x = "a"'), undefined);
    const swap = quoteStyler([['"', "'"]], "x = 'a'");
    assert.equal(swap?.('y = "b"'), "y = 'b'");
  });
});

describe('line alignment on ids agrees with the generic one', () => {
  test('random line lists', async () => {
    const { alignEqual } = await import('../../src/core/write/align');
    let seed = 7;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let iter = 0; iter < 200; iter++) {
      const a = Array.from({ length: Math.floor(rnd() * 12) }, () => 'abcd'[Math.floor(rnd() * 4)]);
      const b = Array.from({ length: Math.floor(rnd() * 12) }, () => 'abcde'[Math.floor(rnd() * 5)]);
      const fast = alignEqual(a, b);
      const slow = alignLines(a, b, (x, y) => x === y);
      assert.equal(fast.length, slow.length, JSON.stringify({ a, b }));
      for (const [i, j] of fast) {
        assert.equal(a[i], b[j]);
      }
      for (let k = 1; k < fast.length; k++) {
        assert.ok(fast[k][0] > fast[k - 1][0] && fast[k][1] > fast[k - 1][1]);
      }
    }
  });
});
