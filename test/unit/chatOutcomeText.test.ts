import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type { BlockOutcome, Candidate } from '../../src/core/types';
import { batchLine, candidateButtonLabel, isUnique, linesLabel, outcomeLine, percent } from '../../src/extension/chat/outcomeText';

function candidate(startLine: number, endLine: number, score: number): Candidate {
  return { startLine, endLine, score, text: 'x', start: 0, end: 1 };
}

function outcome(partial: Partial<BlockOutcome>): BlockOutcome {
  return { index: 1, status: 'applied', candidates: [], notes: [], ...partial };
}

test('percent never shows a near miss as 100%', () => {
  assert.equal(percent(1), '100%');
  assert.equal(percent(0.996), '99%');
  assert.equal(percent(0.92), '92%');
  assert.equal(percent(0.5), '50%');
  assert.equal(percent(0.929), '92%');
});

test('lines label', () => {
  assert.equal(linesLabel({ startLine: 7, endLine: 7 }), 'line 7');
  assert.equal(linesLabel({ startLine: 142, endLine: 148 }), 'lines 142-148');
});

test('outcome lines for each status', () => {
  assert.equal(outcomeLine(outcome({ tier: 'exact', range: { startLine: 3, endLine: 5 }, score: 1 })), 'matched exactly at lines 3-5');
  assert.equal(
    outcomeLine(outcome({ status: 'held_back', tier: 'indentation', range: { startLine: 9, endLine: 9 } })),
    'matched after normalising indentation at line 9',
  );
  assert.equal(
    outcomeLine(outcome({ tier: 'fuzzy', score: 0.955, range: { startLine: 1, endLine: 2 } })),
    'matched by fuzzy match (95%) at lines 1-2',
  );
  assert.equal(
    outcomeLine(outcome({ status: 'ambiguous', tier: 'exact', candidates: [candidate(4, 6, 1), candidate(10, 12, 1)] })),
    'ambiguous: 2 matches at lines 4-6, 10-12',
  );
  assert.equal(
    outcomeLine(outcome({ status: 'ambiguous', tier: 'quotes', candidates: [candidate(4, 6, 1), candidate(10, 12, 1)] })),
    'ambiguous: 2 matches (after normalising quotes) at lines 4-6, 10-12',
  );
  assert.equal(
    outcomeLine(outcome({ status: 'not_found', candidates: [candidate(142, 148, 0.92), candidate(3, 4, 0.6)] })),
    'not found, best 92% at lines 142-148',
  );
  assert.equal(outcomeLine(outcome({ status: 'not_found' })), 'not found, nothing similar in the file');
  assert.equal(
    outcomeLine(outcome({ status: 'invalid', notes: ['empty SEARCH on a non-empty file'] })),
    'invalid: empty SEARCH on a non-empty file',
  );
});

test('candidate button labels', () => {
  const miss = outcome({ status: 'not_found', candidates: [candidate(142, 148, 0.92)] });
  assert.equal(candidateButtonLabel(miss, miss.candidates[0], 0), 'Apply here (92%, lines 142-148)');
  const ambiguous = outcome({ status: 'ambiguous', candidates: [candidate(4, 6, 1), candidate(10, 12, 1), candidate(20, 22, 1)] });
  assert.equal(candidateButtonLabel(ambiguous, ambiguous.candidates[1], 1), 'Apply here (2 of 3, lines 10-12)');
});

test('unique outcomes and batch summary', () => {
  const placed = outcome({ range: { startLine: 1, endLine: 1 } });
  const waiting = outcome({ status: 'held_back', range: { startLine: 2, endLine: 2 } });
  const missing = outcome({ status: 'not_found' });
  assert.ok(isUnique(placed));
  assert.ok(isUnique(waiting));
  assert.ok(!isUnique(missing));
  assert.equal(batchLine([placed, waiting]), 'All 2 blocks match one place each.');
  assert.equal(batchLine([placed, missing]), '1 of 2 blocks match one place; the others need your choice.');
  assert.equal(batchLine([missing]), 'The block needs your choice before it can apply.');
});
