// Planning a batch over several files (core/batch/plan.ts): which block goes where, whether a missing file can
// be created, and whether a batch is committed, waits for a choice or is refused, with the message for it.
// The parts are matched by the real engine on plain text.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  alreadyAppliedSummary,
  blockWord,
  describeUnapplied,
  groupByTarget,
  isChoosable,
  isReady,
  judgePlan,
  placements,
  planMissingFile,
  unresolved,
  type BlockTarget,
  type Plan,
  type PlannedPart,
} from '../../src/core/batch/plan';
import { matchWithChoices, type BlockChoices } from '../../src/core/batch/rematch';
import type { SearchReplaceBlock } from '../../src/core/types';

function block(index: number, search: string, replace: string, filePath?: string): SearchReplaceBlock {
  return { index, sourceLine: 1, search, replace, ...(filePath !== undefined ? { filePath } : {}) };
}

function part(label: string, text: string, blocks: SearchReplaceBlock[], choices: BlockChoices = {}): PlannedPart {
  return { label, text, blocks, choices, result: matchWithChoices(text, blocks, choices, { fileName: label }) };
}

function plan(parts: PlannedPart[], problems: string[] = []): Plan {
  return { parts, newFiles: [], problems, blockCount: parts.reduce((n, p) => n + p.blocks.length, 0) };
}

const CART = 'const items = [];\nfunction add(item) {\n  items.push(item);\n}\nexport { add };\n';
const UTIL = 'export function double(x) {\n  return x * 2;\n}\n';

describe('which block goes where', () => {
  test('blocks are grouped per document and per missing file in first-seen order; refused ones are problems', () => {
    type Doc = { name: string };
    const cart: Doc = { name: 'cart' };
    const util: Doc = { name: 'util' };
    const bs = [block(1, 'a', 'b'), block(2, 'c', 'd'), block(3, 'e', 'f'), block(4, '', 'new'), block(5, 'g', 'h')];
    const targets: BlockTarget<Doc, string>[] = [
      { kind: 'document', key: 'file:///cart.ts', document: cart, label: 'cart.ts' },
      { kind: 'document', key: 'file:///util.ts', document: util, label: 'util.ts' },
      { kind: 'document', key: 'file:///cart.ts', document: cart, label: 'cart.ts' },
      { kind: 'missing', filePath: 'src/new.ts', uri: 'file:///src/new.ts' },
      { kind: 'refused', message: 'docs/x.pdf is read-only (git:), so nothing was applied to it.' },
    ];
    const grouped = groupByTarget(bs, targets);
    assert.deepEqual(
      grouped.documents.map((g) => [g.label, g.document.name, g.blocks.map((b) => b.index)]),
      [
        ['cart.ts', 'cart', [1, 3]],
        ['util.ts', 'util', [2]],
      ],
    );
    assert.deepEqual(
      grouped.missing.map((g) => [g.filePath, g.uri, g.blocks.map((b) => b.index)]),
      [['src/new.ts', 'file:///src/new.ts', [4]]],
    );
    assert.deepEqual(grouped.problems, ['Block 5: docs/x.pdf is read-only (git:), so nothing was applied to it.']);
  });
});

describe('a file that does not exist', () => {
  test('is created by blocks with an empty SEARCH', () => {
    const planned = planMissingFile('src/new.ts', [block(1, '', 'export const a = 1;')], true);
    assert.equal(planned.problem, undefined);
    assert.equal(planned.result?.status, 'applied');
    assert.equal(planned.result?.content, 'export const a = 1;\n');
  });

  test('is a problem naming the blocks that quote text from it', () => {
    const planned = planMissingFile('src/new.ts', [block(2, 'old', 'new'), block(3, 'more', 'x')], true);
    assert.equal(
      planned.problem,
      'Block 2, 3: src/new.ts does not exist in the workspace (a block with an empty SEARCH section would create it).',
    );
  });

  test('is a problem when there is no workspace folder to create it in', () => {
    const planned = planMissingFile('new.ts', [block(1, '', 'x')], false);
    assert.equal(planned.problem, 'Block 1: new.ts does not exist in the workspace and there is no workspace folder to create it in.');
  });

  test('is a problem when its blocks cannot build it (a later block quotes text the first did not write)', () => {
    const planned = planMissingFile('new.ts', [block(1, '', 'alpha\n'), block(2, 'beta', 'gamma')], true);
    assert.match(planned.problem ?? '', /^new\.ts does not exist and its blocks cannot create it: /);
  });
});

describe('what happens to a batch', () => {
  test('every block placed in every file: ready, committed as it is', () => {
    const p = plan([
      part('cart.ts', CART, [block(1, '  items.push(item);', '  items.push({ ...item });')]),
      part('util.ts', UTIL, [block(2, '  return x * 2;', '  return x + x;')]),
    ]);
    assert.ok(isReady(p));
    assert.deepEqual(judgePlan(p), { kind: 'ready' });
    assert.deepEqual(placements(p), ['exact', 'exact']);
  });

  test('a batch with a failing block applies nothing: refused with the engine message, no edits anywhere', () => {
    const cart = part('cart.ts', CART, [
      block(1, '  items.push(item);', '  items.push({ ...item });'),
      block(2, 'import { zebra } from "./zoo";\nzebra.walk();', 'x'),
    ]);
    const p = plan([cart, part('util.ts', UTIL, [block(3, '  return x * 2;', '  return x + x;')])]);
    assert.equal(cart.result.status, 'not_found');
    assert.deepEqual(cart.result.edits, []);
    assert.equal(isReady(p), false);
    assert.equal(isChoosable(p), false, 'a miss without candidates cannot wait for a choice');
    const verdict = judgePlan(p);
    assert.equal(verdict.kind, 'refused');
    assert.equal(verdict.kind === 'refused' && verdict.summary, cart.result.message);
    assert.deepEqual(
      unresolved(p).map(({ part: q, outcome }) => [q.label, outcome.index, outcome.status]),
      [['cart.ts', 2, 'not_found']],
    );
  });

  test('an ambiguous block waits for a choice; the placed blocks wait with it', () => {
    const text = 'a = 1;\nb = 2;\na = 1;\n';
    const p = plan([part('x.ts', text, [block(1, 'a = 1;', 'a = 3;'), block(2, 'b = 2;', 'b = 4;')])]);
    assert.ok(isChoosable(p));
    assert.deepEqual(judgePlan(p), {
      kind: 'choose',
      summary: 'Block 1 matches 2 places in x.ts (lines 1-1, 3-3); nothing was applied until you choose one.',
    });
    assert.deepEqual(
      p.parts[0].result.blocks.map((b) => b.status),
      ['ambiguous', 'held_back'],
    );
  });

  test('once chosen, the block counts as chosen in the applied summary', () => {
    const text = 'a = 1;\nb = 2;\na = 1;\n';
    const chosen = { 1: { range: { startLine: 3, endLine: 3 }, version: 1, text: 'a = 1;' } };
    const p = plan([part('x.ts', text, [block(1, 'a = 1;', 'a = 3;'), block(2, 'b = 2;', 'b = 4;')], chosen)]);
    assert.ok(isReady(p));
    assert.equal(p.parts[0].result.content, 'a = 1;\nb = 4;\na = 3;\n');
    assert.deepEqual(placements(p), ['chosen', 'exact']);
  });

  test('a near miss names its best candidate and waits', () => {
    const p = plan([
      part('cart.ts', CART, [block(1, 'function add(item) {\n  items.push(itm);\n}', 'function add(item) {\n  items.unshift(item);\n}')]),
    ]);
    const verdict = judgePlan(p);
    assert.equal(verdict.kind, 'choose');
    assert.match(
      describeUnapplied(p),
      /^Block 1 has no exact match in cart\.ts; best candidate \d+% at lines 2-4\. Nothing was applied until you choose\.$/,
    );
  });

  test('blocks whose REPLACE is already in the file: already applied, nothing pending', () => {
    const p = plan([part('util.ts', UTIL, [block(1, '  return x + x;', '  return x * 2;')])]);
    const verdict = judgePlan(p);
    assert.equal(verdict.kind, 'already-applied');
    if (verdict.kind === 'already-applied') {
      assert.deepEqual(
        verdict.places.map((q) => [q.part.label, q.block, q.range]),
        [['util.ts', 1, { startLine: 2, endLine: 2 }]],
      );
      assert.equal(
        verdict.summary,
        "Already applied at line 2 of util.ts: the file already holds the block's REPLACE text. Nothing was changed.",
      );
    }
  });

  test('problems refuse the batch before anything else is looked at', () => {
    const p = plan(
      [part('util.ts', UTIL, [block(1, '  return x * 2;', '  return x + x;')])],
      ['Block 2: gone.ts does not exist in the workspace.'],
    );
    assert.equal(isReady(p), false);
    assert.equal(isChoosable(p), false);
    assert.deepEqual(judgePlan(p), { kind: 'problems', summary: 'Nothing was applied. Block 2: gone.ts does not exist in the workspace.' });
  });
});

describe('wording', () => {
  test('already applied over several blocks names each place', () => {
    assert.equal(
      alreadyAppliedSummary([
        { label: 'a.ts', block: 1, range: { startLine: 4, endLine: 6 } },
        { label: 'b.ts', block: 3, range: { startLine: 2, endLine: 2 } },
      ]),
      'Already applied: block 1 at lines 4-6 of a.ts; block 3 at line 2 of b.ts. Nothing was changed.',
    );
    assert.equal(blockWord(1), '1 block');
    assert.equal(blockWord(3), '3 blocks');
  });
});
