// Re-finding a user's choice after the document changed (core/batch/rematch.ts): the decisions the editor's
// pending batches, chat buttons and Preview rely on, run on plain text with the real engine.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  matchWithChoices,
  previewResult,
  previewText,
  recoverChoice,
  rematchChoices,
  rematchText,
  sameCandidateText,
  shownCandidateNow,
  withChoice,
  splitStaleChoices,
  type BlockChoice,
  type BlockChoices,
} from '../../src/core/batch/rematch';
import type { SearchReplaceBlock } from '../../src/core/types';

function blocks(...pairs: [string, string][]): SearchReplaceBlock[] {
  return pairs.map(([search, replace], i) => ({ index: i + 1, sourceLine: 1, search, replace }));
}

/** Lines 1-based: linesOf(text, 3, 4) is the text of lines 3 and 4 joined with '\n'. */
function linesOf(text: string, startLine: number, endLine: number): string {
  return text
    .split('\n')
    .slice(startLine - 1, endLine)
    .join('\n');
}

// The same two lines twice: a block quoting them is ambiguous and waits for the user to pick one.
const TWICE = [
  'function total(items) {',
  '  let sum = 0;',
  '  return sum;',
  '}',
  '',
  'function count(items) {',
  '  let sum = 0;',
  '  return sum;',
  '}',
  '',
].join('\n');
const SUM = blocks(['  let sum = 0;\n  return sum;', '  let sum = 1;\n  return sum;']);

/** A choice of the second occurrence (lines 7-8) on version 1. */
function secondOccurrence(text = TWICE): BlockChoice {
  return { range: { startLine: 7, endLine: 8 }, version: 1, text: linesOf(text, 7, 8) };
}

describe('a choice on the current version', () => {
  test('is used as it is, with one engine run', () => {
    let runs = 0;
    const { matched, lost } = rematchChoices({ 1: secondOccurrence() }, 1, (choices) => {
      runs++;
      return { result: matchWithChoices(TWICE, SUM, choices, {}) };
    });
    assert.equal(runs, 1);
    assert.deepEqual(lost, []);
    assert.equal(matched.result.status, 'applied');
    assert.equal(linesOf(matched.result.content!, 7, 7), '  let sum = 1;');
    assert.equal(linesOf(matched.result.content!, 2, 2), '  let sum = 0;', 'the other occurrence is left alone');
  });

  test('the ambiguous block without a choice applies nothing', () => {
    const result = matchWithChoices(TWICE, SUM, {}, {});
    assert.equal(result.status, 'ambiguous');
    assert.deepEqual(result.edits, []);
    assert.deepEqual(
      result.blocks[0].candidates.map((c) => [c.startLine, c.endLine]),
      [
        [2, 3],
        [7, 8],
      ],
    );
  });
});

describe('a pending choice whose text moved', () => {
  test('re-matches to the new lines (lines inserted above it)', () => {
    const moved = '// header\n// more\n' + TWICE;
    const { result, choices, lost } = rematchText(moved, SUM, { 1: secondOccurrence() }, 2);
    assert.deepEqual(lost, []);
    assert.deepEqual(choices[1].range, { startLine: 9, endLine: 10 });
    assert.equal(choices[1].version, 2);
    assert.equal(result.status, 'applied');
    assert.equal(linesOf(result.content!, 9, 9), '  let sum = 1;');
    assert.equal(linesOf(result.content!, 4, 4), '  let sum = 0;');
  });

  test('of two places holding the chosen text, takes the one nearest the old place', () => {
    // The second occurrence was at 7-8; after two lines above, the copies are at 4-5 and 9-10.
    const moved = '// a\n// b\n' + TWICE;
    const found = recoverChoice(secondOccurrence(), matchWithChoices(moved, SUM, {}, {}).blocks[0], 2);
    assert.notEqual(found, undefined);
    assert.notEqual(found, 'not-needed');
    assert.deepEqual((found as BlockChoice).range, { startLine: 9, endLine: 10 });
  });

  test('follows a reformat that only changed trailing whitespace on the chosen lines', () => {
    const reformatted = TWICE.replace('function count(items) {\n  let sum = 0;', 'function count(items) {\n  let sum = 0;   ');
    assert.ok(sameCandidateText('  let sum = 0;   \n  return sum;', '  let sum = 0;\n  return sum;'));
    const { choices, lost } = rematchText(reformatted, SUM, { 1: secondOccurrence() }, 2);
    assert.deepEqual(lost, []);
    assert.deepEqual(choices[1].range, { startLine: 7, endLine: 8 });
  });
});

// A near miss: the block quotes `item.cost` where the file has `item.price`; it waits for a choice.
const NEAR = ['function total(items) {', '  let sum = 0;', '  for (const item of items) sum += item.price;', '  return sum;', '}', ''].join(
  '\n',
);
const COST = blocks([
  '  let sum = 0;\n  for (const item of items) sum += item.cost;\n  return sum;',
  '  let sum = 0;\n  for (const item of items) sum += item.cost * item.count;\n  return sum;',
]);
const CHOSEN: BlockChoice = { range: { startLine: 2, endLine: 4 }, version: 1, text: linesOf(NEAR, 2, 4) };

describe('a near miss waiting for a choice', () => {
  test('applies at the chosen candidate and nowhere without one', () => {
    const waiting = matchWithChoices(NEAR, COST, {}, {});
    assert.equal(waiting.status, 'not_found');
    assert.deepEqual(waiting.edits, []);
    assert.deepEqual(
      waiting.blocks[0].candidates.map((c) => [c.startLine, c.endLine]),
      [[2, 4]],
    );
    const chosen = matchWithChoices(NEAR, COST, { 1: CHOSEN }, {});
    assert.equal(chosen.status, 'applied');
    assert.match(chosen.content!, /item\.cost \* item\.count/);
  });
});

describe('a pending choice whose text is gone', () => {
  test('is refused: reported lost, dropped, and the batch applies nothing', () => {
    const gone = NEAR.replace('sum += item.price;', 'sum += item.price * item.taxRate;');
    const { result, choices, lost } = rematchText(gone, COST, { 1: CHOSEN }, 2);
    assert.deepEqual(lost, [1]);
    assert.equal(choices[1], undefined);
    assert.notEqual(result.status, 'applied');
    assert.deepEqual(result.edits, []);
  });
});

describe('a choice moved along with the edits (same version, touched)', () => {
  test('finds the candidate now overlapping the range when its text changed', () => {
    // The user edited inside the chosen lines: the range was moved to this version but the text differs.
    const edited = NEAR.replace('sum += item.price;', 'sum += item.price; // net');
    const touched: BlockChoice = { ...CHOSEN, version: 2, touched: true };
    const { result, choices, lost } = rematchText(edited, COST, { 1: touched }, 2);
    assert.deepEqual(lost, []);
    assert.deepEqual(choices[1].range, { startLine: 2, endLine: 4 });
    assert.equal(choices[1].text, linesOf(edited, 2, 4));
    assert.equal(result.status, 'applied');
  });

  test('a choice from an older version is found only by its text, never by its old place', () => {
    const edited = NEAR.replace('sum += item.price;', 'sum += item.price; // net');
    const { lost } = rematchText(edited, COST, { 1: CHOSEN }, 2);
    assert.deepEqual(lost, [1]);
  });
});

describe('a choice the block no longer needs', () => {
  test('is dropped when the block places itself now (its other copy was removed)', () => {
    const unique = TWICE.replace('function total(items) {\n  let sum = 0;\n  return sum;\n}\n\n', '');
    const { result, choices, lost } = rematchText(unique, SUM, { 1: secondOccurrence() }, 2);
    assert.deepEqual(lost, []);
    assert.deepEqual(choices, {});
    assert.equal(result.status, 'applied');
    assert.match(result.content!, /let sum = 1;/);
  });
});

describe('splitStaleChoices', () => {
  test('keeps untouched choices of this version, everything else is stale', () => {
    const choices: BlockChoices = {
      1: { range: { startLine: 1, endLine: 1 }, version: 3, text: 'a' },
      2: { range: { startLine: 2, endLine: 2 }, version: 2, text: 'b' },
      3: { range: { startLine: 3, endLine: 3 }, version: 3, text: 'c', touched: true },
      4: { range: { startLine: 4, endLine: 4 }, version: -1, text: 'd' },
    };
    const { current, stale } = splitStaleChoices(choices, 3);
    assert.deepEqual(Object.keys(current), ['1']);
    assert.deepEqual(
      stale.map(([i]) => i),
      [2, 3, 4],
    );
  });
});

describe('previewText', () => {
  test('shows the blocks that place plus the chosen one, leaving the waiting ones out', () => {
    const batch = blocks(
      ['  let sum = 0;\n  return sum;', '  let sum = 1;\n  return sum;'],
      ['function total(items) {', 'function sum(items) {'],
      ['nowhere at all', 'x'],
    );
    const result = matchWithChoices(TWICE, batch, {}, {});
    assert.notEqual(result.status, 'applied');
    const waitingOnly = previewText(TWICE, batch, result.blocks, {}, {});
    assert.equal(waitingOnly, TWICE.replace('function total(items) {', 'function sum(items) {'));
    const chosen = previewText(TWICE, batch, result.blocks, { 1: secondOccurrence() }, {});
    assert.equal(linesOf(chosen!, 7, 7), '  let sum = 1;');
    assert.equal(linesOf(chosen!, 1, 1), 'function sum(items) {');
  });
});

describe('previewResult', () => {
  test('says what each placeholder of a placed block kept, in the words of the message, and which text changed', () => {
    const file = 'def load(path):\n    with open(path) as f:\n        data = f.read()\n    return data\n\nother()\n';
    const batch = blocks(
      [
        'def load(path):\n    with open(path) as f:\n        data = f.read()\n    return data',
        'def load(path, strict=False):\n    # ... existing code ...\n    return data',
      ],
      ['nowhere at all', 'x'],
    );
    const result = matchWithChoices(file, batch, {}, { languageId: 'python' });
    const preview = previewResult(file, batch, result.blocks, {}, { languageId: 'python' });
    assert.ok(preview);
    assert.equal(preview.content, file.replace('load(path)', 'load(path, strict=False)'));
    assert.deepEqual(preview.elisions, ['Block 1: REPLACE line 2 `# ... existing code ...` kept file lines 2-3']);
    assert.ok(preview.edits.length > 0);
    assert.equal(previewText(file, batch, result.blocks, {}, { languageId: 'python' }), preview.content);
  });
});

describe('withChoice', () => {
  test('a choice on the version the part was matched on is trusted; one from another version forces a re-match', () => {
    const part = { version: 3, choices: {} as BlockChoices, label: 'x.ts' };
    const same = withChoice(part, 2, { range: { startLine: 4, endLine: 5 }, version: 3, text: 'a' });
    assert.equal(same.version, 3);
    assert.deepEqual(same.choices[2].range, { startLine: 4, endLine: 5 });
    assert.equal(same.label, 'x.ts');
    const older = withChoice(part, 2, { range: { startLine: 4, endLine: 5 }, version: 2, text: 'a' });
    assert.equal(older.version, -1);
    assert.deepEqual(part.choices, {}, 'the part itself is not changed');
  });
});

describe('shownCandidateNow (Preview of a candidate row)', () => {
  test('a row shown on this version previews its own lines', () => {
    assert.deepEqual(shownCandidateNow({ range: { startLine: 7, endLine: 8 }, text: 'x', version: 4 }, undefined, 4), {
      range: { startLine: 7, endLine: 8 },
      version: 4,
      text: 'x',
    });
  });

  test('a row shown before lines were inserted above previews the refreshed candidate with its text', () => {
    const outcome = matchWithChoices('// a\n// b\n' + NEAR, COST, {}, {}).blocks[0];
    assert.deepEqual(shownCandidateNow({ range: CHOSEN.range, text: CHOSEN.text, version: 1 }, outcome, 2), {
      range: { startLine: 4, endLine: 6 },
      version: 2,
      text: CHOSEN.text,
    });
  });

  test('of two candidates with the text of the row, previews the one nearest the row (as choosing it would apply)', () => {
    // The second occurrence (7-8) was shown; two lines above moved the copies to 4-5 and 9-10.
    const moved = '// a\n// b\n' + TWICE;
    const outcome = matchWithChoices(moved, SUM, {}, {}).blocks[0];
    const shown = { range: { startLine: 7, endLine: 8 }, text: linesOf(TWICE, 7, 8), version: 1 };
    assert.deepEqual(shownCandidateNow(shown, outcome, 2)?.range, { startLine: 9, endLine: 10 });
    assert.deepEqual(rematchText(moved, SUM, { 1: { ...shown } }, 2).choices[1].range, { startLine: 9, endLine: 10 });
  });

  test('a row whose text is no longer a candidate previews nothing', () => {
    const outcome = matchWithChoices(NEAR.replace('item.price', 'item.price * 2'), COST, {}, {}).blocks[0];
    assert.equal(shownCandidateNow({ range: CHOSEN.range, text: CHOSEN.text, version: 1 }, outcome, 2), undefined);
  });
});
