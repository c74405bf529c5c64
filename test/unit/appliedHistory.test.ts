// The undo/redo bookkeeping of pending batches (core/decide/appliedHistory.ts): a batch applied from a choice
// comes back as pending once an undo took every one of its documents back, and leaves again on redo.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { AppliedHistory, type AppliedBatch } from '../../src/core/decide/appliedHistory';

function batch(source: string, ...docs: [uri: string, before: string, after: string][]): AppliedBatch {
  return {
    source,
    documents: docs.map(([uri, before, after]) => ({ uri, label: uri, blocks: [], before, after })),
  };
}

/** Open documents and their current text. */
function texts(entries: Record<string, string>): (uri: string) => string | undefined {
  return (uri) => entries[uri];
}

describe('undo', () => {
  test('brings a batch back once its document is back to the text from before the apply, and only once', () => {
    const history = new AppliedHistory();
    const applied = batch('codelens', ['a', 'a0', 'a1']);
    history.remember(applied);
    assert.equal(history.takeUndone('a', texts({ a: 'a1 edited' })), undefined, 'not an undo of the apply');
    assert.equal(history.takeUndone('a', texts({ a: 'a0' })), applied);
    assert.equal(history.takeUndone('a', texts({ a: 'a0' })), undefined, 'taken: it is pending now');
  });

  test('a multi-file batch comes back only when every document is back (and open)', () => {
    const history = new AppliedHistory();
    const applied = batch('paste', ['a', 'a0', 'a1'], ['b', 'b0', 'b1']);
    history.remember(applied);
    assert.equal(history.takeUndone('a', texts({ a: 'a0', b: 'b1' })), undefined);
    assert.equal(history.takeUndone('a', texts({ a: 'a0' })), undefined, 'b is closed');
    assert.equal(history.takeUndone('b', texts({ a: 'a0', b: 'b0' })), applied);
  });

  test('does not even read the text of a document no remembered batch touched', () => {
    const history = new AppliedHistory();
    history.remember(batch('paste', ['a', 'a0', 'a1']));
    let reads = 0;
    assert.equal(
      history.takeUndone('other', () => {
        reads++;
        return 'a0';
      }),
      undefined,
    );
    assert.equal(reads, 0);
  });

  test('keeps only the last batches', () => {
    const history = new AppliedHistory(2);
    const first = batch('paste', ['a', 'v0', 'v1']);
    history.remember(first);
    history.remember(batch('paste', ['a', 'v1', 'v2']));
    history.remember(batch('paste', ['a', 'v2', 'v3']));
    assert.equal(history.takeUndone('a', texts({ a: 'v0' })), undefined, 'the oldest is forgotten');
    assert.notEqual(history.takeUndone('a', texts({ a: 'v1' })), undefined);
  });
});

describe('redo', () => {
  test('a redo of an undone batch takes its pending id back and lets a later undo restore it again', () => {
    const history = new AppliedHistory();
    const applied = batch('codelens', ['a', 'a0', 'a1']);
    history.remember(applied);
    const undone = history.takeUndone('a', texts({ a: 'a0' }));
    assert.equal(undone, applied);
    history.markPending('b7', applied);
    assert.deepEqual(history.takeRedone('a', 'something else'), []);
    assert.deepEqual(history.takeRedone('a', 'a1'), ['b7']);
    assert.deepEqual(history.takeRedone('a', 'a1'), [], 'only once');
    assert.equal(history.takeUndone('a', texts({ a: 'a0' })), applied, 'applied again: undoable again');
  });

  test('an undone batch that was applied or dismissed meanwhile is forgotten', () => {
    const history = new AppliedHistory();
    const applied = batch('codelens', ['a', 'a0', 'a1']);
    history.remember(applied);
    history.takeUndone('a', texts({ a: 'a0' }));
    history.markPending('b7', applied);
    history.forgetUndone((id) => id !== 'b7');
    assert.deepEqual(history.takeRedone('a', 'a1'), []);
  });
});
