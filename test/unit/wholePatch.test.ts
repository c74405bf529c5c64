// A whole patch over several files as plain data (core/batch/wholePatch.ts): which files it adds, updates,
// deletes and moves, the rules each must meet against what exists, what needs the user's consent, and
// the words for the outcome. The editor and the CLI share these; the patches are parsed by the real parser
// and the hunks placed by the real engine.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { hasFileOperations, parseEdits } from '../../src/core/formats/edits';
import { BlockParseError } from '../../src/core/formats/parser';
import { applyEdits } from '../../src/core/batch/hunkPlacement';
import {
  checkPatchFile,
  checkWholePatchInput,
  fileChangeLine,
  judgePatch,
  type PatchFileChange,
  patchAppliedMessage,
  patchFiles,
  patchNotAgreed,
  patchQuestion,
} from '../../src/core/batch/wholePatch';

const PATCH = [
  '*** Begin Patch',
  '*** Add File: src/new.ts',
  '+export const fresh = 1;',
  '*** Update File: src/app.ts',
  '@@',
  ' const a = 1;',
  '-const b = 2;',
  '+const b = 3;',
  '*** Delete File: src/old.ts',
  '*** Update File: src/name.ts',
  '*** Move to: src/renamed.ts',
  '@@',
  '-export const name = 1;',
  '+export const name = 2;',
  '*** Update File: src/app.ts',
  '@@',
  '-const c = 4;',
  '+const c = 5;',
  '*** End Patch',
].join('\n');

const APP = 'const a = 1;\nconst b = 2;\nconst c = 4;\n';

describe('which files a patch changes', () => {
  test('adds, updates, deletes and moves, with repeated sections for one file merged', () => {
    const edits = parseEdits(PATCH);
    assert.equal(hasFileOperations(edits), true);
    const files = patchFiles(edits.files!, 'name the file');
    assert.deepEqual(
      files.map((f) => [f.action, f.path, f.to, f.blocks.length, f.content]),
      [
        ['add', 'src/new.ts', undefined, 0, 'export const fresh = 1;\n'],
        ['update', 'src/app.ts', undefined, 2, undefined],
        ['delete', 'src/old.ts', undefined, 0, undefined],
        ['move', 'src/name.ts', 'src/renamed.ts', 1, undefined],
      ],
    );
    // The merged hunks of src/app.ts apply together as one batch.
    const result = applyEdits(APP, files[1].blocks, { fileName: 'src/app.ts' });
    assert.equal(result.status, 'applied');
    assert.equal(result.content, 'const a = 1;\nconst b = 3;\nconst c = 5;\n');
  });

  test('a unified diff with /dev/null adds and deletes; plain updates and adds are no file operations', () => {
    const diff = [
      '--- /dev/null',
      '+++ b/docs/new.md',
      '@@ -0,0 +1,2 @@',
      '+# New',
      '+text',
      '\\ No newline at end of file',
      '--- a/docs/gone.md',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-bye',
    ].join('\n');
    const edits = parseEdits(diff);
    assert.equal(hasFileOperations(edits), true);
    const files = patchFiles(edits.files!, 'x');
    assert.deepEqual(
      files.map((f) => [f.action, f.path, f.content]),
      [
        ['add', 'docs/new.md', '# New\ntext'],
        ['delete', 'docs/gone.md', undefined],
      ],
    );
    assert.equal(hasFileOperations(parseEdits('*** Begin Patch\n*** Add File: a.txt\n+a\n*** End Patch\n')), false);
    assert.equal(hasFileOperations(parseEdits('<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n')), false);
  });

  test('hunks without a file header cannot be part of a whole patch: the error says where and how to fix it', () => {
    const edits = parseEdits('@@ -1 +1 @@\n-a\n+b\n');
    assert.throws(
      () => patchFiles(edits.files!, 'name the file in a --- / +++ header'),
      (e: unknown) =>
        e instanceof BlockParseError && /line 1\): hunk 1 has no file header.*name the file in a --- \/ \+\+\+ header$/.test(e.message),
    );
  });
});

describe('the rules each file meets against what exists', () => {
  const file = (action: 'update' | 'add' | 'delete' | 'move', to?: string) => ({ action, path: 'a.ts', to, sourceLine: 7 });

  test('deleting needs a file; adding over a file asks in the editor and is refused by the CLI', () => {
    assert.deepEqual(checkPatchFile(file('delete'), 'file', undefined, 'ask'), {});
    assert.match(
      checkPatchFile(file('delete'), 'nothing', undefined, 'ask').problem!,
      /deletes a\.ts \(line 7\), which does not exist; nothing was changed/,
    );
    assert.match(checkPatchFile(file('delete'), 'folder', undefined, 'ask').problem!, /which is a folder/);
    assert.deepEqual(checkPatchFile(file('add'), 'nothing', undefined, 'refuse'), {});
    assert.deepEqual(checkPatchFile(file('add'), 'file', undefined, 'ask'), { overwrites: true });
    assert.match(checkPatchFile(file('add'), 'file', undefined, 'refuse').problem!, /adds a\.ts \(line 7\), which already exists/);
    assert.match(checkPatchFile(file('add'), 'folder', undefined, 'ask').problem!, /is a folder/);
  });

  test('updating and moving need the file; a move onto a file asks or is refused, onto a folder always refused', () => {
    assert.deepEqual(checkPatchFile(file('update'), 'file', undefined, 'refuse'), {});
    assert.match(checkPatchFile(file('update'), 'nothing', undefined, 'ask').problem!, /changes a\.ts \(line 7\), which does not exist/);
    assert.deepEqual(checkPatchFile(file('move', 'b.ts'), 'file', 'nothing', 'refuse'), {});
    assert.deepEqual(checkPatchFile(file('move', 'b.ts'), 'file', 'file', 'ask'), { overwrites: true });
    assert.match(checkPatchFile(file('move', 'b.ts'), 'file', 'file', 'refuse').problem!, /moves a\.ts to b\.ts, which already exists/);
    assert.match(checkPatchFile(file('move', 'b.ts'), 'file', 'folder', 'ask').problem!, /moves a\.ts to b\.ts, which is a folder/);
    assert.match(checkPatchFile(file('move', 'b.ts'), 'nothing', 'nothing', 'ask').problem!, /which does not exist/);
  });
});

describe('the verdict, the question and the words', () => {
  const updated = (text: string, blocks: string): PatchFileChange => {
    const edits = parseEdits(blocks);
    return { action: 'update', path: 'src/app.ts', result: applyEdits(text, edits.blocks, { fileName: 'src/app.ts' }) };
  };
  const good = updated(APP, '--- a/src/app.ts\n+++ b/src/app.ts\n@@\n-const b = 2;\n+const b = 3;\n');

  test('every problem refuses the patch, in patch order, before any hunk is looked at', () => {
    const verdict = judgePatch(
      'apply-patch',
      [good],
      ['the patch deletes x (line 3), which does not exist; nothing was changed', 'y is outside'],
    );
    assert.deepEqual(verdict, {
      kind: 'refused',
      status: 'invalid',
      message: 'The patch deletes x (line 3), which does not exist; nothing was changed\ny is outside',
    });
  });

  test('a hunk that does not place refuses the whole patch with the engine message for that file', () => {
    const bad = updated(APP, '--- a/src/app.ts\n+++ b/src/app.ts\n@@\n-const zz = 9;\n+const zz = 10;\n');
    assert.equal(bad.result!.status, 'not_found');
    const verdict = judgePatch('unified-diff', [good, { action: 'delete', path: 'src/old.ts' }, bad], []);
    assert.equal(verdict.kind, 'refused');
    assert.equal(verdict.kind === 'refused' && verdict.status, 'not_found');
    assert.ok(
      verdict.kind === 'refused' && verdict.message.startsWith('Nothing was changed: the unified diff does not apply to every file.\n\n'),
    );
    assert.ok(verdict.kind === 'refused' && verdict.message.endsWith(bad.result!.message));
  });

  test('a ready patch asks first only when it deletes or overwrites, naming every such file', () => {
    const quiet = judgePatch('apply-patch', [good, { action: 'add', path: 'src/new.ts' }, { action: 'move', path: 'a', to: 'b' }], []);
    assert.deepEqual(quiet, { kind: 'ready', question: undefined });
    const changes: PatchFileChange[] = [
      good,
      { action: 'delete', path: 'src/old.ts' },
      { action: 'add', path: 'src/x.ts', overwrites: true },
      { action: 'move', path: 'src/a.ts', to: 'src/b.ts', overwrites: true },
    ];
    const question = patchQuestion('apply-patch', changes)!;
    assert.equal(question.title, 'The apply_patch patch deletes src/old.ts and overwrites src/x.ts and src/b.ts. Apply it?');
    assert.equal(question.confirm, 'Apply and Delete');
    assert.equal(
      patchNotAgreed(question),
      'Nothing was changed: the apply_patch patch deletes src/old.ts and overwrites src/x.ts and src/b.ts, and that was not agreed to.',
    );
    assert.match(
      question.detail,
      /^It changes 4 files:\n- updated src\/app\.ts\n- deleted src\/old\.ts\n- added src\/x\.ts \(overwriting the file there\)\n- moved src\/a\.ts -> src\/b\.ts \(overwriting the file there\)\n\nOne undo restores every file\.$/,
    );
    assert.equal(patchQuestion('unified-diff', [{ action: 'add', path: 'x', overwrites: true }])!.confirm, 'Apply and Overwrite');
  });

  test('the outcome lists every file, with the engine message for files whose hunks were placed', () => {
    const changes: PatchFileChange[] = [good, { action: 'delete', path: 'src/old.ts' }, { action: 'move', path: 'a', to: 'b' }];
    const message = patchAppliedMessage(['apply-patch'], changes);
    assert.equal(
      message,
      `Applied the apply_patch patch to 3 files:\n- updated src/app.ts: ${good.result!.message}\n- deleted src/old.ts\n- moved a -> b`,
    );
    assert.match(
      patchAppliedMessage(['unified-diff'], changes.slice(1, 2), true),
      /^Would apply the unified diff to 1 file \(dry run, nothing written\):\n- would delete src\/old\.ts$/,
    );
    assert.equal(fileChangeLine({ action: 'add', path: 'n.ts' }), 'added n.ts');
  });
});

describe('the language model tool reading a whole patch', () => {
  test('a patch without "filePath", or one that deletes or moves files, is a whole patch', () => {
    const free = checkWholePatchInput({ patch: '--- a/x.ts\n+++ b/x.ts\n@@\n-a\n+b\n' });
    assert.equal(free?.ok, true);
    const named = checkWholePatchInput({ filePath: './src/old.ts', patch: PATCH });
    assert.equal(named?.ok && named.edits.files!.length, 5);
  });

  test('everything else is left to the one-file check, which names what is wrong', () => {
    assert.equal(checkWholePatchInput({ filePath: 'x.ts', patch: '--- a/x.ts\n+++ b/x.ts\n@@\n-a\n+b\n' }), undefined);
    assert.equal(checkWholePatchInput({ patch: PATCH, text: 'x' }), undefined);
    assert.equal(checkWholePatchInput({ patch: '<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n' }), undefined);
    assert.equal(checkWholePatchInput({ patch: '*** Begin Patch\n*** Delete File: a\n' }), undefined, 'malformed');
    assert.equal(checkWholePatchInput({ filePath: 3, patch: PATCH }), undefined);
    assert.equal(checkWholePatchInput([PATCH]), undefined);
  });

  test('a "filePath" beside a whole patch must be one of its files; hunks without a file are refused', () => {
    const other = checkWholePatchInput({ filePath: 'src/elsewhere.ts', patch: PATCH });
    assert.equal(other?.ok, false);
    assert.match(
      other && !other.ok ? other.message : '',
      /"filePath" "src\/elsewhere\.ts" is not one of the files the patch changes \(src\/new\.ts, src\/app\.ts, src\/old\.ts, src\/name\.ts, src\/renamed\.ts\); leave "filePath" out/,
    );
    const headerless = checkWholePatchInput({ patch: '@@ -1 +1 @@\n-a\n+b\n' });
    assert.match(headerless && !headerless.ok ? headerless.message : '', /"patch" is malformed: .*hunk 1 has no file header/);
  });
});
