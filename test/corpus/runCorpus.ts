// Runs one real-edit case through the code-block path exactly as the CLI does (readSnippetText, then
// applySnippet with the file's language) and judges the result against the real new file.
import { applySnippet, readSnippetText } from '../../src/core';
import { languageIdFor } from '../../src/node/paths';
import { testGrammars } from '../shared/grammars';
import { lineHunks } from './lineDiff';

// 'trailing whitespace dropped': the result is the real file but for trailing white space on lines the
// block wrote with it, which the product drops by its rule (README "SEARCH/REPLACE": trailing whitespace the
// model added is dropped); counted on its own, neither right nor wrong.
export type Verdict = 'applied as expected' | 'trailing whitespace dropped' | 'refused' | 'wrong';

export interface CaseRun {
  verdict: Verdict;
  /** For a wrong apply: the first difference from the real file, in one line. */
  firstDifference?: string;
  /** For a wrong apply: the result lacks lines of the real file that the block never showed. */
  deletesUnshown?: boolean;
  /** The product's message, or what differs. */
  detail: string;
}

export async function runCorpusCase(before: string, blockText: string, file: string, expected: string): Promise<CaseRun> {
  const read = readSnippetText(blockText);
  if (!read.ok) {
    return { verdict: 'refused', detail: `not read: ${read.message}` };
  }
  const languageId = languageIdFor(file);
  let result;
  try {
    result = await applySnippet(
      before,
      { code: read.code, languageId, fileName: file },
      { fileName: file, languageId, grammars: testGrammars },
    );
  } catch (error) {
    return { verdict: 'wrong', detail: `threw: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}` };
  }
  if (result.status !== 'applied' || result.content === undefined) {
    return { verdict: 'refused', detail: `${result.status}: ${result.message}` };
  }
  if (result.content === expected) {
    return { verdict: 'applied as expected', detail: result.message };
  }
  if (onlyAddedTrailingWhitespace(expected, result.content, read.code)) {
    return { verdict: 'trailing whitespace dropped', detail: result.message };
  }
  const { lost, diff, first } = difference(expected, result.content);
  const shown = new Set(read.code.split('\n').map((l) => l.trim()));
  const unshown = lost.filter((l) => l.trim() !== '' && !shown.has(l.trim()));
  return {
    verdict: 'wrong',
    deletesUnshown: unshown.length > 0,
    firstDifference: `${unshown.length > 0 ? `deleted ${unshown.length} unshown line(s), first ${JSON.stringify(unshown[0].trim().slice(0, 60))}; ` : ''}${first}`,
    detail: `${result.message}\n${unshown.length > 0 ? `deleted ${unshown.length} line(s) the block never showed, first: ${JSON.stringify(unshown[0].trim())}\n` : ''}${diff}`,
  };
}

/**
 * The result differs from the real file only where a line of the real file ends in white space (or is white
 * space alone) and the result has that line without it, and the block wrote that line with it.
 */
function onlyAddedTrailingWhitespace(expected: string, actual: string, code: string): boolean {
  const a = expected.split('\n');
  const b = actual.split('\n');
  if (a.length !== b.length) {
    return false;
  }
  const written = new Set(
    code
      .split('\n')
      .filter((l) => l !== l.trimEnd())
      .map((l) => l.trim()),
  );
  return a.every((line, i) => line === b[i] || (b[i] === line.trimEnd() && written.has(line.trim())));
}

/** The expected lines the result lacks, and a short description of the first difference. */
function difference(expected: string, actual: string): { lost: string[]; diff: string; first: string } {
  const a = expected.split('\n');
  const b = actual.split('\n');
  const hunks = lineHunks(a, b) ?? [{ aStart: 0, aEnd: a.length, bStart: 0, bEnd: b.length }];
  const lost = hunks.flatMap((h) => a.slice(h.aStart, h.aEnd));
  const first = hunks[0];
  const show = (lines: string[], from: number, to: number) =>
    lines
      .slice(from, Math.min(to, from + 8))
      .map((l) => `    ${JSON.stringify(l)}`)
      .join('\n');
  const diff = first
    ? `${hunks.length} hunk(s); first: expected lines ${first.aStart + 1}-${first.aEnd}:\n${show(a, first.aStart, first.aEnd)}\n  got lines ${first.bStart + 1}-${first.bEnd}:\n${show(b, first.bStart, first.bEnd)}`
    : 'only the line ends differ';
  const clip = (lines: string[], from: number, to: number) =>
    from === to
      ? 'nothing'
      : JSON.stringify(
          lines
            .slice(from, Math.min(to, from + 2))
            .join('\\n')
            .slice(0, 90),
        );
  const firstLine = first
    ? `${hunks.length} difference(s), first at line ${first.aStart + 1} (after ${JSON.stringify((a[first.aStart - 1] ?? '').trim().slice(0, 50))}): expected ${clip(a, first.aStart, first.aEnd)}, got ${clip(b, first.bStart, first.bEnd)}`
    : 'only the line ends differ';
  return { lost, diff, first: firstLine };
}

export interface Tally {
  cases: number;
  applied: number;
  refused: number;
  wrong: number;
  deleting: number;
  trailing: number;
  languages: Set<string>;
}

export const emptyTally = (): Tally => ({
  cases: 0,
  applied: 0,
  refused: 0,
  wrong: 0,
  deleting: 0,
  trailing: 0,
  languages: new Set(),
});

/** Counts a case in the whole tally and in its language's (made when first needed). */
export function countByLanguage(tally: Tally, byLanguage: Map<string, Tally>, run: CaseRun, language: string): void {
  count(tally, run, language);
  const own = byLanguage.get(language) ?? emptyTally();
  byLanguage.set(language, own);
  count(own, run, language);
}

export function count(tally: Tally, run: CaseRun, language: string): void {
  tally.cases++;
  tally.languages.add(language);
  if (run.verdict === 'applied as expected') {
    tally.applied++;
  } else if (run.verdict === 'trailing whitespace dropped') {
    tally.trailing++;
  } else if (run.verdict === 'refused') {
    tally.refused++;
  } else {
    tally.wrong++;
    if (run.deletesUnshown) {
      tally.deleting++;
    }
  }
}

export function tallyLine(name: string, t: Tally): string {
  return (
    `${name}: ${t.cases} cases in ${t.languages.size} languages (${[...t.languages].sort().join(', ')}), ` +
    `${t.applied} applied as expected, ${t.trailing > 0 ? `${t.trailing} applied without the trailing whitespace the block added, ` : ''}` +
    `${t.refused} refused, ${t.wrong} wrong (${t.deleting} deleting unshown code)`
  );
}

/** One language's tally in one line. */
export function languageLine(language: string, own: Tally): string {
  return `${language}: ${own.cases} cases, ${own.applied} right, ${own.trailing > 0 ? `${own.trailing} trailing whitespace dropped, ` : ''}${own.refused} refused, ${own.wrong} wrong${own.deleting > 0 ? ` (${own.deleting} deleting unshown code)` : ''}`;
}

/** One line for the failures note: the case, its verdict and the first line of what happened. */
export function diagnosisLine(id: string, run: CaseRun): string {
  const message = run.detail
    .split('\n')[0]
    .replace(/^(The code block was not applied to|Applied the code block to) \S+:? ?/, '')
    .slice(0, 220);
  const firstLine = run.firstDifference ? `${message} | ${run.firstDifference}` : message;
  const kind =
    run.verdict === 'wrong'
      ? run.deletesUnshown
        ? 'WRONG, deletes unshown code'
        : 'WRONG'
      : run.verdict === 'refused'
        ? 'refused'
        : 'trailing whitespace dropped';
  return `- ${id}: ${kind}: ${firstLine}`;
}
