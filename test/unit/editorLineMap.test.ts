// The pure helpers behind the editor mode: moving a chosen line range through edits, and the hover diff.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import type * as vscode from 'vscode';
import { diffLines, renderDiff } from '../../src/core/report/lineDiff';
import { mapLineRange, moveChoices } from '../../src/core/batch/lineMap';
import type { BlockChoices } from '../../src/core/batch/rematch';

/** A content change as VS Code reports it (0-based positions), without importing vscode at runtime. */
function change(
  startLine: number,
  startChar: number,
  endLine: number,
  endChar: number,
  text: string,
): vscode.TextDocumentContentChangeEvent {
  return {
    range: { start: { line: startLine, character: startChar }, end: { line: endLine, character: endChar } },
    rangeOffset: 0,
    rangeLength: 0,
    text,
  } as unknown as vscode.TextDocumentContentChangeEvent;
}

test('lines inserted above move the range down, untouched', () => {
  assert.deepEqual(mapLineRange({ startLine: 10, endLine: 12 }, [change(0, 0, 0, 0, 'a\nb\nc\n')]), {
    range: { startLine: 13, endLine: 15 },
    touched: false,
  });
});

test('whole lines deleted above move the range up, untouched', () => {
  assert.deepEqual(mapLineRange({ startLine: 10, endLine: 12 }, [change(2, 0, 5, 0, '')]), {
    range: { startLine: 7, endLine: 9 },
    touched: false,
  });
});

test('edits below the range leave it alone', () => {
  assert.deepEqual(mapLineRange({ startLine: 3, endLine: 4 }, [change(8, 0, 9, 0, 'x\ny\nz\n')]), {
    range: { startLine: 3, endLine: 4 },
    touched: false,
  });
});

test('an edit inside the range marks it touched and resizes it', () => {
  // Line 4 (1-based) split in two.
  assert.deepEqual(mapLineRange({ startLine: 3, endLine: 5 }, [change(3, 2, 3, 2, '\n')]), {
    range: { startLine: 3, endLine: 6 },
    touched: true,
  });
});

test('joining the line above into the first line touches the range', () => {
  assert.equal(mapLineRange({ startLine: 5, endLine: 6 }, [change(3, 4, 4, 0, '')]).touched, true);
});

test('several changes of one event apply in sequence (bottom-up as VS Code sends them)', () => {
  const mapped = mapLineRange({ startLine: 10, endLine: 11 }, [change(20, 0, 20, 0, 'below\n'), change(1, 0, 1, 0, 'above\n')]);
  assert.deepEqual(mapped, { range: { startLine: 11, endLine: 12 }, touched: false });
});

test('choices made on the previous version move with the edit; older ones wait to be found by text', () => {
  const choices: BlockChoices = {
    1: { range: { startLine: 10, endLine: 12 }, version: 4, text: 'x' },
    2: { range: { startLine: 20, endLine: 20 }, version: 4, text: 'y', touched: true },
    3: { range: { startLine: 10, endLine: 12 }, version: 2, text: 'z' },
  };
  moveChoices(choices, [change(0, 0, 0, 0, 'a\nb\n')], 5);
  assert.deepEqual(choices[1], { range: { startLine: 12, endLine: 14 }, version: 5, text: 'x', touched: false });
  assert.deepEqual(choices[2], { range: { startLine: 22, endLine: 22 }, version: 5, text: 'y', touched: true }, 'touched stays touched');
  assert.deepEqual(choices[3], { range: { startLine: 10, endLine: 12 }, version: 2, text: 'z' }, 'an older choice is left alone');
  const typedInside: BlockChoices = { 1: { range: { startLine: 3, endLine: 4 }, version: 7, text: 'v' } };
  moveChoices(typedInside, [change(3, 2, 3, 2, 'zz')], 8);
  assert.deepEqual(typedInside[1], { range: { startLine: 3, endLine: 4 }, version: 8, text: 'v', touched: true });
});

test('the hover diff marks SEARCH-only lines with - and file-only lines with +', () => {
  const diff = diffLines(['a', 'b', 'c'], ['a', 'B', 'c', 'd']);
  assert.equal(renderDiff(diff), ['  a', '- b', '+ B', '  c', '+ d'].join('\n'));
});

test('identical inputs diff to context lines only', () => {
  assert.ok(diffLines(['x', 'y'], ['x', 'y']).every((l) => l.kind === ' '));
});
