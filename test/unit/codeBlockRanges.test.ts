// What a code block's message reports against what its edit did (issue 25: "the message names every
// removed range as removed, never as changed, and the reported range is the range edited"), on the npm
// real-edit corpus (test/fixtures/npmCorpus): for every applied case the result outside the reported
// ranges is the file outside the lines those parts replaced, so no edited line goes unreported.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applySnippet, type SnippetResult } from '../../src/core/batch/snippet';
import { readSnippetText } from '../../src/core/formats/codeBlocks';
import { languageIdFor } from '../../src/node/paths';
import { testGrammars } from '../shared/grammars';
import type { StoredCase } from '../corpus/buildNpmCorpus';

const CASES = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'npmCorpus', 'cases');

async function run(name: string, shape: string): Promise<{ before: string; result: SnippetResult } | undefined> {
  const dir = path.join(CASES, name);
  const spec = JSON.parse(fs.readFileSync(path.join(dir, 'case.json'), 'utf8')) as StoredCase;
  const before = fs.readFileSync(path.join(dir, 'before.txt'), 'utf8');
  const read = readSnippetText(fs.readFileSync(path.join(dir, `${shape}.md`), 'utf8'));
  if (!read.ok) {
    return undefined;
  }
  const languageId = languageIdFor(spec.path);
  const result = await applySnippet(
    before,
    { code: read.code, languageId, fileName: spec.path },
    { fileName: spec.path, languageId, grammars: testGrammars },
  );
  return { before, result };
}

/**
 * Why the result's lines outside the reported ranges are not the file's (undefined when they are): the
 * file less the removed parts' lines must hold, in order, the result's stretches between the written
 * ranges, gaps only at those ranges (blank lines left out: a range's edge blank lines are the writer's).
 */
function unreportedEdit(before: string, result: SnippetResult): string | undefined {
  const removed = result.snippet.parts.filter((p) => p.action === 'removed' && p.range).map((p) => p.range!);
  removed.push(...result.snippet.removed);
  const a = before.split('\n').filter((l, i) => l.trim() !== '' && !removed.some((r) => i + 1 >= r.startLine && i + 1 <= r.endLine));
  const b = (result.content ?? '').split('\n');
  const written = result.snippet.parts
    .filter((p) => p.action !== 'removed' && p.range)
    .map((p) => p.range!)
    .sort((x, y) => x.startLine - y.startLine);
  const stretches: Array<[number, number]> = [];
  let at = 0;
  for (const r of written) {
    stretches.push([at, Math.max(at, r.startLine - 1)]);
    at = Math.max(at, r.endLine);
  }
  stretches.push([at, b.length]);
  let pos = 0;
  for (let k = 0; k < stretches.length; k++) {
    const [s0, s1] = stretches[k];
    const part = b.slice(s0, s1).filter((l) => l.trim() !== '');
    const fits = (p: number) => part.every((l, i) => a[p + i] === l);
    const last = k === stretches.length - 1;
    let p = k === 0 ? 0 : last ? a.length - part.length : pos;
    while (!last && k > 0 && p + part.length <= a.length && !fits(p)) {
      p++;
    }
    if (p < pos || p + part.length > a.length || !fits(p)) {
      return `result lines ${s0 + 1}-${s1} lie outside every reported range but are not the file's`;
    }
    pos = p + part.length;
  }
  return undefined;
}

test('two overloads a code block changes are each reported at the lines written (Java constructors, react-native 0.86.0)', async () => {
  const r = await run('java-react-native-0.86.0-uimanager-NativeViewHierarchyManager', 'decl');
  assert.ok(r && r.result.status === 'applied');
  const ranges = r.result.snippet.parts.map((p) => p.range && `${p.range.startLine}-${p.range.endLine}`);
  assert.deepEqual(ranges, ['31-35', '37-41']);
  assert.match(r.result.message, /\(lines 31-35\)\n.*\(lines 37-41\)/);
  assert.equal(unreportedEdit(r.before, r.result), undefined);
});

test('a part that writes no line is reported as removed, never as changed (bootstrap 5.3.1 _form-range.scss)', async () => {
  const r = await run('scss-bootstrap-5.3.1-forms-_form-range', 'skeleton');
  assert.ok(r && r.result.status === 'applied');
  assert.match(r.result.message, /^- removed lines 12-13$/m);
  assert.doesNotMatch(r.result.message, /changed lines 12-13/);
  assert.ok(r.result.blocks.some((b) => b.notes.includes('removed lines 12-13')));
});

test('a whole-file rewrite reports the result lines each changed stretch wrote', async () => {
  const r = await run('cpp-react-native-0.88.0-devsupport-JInspectorNetworkReporter', 'elided');
  assert.ok(r && r.result.status === 'applied' && r.result.snippet.wholeFile);
  assert.equal(unreportedEdit(r.before, r.result), undefined);
});

test('npm corpus: every applied code block reports every line it edited', async () => {
  let applied = 0;
  const wrong: string[] = [];
  for (const name of fs.readdirSync(CASES).sort()) {
    if (!fs.existsSync(path.join(CASES, name, 'case.json'))) {
      continue;
    }
    const spec = JSON.parse(fs.readFileSync(path.join(CASES, name, 'case.json'), 'utf8')) as StoredCase;
    for (const shape of spec.shapes) {
      const r = await run(name, shape);
      if (!r || r.result.status !== 'applied') {
        continue;
      }
      applied++;
      const why = unreportedEdit(r.before, r.result);
      if (why) {
        wrong.push(`${name}/${shape}: ${why}\n  ${r.result.message.split('\n').join('\n  ')}`);
      }
    }
  }
  assert.ok(applied >= 200, `only ${applied} applied cases`);
  assert.deepEqual(wrong, [], `${wrong.length} of ${applied} applied cases`);
});
