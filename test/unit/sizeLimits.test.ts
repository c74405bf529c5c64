// No source file in src/ over 800 lines and no function over 100 (eslint.config.mjs, issue 18). These
// tests lint generated texts at a real path of src/ and check that one line past either limit is an
// error and the limit itself is not, so a rule that stops applying to src/ fails here.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');

async function sizeErrors(file: string, text: string): Promise<string[]> {
  const { ESLint } = await import('eslint');
  const eslint = new ESLint({ cwd: ROOT });
  const [result] = await eslint.lintText(text, { filePath: path.join(ROOT, file) });
  return result.messages.filter((m) => m.ruleId === 'max-lines' || m.ruleId === 'max-lines-per-function').map((m) => m.ruleId ?? '');
}

/** A function of exactly `lines` lines, its body blank lines and comments (which count). */
function functionOf(lines: number): string {
  const body: string[] = [];
  for (let i = 0; i < lines - 3; i++) {
    body.push(i % 2 === 0 ? '  // a comment line' : '');
  }
  return ['export function f(): number {', ...body, '  return 1;', '}', ''].join('\n');
}

test('a function of 101 lines in src/ is a lint error, one of 100 is not', async () => {
  assert.deepEqual(await sizeErrors('src/core/write/transform.ts', functionOf(100)), []);
  assert.deepEqual(await sizeErrors('src/core/write/transform.ts', functionOf(101)), ['max-lines-per-function']);
  assert.deepEqual(await sizeErrors('src/node/args.ts', functionOf(101)), ['max-lines-per-function']);
});

test('a file of 801 lines in src/ is a lint error, one of 800 is not', async () => {
  const fileOf = (lines: number) => Array.from({ length: lines }, (_, i) => `export const c${i} = ${i};`).join('\n') + '\n';
  assert.deepEqual(await sizeErrors('src/core/formats/patchParser.ts', fileOf(800)), []);
  assert.deepEqual(await sizeErrors('src/core/formats/patchParser.ts', fileOf(801)), ['max-lines']);
});
