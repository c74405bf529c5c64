// Huge files (issue 28): a near miss in a document too large for one fuzzy pass still names the region
// that holds a line of SEARCH exactly once, and a code block for a file past GRAMMAR_TEXT_LIMIT is read
// by the indentation outline instead of a parse that would cost seconds and gigabytes.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { applyBlocksAsync, applySnippet } from '../../src/core';
import { findFuzzyCandidates } from '../../src/core/match/fuzzy/search';
import { GRAMMAR_TEXT_LIMIT } from '../../src/core/batch/snippet';
import { testGrammars } from '../shared/grammars';

/** Real code, many times over (each copy's identifiers renamed so no region repeats exactly): ~20 MB. */
function hugeLines(): string[] {
  const source = fs.readFileSync(require.resolve('typescript/lib/typescript.js'), 'utf8').split('\n').slice(0, 20_000);
  const lines: string[] = [];
  for (let copy = 0; lines.length < 440_000; copy++) {
    for (const line of source) {
      lines.push(line.replace(/\bts\b/g, `ts${copy}`));
    }
  }
  return lines;
}

const RARE = ['function rareUniqueHelper(alpha, beta) {', '  const gamma = alpha * 31 + beta;', '  return gamma % 1000003;', '}'];

test('huge file: a near miss names the region holding the one line of SEARCH the file has exactly', () => {
  const lines = hugeLines();
  const at = 301_234;
  lines.splice(at, 0, ...RARE);
  const search = [RARE[0], '  const gama = alpha * 31 + betta;', '  return gama % 1000003;'];
  const found = findFuzzyCandidates(lines, search, { maxCandidates: 3, minScore: 0.5 });
  assert.equal(found.truncated, true, 'only the regions around exact lines were searched: said so');
  assert.deepEqual([found.windows[0].start, found.windows[0].end], [at, at + 3]);
  // Deterministic, as every fuzzy search is.
  assert.deepEqual(findFuzzyCandidates(lines, search, { maxCandidates: 3, minScore: 0.5 }), found);
  // Without a line of SEARCH in the file there is no region to name, and nothing is made up.
  const absent = findFuzzyCandidates(lines, ['function noSuchHelperAnywhere(x) {', '  return x * 2;'], { maxCandidates: 3, minScore: 0.5 });
  assert.deepEqual(absent.windows, []);
  assert.equal(absent.truncated, true);
});

test('huge file: a SEARCH/REPLACE near miss reports the rare region as its top candidate, nothing written', async () => {
  const lines = hugeLines();
  lines.splice(250_000, 0, ...RARE);
  const text = lines.join('\n');
  const block = {
    sourceLine: 1,
    index: 1,
    search: `${RARE[0]}\n  const gama = alpha * 31 + betta;`,
    replace: `${RARE[0]}\n  const gamma = alpha * 37 + beta;`,
  };
  const result = await applyBlocksAsync(text, [block]);
  assert.equal(result.status, 'not_found');
  assert.equal(result.content, undefined);
  assert.equal(result.blocks[0].candidates[0]?.startLine, 250_001);
});

test('huge file: a code block past GRAMMAR_TEXT_LIMIT is read by the outline and applied', async () => {
  const body = Array.from(
    { length: Math.ceil(GRAMMAR_TEXT_LIMIT / 60) },
    (_, i) => `export function f${i}(a: number): number {\n  return a + ${i};\n}\n`,
  );
  const doc = body.join('\n');
  assert.ok(doc.length > GRAMMAR_TEXT_LIMIT);
  const code = 'export function f1234(a: number): number {\n  return a * 1234;\n}\n';
  const result = await applySnippet(doc, { code }, { grammars: testGrammars, fileName: 'huge.ts' });
  assert.equal(result.status, 'applied', result.message);
  assert.equal(result.snippet.reader, 'outline');
  assert.match(result.snippet.grammarProblem ?? '', /over 2,000,000 characters/);
  assert.equal(result.content, doc.replace('  return a + 1234;', '  return a * 1234;'));
});
