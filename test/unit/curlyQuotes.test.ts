// Curly quotes a chat renderer or a model put into code (write/curlyQuotes.ts, batch/snippet.ts): a code
// block's line that differs from the file's only by curly quotes is the file's line (its bytes stay); a
// changed line's curly quotes outside straight-quoted strings are written straight in a file without them.
// Property on a real file (node_modules/ms/index.js): every function shown with its quotes "smartened"
// applies as the straight block does.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applySnippet } from '../../src/core';
import { applyBlocks } from '../../src/core/engine';
import { straightenCurlyQuotes } from '../../src/core/write/curlyQuotes';
import { testGrammars } from '../shared/grammars';

const MS = fs.readFileSync(path.resolve(__dirname, '../../../node_modules/ms/index.js'), 'utf8');
const none = () => false;

/** What a chat renderer does to quotes: an opening one after a space or bracket, else a closing one. */
function smarten(line: string): string {
  return line.replace(/["']/g, (q, at: number) => {
    const opens = at === 0 || /[\s([{,=:+!]/.test(line[at - 1]);
    return q === '"' ? (opens ? '\u201C' : '\u201D') : opens ? '\u2018' : '\u2019';
  });
}

describe('straightenCurlyQuotes', () => {
  test('curly delimiters outside strings become straight', () => {
    assert.equal(straightenCurlyQuotes('log(\u201Csaving\u201D, name)', none), 'log("saving", name)');
    assert.equal(straightenCurlyQuotes('x = \u2018a\u2019 + \u2018b\u2019;', none), "x = 'a' + 'b';");
  });
  test('curly quotes inside a straight-quoted string are its content', () => {
    assert.equal(straightenCurlyQuotes('say("He said \u201Chi\u201D")', none), 'say("He said \u201Chi\u201D")');
    assert.equal(straightenCurlyQuotes('t = `\u2018x\u2019`', none), 't = `\u2018x\u2019`');
  });
  test('an apostrophe inside a word stays a word character (straightened, opening no string)', () => {
    assert.equal(straightenCurlyQuotes('// don\u2019t \u201Cquote\u201D me', none), '// don\'t "quote" me');
  });
  test('a curly quote the file itself uses is left as written', () => {
    assert.equal(
      straightenCurlyQuotes('a(\u201Cx\u201D)', (ch) => ch === '\u201C' || ch === '\u201D'),
      'a(\u201Cx\u201D)',
    );
  });
});

/** The top-level functions of the file, as [first line, last line] (0-based, inclusive). */
function functionsOf(lines: readonly string[]): Array<[number, number]> {
  const found: Array<[number, number]> = [];
  lines.forEach((line, i) => {
    if (/^function \w+\(/.test(line)) {
      const end = lines.indexOf('}', i);
      found.push([i, end]);
    }
  });
  return found;
}

describe('code blocks with smartened quotes on a real file (ms/index.js)', () => {
  const lines = MS.split('\n');
  const functions = functionsOf(lines);

  test('the file has functions with quoted strings to smarten', () => {
    assert.ok(functions.length >= 4, `found ${functions.length}`);
    assert.ok(functions.some(([a, b]) => lines.slice(a, b + 1).some((l) => /['"]/.test(l))));
  });

  for (const [start, end] of functionsOf(MS.split('\n'))) {
    const name = /^function (\w+)/.exec(lines[start])![1];
    const shown = lines.slice(start, end + 1);
    test(`function ${name} shown unchanged but smartened: nothing to apply, the file stays byte for byte`, async () => {
      const code = shown.map(smarten).join('\n');
      const result = await applySnippet(MS, { code, fileName: 'index.js' }, { grammars: testGrammars, fileName: 'index.js' });
      assert.equal(result.status, 'not_found', result.message);
      assert.match(result.message, /already holds every line/);
    });
    test(`function ${name} smartened with one line changed: written as the straight block writes it`, async () => {
      const changed = [...shown];
      changed[1] = `${changed[1]} // checked`;
      const straight = await applySnippet(
        MS,
        { code: changed.join('\n'), fileName: 'index.js' },
        { grammars: testGrammars, fileName: 'index.js' },
      );
      const curly = await applySnippet(
        MS,
        { code: changed.map(smarten).join('\n'), fileName: 'index.js' },
        { grammars: testGrammars, fileName: 'index.js' },
      );
      assert.equal(straight.status, 'applied', straight.message);
      assert.equal(curly.status, 'applied', curly.message);
      assert.equal(curly.content, straight.content);
      assert.ok(!/[\u2018-\u201F]/.test(curly.content ?? ''), 'a curly quote was written into the file');
    });
  }
});

test('SEARCH/REPLACE: a REPLACE line the model smartened is written with straight quotes in a file without curly ones', () => {
  const search = "  } else if (type === 'number' && isFinite(val)) {";
  assert.ok(MS.includes(search));
  const replace = '  } else if (type === \u2018number\u2019 && isFinite(val) && val >= 0) {';
  const result = applyBlocks(MS, [{ index: 1, search, replace, sourceLine: 1 }]);
  assert.equal(result.status, 'applied');
  assert.equal(result.content, MS.replace(search, "  } else if (type === 'number' && isFinite(val) && val >= 0) {"));
});

test('Markdown keeps the curly quotes a REPLACE writes (typography, not code)', () => {
  const doc = '# Notes\n\nSay "hello" to the team.\n';
  const result = applyBlocks(
    doc,
    [{ index: 1, search: 'Say "hello" to the team.', replace: 'Say \u201Chello\u201D to the whole team.', sourceLine: 1 }],
    {
      languageId: 'markdown',
    },
  );
  assert.equal(result.status, 'applied');
  assert.equal(result.content, '# Notes\n\nSay \u201Chello\u201D to the whole team.\n');
});
