// The import boundaries of the architecture are lint rules (eslint.config.mjs): inside src/core the folders
// depend in the order of the data path (formats -> match -> decide -> write -> report -> engine -> batch),
// and outside core everything goes through core's public surface, src/core/index.ts. These tests lint
// violating texts at real paths and check that each is an error, so a rule that stops matching fails here,
// and check that every folder of core is one the rules know.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

interface LintMessage {
  ruleId: string | null;
  message: string;
}

async function lintAt(file: string, text: string): Promise<LintMessage[]> {
  const { ESLint } = await import('eslint');
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(text, { filePath: path.join(ROOT, file) });
  return result.messages.map((m) => ({ ruleId: m.ruleId, message: m.message }));
}

async function restricted(file: string, specifier: string): Promise<string[]> {
  const messages = await lintAt(file, `import { x } from '${specifier}';\nexport const y = x;\n`);
  return messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

test('every folder of src/core is a layer the lint rules order', () => {
  // Read from the config's text: this CommonJS test cannot import an ES module file.
  const configText = fs.readFileSync(path.join(ROOT, 'eslint.config.mjs'), 'utf8');
  const listed = /export const CORE_LAYERS = \[([^\]]*)\]/.exec(configText);
  assert.ok(listed, 'eslint.config.mjs exports CORE_LAYERS');
  const layers = [...listed[1].matchAll(/'(\w+)'/g)].map((m) => m[1]);
  const folders = fs
    .readdirSync(path.join(ROOT, 'src/core'), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  assert.deepEqual(folders, [...layers].sort());
});

test('a folder of core importing a later folder, the engine or the public surface is a lint error', async () => {
  const violations: Array<[string, string]> = [
    ['src/core/formats/parser.ts', '../decide/outcome'],
    ['src/core/formats/parser.ts', '../match/tiers'],
    ['src/core/match/tiers.ts', '../report/message'],
    ['src/core/match/tiers.ts', '../engine'],
    ['src/core/decide/outcome.ts', '../write/transform'],
    ['src/core/write/transform.ts', '../report/score'],
    ['src/core/report/message.ts', '../batch/plan'],
    ['src/core/report/message.ts', '..'],
    ['src/core/decide/outcome.ts', '../index'],
  ];
  for (const [file, specifier] of violations) {
    const messages = await restricted(file, specifier);
    assert.equal(messages.length, 1, `${file} importing ${specifier} should be refused, got ${JSON.stringify(messages)}`);
  }
});

test('earlier folders, the top-level types and settings are allowed', async () => {
  const allowed: Array<[string, string]> = [
    ['src/core/report/message.ts', '../decide/outcome'],
    ['src/core/write/transform.ts', '../match/indent'],
    ['src/core/decide/outcome.ts', '../types'],
    ['src/core/formats/parser.ts', '../settings'],
    ['src/core/batch/plan.ts', '../engine'],
    ['src/core/engine.ts', './batch/plan'],
  ];
  for (const [file, specifier] of allowed) {
    assert.deepEqual(await restricted(file, specifier), [], `${file} importing ${specifier}`);
  }
});

test('outside core, only the public surface may be imported', async () => {
  assert.equal((await restricted('src/extension/feedback.ts', '../core/match/tierTable')).length, 1);
  assert.equal((await restricted('src/node/output.ts', '../core/types')).length, 1);
  assert.equal((await restricted('src/cli.ts', './core/engine')).length, 1);
  assert.deepEqual(await restricted('src/extension/feedback.ts', '../core'), []);
  assert.deepEqual(await restricted('src/cli.ts', './core'), []);
});

test('core imports no adapter, no vscode and no Node built-in', async () => {
  assert.equal((await restricted('src/core/engine.ts', '../extension/log')).length, 1);
  assert.equal((await restricted('src/core/match/tiers.ts', 'vscode')).length, 1);
  assert.equal((await restricted('src/core/write/merge.ts', 'node:fs')).length, 1);
});
