// Comments inside added keys for YAML and TOML (issue 26, as JSONC does in configJsonComments.test.ts): a
// key or table the snippet adds brings the `#` comment lines right above it (no blank line between) into
// the file, at the column of its siblings and in the file's line endings; a placeholder comment
// (`# ... existing ...`) is never written and ends the run. On real files: fast-uri's CI workflow (from
// node_modules) and the Cargo.toml of rust-lang/log (commit 037d7a58, test/fixtures/config/log-Cargo.toml).
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mergeToml } from '../../src/core/config/toml';
import { mergeYaml } from '../../src/core/config/yaml';
import type { ConfigMergeResult } from '../../src/core/config/types';

const ROOT = path.resolve(__dirname, '../../..');
const WORKFLOW = fs.readFileSync(path.join(ROOT, 'node_modules/fast-uri/.github/workflows/ci.yml'), 'utf8');
const CARGO = fs.readFileSync(path.join(ROOT, 'test/fixtures/config/log-Cargo.toml'), 'utf8');

function merged(result: ConfigMergeResult): Extract<ConfigMergeResult, { kind: 'merged' }> {
  assert.equal(result.kind, 'merged', result.kind === 'refused' ? result.message : '');
  return result as Extract<ConfigMergeResult, { kind: 'merged' }>;
}

/** The text with `lines` inserted after the first line equal to `after` (LF lines). */
function insertedAfter(text: string, after: string, lines: string[]): string {
  const all = text.split('\n');
  const at = all.indexOf(after);
  assert.ok(at >= 0, `no line ${JSON.stringify(after)}`);
  all.splice(at + 1, 0, ...lines);
  return all.join('\n');
}

const PERMISSIONS = ['permissions:', '  # ... existing permissions ...', '  # the bot comments on pull requests', '  pull-requests: write'];

test('YAML: a new key brings the comment line above it, at its siblings column; the placeholder is not written', () => {
  const result = merged(mergeYaml(WORKFLOW, PERMISSIONS.join('\n')));
  assert.equal(
    result.text,
    insertedAfter(WORKFLOW, '  contents: read', ['  # the bot comments on pull requests', '  pull-requests: write']),
  );
  const added = result.changes.find((c) => c.action === 'added');
  assert.deepEqual(added?.path, ['permissions', 'pull-requests']);
  assert.equal(result.text.split('\n')[added!.line - 1], '  pull-requests: write', 'the reported line is the key, not its comment');
});

test('YAML with CRLF line endings: the comment line is written with CRLF', () => {
  const crlf = WORKFLOW.replace(/\n/g, '\r\n');
  const result = merged(mergeYaml(crlf, PERMISSIONS.join('\n')));
  assert.equal(
    result.text,
    insertedAfter(WORKFLOW, '  contents: read', ['  # the bot comments on pull requests', '  pull-requests: write']).replace(/\n/g, '\r\n'),
  );
});

test("YAML: a comment separated from the key by a blank line stays behind (it is not the key's)", () => {
  const snippet = ['permissions:', '  # a note about the section', '', '  pull-requests: write'].join('\n');
  const result = merged(mergeYaml(WORKFLOW, snippet));
  assert.equal(result.text, insertedAfter(WORKFLOW, '  contents: read', ['  pull-requests: write']));
});

test('TOML: a new key after the key before it in the snippet brings its comment lines; the placeholder stays out', () => {
  const snippet = [
    '[features]',
    '# ... existing features ...',
    'kv_serde = ["kv_std", "value-bag/serde", "serde"]',
    '# Deprecated: use `kv_sval` instead',
    'kv_unstable_sval_ref = ["kv_sval"]',
  ].join('\n');
  const result = merged(mergeToml(CARGO, snippet));
  assert.equal(
    result.text,
    insertedAfter(CARGO, 'kv_serde = ["kv_std", "value-bag/serde", "serde"]', [
      '# Deprecated: use `kv_sval` instead',
      'kv_unstable_sval_ref = ["kv_sval"]',
    ]),
  );
  const added = result.changes.find((c) => c.action === 'added');
  assert.equal(result.text.split('\n')[added!.line - 1], 'kv_unstable_sval_ref = ["kv_sval"]');
});

test('TOML: a new key in a sorted table goes to its sorted place with its comment', () => {
  const snippet = ['[dependencies]', '# JSON values for the kv API', 'serde_json = { version = "1.0", optional = true }'].join('\n');
  const result = merged(mergeToml(CARGO, snippet));
  assert.equal(
    result.text,
    insertedAfter(CARGO, 'serde_core = { version = "1.0", optional = true, default-features = false }', [
      '# JSON values for the kv API',
      'serde_json = { version = "1.0", optional = true }',
    ]),
  );
});

test('TOML: a new table brings the comments above its header and above each of its keys', () => {
  const snippet = [
    '# Benchmarks need the std feature.',
    '[[bench]]',
    'name = "value"',
    '# the standard harness cannot run them',
    'harness = false',
  ].join('\n');
  const result = merged(mergeToml(CARGO, snippet));
  assert.equal(
    result.text,
    `${CARGO}\n# Benchmarks need the std feature.\n[[bench]]\nname = "value"\n# the standard harness cannot run them\nharness = false\n`,
  );
  const lines = result.text.split('\n');
  const added = result.changes.filter((c) => c.action === 'added').map((c) => lines[c.line - 1]);
  assert.deepEqual(added, ['name = "value"', 'harness = false'], 'each added key is reported at its own line');
});
