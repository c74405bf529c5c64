// `resilient-apply mcp`: the real server, built by esbuild.mjs (production) into a temp dist/ as it ships,
// spawned through dist/cli.js and spoken to by the MCP SDK's own client over stdio. Initialize, the tool
// list and its schemas, applying and dry runs (structuredContent is the object `apply --json` prints for
// the same input), every refusal as a tool error with the server serving on, the root rules (--root,
// the client's roots, symbolic links), a multi-file patch failing halfway, and a closed stdin.
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ListRootsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { APPLY_PATCH_TOOL_DESCRIPTION, APPLY_TOOL_DESCRIPTION, APPLY_TOOL_INPUT_SCHEMA } from '../../src/core';

const ROOT = path.resolve(__dirname, '../../..');
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ra-mcp-')));
const app = path.join(tmp, 'app');
const CLI = path.join(app, 'dist', 'cli.js');
// The CLI's code cache goes to a temp folder of this test, not the user's.
const ENV = { ...(process.env as Record<string, string>), TMPDIR: path.join(tmp, 'tmpdir') };
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

before(() => {
  fs.mkdirSync(ENV.TMPDIR);
  const build = spawnSync(process.execPath, ['esbuild.mjs', '--production', '--outdir', path.join(app, 'dist')], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  assert.equal(build.status, 0, `production build failed:\n${build.stdout}${build.stderr}`);
  fs.copyFileSync(path.join(ROOT, 'package.json'), path.join(app, 'package.json'));
});

let counter = 0;
/** A fresh folder holding `files`. */
function folder(files: Record<string, string> = {}): string {
  const dir = path.join(tmp, `w${++counter}`);
  for (const [name, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), content);
  }
  fs.mkdirSync(dir, { recursive: true });
  return dir;
}

const APP = 'function greet(name) {\n\treturn "Hello, " + name;\n}\n\nfunction add(a, b) {\n\treturn a + b;\n}\n';
const block = (search: string, replace: string) => `<<<<<<< SEARCH\n${search}\n=======\n${replace}\n>>>>>>> REPLACE\n`;

interface Session {
  client: Client;
  stderr: () => string;
  close: () => Promise<void>;
}

/** A client connected to a server started in `cwd` with `args` after `mcp`; `roots` makes the client offer roots. */
async function connect(cwd: string, args: string[] = [], roots?: string[]): Promise<Session> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [CLI, 'mcp', ...args], cwd, env: ENV, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const client = new Client(
    { name: 'resilient-apply-test', version: '1.0.0' },
    roots ? { capabilities: { roots: { listChanged: true } } } : {},
  );
  if (roots) {
    client.setRequestHandler(ListRootsRequestSchema, () => ({
      roots: roots.map((r) => ({ uri: pathToFileURL(r).href, name: path.basename(r) })),
    }));
  }
  await client.connect(transport);
  return { client, stderr: () => stderr, close: () => client.close() };
}

interface ToolResult {
  content: { type: string; text: string }[];
  structuredContent?: Record<string, any>;
  isError?: boolean;
}

async function call(s: Session, name: string, args: Record<string, unknown>): Promise<ToolResult> {
  const result = (await s.client.callTool({ name, arguments: args })) as ToolResult;
  assert.equal(result.content.length, 1);
  assert.equal(result.content[0].type, 'text');
  assert.equal(result.content[0].text, result.structuredContent?.message, 'the text content is the message of structuredContent');
  return result;
}

/** The CLI's `apply --json` object for the same input: `relative` under `dir`, copied to a fresh folder. */
function cliJson(dir: string, relative: string, blocks: string, extra: string[] = []): Record<string, unknown> {
  const copy = folder({ [relative]: fs.readFileSync(path.join(dir, relative), 'utf8') });
  const r = spawnSync(process.execPath, [CLI, 'apply', relative, '--json', ...extra], {
    cwd: copy,
    input: blocks,
    encoding: 'utf8',
    env: ENV,
  });
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

describe('resilient-apply mcp (the real server, the SDK client)', () => {
  test('initialize and the tool list: names, descriptions and schemas from core', async () => {
    const s = await connect(folder());
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
      assert.deepEqual(s.client.getServerVersion(), { name: 'resilient-apply', version: manifest.version });
      assert.ok(s.client.getServerCapabilities()?.tools, 'the server offers tools');
      assert.match(s.client.getInstructions() ?? '', /apply_edits .* apply_patch/);
      const { tools } = await s.client.listTools();
      assert.deepEqual(
        tools.map((t) => t.name),
        ['apply_edits', 'apply_patch'],
      );
      const [edits, patch] = tools;
      assert.equal(edits.description, APPLY_TOOL_DESCRIPTION);
      assert.deepEqual(edits.inputSchema.required, APPLY_TOOL_INPUT_SCHEMA.required);
      assert.deepEqual(Object.keys(edits.inputSchema.properties ?? {}), ['filePath', 'blocks', 'text', 'patch', 'code', 'dryRun']);
      assert.deepEqual((edits.inputSchema.properties as Record<string, unknown>).blocks, APPLY_TOOL_INPUT_SCHEMA.properties.blocks);
      assert.equal(patch.description, APPLY_PATCH_TOOL_DESCRIPTION);
      assert.deepEqual(patch.inputSchema.required, ['patch']);
      assert.deepEqual(edits.outputSchema?.required, ['status', 'file', 'message', 'blocks']);
      assert.deepEqual(patch.outputSchema?.required, ['status', 'message', 'files']);
    } finally {
      await s.close();
    }
  });

  test('apply_edits applies, and its dry run and apply give the objects `apply --json` prints', async () => {
    const dir = folder({ 'src/app.js': APP });
    const file = path.join(dir, 'src', 'app.js');
    const s = await connect(dir);
    try {
      const text = block('    return a + b;', '    return a + b + 0;');
      const expectedDry = cliJson(dir, 'src/app.js', text, ['--dry-run']);
      const dry = await call(s, 'apply_edits', { filePath: 'src/app.js', text, dryRun: true });
      assert.equal(dry.isError, false);
      assert.match(dry.content[0].text, /^Would apply 1 block to src\/app\.js at line 6; matched after normalising indentation/);
      assert.equal(dry.structuredContent?.content, APP.replace('\treturn a + b;', '\treturn a + b + 0;'));
      assert.deepEqual(dry.structuredContent, expectedDry);
      assert.equal(fs.readFileSync(file, 'utf8'), APP, 'a dry run writes nothing');

      const expected = cliJson(dir, 'src/app.js', text);
      const applied = await call(s, 'apply_edits', {
        filePath: path.join(dir, 'src', 'app.js'),
        blocks: [{ search: '    return a + b;', replace: '    return a + b + 0;' }],
      });
      assert.equal(applied.isError, false);
      assert.match(applied.content[0].text, /^Applied 1 block to .*app\.js at line 6; matched after normalising indentation/);
      // The same object but for the file as named: here an absolute path.
      assert.deepEqual({ ...applied.structuredContent, file: 'src/app.js', message: expected.message }, expected);
      assert.equal(applied.structuredContent?.file, file);
      assert.equal(fs.readFileSync(file, 'utf8'), APP.replace('\treturn a + b;', '\treturn a + b + 0;'));

      const created = await call(s, 'apply_edits', { filePath: 'docs/new.md', blocks: [{ search: '', replace: '# New\n' }] });
      assert.equal(created.isError, false, created.content[0].text);
      assert.equal(fs.readFileSync(path.join(dir, 'docs', 'new.md'), 'utf8'), '# New\n');
    } finally {
      await s.close();
    }
  });

  test('apply_edits "code": placed by its declarations as `apply --snippet` places it, with its --json object', async () => {
    const shop = [
      'class Cart:',
      '    def total(self):',
      '        return 1',
      '',
      '',
      'class Order:',
      '    def total(self):',
      '        return 2',
      '',
      '',
      'def discount(price):',
      '    return price',
      '',
    ].join('\n');
    const dir = folder({ 'shop.py': shop, 'src/app.js': APP });
    const s = await connect(dir);
    try {
      const lazy = '```py shop.py\ndef discount(price):\n    return price * 0.9\n```\n';
      const dry = await call(s, 'apply_edits', { filePath: 'shop.py', code: lazy, dryRun: true });
      assert.equal(dry.isError, false, dry.content[0].text);
      assert.equal(dry.content[0].text, 'Would apply the code block to shop.py: replaced def discount (lines 11-12).');
      assert.deepEqual(dry.structuredContent, cliJson(dir, 'shop.py', lazy, ['--snippet', '-', '--dry-run']));
      assert.equal(fs.readFileSync(path.join(dir, 'shop.py'), 'utf8'), shop, 'a dry run writes nothing');

      const method = 'function add(a, b) {\n\treturn b + a;\n}\n';
      const expected = cliJson(dir, 'src/app.js', method, ['--snippet', '-']);
      const applied = await call(s, 'apply_edits', { filePath: 'src/app.js', code: method });
      assert.equal(applied.isError, false, applied.content[0].text);
      assert.deepEqual(applied.structuredContent, expected);
      assert.equal(fs.readFileSync(path.join(dir, 'src', 'app.js'), 'utf8'), APP.replace('return a + b;', 'return b + a;'));

      // Refused as the CLI refuses it: every place, a tool error, nothing written.
      const ambiguous = 'def total(self):\n    return 3\n';
      const twice = await call(s, 'apply_edits', { filePath: 'shop.py', code: ambiguous });
      assert.equal(twice.isError, true);
      assert.equal(twice.structuredContent?.status, 'ambiguous');
      assert.match(
        twice.content[0].text,
        /^The code block was not applied to shop\.py: def total fits 2 places: lines 2-3 and lines 7-8\./,
      );
      assert.deepEqual(twice.structuredContent, cliJson(dir, 'shop.py', ambiguous, ['--snippet', '-']));
      assert.equal(fs.readFileSync(path.join(dir, 'shop.py'), 'utf8'), shop);

      const created = await call(s, 'apply_edits', { filePath: 'lib/util.py', code: 'def one():\n    return 1\n' });
      assert.equal(created.isError, false, created.content[0].text);
      assert.equal(fs.readFileSync(path.join(dir, 'lib', 'util.py'), 'utf8'), 'def one():\n    return 1\n');

      const bad: [Record<string, unknown>, RegExp][] = [
        [
          { filePath: 'new.py', code: '# ... existing code ...\ndef two():\n    return 2\n' },
          /file not found: new\.py \(a code block creates a file only from code without placeholders\)/,
        ],
        [{ filePath: 'shop.py', code: '```py other.py\nx = 1\n```\n' }, /"code" names the file "other\.py" but "filePath" is "shop\.py"/],
        [{ filePath: 'shop.py', code: 42 }, /"code" must be a string/],
      ];
      for (const [args, message] of bad) {
        const r = await call(s, 'apply_edits', args);
        assert.equal(r.isError, true, JSON.stringify(args));
        assert.equal(r.structuredContent?.status, 'invalid');
        assert.match(r.content[0].text, message);
      }
      assert.equal(s.stderr(), '');
    } finally {
      await s.close();
    }
  });

  test('a read-only file is refused by apply_edits (blocks and code) and apply_patch, dry run or not; nothing written', async () => {
    const dir = folder({ 'src/app.js': APP, 'notes.txt': 'one\n' });
    const file = path.join(dir, 'src', 'app.js');
    fs.chmodSync(file, 0o444);
    const s = await connect(dir);
    try {
      const text = block('\treturn a + b;', '\treturn a - b;');
      const patch = `notes.txt\n${block('one', 'two')}\nsrc/app.js\n${text}`;
      const calls: [string, Record<string, unknown>][] = [
        ['apply_edits', { filePath: 'src/app.js', text }],
        ['apply_edits', { filePath: 'src/app.js', text, dryRun: true }],
        ['apply_edits', { filePath: 'src/app.js', code: 'function add(a, b) {\n\treturn a - b;\n}\n' }],
        ['apply_patch', { patch }],
        ['apply_patch', { patch, dryRun: true }],
      ];
      for (const [tool, args] of calls) {
        const refused = await call(s, tool, args);
        assert.equal(refused.isError, true, `${tool} ${JSON.stringify(args)}`);
        assert.equal(refused.structuredContent?.status, 'invalid');
        assert.match(
          refused.content[0].text,
          /^src\/app\.js is read-only \(mode 0444: no write permission for its owner\); nothing was written/,
        );
        assert.doesNotMatch(refused.content[0].text, /--force/, 'an agent has no override');
      }
      assert.equal(fs.readFileSync(file, 'utf8'), APP);
      assert.equal(fs.readFileSync(path.join(dir, 'notes.txt'), 'utf8'), 'one\n', 'the other file of the patch is untouched');
      assert.equal(fs.statSync(file).mode & 0o777, 0o444);
    } finally {
      await s.close();
    }
  });

  test('refusals are tool errors naming what is wrong, and the server goes on serving', async () => {
    const dir = folder({ 'app.js': APP, 'twice.txt': 'x\ny\nx\n' });
    const s = await connect(dir);
    try {
      const missing = await call(s, 'apply_edits', { filePath: 'app.js', text: block('\treturn a * b;', '\treturn a * b * 2;') });
      assert.equal(missing.isError, true);
      assert.equal(missing.structuredContent?.status, 'not_found');
      assert.deepEqual(missing.structuredContent, cliJson(dir, 'app.js', block('\treturn a * b;', '\treturn a * b * 2;')));
      assert.match(missing.content[0].text, /return a \+ b/, 'the closest real text is quoted');

      const twice = await call(s, 'apply_edits', { filePath: 'twice.txt', blocks: [{ search: 'x', replace: 'z' }] });
      assert.equal(twice.isError, true);
      assert.equal(twice.structuredContent?.status, 'ambiguous');

      const bad: [Record<string, unknown>, RegExp][] = [
        [{ text: block('a', 'b') }, /"filePath" is missing/],
        [{ filePath: 'app.js', blocks: 'not an array' }, /"blocks" must be an array/],
        [{ filePath: 'app.js', text: block('a', 'b'), dryRun: 'yes' }, /"dryRun" must be a boolean/],
        [{ filePath: 'app.js', text: 'a', patch: 'b' }, /give either "text" or "patch", not both/],
        [
          { filePath: 'app.js', blocks: [{ old_string: 'a', replace: 'b' }] },
          /blocks\[0\] has unknown field "old_string": did you mean "search"\?/,
        ],
        [{ filePath: 'nowhere.js', text: block('a', 'b') }, /"filePath" "nowhere\.js": file not found/],
      ];
      for (const [args, message] of bad) {
        const r = await call(s, 'apply_edits', args);
        assert.equal(r.isError, true, JSON.stringify(args));
        assert.equal(r.structuredContent?.status, 'invalid');
        assert.match(r.content[0].text, message);
      }
      const patchArgs: [Record<string, unknown>, RegExp][] = [
        [{}, /"patch" is missing/],
        [{ patch: 42 }, /"patch" must be a string, got a number \(42\)/],
        [{ patch: 'x', diff: 'y' }, /unknown field "diff" \(allowed: patch, dryRun\)/],
        [{ patch: 'just prose' }, /no edits found in "patch"/],
      ];
      for (const [args, message] of patchArgs) {
        const r = await call(s, 'apply_patch', args);
        assert.equal(r.isError, true, JSON.stringify(args));
        assert.deepEqual(Object.keys(r.structuredContent ?? {}), ['status', 'message', 'files']);
        assert.match(r.content[0].text, message);
      }
      const unknown = (await s.client.callTool({ name: 'frobnicate', arguments: {} })) as ToolResult;
      assert.equal(unknown.isError, true);
      assert.match(unknown.content[0].text, /Unknown tool "frobnicate"/);

      const still = await call(s, 'apply_edits', {
        filePath: 'app.js',
        blocks: [{ search: '\treturn a + b;', replace: '\treturn b + a;' }],
      });
      assert.equal(still.isError, false, 'the server still serves after refusals');
      assert.equal(s.stderr(), '', 'refusals are answers, not errors on stderr');
    } finally {
      await s.close();
    }
  });

  test('the root: paths and symbolic links that lead outside are refused, nothing outside is created', async () => {
    const outside = folder({ 'secret.txt': 'secret\n' });
    const dir = folder({ 'app.js': APP });
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'link.txt'));
    fs.symlinkSync(outside, path.join(dir, 'out'));
    fs.symlinkSync(path.join(outside, 'created.txt'), path.join(dir, 'dangling.txt'));
    fs.mkdirSync(path.join(dir, 'sub'));
    fs.symlinkSync(path.join(dir, 'app.js'), path.join(dir, 'sub', 'inside-link.js'));
    const s = await connect(folder(), ['--root', dir]);
    try {
      const refused: [Record<string, unknown>, RegExp][] = [
        [{ filePath: '../secret.txt', blocks: [{ search: 'secret', replace: 'x' }] }, /outside the workspace/],
        [{ filePath: path.join(outside, 'secret.txt'), blocks: [{ search: 'secret', replace: 'x' }] }, /outside the workspace/],
        [{ filePath: 'link.txt', blocks: [{ search: 'secret', replace: 'x' }] }, /leads outside the root .* symbolic link link\.txt/],
        [{ filePath: 'out/secret.txt', blocks: [{ search: 'secret', replace: 'x' }] }, /leads outside the root .* symbolic link out/],
        [{ filePath: 'out/new.txt', blocks: [{ search: '', replace: 'x' }] }, /leads outside the root/],
        [{ filePath: 'dangling.txt', blocks: [{ search: '', replace: 'x' }] }, /symbolic link to nothing/],
      ];
      for (const [args, message] of refused) {
        const r = await call(s, 'apply_edits', args);
        assert.equal(r.isError, true, JSON.stringify(args));
        assert.equal(r.structuredContent?.status, 'invalid');
        assert.match(r.content[0].text, message);
      }
      const patch = await call(s, 'apply_patch', { patch: '*** Begin Patch\n*** Add File: out/new.txt\n+x\n*** End Patch\n' });
      assert.equal(patch.isError, true);
      assert.match(patch.content[0].text, /leads outside the root/);
      assert.deepEqual(fs.readdirSync(outside), ['secret.txt'], 'nothing was created outside the root');
      assert.equal(fs.readFileSync(path.join(outside, 'secret.txt'), 'utf8'), 'secret\n');

      const inside = await call(s, 'apply_edits', {
        filePath: 'sub/inside-link.js',
        blocks: [{ search: '\treturn a + b;', replace: '\treturn a - b;' }],
      });
      assert.equal(inside.isError, false, 'a link that stays inside is followed');
      assert.match(fs.readFileSync(path.join(dir, 'app.js'), 'utf8'), /return a - b;/);
      assert.ok(fs.lstatSync(path.join(dir, 'sub', 'inside-link.js')).isSymbolicLink(), 'the link stays a link');
    } finally {
      await s.close();
    }
  });

  test("the root is the working folder, else the client's roots when it offers them (asked again when they change); --root wins over both", async () => {
    const cwd = folder({ 'a.txt': 'cwd\n' });
    const offered = folder({ 'a.txt': 'client\n' });
    const explicit = folder({ 'a.txt': 'explicit\n' });
    let s = await connect(cwd);
    try {
      const r = await call(s, 'apply_edits', { filePath: 'a.txt', blocks: [{ search: 'cwd', replace: 'x' }], dryRun: true });
      assert.equal(r.isError, false, `without roots, the working folder: ${r.content[0].text}`);
    } finally {
      await s.close();
    }
    // The client's list, which the test changes while the server runs.
    const clientRoots = [offered];
    s = await connect(cwd, [], clientRoots);
    try {
      const r = await call(s, 'apply_edits', { filePath: 'a.txt', blocks: [{ search: 'client', replace: 'x' }], dryRun: true });
      assert.equal(r.isError, false, `the client's root: ${r.content[0].text}`);
      const abs = await call(s, 'apply_edits', {
        filePath: path.join(cwd, 'a.txt'),
        blocks: [{ search: 'cwd', replace: 'x' }],
        dryRun: true,
      });
      assert.equal(abs.isError, true, 'the working folder is not a root when the client offers roots');
      assert.match(abs.content[0].text, /outside the workspace/);

      // roots/list_changed: the server asks again before the next call.
      clientRoots.splice(0, 1, explicit);
      await s.client.sendRootsListChanged();
      const changed = await call(s, 'apply_edits', { filePath: 'a.txt', blocks: [{ search: 'explicit', replace: 'x' }], dryRun: true });
      assert.equal(changed.isError, false, `the changed root: ${changed.content[0].text}`);
      // No usable root left: the working folder again.
      clientRoots.splice(0, 1, path.join(tmp, 'no-such-folder'));
      await s.client.sendRootsListChanged();
      const none = await call(s, 'apply_edits', { filePath: 'a.txt', blocks: [{ search: 'cwd', replace: 'x' }], dryRun: true });
      assert.equal(none.isError, false, `no usable client root: ${none.content[0].text}`);
    } finally {
      await s.close();
    }
    s = await connect(cwd, ['--root', explicit], [offered]);
    try {
      const r = await call(s, 'apply_edits', { filePath: 'a.txt', blocks: [{ search: 'explicit', replace: 'x' }], dryRun: true });
      assert.equal(r.isError, false, `--root: ${r.content[0].text}`);
    } finally {
      await s.close();
    }
  });

  test('apply_patch: an answer of code blocks naming their files (package.json merged by key) applies to every file or none', async () => {
    const pkg = fs.readFileSync(path.join(ROOT, 'node_modules', 'fastest-levenshtein', 'package.json'), 'utf8');
    const dir = folder({ 'src/app.js': APP, 'package.json': pkg });
    const s = await connect(dir);
    try {
      const answer = [
        'Greet politely and require a newer Node:',
        '',
        '**src/app.js**',
        '```js',
        'function greet(name) {',
        '\treturn "Good day, " + name;',
        '}',
        '```',
        '',
        '```json',
        '// filepath: package.json',
        '{ "engines": { "node": ">= 18" } }',
        '```',
        '',
      ].join('\n');
      const dry = await call(s, 'apply_patch', { patch: answer, dryRun: true });
      assert.equal(dry.isError, false, dry.content[0].text);
      assert.match(dry.content[0].text, /^Would apply the code blocks to 2 files \(dry run, nothing written\)/);
      assert.equal(fs.readFileSync(path.join(dir, 'src/app.js'), 'utf8'), APP, 'a dry run writes nothing');
      const unnamed = await call(s, 'apply_patch', { patch: `${answer}\n\`\`\`js\nvar x = 1;\n\`\`\`\n` });
      assert.equal(unnamed.isError, true);
      assert.match(unnamed.content[0].text, /^Code block 3 \(line 15\) names no file/);
      const applied = await call(s, 'apply_patch', { patch: answer });
      assert.equal(applied.isError, false, applied.content[0].text);
      assert.deepEqual(
        (applied.structuredContent?.files as { path: string; action: string; status: string }[]).map((f) => [f.path, f.action, f.status]),
        [
          ['src/app.js', 'update', 'applied'],
          ['package.json', 'update', 'applied'],
        ],
      );
      assert.equal(fs.readFileSync(path.join(dir, 'src/app.js'), 'utf8'), APP.replace('Hello, ', 'Good day, '));
      assert.equal(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'), pkg.replace('"node": ">= 4.9.1"', '"node": ">= 18"'));
    } finally {
      await s.close();
    }
  });

  test('apply_patch: a whole answer applies to every file; one that fails halfway changes none', async () => {
    const files = { 'a.txt': 'one\ntwo\n', 'b/b.txt': 'three\nfour\n', 'c.txt': 'five\n' };
    const dir = folder(files);
    const s = await connect(dir);
    try {
      const failing = [
        '--- a/a.txt',
        '+++ b/a.txt',
        '@@ -1,2 +1,2 @@',
        ' one',
        '-two',
        '+TWO',
        '--- a/b/b.txt',
        '+++ b/b/b.txt',
        '@@ -1,2 +1,2 @@',
        ' three',
        '-vier',
        '+FOUR',
        '',
        'c.txt',
        '<<<<<<< SEARCH',
        'five',
        '=======',
        'FIVE',
        '>>>>>>> REPLACE',
        '',
      ].join('\n');
      const failed = await call(s, 'apply_patch', { patch: failing });
      assert.equal(failed.isError, true);
      assert.equal(failed.structuredContent?.status, 'not_found');
      assert.match(failed.content[0].text, /^Nothing was changed/);
      assert.deepEqual(
        (failed.structuredContent?.files as { path: string; status: string }[]).map((f) => [f.path, f.status]),
        [
          ['a.txt', 'pending'],
          ['b/b.txt', 'not_found'],
          ['c.txt', 'pending'],
        ],
      );
      for (const [name, content] of Object.entries(files)) {
        assert.equal(fs.readFileSync(path.join(dir, name), 'utf8'), content, `${name} was changed`);
      }

      const fixed = failing.replace('-vier', '-four');
      const dry = await call(s, 'apply_patch', { patch: fixed, dryRun: true });
      assert.equal(dry.isError, false, dry.content[0].text);
      assert.match(
        dry.content[0].text,
        /^Would apply the edits \(unified diff, SEARCH\/REPLACE blocks\) to 3 files \(dry run, nothing written\)/,
      );
      assert.doesNotMatch(JSON.stringify(dry.structuredContent), /Applied/);
      assert.deepEqual(
        (dry.structuredContent?.files as { content: string }[]).map((f) => f.content),
        ['one\nTWO\n', 'three\nFOUR\n', 'FIVE\n'],
      );
      assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), files['a.txt'], 'a dry run writes nothing');
      const applied = await call(s, 'apply_patch', { patch: fixed });
      assert.equal(applied.isError, false, applied.content[0].text);
      assert.match(applied.content[0].text, /^Applied the edits \(unified diff, SEARCH\/REPLACE blocks\) to 3 files/);
      assert.equal(fs.readFileSync(path.join(dir, 'b', 'b.txt'), 'utf8'), 'three\nFOUR\n');
      assert.equal(fs.readFileSync(path.join(dir, 'c.txt'), 'utf8'), 'FIVE\n');
    } finally {
      await s.close();
    }
  });

  test('stdout carries only protocol messages; garbage is skipped; a closed stdin ends the server with exit 0', async () => {
    const dir = folder({ 'a.txt': 'a\n' });
    const child = spawn(process.execPath, [CLI, 'mcp'], { cwd: dir, env: ENV, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
    const send = (message: unknown) => child.stdin.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
    send({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
    });
    send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    send('this is not JSON');
    send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'apply_edits', arguments: { filePath: 'a.txt', blocks: [{ search: 'a', replace: 'b' }] } },
    });
    // The answer to the call, then stdin closes.
    const deadline = Date.now() + 20_000;
    while (!stdout.includes('"id":2') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    child.stdin.end();
    const timer = setTimeout(() => child.kill(), 20_000);
    const code = await exited;
    clearTimeout(timer);
    assert.equal(code, 0, `exit ${code}, stderr:\n${stderr}`);
    const messages = stdout
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { jsonrpc: string; id?: number; result?: { isError: boolean } });
    assert.ok(
      messages.every((m) => m.jsonrpc === '2.0'),
      stdout,
    );
    assert.deepEqual(
      messages.map((m) => m.id),
      [1, 2],
    );
    assert.equal(messages[1].result?.isError, false);
    assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'b\n');
  });

  test('a bad --root is a usage error on stderr before any protocol, exit 3', () => {
    const r = spawnSync(process.execPath, [CLI, 'mcp', '--root', path.join(tmp, 'nowhere')], { input: '', encoding: 'utf8', env: ENV });
    assert.equal(r.status, 3);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /--root .*nowhere is not a folder/);
  });
});
