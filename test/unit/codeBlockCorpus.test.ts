// The code-block corpus (issue 20): real source files (from npm packages, and small real-world style files
// in languages without a grammar) with the code blocks chat models and agents actually write for them:
// Copilot's "Apply in editor" (`// ...existing code...`, a `// filepath:` line), Cursor's edit_file
// (placeholders at both ends, several functions and an import at once), Claude's and ChatGPT's (a method in
// its class skeleton, a bare method, dedented), Python's `# ... rest of the code ...`, and blocks that must
// be refused. Each case states the file it expects (or the refusal); the text is applied through the call the
// CLI makes (readSnippetText, then applySnippet) and compared byte for byte.
//
// test/fixtures/codeBlockCorpus/cases/<name>/: case.json ({ source, file, style, expect, why, knownIssue? }),
// block.md (the model's answer: one fenced code block, or the code as the tool receives it) and, for an
// apply, expected.<ext> (the file as the user wants it). A case with `knownIssue` runs as a todo: reported,
// not failed.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applySnippet, readSnippetText } from '../../src/core';
import { languageIdFor } from '../../src/node/paths';
import { testGrammars } from '../shared/grammars';

const CORPUS = path.resolve(__dirname, '..', '..', '..', 'test', 'fixtures', 'codeBlockCorpus');

interface CorpusCase {
  /** The original file, under sources/. */
  source: string;
  /** The path the file has in the workspace (its extension picks the language). */
  file: string;
  /** Whose answer the block imitates: copilot, cursor, claude, chatgpt, ... */
  style: string;
  /** 'applied', or the refusal: 'refused' (any), 'ambiguous', 'not_found', 'invalid'. */
  expect: 'applied' | 'refused' | 'ambiguous' | 'not_found' | 'invalid';
  /** What the block asks for, in a sentence. */
  why: string;
  /** A known failure, described: the case runs as a todo until it is fixed. */
  knownIssue?: string;
}

type Verdict = 'applied as expected' | 'refused as expected' | 'wrong apply' | 'missed';

interface Run {
  verdict: Verdict;
  detail: string;
}

async function runCase(dir: string, spec: CorpusCase): Promise<Run> {
  const original = fs.readFileSync(path.join(CORPUS, 'sources', spec.source), 'utf8');
  const read = readSnippetText(fs.readFileSync(path.join(dir, 'block.md'), 'utf8'));
  if (!read.ok) {
    return { verdict: spec.expect === 'applied' ? 'missed' : 'refused as expected', detail: `not read: ${read.message}` };
  }
  if (read.filePath !== undefined) {
    assert.ok(spec.file.endsWith(read.filePath.replace(/^[./]+/, '')), `the block names ${read.filePath}, the case ${spec.file}`);
  }
  const languageId = languageIdFor(spec.file);
  const result = await applySnippet(
    original,
    { code: read.code, languageId, fileName: spec.file },
    { fileName: spec.file, languageId, grammars: testGrammars },
  );
  if (spec.expect !== 'applied') {
    if (result.status !== 'applied') {
      const kind = spec.expect === 'refused' || spec.expect === result.status ? '' : ` (expected ${spec.expect})`;
      return { verdict: 'refused as expected', detail: `${result.status}${kind}: ${result.message}` };
    }
    return { verdict: 'wrong apply', detail: `applied, but must be refused: ${spec.why}\n${result.message}` };
  }
  const expectedName = fs.readdirSync(dir).find((f) => f.startsWith('expected.'));
  assert.ok(expectedName, `${dir}: an applied case needs expected.<ext>`);
  const expected = fs.readFileSync(path.join(dir, expectedName), 'utf8');
  if (result.status !== 'applied') {
    return { verdict: 'missed', detail: `${result.status}: ${result.message}` };
  }
  if (result.content !== expected) {
    return { verdict: 'wrong apply', detail: `the result differs from ${expectedName}:\n${lineDiff(expected, result.content ?? '')}` };
  }
  return { verdict: 'applied as expected', detail: result.message };
}

/** The first lines where two texts differ, with a little context. */
function lineDiff(expected: string, actual: string): string {
  const a = expected.split('\n');
  const b = actual.split('\n');
  let first = 0;
  while (first < a.length && first < b.length && a[first] === b[first]) {
    first++;
  }
  let tailA = a.length - 1;
  let tailB = b.length - 1;
  while (tailA > first && tailB > first && a[tailA] === b[tailB]) {
    tailA--;
    tailB--;
  }
  const show = (lines: string[], from: number, to: number) =>
    lines
      .slice(Math.max(0, from - 2), Math.min(to + 3, from + 14))
      .map((l) => JSON.stringify(l))
      .join('\n    ');
  return `  expected lines ${first + 1}-${tailA + 1}:\n    ${show(a, first, tailA)}\n  got lines ${first + 1}-${tailB + 1}:\n    ${show(b, first, tailB)}`;
}

const caseNames = fs
  .readdirSync(path.join(CORPUS, 'cases'))
  .filter((name) => fs.existsSync(path.join(CORPUS, 'cases', name, 'case.json')))
  .sort();
const tally = new Map<Verdict, string[]>();
const knownWrong: string[] = [];
const knownFixed: string[] = [];

for (const name of caseNames) {
  const dir = path.join(CORPUS, 'cases', name);
  const spec = JSON.parse(fs.readFileSync(path.join(dir, 'case.json'), 'utf8')) as CorpusCase;
  test(`code-block corpus: ${name} (${spec.style}): ${spec.why}`, spec.knownIssue ? { todo: spec.knownIssue } : {}, async () => {
    const run = await runCase(dir, spec);
    tally.set(run.verdict, [...(tally.get(run.verdict) ?? []), name]);
    const good = run.verdict === 'applied as expected' || run.verdict === 'refused as expected';
    if (spec.knownIssue) {
      (good ? knownFixed : knownWrong).push(name);
    }
    assert.ok(good, `${name}: ${run.verdict}\n${run.detail}`);
  });
}

test('code-block corpus: summary', () => {
  const count = (v: Verdict) => tally.get(v)?.length ?? 0;
  const wrong = count('wrong apply') + count('missed');
  console.log(
    `code-block corpus: ${caseNames.length} cases: ${count('applied as expected')} applied as expected, ` +
      `${count('refused as expected')} refused as expected, ${wrong} wrong (${count('wrong apply')} wrong apply: ` +
      `${(tally.get('wrong apply') ?? []).join(', ') || 'none'}; ${count('missed')} missed: ${(tally.get('missed') ?? []).join(', ') || 'none'}); ` +
      `known issues still failing: ${knownWrong.length}${knownFixed.length > 0 ? `; known issues now passing (drop knownIssue): ${knownFixed.join(', ')}` : ''}`,
  );
  assert.ok(caseNames.length >= 30, `the corpus has ${caseNames.length} cases`);
});
