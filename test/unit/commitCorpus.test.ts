// The real-commit corpus (issue 25): changes of public repositories' commits, each inside one or two
// declarations, rendered as the code blocks chat models write and run through the CLI's code-block path
// (test/corpus/commitCorpus.ts builds the manifest; commitCases.ts reads it). Each block must give the
// commit's file byte for byte, or be refused; a wrong file fails unless knownIssues.json lists it (then
// it runs as a todo). The manifest holds no code: the cases are read from the repositories' git snapshots
// (the `fetch` tool, /work/.mirror or RESILIENT_APPLY_MIRRORS); a repository without one is skipped, said
// in one line.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { blocksOf, COMMIT_CORPUS, type LoadedCommitCase, loadRepoCases, MIRRORS, readManifest } from '../corpus/commitCases';
import type { RenderedBlock } from '../corpus/renderBlocks';
import { countByLanguage, diagnosisLine, emptyTally, languageLine, runCorpusCase, type Tally, tallyLine } from '../corpus/runCorpus';

const manifest = readManifest();
const knownIssues = JSON.parse(fs.readFileSync(path.join(COMMIT_CORPUS, 'knownIssues.json'), 'utf8')) as Record<string, string>;
const tally = emptyTally();
const byLanguage = new Map<string, Tally>();
const notes: string[] = [];
const knownNowRight: string[] = [];
const skipped: string[] = [];
const started = Date.now();

// A case's blocks are rendered once, for its first shape's test.
const rendered = new Map<string, Promise<RenderedBlock[]>>();
const blocksOnce = (one: LoadedCommitCase) => {
  let blocks = rendered.get(one.entry.id);
  if (!blocks) {
    blocks = blocksOf(one);
    rendered.set(one.entry.id, blocks);
  }
  return blocks;
};

for (const repo of manifest.repos) {
  const entries = manifest.cases.filter((c) => c.repo === repo);
  const loaded = loadRepoCases(repo, entries);
  if (!loaded) {
    skipped.push(repo);
    test(`commit corpus: ${repo}: ${entries.length} changes`, { skip: `no snapshot in ${MIRRORS} (fetch github:${repo})` }, () => {});
    continue;
  }
  test(`commit corpus: ${repo}: the snapshot has every case's commit`, () => {
    assert.deepEqual(
      loaded.absent.map((e) => `${e.commit} ${e.path}`),
      [],
    );
  });
  for (const one of loaded.cases) {
    const { entry, before, after } = one;
    for (const shape of Object.keys(entry.shapes)) {
      const id = `${entry.id}/${shape}`;
      const known = knownIssues[id];
      test(
        `commit corpus: ${id}: ${entry.what.replace(/\s+/g, ' ').slice(0, 120)} (${repo} ${entry.commit.slice(0, 10)}, ${entry.path})`,
        known ? { todo: known } : {},
        async () => {
          const block = (await blocksOnce(one)).find((b) => b.shape === shape);
          assert.ok(block, `${id}: the renderer wrote no ${shape} block`);
          const run = await runCorpusCase(before, block.block, entry.path, after);
          countByLanguage(tally, byLanguage, run, entry.language);
          if (run.verdict !== 'applied as expected') {
            notes.push(diagnosisLine(id, run));
          } else if (known) {
            knownNowRight.push(id);
          }
          assert.notEqual(run.verdict, 'wrong', `${id}: ${run.verdict}\n${run.detail}`);
        },
      );
    }
  }
}

test('commit corpus: summary', () => {
  for (const [language, own] of [...byLanguage].sort()) {
    console.log(`  commit corpus, ${languageLine(language, own)}`);
  }
  console.log(`${tallyLine('commit corpus', tally)}, in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (skipped.length > 0) {
    console.log(`commit corpus: not run, no snapshot in ${MIRRORS}: ${skipped.map((r) => `github:${r}`).join(', ')}`);
  }
  if (process.env.RESILIENT_APPLY_CORPUS_NOTES) {
    fs.writeFileSync(process.env.RESILIENT_APPLY_CORPUS_NOTES, `${notes.sort().join('\n')}\n`);
  }
  if (knownNowRight.length > 0) {
    console.log(`commit corpus: known issues now applied as expected (drop them from knownIssues.json): ${knownNowRight.join(', ')}`);
  }
  assert.ok(manifest.cases.length > 0 && manifest.repos.length > 0, 'the manifest names no case');
  if (skipped.length === 0) {
    assert.ok(tally.cases >= 150, `the corpus has ${tally.cases} cases`);
    assert.ok(tally.languages.size >= 10, `the corpus has ${tally.languages.size} languages`);
  }
});
