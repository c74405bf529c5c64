// parseAnswer (core/formats/answer.ts): a whole chat answer as file changes. Generated answers mix
// SEARCH/REPLACE blocks (their paths written the ways models write them, fenced and not), unified diffs
// and apply_patch patches, with prose between them, on real source lines (this repository's parser):
// every edit comes back once, for its file, in the answer's order, with its text unchanged.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseAnswer } from '../../src/core';
import { seededRandom, type Random } from '../shared/seededRandom';

const SOURCE = fs
  .readFileSync(path.join(__dirname, '..', '..', '..', 'src', 'core', 'formats', 'parser.ts'), 'utf8')
  .split('\n')
  .filter((l) => l.trim() !== '');

interface Expected {
  path: string;
  search: string;
  replace: string;
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];

function excerpt(random: Random): string[] {
  const start = Math.floor(random() * (SOURCE.length - 4));
  return SOURCE.slice(start, start + 1 + Math.floor(random() * 3));
}

const PATH_LINES = [
  (p: string) => p,
  (p: string) => `**${p}**`,
  (p: string) => `\`${p}\`:`,
  (p: string) => `### ${p}`,
  (p: string) => `File: ${p}`,
];
const PROSE = ['Here is the change.', 'Then this one:', 'That fixes the bug.', '', 'Note: nothing else changes.'];

/** One section of an answer and the edit it stands for. */
function section(random: Random, n: number): { lines: string[]; edit: Expected } {
  const file = `src/f${n % 3}.ts`;
  const search = excerpt(random);
  const replace = [...search.slice(0, -1), `${search[search.length - 1]} // ${n}`];
  const edit = { path: file, search: search.join('\n'), replace: replace.join('\n') };
  const kind = pick(random, ['block', 'block', 'diff', 'apply_patch'] as const);
  if (kind === 'block') {
    const body = ['<<<<<<< SEARCH', ...search, '=======', ...replace, '>>>>>>> REPLACE'];
    const style = pick(random, ['plain', 'fenced', 'fence-info'] as const);
    if (style === 'fence-info') {
      return { lines: [`\`\`\`ts ${file}`, ...body, '```'], edit };
    }
    const pathLine = pick(random, PATH_LINES)(file);
    return { lines: style === 'plain' ? [pathLine, ...body] : [pathLine, '```ts', ...body, '```'], edit };
  }
  const hunk = [...search.slice(0, -1).map((l) => ` ${l}`), `-${search[search.length - 1]}`, `+${replace[replace.length - 1]}`];
  if (kind === 'diff') {
    const diff = [`--- a/${file}`, `+++ b/${file}`, `@@ -1,${search.length} +1,${search.length} @@`, ...hunk];
    return { lines: random() < 0.5 ? ['```diff', ...diff, '```'] : diff, edit };
  }
  return { lines: ['*** Begin Patch', `*** Update File: ${file}`, '@@', ...hunk, '*** End Patch'], edit };
}

describe('parseAnswer', () => {
  test('generated answers: every edit once, for its file, in order, text unchanged (300 seeds)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = seededRandom(seed);
      const lines: string[] = [];
      const expected: Expected[] = [];
      const count = 1 + Math.floor(random() * 6);
      for (let n = 0; n < count; n++) {
        lines.push(pick(random, PROSE), '');
        const s = section(random, n);
        lines.push(...s.lines, '');
        expected.push(s.edit);
      }
      const text = lines.join('\n');
      const parsed = parseAnswer(text);
      assert.ok(parsed, `seed ${seed}: no edits found in\n${text}`);
      const got = parsed.files.flatMap((f) => f.blocks.map((b) => ({ path: f.path, search: b.search, replace: b.replace })));
      assert.deepEqual(got, expected, `seed ${seed}:\n${text}`);
      const indexes = parsed.files.flatMap((f) => f.blocks.map((b) => b.index));
      assert.deepEqual(
        indexes,
        expected.map((_, k) => k + 1),
        `seed ${seed}: blocks are numbered in the answer's order`,
      );
    }
  });

  test('text with no edits gives undefined; one format alone reads as its own parser reads it', () => {
    assert.equal(parseAnswer('just prose\n\nand `inline code`\n'), undefined);
    // A plain code block is an answer's code block (issue 28), not an edit format.
    const code = parseAnswer('just prose\n```ts\nconst a = 1;\n```\n');
    assert.deepEqual([code?.formats, code?.files, code?.codeBlocks.map((b) => [b.code, b.fenceLine])], [[], [], [['const a = 1;', 2]]]);
    const diff = parseAnswer('--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\n');
    assert.deepEqual(diff?.formats, ['unified-diff']);
    const blocks = parseAnswer('x.ts\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n');
    assert.deepEqual(blocks?.formats, ['search-replace']);
    assert.equal(blocks?.files[0].path, 'x.ts');
  });

  test('an indented block after a diff and a blank line is a block, not context of the diff', () => {
    const text = [
      '--- a/x.ts',
      '+++ b/x.ts',
      '@@ -1 +1 @@',
      '-a',
      '+b',
      '',
      '- y.ts',
      '  <<<<<<< SEARCH',
      '  c',
      '  =======',
      '  d',
      '  >>>>>>> REPLACE',
      '',
    ].join('\n');
    const parsed = parseAnswer(text);
    assert.deepEqual(
      parsed?.files.map((f) => [f.path, f.blocks[0].search, f.blocks[0].replace]),
      [
        ['x.ts', 'a', 'b'],
        ['y.ts', 'c', 'd'],
      ],
    );
  });
});
