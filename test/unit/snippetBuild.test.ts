// The files plain code blocks are read with: esbuild.mjs copies exactly the runtime and grammars core
// names (SHIPPED_GRAMMAR_FILES) into dist/grammars/, and the CLI's loader reads them from a folder.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { SHIPPED_GRAMMAR_FILES } from '../../src/core';
import { grammarFiles } from '../../src/node/grammarFiles';
import { grammarPath } from '../shared/grammars';

const ROOT = path.resolve(__dirname, '..', '..', '..');

test('esbuild.mjs copies the runtime and grammars core expects, and each is installed', () => {
  const build = fs.readFileSync(path.join(ROOT, 'esbuild.mjs'), 'utf8');
  const copied = [...build.matchAll(/^ {2}'(tree-sitter[\w-]*\.wasm)',$/gm)].map((m) => m[1]);
  assert.deepEqual([...copied].sort(), [...SHIPPED_GRAMMAR_FILES].sort());
  for (const file of SHIPPED_GRAMMAR_FILES) {
    assert.ok(fs.existsSync(grammarPath(file)), `${file} is not installed`);
  }
});

test('the CLI loader reads a grammar from its folder, answers undefined for a missing one and never leaves the folder', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-grammars-'));
  try {
    fs.writeFileSync(path.join(dir, 'tree-sitter-go.wasm'), Buffer.from([0, 97, 115, 109]));
    fs.writeFileSync(path.join(path.dirname(dir), 'outside.wasm'), 'x');
    const source = grammarFiles(dir);
    assert.deepEqual([...((await source.load('tree-sitter-go.wasm')) ?? [])], [0, 97, 115, 109]);
    assert.equal(await source.load('tree-sitter-rust.wasm'), undefined);
    assert.equal(await source.load('../outside.wasm'), undefined);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
    fs.rmSync(path.join(path.dirname(dir), 'outside.wasm'), { force: true });
  }
});
