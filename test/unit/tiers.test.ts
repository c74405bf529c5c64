import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { applyBlocks } from '../../src/core/engine';
import { Matcher, prepareSearch } from '../../src/core/match/tiers';
import { DocLines } from '../../src/core/match/lines';
import { LineSource } from '../../src/core/match/lineSource';
import { seededRandom } from '../shared/seededRandom';
import { type ApplyOptions, type ApplyResult, type SearchReplaceBlock } from '../../src/core/types';

type BlockInput = Partial<SearchReplaceBlock> & { search: string; replace: string };

/** applyBlocks, plus the invariant every result must keep: edits turn the original into content. */
function run(doc: string, blocks: BlockInput[], options?: ApplyOptions): ApplyResult {
  const full = blocks.map((b, i) => ({ index: i + 1, sourceLine: 1, ...b }));
  const result = applyBlocks(doc, full, options);
  if (result.status !== 'applied') {
    assert.equal(result.content, undefined);
    assert.deepEqual(result.edits, []);
    return result;
  }
  let out = '';
  let pos = 0;
  for (const e of result.edits) {
    assert.ok(e.start >= pos && e.end >= e.start && e.end <= doc.length, `edit out of order: ${JSON.stringify(e)}`);
    out += doc.slice(pos, e.start) + e.newText;
    pos = e.end;
  }
  out += doc.slice(pos);
  assert.equal(out, result.content, 'edits applied to the original must give content');
  return result;
}

function one(doc: string, search: string, replace: string, options?: ApplyOptions): ApplyResult {
  return run(doc, [{ search, replace }], options);
}

/** Tiers that find at least one occurrence, for asserting which tier fires and which must not. */
function firingTiers(doc: string, search: string): string[] {
  const matcher = new Matcher(new DocLines(doc), prepareSearch(search));
  return [
    'exact',
    'line-endings',
    'trailing-whitespace',
    'indentation',
    'quotes',
    'unicode',
    'line-numbers',
    'sanitized-tags',
    'whitespace',
  ].filter((t) => matcher.find(t as never).length > 0);
}

describe('tier 1: exact', () => {
  test('byte-equal lines match exactly and only those lines change', () => {
    const doc = 'alpha\nbeta\ngamma\n';
    const r = one(doc, 'beta', 'BETA');
    assert.equal(r.status, 'applied');
    assert.equal(r.blocks[0].tier, 'exact');
    assert.deepEqual(r.blocks[0].range, { startLine: 2, endLine: 2 });
    assert.equal(r.content, 'alpha\nBETA\ngamma\n');
    assert.deepEqual(r.edits, [{ start: 6, end: 10, newText: 'BETA' }]);
    assert.deepEqual(r.blocks[0].notes, []);
  });

  test('a multi-line SEARCH against a CRLF file is not exact (line endings differ)', () => {
    assert.deepEqual(firingTiers('a\r\nb\r\n', 'a\nb').slice(0, 1), ['line-endings']);
  });

  test('a byte-order mark is not part of line 1 and survives the edit', () => {
    const r = one('\uFEFFfirst\nsecond\n', 'first', 'FIRST');
    assert.equal(r.blocks[0].tier, 'exact');
    assert.deepEqual(r.blocks[0].range, { startLine: 1, endLine: 1 });
    assert.equal(r.content, '\uFEFFFIRST\nsecond\n');
  });

  test('a single line in a CRLF file is byte-equal and exact', () => {
    const r = one('a\r\nb\r\nc\r\n', 'b', 'B');
    assert.equal(r.blocks[0].tier, 'exact');
    assert.equal(r.content, 'a\r\nB\r\nc\r\n');
  });

  test('the first tier with a match decides: an exact occurrence wins over a re-indented one', () => {
    // Both lines indented: neither is exact, both match by indentation -> ambiguous.
    const r = one('if (x) {\n  run();\n}\n    run();\n', 'run();', 'stop();');
    assert.equal(r.status, 'ambiguous');
    assert.equal(r.blocks[0].tier, 'indentation');
    // One line is byte-equal: the exact tier decides alone, the indented twin does not make it ambiguous.
    const r2 = one('run();\n  run();\n', 'run();', 'stop();');
    assert.equal(r2.status, 'applied');
    assert.equal(r2.blocks[0].tier, 'exact');
    assert.equal(r2.content, 'stop();\n  run();\n');
  });
});

describe('tier 2: line endings', () => {
  test('CRLF file, LF SEARCH: matches and keeps CRLF everywhere', () => {
    const doc = 'one\r\ntwo\r\nthree\r\n';
    const r = one(doc, 'one\ntwo', 'one\n2\nextra');
    assert.equal(r.blocks[0].tier, 'line-endings');
    assert.equal(r.content, 'one\r\n2\r\nextra\r\nthree\r\n');
    assert.match(r.blocks[0].notes.join(' '), /line endings.*CRLF/);
  });

  test('does not fire when trailing whitespace also differs (that is tier 3)', () => {
    const tiers = firingTiers('one  \r\ntwo\r\n', 'one\ntwo');
    assert.ok(!tiers.includes('line-endings'));
    assert.equal(tiers[0], 'trailing-whitespace');
  });
});

describe('tier 3: trailing whitespace', () => {
  test('file lines with trailing spaces match a SEARCH without them', () => {
    const doc = 'let a = 1;   \nlet b = 2;\t\nlet c = 3;\n';
    const r = one(doc, 'let a = 1;\nlet b = 2;', 'let a = 10;\nlet b = 2;');
    assert.equal(r.blocks[0].tier, 'trailing-whitespace');
    // The unchanged line is the file's own line, trailing tab included; the changed one keeps the
    // trailing spaces the model could not see (REPLACE kept SEARCH's line end), as a formatter-free
    // round trip must.
    assert.equal(r.content, 'let a = 10;   \nlet b = 2;\t\nlet c = 3;\n');
    assert.match(r.blocks[0].notes.join(' '), /trailing whitespace/);
  });

  test('does not fire when indentation differs', () => {
    const tiers = firingTiers('    let a = 1;\n', 'let a = 1;');
    assert.ok(!tiers.includes('trailing-whitespace'));
    assert.equal(tiers[0], 'indentation');
  });
});

describe('tier 4: indentation', () => {
  test('tab-indented Go file, SEARCH in 4 spaces: new lines come out with tabs', () => {
    const doc = 'func f() {\n\tif x {\n\t\treturn 1\n\t}\n}\n';
    const r = one(doc, 'if x {\n    return 1\n}', 'if x {\n    log(x)\n    return 2\n}');
    assert.equal(r.status, 'applied');
    assert.equal(r.blocks[0].tier, 'indentation');
    assert.deepEqual(r.blocks[0].range, { startLine: 2, endLine: 4 });
    assert.equal(r.content, 'func f() {\n\tif x {\n\t\tlog(x)\n\t\treturn 2\n\t}\n}\n');
    assert.ok(r.blocks[0].notes.some((n) => n === 'matched after normalising indentation (tabs vs spaces)'));
  });

  test('SEARCH in 2-space indentation against tabs (tab width inferred as 2)', () => {
    const doc = 'int main() {\n\tif (x) {\n\t\ty();\n\t}\n}\n';
    const r = one(doc, 'if (x) {\n  y();\n}', 'if (x) {\n  y();\n  z();\n}');
    assert.equal(r.blocks[0].tier, 'indentation');
    assert.equal(r.content, 'int main() {\n\tif (x) {\n\t\ty();\n\t\tz();\n\t}\n}\n');
  });

  test('SEARCH dropped the common indentation: REPLACE gets it added back', () => {
    const doc = 'class A:\n    def f(self):\n        return 1\n';
    const r = one(doc, 'def f(self):\n    return 1', 'def f(self):\n    x = 2\n    return x');
    assert.equal(r.blocks[0].tier, 'indentation');
    assert.equal(r.content, 'class A:\n    def f(self):\n        x = 2\n        return x\n');
    assert.match(r.blocks[0].notes.join(' '), /4 spaces deeper/);
  });

  test('SEARCH indented more than the file: REPLACE loses the extra prefix', () => {
    const doc = 'a:\n  b: 1\n  c: 2\n';
    const r = one(doc, '    b: 1\n    c: 2', '    b: 1\n    c: 3\n      d: 4');
    assert.equal(r.blocks[0].tier, 'indentation');
    assert.equal(r.content, 'a:\n  b: 1\n  c: 3\n    d: 4\n');
  });

  test('inconsistent shifts are no match at any tier (the whitespace tier does not forgive indentation)', () => {
    // line 1 shifted by 2, line 2 by 4: no single relation. (Issue 13: this used to match at the
    // whitespace tier, which erased leading indentation.)
    assert.deepEqual(firingTiers('  a = 1\n    b = 2\n', 'a = 1\nb = 2'), []);
  });
});

describe('tier 5: quotes', () => {
  test('curly quotes in prose matched by straight SEARCH; changed line keeps curly quotes', () => {
    const doc = 'Intro.\nHe said “hello” and left.\nEnd.\n';
    const r = one(doc, 'He said "hello" and left.', 'He said "goodbye" and left.');
    assert.equal(r.blocks[0].tier, 'quotes');
    assert.equal(r.content, 'Intro.\nHe said “goodbye” and left.\nEnd.\n');
    assert.match(r.blocks[0].notes.join(' '), /curly vs straight/);
  });

  test('\' vs " with a consistent mapping: REPLACE strings follow the file', () => {
    const doc = "x = f('a', 'b')\ny = 2\n";
    const r = one(doc, 'x = f("a", "b")', 'x = f("a", "c", "d")');
    assert.equal(r.blocks[0].tier, 'quotes');
    assert.equal(r.content, "x = f('a', 'c', 'd')\ny = 2\n");
    assert.match(r.blocks[0].notes.join(' '), /' vs "/);
  });

  test('an inconsistent quote mapping is no match at any tier', () => {
    // SEARCH maps " to ' in one place and ' to ' in another: not one substitution.
    const doc = "say('a' + 'b')\n";
    assert.deepEqual(firingTiers(doc, `say("a" + 'b')`), []);
    const r = one(doc, `say("a" + 'b')`, 'x');
    assert.equal(r.status, 'not_found');
  });
});

describe('tier 6: unicode punctuation', () => {
  test('em dash, NBSP and ellipsis in the file', () => {
    const doc = 'Title\nWait\u00A0— really…\nEnd\n';
    const r = one(doc, 'Wait - really...', 'Wait - truly...');
    assert.equal(r.blocks[0].tier, 'unicode');
    // The changed line keeps the file's NBSP, em dash and ellipsis where REPLACE kept SEARCH's text.
    assert.equal(r.content, 'Title\nWait\u00A0— truly…\nEnd\n');
    const note = r.blocks[0].notes.join(' ');
    assert.match(note, /dashes/);
    assert.match(note, /special spaces/);
    assert.match(note, /ellipsis/);
  });

  test('zero-width characters inside words (no anchor possible) still match', () => {
    const doc = 'first\nconst va\u200Blue = 1;\nlast\n';
    const r = one(doc, 'const value = 1;', 'const value = 2;');
    assert.equal(r.blocks[0].tier, 'unicode');
    assert.deepEqual(r.blocks[0].range, { startLine: 2, endLine: 2 });
    assert.match(r.blocks[0].notes.join(' '), /zero-width/);
  });

  test('a soft hyphen in a one-byte (Latin-1) file is seen too', () => {
    const doc = 'alpha\nhyphen\u00ADated word\nomega\n';
    const r = one(doc, 'hyphenated word', 'hyphenated words');
    assert.equal(r.blocks[0].tier, 'unicode');
    assert.equal(r.content, 'alpha\nhyphen\u00ADated words\nomega\n');
  });

  test('does not fire for a genuinely different character', () => {
    assert.deepEqual(firingTiers('a — b\n', 'a + b'), []);
  });
});

describe('tier 7: line-number prefixes', () => {
  test('prefixes that survived the parser are stripped from SEARCH and REPLACE', () => {
    const doc = 'def f():\n    return 1\n\nprint(f())\n';
    const r = one(doc, '1 | def f():\n2 |     return 1\n', '1 | def f():\n2 |     return 2\n');
    // The parser leaves prefixes when a line lacks one (here the trailing blank line).
    assert.equal(r.blocks[0].tier, 'line-numbers');
    assert.equal(r.content, 'def f():\n    return 2\n\nprint(f())\n');
    assert.match(r.blocks[0].notes.join(' '), /line-number prefixes/);
  });

  test('cat -n style prefixes', () => {
    const doc = 'alpha\nbeta\n';
    const r = one(doc, '     1\talpha\n     2\tbeta', '     1\talpha\n     2\tBETA');
    assert.equal(r.blocks[0].tier, 'line-numbers');
    assert.equal(r.content, 'alpha\nBETA\n');
  });

  test('a file that really contains "12 | x" matches exactly, not by stripping', () => {
    const r = one('12 | x\n', '12 | x', '12 | y');
    assert.equal(r.blocks[0].tier, 'exact');
    assert.equal(r.content, '12 | y\n');
  });
});

describe('tier 8: sanitised tags', () => {
  test('<e> in SEARCH finds <error> in the file; REPLACE is restored the same way', () => {
    const doc = '<result>\n<error>disk full</error>\n</result>\n';
    const r = one(doc, '<e>disk full</e>', '<e>disk full (retry)</e>');
    assert.equal(r.blocks[0].tier, 'sanitized-tags');
    assert.equal(r.content, '<result>\n<error>disk full (retry)</error>\n</result>\n');
    assert.match(r.blocks[0].notes.join(' '), /<e> as <error>/);
  });

  test('a file that contains <e> literally matches exactly', () => {
    const r = one('<e>x</e>\n', '<e>x</e>', '<e>y</e>');
    assert.equal(r.blocks[0].tier, 'exact');
    assert.equal(r.content, '<e>y</e>\n');
  });
});

describe('tier 9: whitespace between tokens', () => {
  test('formatter drift f(a,b) vs f(a, b); the unchanged line keeps the file formatting', () => {
    const doc = 'call(a, b);\nnext(c,d);\n';
    const r = one(doc, 'call(a,b);\nnext(c, d);', 'call(a,b);\nnext(c, d, e);');
    assert.equal(r.blocks[0].tier, 'whitespace');
    // The changed line keeps the file's spacing where REPLACE kept SEARCH's text; ", e" is new.
    assert.equal(r.content, 'call(a, b);\nnext(c,d, e);\n');
    assert.match(r.blocks[0].notes.join(' '), /whitespace differences between tokens/);
  });

  test('whitespace that separates two words matters: return x != returnx', () => {
    assert.deepEqual(firingTiers('return x\n', 'returnx'), []);
  });

  test('whole lines only: a token-equal prefix of a line is not a match', () => {
    assert.deepEqual(firingTiers('call(a, b); more();\n', 'call(a,b);'), []);
  });
});

describe('anchoring and full scans give the same occurrences', () => {
  test('an anchor that occurs on many lines still finds every occurrence', () => {
    const lines: string[] = [];
    for (let i = 0; i < 200; i++) {
      lines.push(i % 50 === 7 ? '  value = compute(x)' : `  value${i} = compute(x)`);
    }
    const doc = lines.join('\n');
    const matcher = new Matcher(new DocLines(doc), prepareSearch('value = compute(x)'));
    assert.deepEqual(
      matcher.find('indentation').map((o) => o.start),
      [7, 57, 107, 157],
    );
  });

  test('a SEARCH with no stable characters at all (only punctuation that may vary) is still matched', () => {
    const doc = 'x\n  "--"\ny\n';
    const r = one(doc, "'--'", "'-'");
    assert.equal(r.status, 'applied');
    assert.equal(r.blocks[0].tier, 'quotes');
    assert.equal(r.content, 'x\n  "-"\ny\n');
  });
});

describe('anchored search agrees with verifying every window (randomised)', () => {
  // Lines mixing the differences the tiers bridge; SEARCH is a perturbed copy of a document slice.
  const pool = [
    'if (x) {',
    '\treturn f(a, b);',
    '    return f(a,b);',
    '}',
    '',
    'say("hi")',
    "say('hi')",
    'say(“hi”)',
    'a — b',
    'a - b',
    'wait…',
    'wait...',
    '<error>x</error>',
    '<e>x</e>',
    '  value = 1  ',
    'value = 1',
    'x\u00A0=\u00A01',
    'x = 1',
    '// don’t',
    "// don't",
    'va\u200Blue',
    'value',
    '12 | code',
    'code',
  ];
  const perturb = (line: string, r: () => number): string => {
    const k = Math.floor(r() * 6);
    if (k === 0) {
      return '  ' + line;
    }
    if (k === 1) {
      return line.replace(/"/g, "'");
    }
    if (k === 2) {
      return line.replace(/, /g, ',');
    }
    if (k === 3) {
      return line + ' ';
    }
    if (k === 4) {
      return `${Math.floor(r() * 90) + 1} | ${line}`;
    }
    return line;
  };
  test('300 random documents and SEARCHes, every tier', () => {
    let seed = 12345;
    const r = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const tiers = [
      'exact',
      'line-endings',
      'trailing-whitespace',
      'indentation',
      'quotes',
      'unicode',
      'line-numbers',
      'sanitized-tags',
      'whitespace',
    ] as const;
    let matched = 0;
    for (let iter = 0; iter < 300; iter++) {
      const n = 5 + Math.floor(r() * 25);
      const lines: string[] = [];
      for (let i = 0; i < n; i++) {
        lines.push(pool[Math.floor(r() * pool.length)]);
      }
      const eol = r() < 0.3 ? '\r\n' : '\n';
      const doc = lines.join(eol);
      const start = Math.floor(r() * n);
      const len = 1 + Math.floor(r() * Math.min(4, n - start));
      const search = lines
        .slice(start, start + len)
        .map((l) => perturb(l, r))
        .join('\n');
      const docLines = new DocLines(doc);
      const spec = prepareSearch(search);
      const anchored = new Matcher(docLines, spec);
      const full = new Matcher(new DocLines(doc), spec, false);
      for (const tier of tiers) {
        const a = anchored.find(tier).map((o) => o.start);
        const b = full.find(tier).map((o) => o.start);
        assert.deepEqual(a, b, `tier ${tier}, doc ${JSON.stringify(doc)}, search ${JSON.stringify(search)}`);
        if (b.length) {
          matched++;
        }
      }
      assert.deepEqual(anchored.findPartial(), full.findPartial());
    }
    assert.ok(matched > 300, `the random cases should exercise matches (got ${matched})`);
  });
});

describe('DocLines', () => {
  test('lines, line ends and allLines agree for LF, CRLF, mixed, BOM and no final newline', () => {
    for (const text of ['a\nb\n', 'a\r\nb\r\nc', '\uFEFFx\r\ny\nz', '', '\n', 'one', 'a\r\n\r\nb\r', 'a\rb\nc']) {
      const doc = new DocLines(text);
      const expected = (text.charCodeAt(0) === 0xfeff ? text.slice(1) : text)
        .split('\n')
        .map((l, i, all) => (i < all.length - 1 && l.endsWith('\r') ? l.slice(0, -1) : l));
      assert.deepEqual(doc.allLines(), expected, JSON.stringify(text));
      // The fuzzy tier's view of the same lines: offsets into the text, then as given in an array.
      for (const source of [doc.lineSource(), LineSource.ofLines(expected)]) {
        assert.deepEqual(
          Array.from({ length: source.length }, (_, i) => source.line(i)),
          expected,
          JSON.stringify(text),
        );
      }
      assert.equal(doc.count, expected.length);
      for (let i = 0; i < doc.count; i++) {
        assert.equal(doc.line(i), expected[i]);
        assert.equal(doc.lineAt(doc.start(i)), i);
        assert.equal(text.slice(doc.start(i), doc.contentEnd(i)), expected[i]);
        assert.equal(text.slice(doc.contentEnd(i), doc.lineEnd(i)), doc.eol(i));
      }
    }
  });

  test('after a chain of edits (withEdit, starts worked out when first asked) a document reads as one made afresh', () => {
    const random = seededRandom(28);
    const pieces = ['a', 'bc', '\n', '\r\n', '', 'x\ny', '\n\n', '\uFEFF'];
    for (let round = 0; round < 300; round++) {
      let text =
        (random() < 0.2 ? '\uFEFF' : '') +
        Array.from({ length: 1 + Math.floor(random() * 12) }, () => pieces[Math.floor(random() * pieces.length)]).join('');
      let doc = new DocLines(text);
      for (let edit = 0; edit < 4; edit++) {
        const first = doc.start(0);
        const from = first + Math.floor(random() * (text.length - first + 1));
        const to = from + Math.floor(random() * (text.length - from + 1));
        const insert = pieces[Math.floor(random() * pieces.length)].replace('\uFEFF', 'z');
        text = text.slice(0, from) + insert + text.slice(to);
        // Some documents are read between edits (their starts found), some only after the last.
        if (random() < 0.5) {
          doc.lineAt(Math.floor(random() * (doc.length + 1)));
        }
        doc = doc.withEdit(text, from, to, insert);
      }
      const fresh = new DocLines(text);
      assert.equal(doc.count, fresh.count, JSON.stringify(text));
      for (let i = 0; i < fresh.count; i++) {
        assert.equal(doc.start(i), fresh.start(i), JSON.stringify(text));
        assert.equal(doc.contentEnd(i), fresh.contentEnd(i), JSON.stringify(text));
        assert.equal(doc.lineAt(fresh.start(i)), i, JSON.stringify(text));
      }
    }
  });

  test("the fuzzy tier's lines (lineSource) are allLines', whatever was read before, after edits too (seeded)", () => {
    const random = seededRandom(2828);
    const pieces = ['a', 'bc', '\n', '\r\n', '\r', '', 'x\ny', '\n\n', ' \t', '\r\r\n'];
    const real = fs.readFileSync(require.resolve('typescript/lib/typescript.js'), 'utf8').slice(0, 200_000);
    const sourceLines = (source: LineSource) => Array.from({ length: source.length }, (_, i) => source.line(i));
    for (let round = 0; round < 400; round++) {
      const cut = Math.floor(random() * (real.length - 3_000));
      let text =
        (random() < 0.2 ? '\uFEFF' : '') +
        (round % 4 === 0
          ? real.slice(cut, cut + Math.floor(random() * 3_000)).replace(/\n/g, () => (random() < 0.1 ? '\r\n' : '\n'))
          : Array.from({ length: Math.floor(random() * 16) }, () => pieces[Math.floor(random() * pieces.length)]).join(''));
      let doc = new DocLines(text);
      const edits = Math.floor(random() * 3);
      for (let edit = 0; edit < edits; edit++) {
        const first = doc.start(0);
        const from = first + Math.floor(random() * (text.length - first + 1));
        const to = from + Math.floor(random() * (text.length - from + 1));
        const insert = pieces[Math.floor(random() * pieces.length)];
        text = text.slice(0, from) + insert + text.slice(to);
        doc.lineAt(Math.floor(random() * (doc.length + 1)));
        doc = doc.withEdit(text, from, to, insert);
      }
      // What the tiers may have read first: none, a line far down, a few lines near the top.
      const reads = Math.floor(random() * 3);
      for (let k = 0; k < reads; k++) {
        if (random() < 0.5) {
          doc.lineAt(Math.floor(random() * (doc.length + 1)));
        } else {
          doc.has(Math.floor(random() * 8));
        }
      }
      assert.deepEqual(sourceLines(doc.lineSource()), new DocLines(text).allLines(), JSON.stringify(text));
    }
  });
});
