// The placeholder table: which lines stand for left-out code, in which languages, and which are code.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import {
  COMMENT_SYNTAXES,
  hasLetterOrDigit,
  isPlaceholderLine,
  LANGUAGE_COMMENTS,
  mayHoldPhrase,
  PLACEHOLDER_PHRASES,
  recognisePlaceholder,
} from '../../src/core/formats/placeholders';
import { seededRandom } from '../shared/seededRandom';
import { isPlaceholderLine as fromIndex, recognisePlaceholder as recogniseFromIndex } from '../../src/core';

describe('placeholder lines', () => {
  test('core exports both functions', () => {
    assert.equal(fromIndex, isPlaceholderLine);
    assert.equal(recogniseFromIndex, recognisePlaceholder);
  });

  test('a bare ellipsis is a placeholder (aider style), with any indentation', () => {
    for (const line of ['...', '    ...', '\t…', '....', '  … ']) {
      assert.deepEqual(recognisePlaceholder(line), { kind: 'ellipsis', syntax: '' }, line);
    }
  });

  test('in a .pyi stub a bare ellipsis is code; comments there still are placeholders', () => {
    assert.equal(recognisePlaceholder('    ...', { fileName: 'pkg/mod.pyi' }), undefined);
    assert.equal(recognisePlaceholder('…', { fileName: 'C:\\x\\MOD.PYI' }), undefined);
    assert.deepEqual(recognisePlaceholder('    # ... existing code ...', { fileName: 'mod.pyi' }), { kind: 'comment', syntax: '#' });
    assert.deepEqual(recognisePlaceholder('    ...', { fileName: 'mod.py' }), { kind: 'ellipsis', syntax: '' });
  });

  test('each comment syntax, with the words of the issue, in any case', () => {
    const cases: [string, string][] = [
      ['// ... existing code ...', '//'],
      ['# ... rest of the function ...', '#'],
      ['-- UNCHANGED', '--'],
      ['; remains the same', ';'],
      ['/* same as before */', '/* */'],
      ['<!-- previous code -->', '<!-- -->'],
      ['{/* other methods */}', '{/* */}'],
      ['% omitted', '%'],
      ["' etc.", "'"],
      ['// …', '//'],
      ['//...', '//'],
      ['# Existing Code', '#'],
      ['  // ... rest of file unchanged', '//'],
      ['// (omitted for brevity)', '//'],
      ['/* ... */', '/* */'],
      ['// ... validation ...', '//'],
      ['# [...]', '#'],
      ['// keep existing', '//'],
    ];
    for (const [line, syntax] of cases) {
      assert.deepEqual(recognisePlaceholder(line), { kind: 'comment', syntax }, line);
    }
  });

  test('ordinary comments and code are not placeholders', () => {
    for (const line of [
      '',
      '   ',
      '// compute the total',
      '# TODO: handle errors',
      '// loading...',
      '// wait for it... then retry',
      'x = ...',
      'call(...args);',
      'return data',
      '/* ... */ foo();',
      '// check existing users',
      '#include <stdio.h>',
      '---',
      '//',
      '# ' + 'the rest of this long explanation goes on and on about why the code is shaped like this',
    ]) {
      assert.equal(recognisePlaceholder(line), undefined, JSON.stringify(line));
    }
  });

  test('"rest of" says code is left out only when it names code or the comment has an ellipsis', () => {
    // New comments in REPLACE that talk about what the code does: written as they are.
    for (const line of [
      '// process the rest of the queue',
      '# handle the rest of the items',
      '    // skip the rest of the line',
      '-- copy the rest of the rows',
      '// then handle the rest',
      '# the rest of the args go to the subprocess',
      '/* parse the rest of the header */',
    ]) {
      assert.equal(recognisePlaceholder(line), undefined, line);
    }
    // Placeholders: a unit of code after "rest of", an ellipsis anywhere, or the other words of the table.
    const cases: [string, string][] = [
      ['// rest of the code', '//'],
      ['# rest of the function', '#'],
      ['// Rest of the component', '//'],
      ['// rest of file', '//'],
      ["// rest of the file's contents", '//'],
      ['# rest of the method body unchanged', '#'],
      ['// rest of the class', '//'],
      ['// rest of the implementation', '//'],
      ['/* rest of the logic */', '/* */'],
      ['// rest of the methods', '//'],
      ['# ... rest of the items ...', '#'],
      ['// … process the rest of the queue', '//'],
      ['// ... the rest', '//'],
      ['// and the rest', '//'],
      ['# rest unchanged', '#'],
      ['// existing code', '//'],
      ['-- remains the same', '--'],
      ['// same as before', '//'],
      ['# previous code', '#'],
      ['// other methods', '//'],
      ['% omitted', '%'],
    ];
    for (const [line, syntax] of cases) {
      assert.deepEqual(recognisePlaceholder(line), { kind: 'comment', syntax }, line);
    }
  });

  test("the file's language decides which comment syntaxes count", () => {
    assert.equal(isPlaceholderLine('# ... existing code ...', { languageId: 'c' }), false);
    assert.equal(isPlaceholderLine('-- existing code', { languageId: 'javascript' }), false);
    assert.equal(isPlaceholderLine('// ... existing code ...', { languageId: 'python' }), false);
    assert.equal(isPlaceholderLine('# ... existing code ...', { languageId: 'python' }), true);
    assert.equal(isPlaceholderLine('-- existing code', { languageId: 'sql' }), true);
    assert.equal(isPlaceholderLine('{/* ... */}', { languageId: 'typescript' }), false);
    assert.equal(isPlaceholderLine('{/* ... */}', { languageId: 'typescriptreact' }), true);
    // By file name when the language id is not given (or unknown to the table).
    assert.equal(isPlaceholderLine('# ... existing code ...', { fileName: 'src/main.c' }), false);
    assert.equal(isPlaceholderLine('# ... existing code ...', { fileName: 'app.py' }), true);
    assert.equal(isPlaceholderLine('# ... existing code ...', { languageId: 'plaintext', fileName: 'app.py' }), true);
    assert.equal(isPlaceholderLine('<!-- ... -->', { fileName: 'README.md' }), true);
    // Unknown language: any syntax.
    assert.equal(isPlaceholderLine('# ... existing code ...', { fileName: 'notes.unknownext' }), true);
    assert.equal(isPlaceholderLine('-- ...', {}), true);
    // The bare ellipsis does not depend on the language.
    assert.equal(isPlaceholderLine('...', { languageId: 'c' }), true);
  });

  test('the table is data: every language names only known syntaxes; openers longest first', () => {
    const names = new Set(COMMENT_SYNTAXES.map((s) => s.name));
    for (const language of LANGUAGE_COMMENTS) {
      for (const comment of language.comments) {
        assert.ok(names.has(comment), `${language.ids[0]}: ${comment}`);
      }
    }
    const ids = LANGUAGE_COMMENTS.flatMap((l) => l.ids);
    assert.equal(new Set(ids).size, ids.length, 'a language id in two rows');
    const extensions = LANGUAGE_COMMENTS.flatMap((l) => l.extensions);
    assert.equal(new Set(extensions).size, extensions.length, 'an extension in two rows');
    // Longest openers first, so '{/*' is not read as '{' and '/*' as '/'.
    for (let i = 0; i < COMMENT_SYNTAXES.length; i++) {
      for (let j = i + 1; j < COMMENT_SYNTAXES.length; j++) {
        assert.ok(
          !COMMENT_SYNTAXES[j].open.startsWith(COMMENT_SYNTAXES[i].open),
          `${COMMENT_SYNTAXES[j].name} after ${COMMENT_SYNTAXES[i].name}`,
        );
      }
    }
    assert.ok(PLACEHOLDER_PHRASES.length > 10);
  });
});

describe('the shortcuts a cold process takes past the phrase patterns', () => {
  // Real comments: the single-line // and /* */ comments of two large files of node_modules.
  const comments: string[] = [];
  for (const name of ['typescript/lib/typescript.js', 'typescript/lib/_tsc.js']) {
    const text = fs.readFileSync(require.resolve(name), 'utf8');
    for (const m of text.matchAll(/\/\/(.*)$|\/\*(.*?)\*\//gm)) {
      comments.push((m[1] ?? m[2]).trim());
    }
  }
  // Phrases each pattern matches, at least one per pattern (checked below).
  const phrases = [
    'existing code',
    'keep existing',
    'preserves all existing',
    'leave the existing',
    'code that is existing',
    'rest of the function',
    '... rest of it',
    'rest of this file …',
    'the rest',
    'and the rest.',
    'the rest ...',
    '… handle the rest',
    'unchanged',
    'not changed',
    'no changes',
    'no change here',
    'remains the same',
    'stays same',
    'is the same',
    'same as before',
    'same as existing',
    'previous implementation',
    'original logic',
    'old code',
    'other methods',
    'more tests',
    'omitted',
    'for brevity',
    'snip',
    'snipped',
    'as is',
    'as it was',
    'left as was',
    'etc',
    'etc.',
  ];

  test('mayHoldPhrase holds for every text a phrase pattern matches: real comments, phrases, perturbed (seeded)', () => {
    const random = seededRandom(28);
    const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
    // Letters that case folding or toLowerCase treat specially (dotted I, long s, Kelvin sign), accents, spaces.
    const inserts = ['İ', 'ſ', '\u212A', 'é', 'ß', '…', ' ', '\t', '\u00A0', '.', '-', 'x', 'S', 'K'];
    const perturbed = (text: string): string => {
      let out = '';
      for (const c of text) {
        out += random() < 0.5 ? c.toUpperCase() : c;
        if (random() < 0.05) {
          out += pick(inserts);
        }
      }
      return out;
    };
    const matchedBy = new Set<number>();
    let matched = 0;
    let gated = 0;
    const texts = [...comments, ...phrases];
    for (let k = 0; k < 20_000; k++) {
      const base = random() < 0.5 ? pick(phrases) : pick(comments);
      const around = random() < 0.5 ? `${pick(comments)} ${base}` : `${base} ${random() < 0.5 ? pick(comments) : ''}`;
      texts.push(perturbed(random() < 0.5 ? base : around));
    }
    for (const text of texts) {
      const hits = PLACEHOLDER_PHRASES.map((p, i) => (p.test(text) ? i : -1)).filter((i) => i >= 0);
      if (hits.length > 0) {
        matched++;
        hits.forEach((i) => matchedBy.add(i));
        assert.ok(mayHoldPhrase(text), `a phrase pattern matches ${JSON.stringify(text)}, mayHoldPhrase says no`);
      } else if (!mayHoldPhrase(text)) {
        gated++;
      }
    }
    assert.equal(matchedBy.size, PLACEHOLDER_PHRASES.length, 'every pattern matched some text');
    assert.ok(matched > 5_000, `${matched} texts matched a pattern`);
    // What the shortcut is for: most real comments are answered without the patterns.
    assert.ok(gated > comments.length / 2, `${gated} of ${texts.length} texts gated, ${comments.length} real comments`);
  });

  test('hasLetterOrDigit is /[\\p{L}\\p{N}]/u, on the words of real comments and on every character below U+3000', () => {
    const words = comments.flatMap((c) => c.split(/\s+/));
    for (let c = 0; c < 0x3000; c++) {
      words.push(`-${String.fromCharCode(c)}`);
    }
    for (const word of words) {
      assert.equal(hasLetterOrDigit(word), /[\p{L}\p{N}]/u.test(word), JSON.stringify(word));
    }
  });
});
