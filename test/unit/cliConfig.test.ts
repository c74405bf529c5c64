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

const FIXTURES = path.resolve(__dirname, '../../../test/fixtures/config');
const fixture = (name: string) => fs.readFileSync(path.join(FIXTURES, name), 'utf8');

test('YAML, TOML and .env code blocks through --snippet: merged by key, every other line as it was', () => {
  const cases = [
    {
      file: 'compose.yaml',
      text: fixture('compose.yaml'),
      answer: '```yaml\nservices:\n  web:\n    image: nginx:1.27\n```\n',
      message: /^Applied the snippet to compose\.yaml: set services\.web\.image \(line 5\); kept 6 keys/,
      // The file's quote style is kept on the line written.
      after: (t: string) => t.replace("image: 'registry.example.com/shop/web:1.4.2'", "image: 'nginx:1.27'"),
    },
    {
      file: 'Cargo.toml',
      text: fixture('Cargo.toml'),
      answer: '```toml\n[dependencies]\nclap = { version = "4.5", features = ["derive"] }\nserde_json = "1.0"\n```\n',
      message: /^Applied the snippet to Cargo\.toml: added dependencies\.serde_json \(line 17\)/,
      // Sorted dependencies stay sorted: after serde, not after clap.
      after: (t: string) => t.replace('serde = { version = "1.0", features = ["derive"] }\n', '$&serde_json = "1.0"\n'),
    },
    {
      file: '.env',
      text: fixture('app.env'),
      answer: '```bash\nPORT=8080\nREDIS_URL=redis://localhost:6379\n```\n',
      message: /^Applied the snippet to \.env: set PORT \(line 3\), added REDIS_URL \(line 4\); kept 4 keys/,
      after: (t: string) => t.replace('PORT=3000\n', 'PORT=8080\nREDIS_URL=redis://localhost:6379\n'),
    },
  ];
  for (const c of cases) {
    const dir = workspace({ [c.file]: c.text, 'answer.md': c.answer });
    const r = run(dir, ['apply', c.file, '--snippet', 'answer.md']);
    assert.equal(r.code, 0, `${c.file}: ${r.stdout}${r.stderr}`);
    assert.match(r.stdout, c.message);
    const expected = c.after(c.text);
    assert.notEqual(expected, c.text, `${c.file}: the expected text changes`);
    assert.equal(fs.readFileSync(path.join(dir, c.file), 'utf8'), expected, c.file);
  }
});
