// Fast slice of the code-block property (test/property/snippets.ts; the long run is
// `npm run test:snippets -- --cases N --seed S`): real edits of real files, rendered as code blocks in
// random shapes, are reproduced exactly or refused; nothing unshown is removed, no placeholder is written.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { runSnippetProperty } from '../property/snippets';

test('code blocks made from real edits apply as the edit or are refused (120 seeded cases)', async () => {
  const summary = await runSnippetProperty({ cases: 120, seed: 7 });
  assert.deepEqual(summary.failures, []);
  // The property must check something: most cases apply.
  assert.ok(summary.applied >= 40, `only ${summary.applied} of ${summary.cases} cases applied`);
  for (const shape of ['declaration', 'placeholders', 'whole']) {
    assert.ok((summary.byShape[shape] ?? 0) > 12, `too few ${shape} cases: ${JSON.stringify(summary.byShape)}`);
  }
});
