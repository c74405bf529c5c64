import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { formatMessage, formatScore } from '../../src/core/report/message';
import { applyBlocks } from '../../src/core/engine';
import { TOTAL_FUNCTION } from '../shared/fixtures';
import type { BlockOutcome, Candidate } from '../../src/core/types';

function candidate(startLine: number, endLine: number, score: number, text: string, note?: string): Candidate {
  const c: Candidate = { startLine, endLine, score, text, start: 0, end: 0 };
  if (note) {
    c.note = note;
  }
  return c;
}

function outcome(index: number, status: BlockOutcome['status'], extra: Partial<BlockOutcome> = {}): BlockOutcome {
  return { index, status, candidates: [], notes: [], ...extra };
}

test('message: a miss in a one-block batch has the seed shape', () => {
  const msg = formatMessage({
    fileName: 'src/auth/service.ts',
    status: 'not_found',
    blocks: [
      outcome(1, 'not_found', {
        candidates: [
          candidate(142, 145, 0.9249, 'if (user.tokenExpiresAt < Date.now()) {\n  await this.refreshToken(user);\n  return user;\n}'),
          candidate(88, 90, 0.61, 'if (session.expiresAt < Date.now()) {\n\n}'),
        ],
      }),
    ],
  });
  assert.equal(
    msg,
    [
      'SEARCH text not found in src/auth/service.ts. Closest matches (fuzzy, ranked by similarity):',
      '',
      '  [0.92] lines 142-145:',
      '    if (user.tokenExpiresAt < Date.now()) {',
      '      await this.refreshToken(user);',
      '      return user;',
      '    }',
      '',
      '  [0.61] lines 88-90:',
      '    if (session.expiresAt < Date.now()) {',
      '',
      '    }',
      '',
      'Re-emit SEARCH copied exactly from the lines above (every character, including indentation).',
    ].join('\n'),
  );
});

test('message: a miss in a multi-block batch names the block and the blocks held back', () => {
  const msg = formatMessage({
    fileName: 'a.py',
    status: 'not_found',
    blocks: [
      outcome(1, 'held_back', { tier: 'exact', range: { startLine: 1, endLine: 2 } }),
      outcome(2, 'not_found', { candidates: [candidate(7, 7, 0.8, 'x = 1')] }),
      outcome(3, 'held_back', { tier: 'indentation', range: { startLine: 9, endLine: 9 } }),
    ],
  });
  assert.match(msg, /^Block 2 of 3: SEARCH text not found in a\.py\. Closest matches/);
  assert.match(msg, /\n {2}\[0\.80\] line 7:\n {4}x = 1\n/);
  assert.match(msg, /Nothing was applied to a\.py because of block 2; .*Blocks 1 and 3 matched and will apply once it is fixed/);
});

test('message: notes (partial line, stale anchor) and candidate notes are shown', () => {
  const partial = formatMessage({
    fileName: 'README.md',
    status: 'not_found',
    blocks: [
      outcome(1, 'not_found', {
        notes: ['SEARCH occurs only inside longer lines; SEARCH must quote whole lines'],
        candidates: [candidate(12, 12, 0.71, 'The quick brown fox jumps.', 'matched only part of line 12')],
      }),
    ],
  });
  assert.match(partial, /Note: SEARCH occurs only inside longer lines; SEARCH must quote whole lines\./);
  assert.match(partial, /\[0\.71\] line 12 \(matched only part of line 12\):\n {4}The quick brown fox jumps\./);
  assert.doesNotMatch(partial, /fuzzy, ranked/);

  const stale = formatMessage({
    fileName: 'x.ts',
    status: 'not_found',
    blocks: [
      outcome(1, 'held_back', { range: { startLine: 3, endLine: 4 } }),
      outcome(2, 'not_found', {
        notes: ['block 2 quotes lines that block 1 replaced'],
        candidates: [candidate(3, 4, 0.66, 'const a = 2;\nconst b = 3;', 'current text')],
      }),
    ],
  });
  assert.match(stale, /^Block 2 of 2: SEARCH text not found in x\.ts\./);
  assert.match(stale, /Note: block 2 quotes lines that block 1 replaced\./);
  assert.match(stale, /\[0\.66\] lines 3-4 \(current text\):/);
});

test('message: nothing similar, and a truncated search, are said plainly', () => {
  const none = formatMessage({ fileName: 'f.go', status: 'not_found', blocks: [outcome(1, 'not_found')] });
  assert.match(none, /^SEARCH text not found in f\.go, and nothing similar was found\./);
  assert.match(none, /Re-read f\.go/);

  const truncated = formatMessage({
    fileName: 'big.js',
    status: 'not_found',
    blocks: [outcome(1, 'not_found', { truncated: true, candidates: [candidate(5, 6, 0.55, 'a\nb')] })],
  });
  assert.match(truncated, /fuzzy search was truncated at its work limit/);
  // When the engine already says it in a note, it is said once.
  const noted = formatMessage({
    fileName: 'big.js',
    status: 'not_found',
    blocks: [
      outcome(1, 'not_found', {
        truncated: true,
        notes: ['the fuzzy search stopped at its work cap; closer matches may exist'],
        candidates: [candidate(5, 6, 0.55, 'a\nb')],
      }),
    ],
  });
  assert.equal(noted.match(/work (cap|limit)/g)?.length, 1);
});

test('message: ambiguity lists every occurrence and how to disambiguate', () => {
  const msg = formatMessage({
    fileName: 'util.ts',
    status: 'ambiguous',
    blocks: [
      outcome(1, 'ambiguous', {
        tier: 'exact',
        candidates: [candidate(10, 11, 1, '}\nreturn x;'), candidate(40, 41, 1, '}\nreturn x;'), candidate(90, 91, 1, '}\nreturn x;')],
      }),
    ],
  });
  assert.match(msg, /^SEARCH text matches 3 places in util\.ts: lines 10-11, 40-41, 90-91\./);
  assert.equal(msg.match(/ {4}return x;/g)?.length, 3);
  assert.match(msg, /add surrounding lines/);
  assert.match(msg, /:start_line:/);

  const normalised = formatMessage({
    fileName: 'util.ts',
    status: 'ambiguous',
    blocks: [
      outcome(1, 'held_back'),
      outcome(2, 'ambiguous', { tier: 'indentation', candidates: [candidate(1, 1, 1, 'a'), candidate(5, 5, 1, 'a')] }),
    ],
  });
  assert.match(normalised, /^Block 2 of 2: SEARCH text matches 2 places in util\.ts \(after normalising indentation\): lines 1, 5\./);
  assert.match(normalised, /because of block 2/);

  const many = formatMessage({
    fileName: 'u.ts',
    status: 'ambiguous',
    blocks: [
      outcome(1, 'ambiguous', {
        candidates: Array.from({ length: 30 }, (_, i) => candidate(i * 3 + 1, i * 3 + 1, 1, '}')),
      }),
    ],
  });
  assert.match(many, /matches 30 places/);
  assert.match(many, /and 10 more/);
  assert.match(many, /25 more occurrences not shown/);
});

test('message: successes say which normalisation each non-exact block needed', () => {
  assert.equal(
    formatMessage({
      fileName: 'a.ts',
      status: 'applied',
      blocks: [outcome(1, 'applied', { tier: 'exact', range: { startLine: 3, endLine: 5 } })],
    }),
    'Applied 1 block to a.ts at lines 3-5.',
  );
  assert.equal(
    formatMessage({
      fileName: 'a.ts',
      status: 'applied',
      blocks: [
        outcome(1, 'applied', { tier: 'exact', range: { startLine: 1, endLine: 2 } }),
        outcome(2, 'applied', {
          tier: 'indentation',
          range: { startLine: 8, endLine: 9 },
          notes: ['matched after normalising indentation (+4 spaces)'],
        }),
      ],
    }),
    'Applied 2 blocks to a.ts; block 2 (lines 8-9) matched after normalising indentation (+4 spaces).',
  );
  const several = formatMessage({
    fileName: 'a.ts',
    status: 'applied',
    blocks: [
      outcome(1, 'applied', { tier: 'quotes', range: { startLine: 1, endLine: 1 } }),
      outcome(2, 'applied', { tier: 'exact', range: { startLine: 4, endLine: 4 } }),
      outcome(3, 'applied', { tier: 'fuzzy', score: 0.934, range: { startLine: 7, endLine: 9 } }),
    ],
  });
  assert.equal(
    several,
    [
      'Applied 3 blocks to a.ts:',
      '- block 1 (line 1) matched after normalising quote characters.',
      '- block 3 (lines 7-9) placed by fuzzy match (score 0.93).',
    ].join('\n'),
  );
});

test('message: an invalid block states the problem', () => {
  const msg = formatMessage({
    fileName: 'a.ts',
    status: 'invalid',
    blocks: [
      outcome(1, 'held_back'),
      outcome(2, 'invalid', { notes: ['empty SEARCH can only fill an empty file, but a.ts has 10 lines'] }),
    ],
  });
  assert.match(msg, /^Block 2 of 2: Invalid block for a\.ts: empty SEARCH can only fill an empty file, but a\.ts has 10 lines\./);
  assert.match(msg, /Nothing was applied to a\.ts because of block 2/);
});

test('message: scores keep two decimals and never round a near miss up to 1.00', () => {
  assert.equal(formatScore(1), '1.00');
  assert.equal(formatScore(0.999), '0.99');
  assert.equal(formatScore(0.925), '0.92');
  assert.equal(formatScore(0.5), '0.50');
  assert.equal(formatScore(0), '0.00');
});

test('message: the engine result carries the formatted message for a real miss', () => {
  const result = applyBlocks(
    TOTAL_FUNCTION,
    [
      {
        index: 1,
        search: '  for (const item of items) {\n    sum += item.price * item.qty;\n  }',
        replace: '  for (const item of items) sum += item.price;',
        sourceLine: 1,
      },
    ],
    { fileName: 'cart.ts' },
  );
  assert.equal(result.status, 'not_found');
  assert.match(
    result.message,
    /^SEARCH text not found in cart\.ts\. Closest matches \(fuzzy, ranked by similarity\):\n\n {2}\[0\.\d\d\] lines 3-5:\n {4} {2}for \(const item of items\) \{\n/,
  );
  assert.match(result.message, /Re-emit SEARCH copied exactly/);
});
