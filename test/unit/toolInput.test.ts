import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { asBlockLines, checkToolInput } from '../../src/core/formats/toolInput';
import { DEFAULT_EDIT_AUTO_APPROVE, editNeedsConfirmation, globToRegExp, resolveWorkspacePath } from '../../src/core/workspacePaths';

function problems(input: unknown): string {
  const result = checkToolInput(input);
  assert.equal(result.ok, false, `expected a rejection for ${JSON.stringify(input)}`);
  return result.ok ? '' : result.message;
}

test('accepts JSON blocks and turns them into engine blocks', () => {
  const result = checkToolInput({
    filePath: ' src/app.ts ',
    blocks: [
      { search: 'a\r\nb\r\n', replace: 'c\n', startLine: 4 },
      { search: '', replace: 'new' },
    ],
  });
  assert.ok(result.ok);
  assert.equal(result.filePath, 'src/app.ts');
  assert.deepEqual(result.blocks, [
    { index: 1, search: 'a\nb', replace: 'c', startLine: 4, sourceLine: 1 },
    { index: 2, search: '', replace: 'new', sourceLine: 2 },
  ]);
});

test('accepts marker text and parses it', () => {
  const result = checkToolInput({
    filePath: 'x.py',
    text: '<<<<<<< SEARCH\nold = 1\n=======\nnew = 2\n>>>>>>> REPLACE\n',
  });
  assert.ok(result.ok && result.blocks);
  assert.equal(result.blocks.length, 1);
  assert.equal(result.blocks[0].search, 'old = 1');
  assert.equal(result.blocks[0].replace, 'new = 2');
});

test('rejects a non-object input', () => {
  for (const input of [null, 'text', 3, [1]]) {
    const message = problems(input);
    assert.match(message, /must be a JSON object/);
    assert.match(message, /nothing was applied/);
  }
});

test('names a missing or mistyped filePath and hints at the right field', () => {
  assert.match(problems({ blocks: [{ search: 'a', replace: 'b' }] }), /"filePath" is missing/);
  assert.match(problems({ filePath: 7, text: 'x' }), /"filePath" must be a string, got a number \(7\)/);
  assert.match(problems({ filePath: '  ', blocks: [{ search: 'a', replace: 'b' }] }), /"filePath" is empty/);
  const aliased = problems({ path: 'src/a.ts', blocks: [{ search: 'a', replace: 'b' }] });
  assert.match(aliased, /unknown field "path": the file goes in "filePath"/);
  assert.match(aliased, /"filePath" is missing/);
});

test('requires exactly one of blocks and text', () => {
  assert.match(problems({ filePath: 'a', blocks: [{ search: 'a', replace: 'b' }], text: 'x' }), /either "blocks" or "text", not both/);
  assert.match(problems({ filePath: 'a' }), /neither "blocks" nor "text"/);
});

test('checks every block field and reports all problems at once', () => {
  const message = problems({
    filePath: 'a.ts',
    blocks: [
      { search: 1, replace: 'x' },
      { search: 'a' },
      'not a block',
      { search: 'a', replace: 'b', startLine: 0 },
      { search: 'a', replace: 'b', startLine: 2.5 },
      { search: 'a', replace: 'b', startLine: '3' },
      { old_string: 'a', new_string: 'b' },
    ],
  });
  assert.match(message, /blocks\[0\]\.search must be a string, got a number \(1\)/);
  assert.match(message, /blocks\[1\]\.replace is missing: expected a string/);
  assert.match(message, /blocks\[2\] must be an object/);
  assert.match(message, /blocks\[3\]\.startLine must be a positive integer .* got a number \(0\)/);
  assert.match(message, /blocks\[4\]\.startLine must be a positive integer .* got a number \(2\.5\)/);
  assert.match(message, /blocks\[5\]\.startLine must be a positive integer .* got a string \("3"\)/);
  assert.match(message, /blocks\[6\] has unknown field "old_string": did you mean "search"\?/);
  assert.match(message, /blocks\[6\] has unknown field "new_string": did you mean "replace"\?/);
  assert.match(message, /Expected \{"filePath"/);
});

test('rejects an empty or non-array blocks value', () => {
  assert.match(problems({ filePath: 'a', blocks: [] }), /"blocks" is empty/);
  assert.match(problems({ filePath: 'a', blocks: { search: 'a', replace: 'b' } }), /"blocks" must be an array .* got an object/);
});

test('reports malformed marker text with the parser message and text without blocks', () => {
  const malformed = problems({ filePath: 'a', text: '<<<<<<< SEARCH\nold\n>>>>>>> REPLACE\n' });
  assert.match(malformed, /"text" is malformed: /);
  assert.match(malformed, /block 1/i);
  assert.match(problems({ filePath: 'a', text: 'just prose' }), /"text" holds no SEARCH\/REPLACE blocks/);
  assert.match(problems({ filePath: 'a', text: 42 }), /"text" must be a string/);
});

test('asBlockLines drops exactly one final line break', () => {
  assert.equal(asBlockLines('a\n\n'), 'a\n');
  assert.equal(asBlockLines('a\r\n'), 'a');
  assert.equal(asBlockLines('a'), 'a');
});

const folders = [{ path: '/home/me/project', name: 'project' }];

test('resolves relative paths against the first workspace folder', () => {
  assert.deepEqual(resolveWorkspacePath('src/app.ts', folders), { ok: true, folderIndex: 0, relativePath: 'src/app.ts' });
  assert.deepEqual(resolveWorkspacePath('./src//app.ts', folders), { ok: true, folderIndex: 0, relativePath: 'src/app.ts' });
  assert.deepEqual(resolveWorkspacePath('src\\lib\\..\\app.ts', folders), { ok: true, folderIndex: 0, relativePath: 'src/app.ts' });
});

test('accepts absolute paths and file URIs inside the workspace', () => {
  assert.deepEqual(resolveWorkspacePath('/home/me/project/src/app.ts', folders), { ok: true, folderIndex: 0, relativePath: 'src/app.ts' });
  assert.deepEqual(resolveWorkspacePath('file:///home/me/project/a%20b.ts', folders), { ok: true, folderIndex: 0, relativePath: 'a b.ts' });
  const windows = [{ path: '/c:/Users/me/project', name: 'project' }];
  assert.deepEqual(resolveWorkspacePath('C:\\Users\\me\\project\\src\\x.ts', windows), {
    ok: true,
    folderIndex: 0,
    relativePath: 'src/x.ts',
  });
});

test('refuses paths outside the workspace, climbing out, or naming the folder', () => {
  for (const path of ['/etc/passwd', '../secret.txt', 'src/../../x', '/home/me/projectile/a.ts']) {
    const result = resolveWorkspacePath(path, folders);
    assert.equal(result.ok, false, path);
    if (!result.ok) {
      assert.match(result.message, /outside the workspace \(\/home\/me\/project\)/);
    }
  }
  const folder = resolveWorkspacePath('/home/me/project/', folders);
  assert.ok(!folder.ok && /names the workspace folder itself/.test(folder.message));
  const none = resolveWorkspacePath('a.ts', []);
  assert.ok(!none.ok && /no workspace folder is open/.test(none.message));
});

test('picks the named folder in a multi-root workspace', () => {
  const two = [
    { path: '/w/api', name: 'api' },
    { path: '/w/web', name: 'web' },
  ];
  assert.deepEqual(resolveWorkspacePath('web/src/x.ts', two), { ok: true, folderIndex: 1, relativePath: 'src/x.ts' });
  assert.deepEqual(resolveWorkspacePath('src/x.ts', two), { ok: true, folderIndex: 0, relativePath: 'src/x.ts' });
  assert.deepEqual(resolveWorkspacePath('/w/web/x.ts', two), { ok: true, folderIndex: 1, relativePath: 'x.ts' });
});

test('globs follow VS Code settings syntax', () => {
  assert.ok(globToRegExp('**/*').test('a.ts'));
  assert.ok(globToRegExp('**/*').test('src/deep/a.ts'));
  assert.ok(globToRegExp('**/.vscode/*.json').test('.vscode/settings.json'));
  assert.ok(!globToRegExp('**/.vscode/*.json').test('.vscode/sub/settings.json'));
  assert.ok(globToRegExp('**/{package.json,.env}').test('web/package.json'));
  assert.ok(globToRegExp('**/*-lock.{yaml,json}').test('package-lock.json'));
  assert.ok(globToRegExp('**/.git/**').test('.git/config'));
  assert.ok(!globToRegExp('src/*.ts').test('src/a/b.ts'));
  assert.ok(globToRegExp('src/?.ts').test('src/a.ts'));
});

test('edits need confirmation exactly where the auto-approve rules say no', () => {
  assert.equal(editNeedsConfirmation('src/app.ts', undefined), false);
  assert.equal(editNeedsConfirmation('.vscode/settings.json', undefined), true);
  assert.equal(editNeedsConfirmation('package.json', undefined), true);
  assert.equal(editNeedsConfirmation('yarn.lock', undefined), true);
  // Later entries win, so a user entry approves a file the defaults guard, and vice versa.
  assert.equal(editNeedsConfirmation('.env', { ...DEFAULT_EDIT_AUTO_APPROVE, '**/.env': true }), false);
  assert.equal(editNeedsConfirmation('src/app.ts', { '**/*': true, 'src/**': false }), true);
  // Nothing matching means nothing approved it.
  assert.equal(editNeedsConfirmation('src/app.ts', { 'docs/**': true }), true);
});

test('another spelling of a guarded file is still guarded (case, trailing dots and spaces, a stream suffix)', () => {
  for (const spelling of [
    '.VSCode/tasks.json',
    'Package.json',
    '.ENV',
    'package.json.',
    '.vscode/tasks.json ',
    'package.json::$DATA',
    'web/YARN.LOCK',
  ]) {
    assert.equal(editNeedsConfirmation(spelling, undefined), true, spelling);
  }
  assert.equal(editNeedsConfirmation('src/App.ts', undefined), false);
});

test('a "patch" input: unified diff or apply_patch hunks become blocks; misuse is named', () => {
  const diff = checkToolInput({ filePath: 'src/a.ts', patch: '--- a/src/a.ts\n+++ b/src/a.ts\n@@ -3,2 +3,2 @@\n x\n-y\n+z\n' });
  assert.ok(diff.ok && diff.blocks);
  assert.deepEqual(
    diff.blocks.map((b) => [b.search, b.replace, b.startLine, b.filePath]),
    [['x\ny', 'x\nz', 3, 'src/a.ts']],
  );
  const codex = checkToolInput({
    filePath: 'a.py',
    patch: '*** Begin Patch\n*** Update File: a.py\n@@ def f():\n-    pass\n+    return 1\n*** End Patch\n',
  });
  assert.ok(codex.ok && codex.blocks);
  assert.deepEqual(codex.blocks[0].hunk, { format: 'apply-patch', anchors: ['def f():'] });
  assert.match(
    problems({ filePath: 'a', patch: '<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n' }),
    /"patch" holds SEARCH\/REPLACE blocks: put those in "text"/,
  );
  assert.match(problems({ filePath: 'a', patch: 'prose' }), /"patch" holds no unified diff/);
  assert.match(
    problems({ filePath: 'a', patch: '*** Begin Patch\n*** Update File: a\n-x\n' }),
    /"patch" is malformed: Patch \(line 3\): expected '\*\*\* End Patch'/,
  );
  assert.match(
    problems({ filePath: 'a', patch: '*** Begin Patch\n*** Delete File: a\n*** End Patch\n' }),
    /deletes a; a patch that deletes or moves files applies as a whole, to every file it names.*without "filePath"/,
  );
  assert.match(problems({ filePath: 'a', text: 'x', patch: 'y' }), /give either "text" or "patch", not both/);
  assert.match(problems({ filePath: 'a', diff: 'y' }), /unknown field "diff": put a unified diff or apply_patch patch in "patch"/);
});

test('a "code" input: a snippet of the file, fences stripped, the file a fence names kept for the check', () => {
  const raw = checkToolInput({ filePath: 'src/cart.ts', code: '  total() {\n    // ... existing code ...\n  }\n' });
  assert.deepEqual(raw, { ok: true, filePath: 'src/cart.ts', snippet: { code: '  total() {\n    // ... existing code ...\n  }' } });
  const fenced = checkToolInput({ filePath: 'src/cart.ts', code: '```ts src/cart.ts\nexport const a = 1;\n```' });
  assert.deepEqual(fenced, {
    ok: true,
    filePath: 'src/cart.ts',
    snippet: { code: 'export const a = 1;', languageId: 'ts', namedFile: 'src/cart.ts' },
  });
  const commented = checkToolInput({ filePath: 'src/cart.ts', code: '// filepath: src/other.ts\nexport const a = 1;' });
  assert.deepEqual(commented, { ok: true, filePath: 'src/cart.ts', snippet: { code: 'export const a = 1;', namedFile: 'src/other.ts' } });
});

test('a "code" input: misuse is named, with where the input belongs', () => {
  assert.match(problems({ filePath: 'a.ts', code: 7 }), /"code" must be a string holding the code .*got a number \(7\)/);
  assert.match(problems({ filePath: 'a.ts', code: '  \n' }), /"code" is not usable: the code is empty/);
  assert.match(
    problems({ filePath: 'a.ts', code: '```ts\nx();\n' }),
    /"code" is not usable: the code block opened at line 1 \(```ts\) has no closing fence/,
  );
  assert.match(
    problems({ filePath: 'a.ts', code: '<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE' }),
    /"code" is not usable: the code holds SEARCH\/REPLACE blocks, not code: put it in "text"/,
  );
  assert.match(
    problems({ filePath: 'a.ts', code: '--- a/a.ts\n+++ b/a.ts\n@@ -1 +1 @@\n-a\n+b\n' }),
    /holds a unified diff, not code: put it in "patch"/,
  );
  assert.match(problems({ filePath: 'a.ts', code: 'x', text: 'y' }), /either "text" or "code", not both/);
  assert.match(
    problems({ filePath: 'a.ts', code_edit: 'x' }),
    /unknown field "code_edit": put a code snippet \(or the whole file\) in "code"/,
  );
  assert.match(problems({ filePath: 'a.ts', code: 'x', blocks: [], text: 'y' }), /give only one of "blocks", "text", "patch" and "code"/);
  assert.match(problems({ filePath: 'a.ts' }), /neither "blocks" nor "text" nor "patch" nor "code"/);
});
