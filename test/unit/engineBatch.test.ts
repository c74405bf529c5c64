// Large batches: the line-array working text gives exactly what the one-string working text gives,
// progress is reported, cancellation applies nothing. (Speed is measured in bench/, never here.)
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyBlocks, applyBlocksAsync, runBatch } from '../../src/core/engine';
import { type ApplyOptions, type ApplyResult, type SearchReplaceBlock } from '../../src/core/types';
import { LineLedger, TextLedger } from '../../src/core/write/ledger';
import { seededRandom as rng } from '../shared/seededRandom';

function finish(run: Generator<void, ApplyResult>): ApplyResult {
  for (let step = run.next(); ; step = run.next()) {
    if (step.done) {
      return step.value;
    }
  }
}

const WORDS = ['alpha', 'beta', 'gamma', 'delta', 'value', 'count', 'x', '}', 'return x;', ''];

/** A document with repeats, CRLF/LF mix, trailing whitespace, and a batch of blocks quoting it. */
function randomCase(seed: number): { doc: string; blocks: SearchReplaceBlock[]; options: ApplyOptions } {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const n = 5 + Math.floor(r() * 60);
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const base = r() < 0.3 ? pick(WORDS) : `${pick(WORDS)} ${i % 7} ${pick(WORDS)}`;
    lines.push(r() < 0.1 ? `${base}  ` : r() < 0.1 ? `\t${base}` : base);
  }
  const eol = () => (r() < 0.2 ? '\r\n' : '\n');
  let doc = r() < 0.1 ? '\uFEFF' : '';
  for (let i = 0; i < n; i++) {
    doc += lines[i] + (i < n - 1 || r() < 0.7 ? eol() : '');
  }
  const blocks: SearchReplaceBlock[] = [];
  const count = 1 + Math.floor(r() * 20);
  let working = [...lines];
  for (let b = 0; b < count; b++) {
    const s = Math.floor(r() * working.length);
    const len = 1 + Math.floor(r() * Math.min(3, working.length - s));
    let search = working.slice(s, s + len).map((l) => (r() < 0.2 ? l.trimEnd() : l));
    if (r() < 0.05) {
      search = ['nothing like this anywhere', 'at all'];
    }
    const replace = r() < 0.15 ? '' : search.map((l) => (r() < 0.5 ? `${l} // ${b}` : l)).join('\n');
    const block: SearchReplaceBlock = { index: b + 1, sourceLine: 1, search: search.join('\n'), replace };
    if (r() < 0.2) {
      block.startLine = 1 + Math.floor(r() * n);
    }
    blocks.push(block);
    if (replace !== '' || r() < 0.5) {
      working = [...working.slice(0, s), ...replace.split('\n'), ...working.slice(s + len)];
    }
  }
  const options: ApplyOptions = r() < 0.3 ? { autoApplyNormalized: false } : {};
  return { doc, blocks, options };
}

describe('large batches', () => {
  test('the line-array working text gives the same results as the one-string text (600 random batches)', () => {
    for (let seed = 1; seed <= 600; seed++) {
      const { doc, blocks, options } = randomCase(seed);
      const small = finish(runBatch(doc, blocks, options, false));
      const large = finish(runBatch(doc, blocks, options, true));
      assert.deepEqual(large, small, `seed ${seed}`);
    }
  });

  test('10,000 one-line blocks on a 10,000-line file apply, each where it belongs', () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `  const value${i} = compute(${i});`);
    const doc = `${lines.join('\r\n')}\r\n`;
    const order = Array.from({ length: 10_000 }, (_, i) => (i * 7919) % 10_000);
    const blocks = order.map((i, b) => ({ index: b + 1, sourceLine: 1, search: lines[i], replace: `${lines[i]} // ${i}` }));
    const r = applyBlocks(doc, blocks);
    assert.equal(r.status, 'applied');
    assert.equal(r.content, `${lines.map((l, i) => `${l} // ${i}`).join('\r\n')}\r\n`);
    assert.deepEqual(r.blocks[1].range, { startLine: order[1] + 1, endLine: order[1] + 1 });
    let out = '';
    let pos = 0;
    for (const e of r.edits) {
      assert.ok(e.start >= pos);
      out += doc.slice(pos, e.start) + e.newText;
      pos = e.end;
    }
    assert.equal(out + doc.slice(pos), r.content);
  });
});

describe('progress and cancellation', () => {
  const lines = Array.from({ length: 500 }, (_, i) => `line ${i}`);
  const doc = `${lines.join('\n')}\n`;
  const blocks = lines.map((l, i) => ({ index: i + 1, sourceLine: 1, search: l, replace: `${l}!` }));

  test('onProgress: first block, about every 1%, and done === total at the end', () => {
    const calls: Array<[number, number]> = [];
    const r = applyBlocks(doc, blocks, { onProgress: (done, total) => calls.push([done, total]) });
    assert.equal(r.status, 'applied');
    assert.deepEqual(calls[0], [1, 500]);
    assert.deepEqual(calls[calls.length - 1], [500, 500]);
    assert.ok(calls.length <= 102, `${calls.length} calls`);
    for (let i = 1; i < calls.length; i++) {
      assert.ok(calls[i][0] > calls[i - 1][0]);
    }
  });

  test('isCancelled: nothing applied, a clear message, outcomes of the blocks done so far', () => {
    let asked = 0;
    const r = applyBlocks(doc, blocks, { fileName: 'big.txt', isCancelled: () => ++asked > 40 });
    assert.equal(r.status, 'invalid');
    assert.equal(r.content, undefined);
    assert.deepEqual(r.edits, []);
    assert.deepEqual(r.cancelled, { done: 40, total: 500 });
    assert.equal(r.blocks.length, 40);
    assert.ok(r.blocks.every((b) => b.status === 'held_back'));
    assert.equal(r.message, 'Cancelled after 40 of 500 blocks; nothing was applied to big.txt.');
  });

  test('applyBlocksAsync gives the same result, and can be cancelled', async () => {
    assert.deepEqual(await applyBlocksAsync(doc, blocks), applyBlocks(doc, blocks));
    let asked = 0;
    const r = await applyBlocksAsync(doc, blocks, { isCancelled: () => ++asked > 7 });
    assert.deepEqual(r.cancelled, { done: 7, total: 500 });
  });
});

describe('ledgers agree with a naive model', () => {
  test('random placements: original ranges, working ranges and text edits', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const r = rng(seed);
      const original = Array.from({ length: 30 }, (_, i) => `L${i}`);
      // Model: each working line knows the original line it came from (-1: written by a block).
      let working: Array<{ text: string; orig: number }> = original.map((text, orig) => ({ text, orig }));
      const ledger = new LineLedger();
      const text = new TextLedger(`${original.join('\n')}\n`);
      for (let b = 1; b <= 8; b++) {
        const s = Math.floor(r() * working.length);
        const e = Math.min(working.length, s + Math.floor(r() * 3));
        const newLen = Math.floor(r() * 3);
        const fresh = Array.from({ length: newLen }, (_, k) => ({ text: `b${b}.${k}`, orig: -1 }));
        const joined = (ls: typeof working) => ls.map((l) => `${l.text}\n`).join('');
        const from = joined(working.slice(0, s)).length;
        const to = from + joined(working.slice(s, e)).length;
        text.place(from, to, joined(fresh));
        ledger.place(s, e, newLen, 0, b);
        working = [...working.slice(0, s), ...fresh, ...working.slice(e)];
        // Untouched working lines map back to their own original line.
        for (let w = 0; w < working.length; w++) {
          if (working[w].orig < 0) {
            continue;
          }
          const o = ledger.toOriginal(w, w + 1);
          if (o.end - o.start === 1) {
            assert.equal(o.start, working[w].orig, `seed ${seed} block ${b} line ${w}`);
          }
          assert.ok(o.start <= working[w].orig && working[w].orig < o.end, `seed ${seed}`);
          const back = ledger.toWorking(working[w].orig, working[w].orig + 1);
          assert.ok(back.start <= w && w < back.end, `seed ${seed}`);
        }
        let out = '';
        let pos = 0;
        const base = `${original.join('\n')}\n`;
        for (const edit of text.all) {
          assert.ok(edit.start >= pos, `seed ${seed}: sorted, apart`);
          out += base.slice(pos, edit.start) + edit.newText;
          pos = edit.end;
        }
        assert.equal(out + base.slice(pos), joined(working), `seed ${seed} block ${b}`);
      }
    }
  });
});

describe('a batch of many near misses', () => {
  test('shares one fuzzy budget: later misses say they got no fuzzy search', () => {
    const lines = Array.from({ length: 10_000 }, (_, i) => `  const value${i} = compute(${i % 97}, "x${i}");`);
    const doc = lines.join('\n');
    const blocks = Array.from({ length: 150 }, (_, b) => ({
      index: b + 1,
      sourceLine: 1,
      search: `  const valu${b} = compute(${b}, "y${b}");\n  const other = ${b};`,
      replace: 'x',
    }));
    const r = applyBlocks(doc, blocks);
    assert.equal(r.status, 'not_found');
    assert.ok(r.blocks[0].candidates.length > 0);
    const last = r.blocks[149];
    assert.equal(last.truncated, true);
    assert.match(last.notes.join('\n'), /batch used up its fuzzy work budget/);
    assert.deepEqual(last.candidates, []);
  });
});

describe('found by the fuzz run', () => {
  const B = (index: number, search: string, replace: string): SearchReplaceBlock => ({ index, sourceLine: 1, search, replace });

  test('a CRLF file emptied by one block and refilled by the next stays CRLF', () => {
    const r = applyBlocks('\r\n  x += 1;\r\n  // ...', [B(1, '\n  x += 1;\n  // ...', ''), B(2, '   ', 'a\nb')]);
    assert.equal(r.status, 'applied');
    assert.equal(r.content, 'a\r\nb\r\n');
  });

  test('a line written after the end of the file was deleted is reported on the last original line', () => {
    const r = applyBlocks('## Notes 7', [B(1, 'missing', 'x'), B(2, '## Notes 7', ''), B(3, ' ', 'filled')]);
    assert.equal(r.status, 'not_found');
    assert.deepEqual(r.blocks[2].range, { startLine: 1, endLine: 1 });
  });
});
