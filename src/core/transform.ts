// Replacement transforms: REPLACE lines that stand unchanged from SEARCH are written back as the
// file's own lines, byte for byte (the file's quotes, dashes, spacing survive untouched). Changed and
// new lines are brought into the file's style the way the match was normalised: the same indentation
// shift (tabs stay tabs), the file's quote characters, no trailing whitespace (except in Markdown).
// Line endings are the caller's business (it joins the lines). Nothing here interprets `$`.

import { alignLines } from './align';
import { conformIndent, deriveIndentMapLoose, IndentMap, indentStyle, leadPairs, mapIndent } from './indent';
import { foldQuotes, foldUnicode, isBlank, leadingWhitespace, restoreSomeTags, stripLineNumber, tokenKey, trimEndWs } from './normalize';
import { alignQuotes, QuotePairs, quoteStyler } from './quotes';
import { similarity } from './fuzzy';

export interface ReplacementInput {
  /** The file's lines in the placed region (contents, no line breaks). */
  fileLines: readonly string[];
  /** SEARCH lines as matched (line-number prefixes removed, sanitised tags restored where needed). */
  searchLines: readonly string[];
  /** [SEARCH line index, fileLines index] pairs that correspond (1:1 for tiers 1-9). */
  pairs: ReadonlyArray<readonly [number, number]>;
  replaceLines: readonly string[];
  indent: IndentMap;
  /** Aligned [SEARCH quote, file quote] characters of the match. */
  quotes: QuotePairs;
  /** SEARCH carried line-number prefixes; REPLACE lines lose theirs too. */
  lineNumbersStripped: boolean;
  /** Sanitised tags (short forms) the match restored; REPLACE gets them restored too. */
  restoredTags: readonly string[];
  /** Markdown: trailing whitespace is meaningful (hard line breaks). */
  keepTrailingWhitespace: boolean;
  preserveQuoteStyle: boolean;
}

export interface ReplacementLine {
  text: string;
  /** Index into fileLines when this line is the file's own line written back unchanged. */
  fileLine?: number;
}

/** REPLACE lines after the same preprocessing SEARCH needed to match. */
export function prepareReplaceLines(
  lines: readonly string[],
  lineNumbersStripped: boolean,
  restoredTags: readonly string[],
): string[] {
  return lines.map((line) => {
    let out = line;
    if (lineNumbersStripped) out = stripLineNumber(out) ?? out;
    if (restoredTags.length) out = restoreSomeTags(out, restoredTags);
    return out;
  });
}

export function buildReplacement(input: ReplacementInput): ReplacementLine[] {
  const replace = prepareReplaceLines(input.replaceLines, input.lineNumbersStripped, input.restoredTags);
  const keep = input.keepTrailingWhitespace;
  const same = keep ? (r: string, s: string) => r === s : (r: string, s: string) => trimEndWs(r) === trimEndWs(s);
  const fileOf = new Map<number, number>(input.pairs.map(([s, f]) => [s, f]));
  const unchanged = new Map<number, number>();
  for (const [r, s] of alignLines(replace, input.searchLines, same)) {
    const f = fileOf.get(s);
    if (f !== undefined) unchanged.set(r, f);
  }

  const style = keep ? 'unknown' : indentStyle(input.fileLines);
  const width = input.indent.kind === 'columns' ? input.indent.width : 4;
  const styleQuotes = input.preserveQuoteStyle ? quoteStyler(input.quotes, input.fileLines.join('\n')) : undefined;

  return replace.map((line, r) => {
    const f = unchanged.get(r);
    if (f !== undefined) return { text: input.fileLines[f], fileLine: f };
    if (isBlank(line)) return { text: keep ? line : '' };
    const lead = leadingWhitespace(line);
    let rest = line.slice(lead.length);
    if (styleQuotes) rest = styleQuotes(rest);
    if (!keep) rest = trimEndWs(rest);
    return { text: conformIndent(mapIndent(input.indent, lead), style, width) + rest };
  });
}

/** Whitespace-, quote- and unicode-insensitive line key used to pair SEARCH with a fuzzy/chosen region. */
function looseKey(line: string): string {
  return tokenKey(foldUnicode(foldQuotes(line)));
}

/** Lines this similar are taken to be the same line (a typo or a dropped comma in SEARCH). */
const SAME_LINE_SCORE = 0.8;

/**
 * For a region that is not a tier 1-9 occurrence (fuzzy or chosen by the user): pair SEARCH lines with
 * the region's lines (equal up to whitespace/quotes/unicode, or nearly equal) and derive the
 * indentation and quote relations from the pairs.
 */
export function relateRegion(
  searchLines: readonly string[],
  fileLines: readonly string[],
): { pairs: Array<[number, number]>; indent: IndentMap; quotes: QuotePairs } {
  const sk = searchLines.map(looseKey);
  const fk = fileLines.map(looseKey);
  // Near-equal pairing costs a similarity per DP cell; only for regions of ordinary size.
  const near = sk.length * fk.length <= 10_000;
  const pairs = alignLines(
    sk,
    fk,
    (a, b) => a.length > 0 && b.length > 0 && (a === b || (near && similarity(a, b) >= SAME_LINE_SCORE)),
  );
  const linePairs = pairs.map(([s, f]) => [searchLines[s], fileLines[f]] as const);
  const indent = deriveIndentMapLoose(leadPairs(linePairs));
  const quotes = alignQuotes(pairs.filter(([s, f]) => sk[s] === fk[f]).map(([s, f]) => [searchLines[s], fileLines[f]] as const)) ?? [];
  return { pairs, indent, quotes };
}
