import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { TIERS } from '../../src/core/types';

test('tiers are ordered exact first, fuzzy last', () => {
  assert.equal(TIERS[0], 'exact');
  assert.equal(TIERS[TIERS.length - 1], 'fuzzy');
});
