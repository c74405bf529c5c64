// The tier table is the one description of the tiers: every entry is used by the matcher (or the
// engine's fuzzy step), has its words, and the flags are cumulative like the tiers themselves.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applyBlocks } from '../../src/core/engine';
import { formatMessage } from '../../src/core/report/message';
import { DocLines } from '../../src/core/match/lines';
import { Matcher, prepareSearch } from '../../src/core/match/tiers';
import { INVISIBLE_TIERS, LINE_TIERS, type Tier, TIER_TABLE, tierInfo, tierPhrase, TIERS } from '../../src/core/match/tierTable';
import { outcomeLine } from '../../src/extension/chat/outcomeText';

/**
 * One example per tier: a document and a SEARCH that this tier matches and every stricter tier misses.
 * A new tier needs its example here (the Record makes that a compile error until it has one).
 */
const EXAMPLES: Record<Tier, { doc: string; search: string; replace: string }> = {
  exact: { doc: 'a\nbeta\nc\n', search: 'beta', replace: 'BETA' },
  'line-endings': { doc: 'a\r\nbeta\r\ngamma\r\n', search: 'beta\ngamma', replace: 'beta\nGAMMA' },
  'trailing-whitespace': { doc: 'a\nbeta  \ngamma\n', search: 'beta\ngamma', replace: 'beta\nGAMMA' },
  indentation: { doc: 'if (x) {\n\tcall(1);\n}\n', search: 'if (x) {\n    call(1);\n}', replace: 'if (x) {\n    call(2);\n}' },
  quotes: { doc: 'say("hi");\n', search: "say('hi');", replace: "say('bye');" },
  unicode: { doc: 'a \u2014 b\n', search: 'a - b', replace: 'a - c' },
  'line-numbers': { doc: 'alpha\nbeta\n', search: '     1\talpha\n     2\tbeta', replace: '     1\talpha\n     2\tBETA' },
  'sanitized-tags': { doc: '<error>disk full</error>\n', search: '<e>disk full</e>', replace: '<e>disk full (retry)</e>' },
  whitespace: { doc: 'call( a,  b );\n', search: 'call(a, b);', replace: 'call(a, c);' },
  fuzzy: {
    doc: 'function total(items) {\n  let sum = 0;\n  for (const x of items) sum += x.price;\n  return sum;\n}\n',
    search: 'function total(items) {\n  let sum = 0;\n  for (const x of items) sum += x.cost;\n  return sum;\n}',
    replace: 'function total(items) {\n  return items.reduce((s, x) => s + x.price, 0);\n}',
  },
};

describe('tier table', () => {
  test('TIERS is the table order: exact first, fuzzy last, each name once', () => {
    assert.deepEqual(
      TIERS,
      TIER_TABLE.map((e) => e.name),
    );
    assert.equal(new Set(TIERS).size, TIERS.length);
    assert.equal(tierInfo(TIERS[0]).kind, 'exact');
    assert.equal(tierInfo(TIERS[TIERS.length - 1]).kind, 'fuzzy');
    assert.deepEqual(
      LINE_TIERS,
      TIERS.filter((t) => tierInfo(t).kind !== 'fuzzy'),
    );
  });

  test('every tier has its words: a phrase for users, what it forgives for the message, all distinct', () => {
    for (const tier of TIERS) {
      const { phrase, forgives } = tierInfo(tier);
      assert.ok(phrase.trim().length > 0 && forgives.trim().length > 0, tier);
      assert.equal(tierPhrase(tier), phrase);
    }
    assert.equal(new Set(TIERS.map(tierPhrase)).size, TIERS.length, 'two tiers share a phrase');
    assert.equal(new Set(TIERS.map((t) => tierInfo(t).forgives)).size, TIERS.length, 'two tiers share a description');
  });

  test('every normalising tier reads lines by key; exact and fuzzy do not', () => {
    for (const tier of TIERS) {
      const info = tierInfo(tier);
      assert.equal(info.reading !== undefined, info.kind === 'normalising', tier);
    }
  });

  test('flags are cumulative: once a line tier forgives something, every later line tier does too', () => {
    const flags = ['foldsUnicode', 'stripsLineNumbers', 'restoresTags', 'relatesIndentation'] as const;
    for (const flag of flags) {
      let seen = false;
      for (const tier of LINE_TIERS) {
        const on = tierInfo(tier)[flag];
        assert.ok(on || !seen, `${flag} is on before ${tier} but off at it`);
        seen ||= on;
      }
    }
    // Invisible tiers come right after exact: a looser tier cannot be invisible once a visible one came.
    assert.deepEqual(INVISIBLE_TIERS, LINE_TIERS.slice(0, INVISIBLE_TIERS.length));
  });

  for (const tier of LINE_TIERS) {
    test(`the matcher uses the ${tier} tier: its example matches there and at no stricter tier`, () => {
      const { doc, search } = EXAMPLES[tier];
      const matcher = new Matcher(new DocLines(doc), prepareSearch(search));
      const found = matcher.findFirst();
      assert.equal(found?.tier, tier);
      for (const stricter of LINE_TIERS.slice(0, tierInfo(tier).rank)) {
        assert.equal(new Matcher(new DocLines(doc), prepareSearch(search)).find(stricter).length, 0, `${stricter} found it too`);
      }
    });
  }

  for (const tier of TIERS) {
    test(`the ${tier} tier's words reach the user and the model`, () => {
      const { doc, search, replace } = EXAMPLES[tier];
      const r = applyBlocks(doc, [{ index: 1, sourceLine: 1, search, replace }], tier === 'fuzzy' ? { autoApplyAbove: 0.5 } : {});
      assert.equal(r.status, 'applied', r.message);
      assert.equal(r.blocks[0].tier, tier);
      assert.ok(outcomeLine(r.blocks[0]).includes(tierPhrase(tier)), outcomeLine(r.blocks[0]));
      // Without the engine's notes, the message falls back on the table's words.
      const bare = formatMessage({ fileName: 'f', status: 'applied', blocks: [{ ...r.blocks[0], notes: [] }] });
      const info = tierInfo(tier);
      const expected = info.kind === 'exact' ? 'Applied 1 block to f at' : info.kind === 'fuzzy' ? 'placed by fuzzy match' : info.forgives;
      assert.ok(bare.includes(expected), bare);
    });
  }
});
