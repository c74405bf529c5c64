// The MCP server's apply_edits with `code` on configuration files (issue 26): the tool call (mcpTools.ts
// callTool, what src/mcp.ts carries over stdio; the protocol itself is tested in mcpServer.test.ts) merges
// a package.json fragment and a workflow step by key, writes nothing on a dry run, and refuses an
// ambiguous key as a tool error naming both places, the file untouched.
import { after, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { callTool } from '../../src/node/mcpTools';

const ROOT = path.resolve(__dirname, '../../..');
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ra-mcp-config-')));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

// A real package.json (jsonc-parser's own) and a real GitHub workflow (reusify's CI).
const PACKAGE = fs.readFileSync(path.join(ROOT, 'node_modules/jsonc-parser/package.json'), 'utf8');
const WORKFLOW = fs.readFileSync(path.join(ROOT, 'node_modules/reusify/.github/workflows/ci.yml'), 'utf8');

function write(name: string, text: string): string {
  const file = path.join(tmp, name);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return file;
}

test('apply_edits "code" into package.json: a dry run writes nothing, the apply sets the key in place', async () => {
  const file = write('package.json', PACKAGE);
  const code = '```json package.json\n"scripts": {\n  // ... existing scripts ...\n  "lint": "eslint ."\n},\n```\n';
  const dry = await callTool('apply_edits', { filePath: 'package.json', code, dryRun: true }, [tmp]);
  assert.equal(dry.isError, false, dry.text);
  assert.match(dry.text, /^Would apply the snippet to package\.json: set scripts\.lint \(line 35\); kept 18 keys/);
  assert.equal(fs.readFileSync(file, 'utf8'), PACKAGE, 'a dry run writes nothing');
  const applied = await callTool('apply_edits', { filePath: 'package.json', code }, [tmp]);
  assert.equal(applied.isError, false, applied.text);
  assert.equal(applied.structured.status, 'applied');
  assert.equal(fs.readFileSync(file, 'utf8'), PACKAGE.replace('"eslint src/**/*.ts"', '"eslint ."'));
});

test('apply_edits "code" into a workflow: a step matched by its `uses` merged, the other steps and keys kept', async () => {
  const file = write('.github/workflows/ci.yml', WORKFLOW);
  assert.match(WORKFLOW, /uses: actions\/setup-node@v\d+\n\s+with:\n\s+node-version: \$\{\{ matrix\.node-version \}\}/);
  const code = [
    'jobs:',
    '  test:',
    '    steps:',
    '      - uses: actions/setup-node@v4',
    '        with:',
    '          node-version: ${{ matrix.node-version }}',
    "          cache: 'npm'",
  ].join('\n');
  const applied = await callTool('apply_edits', { filePath: '.github/workflows/ci.yml', code }, [tmp]);
  assert.equal(applied.isError, false, applied.text);
  const after = fs.readFileSync(file, 'utf8');
  const lines = (t: string) => t.split('\n');
  const added = lines(after).filter((l) => !lines(WORKFLOW).includes(l));
  assert.deepEqual(
    added.map((l) => l.trim()),
    ["cache: 'npm'"],
  );
  assert.equal(lines(after).length, lines(WORKFLOW).length + 1, 'one line added, none removed');
});

test('apply_edits "code" with a key that fits two objects: a tool error naming both, the file as it was', async () => {
  const text = '{\n  "server": { "timeout": 30 },\n  "client": { "timeout": 10 }\n}\n';
  const file = write('app.json', text);
  const refused = await callTool('apply_edits', { filePath: 'app.json', code: '"timeout": 60\n' }, [tmp]);
  assert.equal(refused.isError, true);
  assert.equal(refused.structured.status, 'ambiguous');
  assert.match(refused.text, /"timeout" fits 2 places: server\.timeout \(line 2\), client\.timeout \(line 3\)/);
  assert.equal(fs.readFileSync(file, 'utf8'), text);
});
