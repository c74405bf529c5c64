// Exact evidence, the passes: the quick one (lines equal to a SEARCH line once trimmed, looked up while
// the document was measured) and the full one (by lineKey, with KeyMatcher), each skipped when the
// document or the budget cannot afford it. Between measuring the document and scoring windows.

import { type LineSource } from '../lineSource';
import { type Budget } from './budget';
import { ExactLines } from './exactLines';
import { KeyMatcher } from './keyMatcher';
import { type MeasuredLines, type TrimmedForms } from './measure';

/**
 * Documents up to this many characters get the whole-document exact-line scan (see scanExactLines). It
 * reads a few characters of most lines, and what it finds usually spares the bag-of-bigrams pass over
 * every character: worth it up to files of about 150,000 lines; beyond, the work cap needs its share.
 */
const EVIDENCE_SCAN_CHARS = 8_000_000;

/** Whether a document of these lines gets an exact-line pass: SEARCH of two lines or more, up to EVIDENCE_SCAN_CHARS. */
function exactPassAffordable(lines: MeasuredLines, n: number, budget: Budget, cost: number): boolean {
  return n >= 2 && lines.nonBlankChars <= EVIDENCE_SCAN_CHARS && budget.used + cost <= budget.cap;
}

/**
 * SEARCH's lines in the forms a document line may take once trimmed to be equal to one: as they came
 * (`trimmed`) and with inner spaces collapsed (`search`, normalizeLine), each mapped to its key's index
 * in `exact`, since a document line equal to either has that key.
 */
export function trimmedForms(search: readonly string[], trimmed: readonly string[], exact: ExactLines): TrimmedForms {
  const byText = new Map<string, number>();
  for (let i = 0; i < search.length; i++) {
    byText.set(search[i], exact.keyOf[i]);
    byText.set(trimmed[i], exact.keyOf[i]);
  }
  let longest = 0;
  for (const form of byText.keys()) {
    longest = Math.max(longest, form.length);
  }
  const lengths = new Uint8Array(longest + 1);
  for (const form of byText.keys()) {
    lengths[form.length] = 1;
  }
  return { byText, lengths };
}

/**
 * The quick exact-line pass: the non-blank lines that equal a SEARCH line once both are trimmed, which
 * measureLines looked up as it read each line (a native trim and a map lookup, about what a cold run
 * pays for reading two characters of a line in a JavaScript loop). It finds what the usual near miss
 * needs, a SEARCH quoted from the file; lines that differ from SEARCH's only inside (spacing, quote
 * kinds) are scanExactLines's. Counted as one unit of work per line; skipped (undefined) as
 * scanExactLines is.
 */
export function scanTrimmedLines(lines: MeasuredLines, exact: ExactLines, budget: Budget): ExactLines | undefined {
  const found = lines.trimmedMatches;
  if (!found || !exactPassAffordable(lines, exact.keyOf.length, budget, lines.nonBlank.length)) {
    return undefined;
  }
  budget.spend(lines.nonBlank.length);
  for (let m = 0; m < found.lines.length; m++) {
    exact.add(found.keys[m], found.lines[m]);
  }
  return exact;
}

/**
 * The exact-line pass: which non-blank lines equal (by lineKey) which SEARCH lines. One pass over the
 * non-blank lines (KeyMatcher; most are ruled out by a few characters from their ends), counted as work
 * as a pass over all their characters; skipped (undefined) for SEARCH of fewer than two lines, for
 * documents above EVIDENCE_SCAN_CHARS and when the budget cannot afford it.
 */
export function scanExactLines(
  doc: LineSource,
  lines: MeasuredLines,
  searchKeys: readonly string[],
  budget: Budget,
): ExactLines | undefined {
  const chars = lines.nonBlankChars;
  if (!exactPassAffordable(lines, searchKeys.length, budget, chars)) {
    return undefined;
  }
  budget.spend(chars);
  // Each non-blank line is ruled out by a few characters from its ends (measureLines measured its
  // indentation); only lines that look like a SEARCH line are read further.
  const exact = new ExactLines(searchKeys);
  const matcher = new KeyMatcher(exact);
  const nonBlank = lines.nonBlank;
  const leads = lines.leads;
  const { text, lineTexts, starts, ends } = doc;
  for (let j = 0; j < nonBlank.length; j++) {
    const li = nonBlank[j];
    matcher.visit(lineTexts === undefined ? text : lineTexts[li], starts[li] + leads[j], ends[li], j);
  }
  return exact;
}
