// The hunk model of "Review each change" (core/report/hunks.ts, issue 27): hunks from two texts, a hunk
// found again after typing elsewhere, an edited hunk refused, and the one edit that restores a hunk.
// The generative part (reviewHunksProperty.ts) runs real files from node_modules through random applies,
// random typing and random Undos in random order.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import {
  changeHunks,
  followChanges,
  hunkLinesPhrase,
  hunkStateAt,
  lineChange,
  lineHunks,
  regionHunks,
  linesWithEnds,
  locateHunk,
  restoreEdit,
} from '../../src/core/report/hunks';
import {
  changesSentence,
  followReview,
  markUndone,
  nextHunkLine,
  planUndo,
  refusalMessage,
  replacedLinesMarkdown,
  reviewLenses,
  startReview,
} from '../../src/core/report/review';
import { regionAround, runReviewProperty } from '../property/reviewHunks';
import { seededRandom } from '../shared/seededRandom';

const lines = (n: number, prefix = 'line') => Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}\n`).join('');

function undo(text: string, hunk: Parameters<typeof restoreEdit>[0], expected = hunk.newStart): string {
  const edit = restoreEdit(hunk, text, expected);
  assert.ok(edit, 'the hunk is found');
  return text.slice(0, edit.start) + edit.newText + text.slice(edit.end);
}

describe('hunks between two texts', () => {
  test('three separate changes give three hunks, each with its lines before and after', () => {
    const before = lines(30);
    const after = before.replace('line 5\n', 'line five\n').replace('line 12\n', '').replace('line 20\n', 'line 20\nadded a\nadded b\n');
    const hunks = changeHunks(before, after);
    assert.deepEqual(
      hunks.map((h) => [h.oldStart, h.oldLines, h.newStart, h.newLines]),
      [
        [4, ['line 5\n'], 4, ['line five\n']],
        [11, ['line 12\n'], 11, []],
        [20, [], 19, ['added a\n', 'added b\n']],
      ],
    );
    assert.equal(hunks[1].above, 'line 11\n');
    assert.equal(hunks[1].below, 'line 13\n');
    assert.equal(hunkLinesPhrase(hunks), 'lines 5, 12 and 20');
    assert.equal(hunkLinesPhrase(hunks.slice(0, 1)), 'line 5');
    assert.equal(hunkLinesPhrase(hunks.slice(0, 2)), 'lines 5 and 12');
  });

  test('line endings are part of the lines: CRLF kept, a missing last newline restored', () => {
    const before = 'a\r\nb\r\nc';
    const after = 'a\r\nB\r\nc\r\nd\r\n';
    const hunks = changeHunks(before, after);
    // "c" without its newline is another line than "c\r\n": b..c is one run of changed lines.
    assert.deepEqual(
      hunks.map((h) => [h.oldLines, h.newLines]),
      [
        [
          ['b\r\n', 'c'],
          ['B\r\n', 'c\r\n', 'd\r\n'],
        ],
      ],
    );
    assert.deepEqual(linesWithEnds(before), ['a\r\n', 'b\r\n', 'c']);
    let text = after;
    for (const hunk of [...hunks].reverse()) {
      text = undo(text, hunk);
    }
    assert.equal(text, before);
  });

  test('identical texts have no hunk; an empty file growing is one hunk', () => {
    assert.deepEqual(changeHunks(lines(5), lines(5)), []);
    const grown = changeHunks('', 'x\ny\n');
    assert.equal(grown.length, 1);
    assert.equal(undo('x\ny\n', grown[0]), '');
  });

  test('a 10,000-line file with 50 changed places gives 50 hunks (anchors, not one LCS table)', () => {
    const before = lines(10_000);
    const afterLines = linesWithEnds(before);
    for (let k = 0; k < 50; k++) {
      afterLines[k * 200 + 7] = `changed ${k}\n`;
    }
    const hunks = changeHunks(before, afterLines.join(''));
    assert.equal(hunks.length, 50);
    assert.ok(hunks.every((h, k) => h.oldStart === k * 200 + 7 && h.newLines.length === 1 && h.oldLines.length === 1));
  });
});

describe('finding a hunk again', () => {
  const before = lines(40);
  const after = before.replace('line 10\n', 'ten\n').replace('line 30\n', 'thirty\nthirty b\n');
  const [first, second] = changeHunks(before, after);

  test('typing above moves the hunk; it is found where the changes moved it, and restored exactly', () => {
    const typed = `header 1\nheader 2\n${after}`;
    const moved = followChanges(second.newStart, second.newLines.length, [lineChange(0, 0, 0, 0, 'header 1\nheader 2\n')]);
    assert.deepEqual(moved, { line: second.newStart + 2, touched: false });
    assert.equal(locateHunk(second, linesWithEnds(typed), moved.line, false), second.newStart + 2);
    assert.equal(undo(typed, second, moved.line), `header 1\nheader 2\n${before.replace('line 10\n', 'ten\n')}`);
  });

  test('an expected place that is off is corrected by the one nearby place with the same lines around it', () => {
    const typed = `header 1\nheader 2\n${after}`;
    assert.equal(locateHunk(first, linesWithEnds(typed), first.newStart), first.newStart + 2);
    assert.equal(locateHunk(first, linesWithEnds(typed), first.newStart, false), undefined);
  });

  test('a hunk the user typed in is not found, and nothing is restored', () => {
    const typed = after.replace('thirty b\n', 'thirty b // mine\n');
    const followed = followChanges(second.newStart, second.newLines.length, [
      lineChange(second.newStart + 1, 8, second.newStart + 1, 8, ' // mine'),
    ]);
    assert.equal(followed.touched, true);
    assert.equal(restoreEdit(second, typed, followed.line, !followed.touched), undefined);
    // Typing at the very start of the hunk's first line is in the hunk too; a new line there is not.
    assert.equal(followChanges(first.newStart, 1, [lineChange(first.newStart, 0, first.newStart, 0, 'x')]).touched, true);
    assert.deepEqual(followChanges(first.newStart, 1, [lineChange(first.newStart, 0, first.newStart, 0, 'x\n')]), {
      line: first.newStart + 1,
      touched: false,
    });
  });

  test('a hunk whose lines occur twice nearby with the same lines around is not guessed', () => {
    const base = 'a\nb\nc\nx\na\nb\nc\n';
    const changed = 'a\nB\nc\nx\na\nb\nc\n';
    const [hunk] = changeHunks(base, changed);
    const twice = 'a\nB\nc\nx\na\nB\nc\nextra\n';
    assert.equal(locateHunk(hunk, linesWithEnds(twice), 3), undefined);
    assert.equal(locateHunk(hunk, linesWithEnds(twice), 1), 1);
    assert.equal(locateHunk(hunk, linesWithEnds(twice), 5), 5);
  });

  test('after an editor undo or redo a hunk is told applied, undone or typed in', () => {
    const undone = undo(after, second);
    const lines2 = linesWithEnds(undone);
    assert.equal(hunkStateAt(second, linesWithEnds(after), second.newStart), 'applied');
    assert.equal(hunkStateAt(second, lines2, second.newStart), 'undone');
    assert.equal(hunkStateAt(second, linesWithEnds(after.replace('thirty b', 'mine')), second.newStart), undefined);
    const [insertion] = changeHunks(lines(6), lines(6).replace('line 3\n', 'line 3\nnew\n'));
    assert.equal(hunkStateAt(insertion, linesWithEnds(lines(6)), insertion.newStart), 'undone');
  });

  test('a pure deletion is found by the lines around it', () => {
    const [deletion] = changeHunks(lines(10), lines(10).replace('line 4\n', ''));
    const shifted = `new\n${lines(10).replace('line 4\n', '')}`;
    assert.equal(locateHunk(deletion, linesWithEnds(shifted), deletion.newStart + 1, false), deletion.newStart + 1);
    assert.equal(undo(shifted, deletion, deletion.newStart + 1), `new\n${lines(10)}`);
  });
});

describe('hunks of a text pair found on the strings first, or in a region around the changes (generative, a real file)', () => {
  // changeHunks finds the lines both texts share at head and tail on the strings and aligns only the
  // lines between: it must give exactly the hunks of aligning every line (lineHunks).
  test('the same hunks as aligning all lines, on 3,000 seeded edits of mocha runner.js and a region around each', () => {
    const file = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'node_modules', 'mocha', 'lib', 'runner.js'), 'utf8');
    const source = file.replace(/\r\n/g, '\n').split('\n');
    const rng = seededRandom(2027);
    const int = (n: number) => Math.floor(rng() * n);
    let changed = 0;
    for (let n = 0; n < 3000; n++) {
      const length = int(60);
      const start = int(source.length - length);
      const slice = source.slice(start, start + length);
      if (rng() < 0.1) {
        slice.unshift('');
      }
      const edited = [...slice];
      for (let k = int(4); k >= 0; k--) {
        // Edits land at the very first and last lines too, where the shared head or tail is empty.
        const at = rng() < 0.3 ? (rng() < 0.5 ? 0 : edited.length) : int(edited.length + 1);
        const op = int(4);
        if (op === 0) {
          edited.splice(at, 0, rng() < 0.3 ? '' : `added ${n}.${k}`);
        } else if (op === 1) {
          edited.splice(at, 1);
        } else if (op === 2) {
          edited.splice(at, 1, `${edited[at] ?? ''} changed`);
        } else {
          edited.splice(at, 0, ...edited.slice(at, at + 3)); // a copy of the lines below: an ambiguous alignment
        }
      }
      const eol = rng() < 0.3 ? '\r\n' : '\n';
      const join = (lines: string[], last: boolean) => lines.join(eol) + (last && lines.length > 0 ? eol : '');
      const before = join(slice, rng() < 0.8);
      const after = join(edited, rng() < 0.8);
      const hunks = changeHunks(before, after);
      assert.deepEqual(hunks, lineHunks(linesWithEnds(before), linesWithEnds(after)), `case ${n}`);
      changed += hunks.length > 0 ? 1 : 0;
      // What the editor reads instead of the whole texts: any run of lines holding every changed line,
      // with the lines just around it (src/extension/review/appliedEdits.ts).
      const region = regionAround(before, after, rng);
      assert.deepEqual(regionHunks(region), hunks, `case ${n}, region from line ${region.firstLine}`);
    }
    assert.ok(changed > 2500, `changed ${changed}`);
  });
});

describe('undoing hunks in any order (generative, real files from node_modules)', () => {
  test('every subset in every order restores exactly those regions and keeps the rest and the typing', () => {
    const summary = runReviewProperty({ cases: 400, seed: 27 });
    assert.deepEqual(summary.failures, []);
    assert.ok(summary.undone > 400, `undone ${summary.undone}`);
    assert.ok(summary.typed > 400, `typed ${summary.typed}`);
    assert.ok(summary.refusedEdited > 50, `refused ${summary.refusedEdited}`);
  });
});

describe('a review as plain data (core/report/review.ts)', () => {
  const before = lines(30);
  const after = before.replace('line 5\n', 'five\n').replace('line 15\n', 'fifteen\n').replace('line 25\n', 'twenty-five\n');

  test('the setting decides: multiple reviews more than one change, always one, never none', () => {
    assert.equal(startReview({ firstLine: 0, before, after }, [], 'never', 1), undefined);
    assert.equal(startReview({ firstLine: 0, before, after: before.replace('line 5\n', 'five\n') }, [], 'multiple', 1), undefined);
    assert.equal(startReview({ firstLine: 0, before, after: before.replace('line 5\n', 'five\n') }, [], 'always', 1)?.length, 1);
    assert.deepEqual(
      startReview({ firstLine: 0, before, after }, [], 'multiple', 7)?.map((h) => [h.id, h.line, h.state]),
      [
        [7, 4, 'pending'],
        [8, 14, 'pending'],
        [9, 24, 'pending'],
      ],
    );
  });

  test('Undo of the middle change, then the lenses count what is left; an editor undo brings it back', () => {
    const hunks = startReview({ firstLine: 0, before, after }, [], 'multiple', 1) ?? [];
    const plan = planUndo(hunks, [2], after);
    assert.deepEqual(plan.refused, []);
    const [edit] = plan.edits;
    const undone = after.slice(0, edit.start) + edit.newText + after.slice(edit.end);
    assert.equal(undone, after.replace('fifteen\n', 'line 15\n'));
    followReview(hunks, [[14, 0, 15, 0, 'line 15\n']]);
    markUndone(hunks, plan);
    assert.deepEqual(
      reviewLenses(hunks.filter((h) => h.state === 'pending')).map((l) => `${l.line}:${l.title}`),
      ['4:Keep all', '4:Undo all', '4:Keep', '4:Undo change 1 of 2', '24:Keep', '24:Undo change 2 of 2'],
    );
    // The editor's undo of that Undo: the change is back, and to review again.
    followReview(hunks, [[14, 0, 15, 0, 'fifteen\n']], after);
    assert.deepEqual(
      hunks.map((h) => h.state),
      ['pending', 'pending', 'pending'],
    );
    // The editor's undo of the apply: every change undone, nothing left to review.
    followReview(hunks, [[0, 0, 30, 0, before]], before);
    assert.ok(hunks.every((h) => h.state === 'undone'));
  });

  test('a change typed in is refused by number; the message says why', () => {
    const hunks = startReview({ firstLine: 0, before, after }, [], 'multiple', 1) ?? [];
    const typed = after.replace('fifteen\n', 'fifteen!\n');
    followReview(hunks, [[14, 7, 14, 7, '!']]);
    const plan = planUndo(hunks, [1, 2, 3], typed);
    assert.deepEqual(plan.refused, [2]);
    assert.equal(plan.edits.length, 2);
    assert.match(
      refusalMessage(plan.refused, 3, 'a.ts'),
      /^Change 2 of 3 was edited since the apply in a\.ts; Undo would overwrite your typing/,
    );
  });

  test('chat words and moving between changes', () => {
    assert.equal(
      changesSentence(before, after, 'multiple'),
      '3 changes: lines 5, 15 and 25; after Apply, review them in the editor (Keep or Undo each)',
    );
    assert.equal(changesSentence(before, after, 'never'), '3 changes: lines 5, 15 and 25');
    assert.equal(changesSentence(before, before, 'always'), '');
    assert.equal(nextHunkLine([4, 14, 24], 10, 1), 14);
    assert.equal(nextHunkLine([4, 14, 24], 30, 1), 4);
    assert.equal(nextHunkLine([4, 14, 24], 4, -1), 24);
    assert.equal(replacedLinesMarkdown([], 'ts'), undefined);
    assert.match(
      replacedLinesMarkdown(['a ``` b\n'], 'ts') ?? '',
      /^\*\*Before the apply\*\* \(1 line; Undo puts it back\):\n\n````ts\na ``` b\n````$/,
    );
  });
});
