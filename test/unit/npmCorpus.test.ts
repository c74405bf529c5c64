// The real-edit corpus (issue 25): changes between two published versions of npm packages (real edits by
// real people, in a dozen languages), each rendered as the code blocks chat models write for it (the
// declaration alone, dedented, inside its class with placeholders, the whole file elided, a new declaration
// beside its neighbour: test/corpus/renderBlocks.ts). Every block runs through the CLI's code-block path
// and must give the package's new file byte for byte, or be refused. test/corpus/buildNpmCorpus.ts
// rebuilds the cases from the registry. A wrong apply listed in knownIssues.json runs as a todo.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyCompactEdits } from '../corpus/lineDiff';
import { type CaseRun, count, diagnosisLine, emptyTally, runCorpusCase, tallyLine } from '../corpus/runCorpus';
import type { StoredCase } from '../corpus/buildNpmCorpus';

const CORPUS = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'npmCorpus');
const knownIssues = JSON.parse(fs.readFileSync(path.join(CORPUS, 'knownIssues.json'), 'utf8')) as Record<string, string>;
const caseNames = fs
  .readdirSync(path.join(CORPUS, 'cases'))
  .filter((name) => fs.existsSync(path.join(CORPUS, 'cases', name, 'case.json')))
  .sort();
const tally = emptyTally();
const notes: string[] = [];
const knownNowRight: string[] = [];

for (const name of caseNames) {
  const dir = path.join(CORPUS, 'cases', name);
  const spec = JSON.parse(fs.readFileSync(path.join(dir, 'case.json'), 'utf8')) as StoredCase;
  const before = fs.readFileSync(path.join(dir, 'before.txt'), 'utf8');
  const expected = applyCompactEdits(before, spec.edits);
  for (const shape of spec.shapes) {
    const id = `${name}/${shape}`;
    const known = knownIssues[id];
    test(
      `npm corpus: ${id}: ${spec.what} (${spec.package} ${spec.from} -> ${spec.to}, ${spec.path})`,
      known ? { todo: known } : {},
      async () => {
        const block = fs.readFileSync(path.join(dir, `${shape}.md`), 'utf8');
        const run: CaseRun = await runCorpusCase(before, block, spec.path, expected);
        count(tally, run, spec.language);
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

test('npm corpus: summary', () => {
  console.log(tallyLine('npm corpus', tally));
  if (process.env.RESILIENT_APPLY_CORPUS_NOTES) {
    fs.writeFileSync(process.env.RESILIENT_APPLY_CORPUS_NOTES, `${notes.sort().join('\n')}\n`);
  }
  if (knownNowRight.length > 0) {
    console.log(`npm corpus: known issues now applied as expected (drop them from knownIssues.json): ${knownNowRight.join(', ')}`);
  }
  assert.ok(tally.cases >= 150, `the corpus has ${tally.cases} cases`);
  assert.ok(tally.languages.size >= 10, `the corpus has ${tally.languages.size} languages`);
});
