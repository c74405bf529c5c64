// One score formatter for every surface: rounded down, so a near miss never looks better than it is.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { formatPercent, formatScore } from '../../src/core/report/score';
import { formatScore as messageScore } from '../../src/core/report/message';
import { percent } from '../../src/extension/chat/outcomeText';

test('score: 0.996 shows as 0.99 and 99% (never rounded up), only a perfect match as 1.00 and 100%', () => {
  assert.equal(formatScore(0.996), '0.99');
  assert.equal(formatPercent(0.996), '99%');
  assert.equal(formatScore(1), '1.00');
  assert.equal(formatPercent(1), '100%');
  assert.equal(formatScore(0.5), '0.50');
  assert.equal(formatPercent(0.929), '92%');
  assert.equal(formatPercent(0.29), '29%', 'a float just under 0.29 still shows 29');
  assert.equal(formatScore(-0.1), '0.00');
  assert.equal(formatPercent(0), '0%');
});

test('score: the two-decimal and the percentage forms agree for every hundredth and between them', () => {
  for (let i = 0; i <= 10_000; i++) {
    const s = i / 10_000;
    const decimals = formatScore(s);
    const pct = formatPercent(s);
    assert.equal(`${Math.round(Number(decimals) * 100)}%`, pct, `score ${s}`);
    assert.ok(Number(decimals) <= s + 1e-9, `score ${s} shown as ${decimals}, higher than it is`);
    assert.ok(s - Number(decimals) < 0.01, `score ${s} shown as ${decimals}, more than a hundredth low`);
  }
});

test('score: the message and chat use the same formatter', () => {
  assert.equal(messageScore, formatScore);
  assert.equal(percent, formatPercent);
});
