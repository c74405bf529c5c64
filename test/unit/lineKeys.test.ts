// The per-line readings that are written with native regexes for speed (tokenKey, the SEARCH anchors,
// the comparison keys of describeDifferences) against their definitions written out character by
// character, over generated lines full of the characters that matter (whitespace of every kind, word
// and non-word characters, dots, quotes, dashes, non-ASCII).
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { comparisonKeys, stripLineNumber, tokenKey } from '../../src/core/match/normalize';
import { isUnstable, isWordChar, prepareSearch } from '../../src/core/match/tiers';
import { seededRandom } from '../shared/seededRandom';

const ALPHABET = [
  'a',
  'Z',
  '9',
  '_',
  '$',
  ' ',
  ' ',
  '\t',
  '\v',
  '\f',
  '\r',
  '.',
  '.',
  '(',
  ')',
  ',',
  ';',
  '"',
  "'",
  '-',
  '=',
  '<',
  '\x7f',
  '\x00',
  'é',
  '\u00a0',
  '\u2014',
  '\u2019',
  '\u2026',
  '\u200b',
  '\u3000',
];

function randomLine(next: () => number, maxLength: number): string {
  let s = '';
  const n = Math.floor(next() * maxLength);
  for (let i = 0; i < n; i++) {
    s += ALPHABET[Math.floor(next() * ALPHABET.length)];
  }
  return s;
}

/** tokenKey's definition: whitespace goes, except one space where it separated two word characters. */
function tokenKeyByCharacter(line: string): string {
  const isSpace = (c: number) => c === 32 || c === 9 || c === 11 || c === 12 || c === 13;
  const isWord = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c > 127;
  let out = '';
  let i = 0;
  while (i < line.length) {
    if (!isSpace(line.charCodeAt(i))) {
      out += line[i++];
      continue;
    }
    let j = i;
    while (j < line.length && isSpace(line.charCodeAt(j))) {
      j++;
    }
    if (i > 0 && j < line.length && isWord(line.charCodeAt(i - 1)) && isWord(line.charCodeAt(j))) {
      out += ' ';
    }
    i = j;
  }
  return out;
}

/** The longest stable run and longest word run (first of equal length wins), character by character. */
function anchorsByCharacter(lines: readonly string[]): { any?: { text: string; line: number }; word?: { text: string; line: number } } {
  const best: { any?: { text: string; line: number }; word?: { text: string; line: number } } = {};
  lines.forEach((line, k) => {
    const stable: boolean[] = [];
    for (let i = 0; i < line.length; i++) {
      stable.push(!isUnstable(line.charCodeAt(i)));
    }
    for (let i = 0; i < line.length;) {
      let j = i;
      while (j < line.length && line[j] === '.') {
        j++;
      }
      if (j - i >= 3) {
        stable.fill(false, i, j);
      }
      i = Math.max(j, i + 1);
    }
    const consider = (which: 'any' | 'word', keep: (i: number) => boolean) => {
      for (let i = 0; i < line.length;) {
        let j = i;
        while (j < line.length && keep(j)) {
          j++;
        }
        if (j > i && (!best[which] || j - i > best[which].text.length)) {
          best[which] = { text: line.slice(i, j), line: k };
        }
        i = j + 1;
      }
    };
    consider('any', (i) => stable[i]);
    consider('word', (i) => stable[i] && isWordChar(line.charCodeAt(i)));
  });
  return best;
}

describe('line readings written with regexes agree with their definitions', () => {
  test('tokenKey', () => {
    const next = seededRandom(7);
    for (let n = 0; n < 20_000; n++) {
      const line = randomLine(next, 24);
      assert.equal(tokenKey(line), tokenKeyByCharacter(line), JSON.stringify(line));
    }
  });

  test('the anchors of a SEARCH (longest stable run, longest word)', () => {
    const next = seededRandom(11);
    for (let n = 0; n < 5_000; n++) {
      const lines = Array.from({ length: 1 + Math.floor(next() * 4) }, () => randomLine(next, 16));
      const spec = prepareSearch(lines.join('\n'));
      // As prepareSearch reads a line: a stray CR at its end dropped, a line-number prefix ("9\t") removed.
      const want = anchorsByCharacter(lines.map((l) => l.replace(/\r$/, '')).map((l) => stripLineNumber(l) ?? l));
      assert.deepEqual({ any: spec.anchor, word: spec.wordAnchor }, { any: want.any, word: want.word }, JSON.stringify(lines));
    }
  });

  test('comparison keys: trimmed, every run of whitespace one space', () => {
    const next = seededRandom(13);
    for (let n = 0; n < 2_000; n++) {
      const lines = Array.from({ length: 1 + Math.floor(next() * 5) }, () => randomLine(next, 16).replace(/\n/g, ''));
      assert.deepEqual(
        comparisonKeys(lines),
        lines.map((l) => l.trim().replace(/\s+/g, ' ')),
        JSON.stringify(lines),
      );
    }
  });
});
