// `resilient-apply apply FILE --snippet SNIPPET` on configuration files (issue 26): a package.json fragment
// is merged by key (not placed as lines), --json prints one object, an ambiguous key exits 2 with the
// file untouched. Spawns the compiled out/src/cli.js on temp files.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runSync as run, workspace } from './cliHarness';

const PACKAGE = fs.readFileSync(path.resolve(__dirname, '../../../node_modules/jsonc-parser/package.json'), 'utf8');

test('a package.json fragment in a fenced block: set in place, the rest byte for byte', () => {
  const dir = workspace({
    'package.json': PACKAGE,
    'answer.md': '```json\n"scripts": {\n  "lint": "eslint ."\n},\n```\n',
  });
  const r = run(dir, ['apply', 'package.json', '--snippet', 'answer.md']);
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^Applied the snippet to package\.json: set scripts\.lint \(line 35\); kept 18 keys the snippet did not show/);
  assert.equal(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'), PACKAGE.replace('"eslint src/**/*.ts"', '"eslint ."'));
  const again = run(dir, ['apply', 'package.json', '--snippet', 'answer.md', '--json']);
  const parsed = JSON.parse(again.stdout) as { status: string; message: string };
  assert.equal(parsed.status, 'not_found');
  assert.match(parsed.message, /already holds every key the snippet shows/);
});

test('an ambiguous key exits 2, names the places and leaves the file as it was', () => {
  const file = '{\n  "server": { "timeout": 30 },\n  "client": { "timeout": 10 }\n}\n';
  const dir = workspace({ 'app.json': file, 'snippet.json': '"timeout": 60\n' });
  const r = run(dir, ['apply', 'app.json', '--snippet', 'snippet.json']);
  assert.equal(r.code, 2);
  assert.match(r.stdout + r.stderr, /"timeout" fits 2 places: server\.timeout \(line 2\), client\.timeout \(line 3\)/);
  assert.equal(fs.readFileSync(path.join(dir, 'app.json'), 'utf8'), file);
});
