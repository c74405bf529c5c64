// Replacement transforms: REPLACE lines that stand unchanged from SEARCH are written back as the
// file's own lines, byte for byte (the file's quotes, dashes, spacing survive untouched). Changed and
// new lines are brought into the file's style the way the match was normalised: the same indentation
// shift (tabs stay tabs), the file's quote characters, no trailing whitespace (except in Markdown).
// Line endings are the caller's business (it joins the lines). Nothing here interprets `$`.

import { alignEqual, alignLines } from './align';
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

/**
 * A three-way merge at line level: the changes SEARCH -> REPLACE are carried onto the file's region.
 * Sync points are SEARCH lines that correspond to a file line and stand unchanged in REPLACE. Between
 * two sync points, a stretch REPLACE left alone is written as the file's own lines (even where SEARCH
 * and the file disagree, e.g. a line SEARCH invented or garbled in a fuzzy match); a stretch REPLACE
 * changed is written from REPLACE, its unchanged lines again taken from the file where they pair.
 */
export function buildReplacement(input: ReplacementInput): ReplacementLine[] {
  const replace = prepareReplaceLines(input.replaceLines, input.lineNumbersStripped, input.restoredTags);
  const keep = input.keepTrailingWhitespace;
  const key = keep ? (l: string) => l : trimEndWs;
  const fileOf = new Map<number, number>(input.pairs.map(([s, f]) => [s, f]));
  const replaceOf = new Map<number, number>();
  for (const [r, s] of alignEqual(replace.map(key), input.searchLines.map(key))) replaceOf.set(s, r);

  const style = keep ? 'unknown' : indentStyle(input.fileLines);
  const width = input.indent.kind === 'columns' ? input.indent.width : 4;
  const styleQuotes = input.preserveQuoteStyle ? quoteStyler(input.quotes, input.fileLines.join('\n')) : undefined;
  const restyle = (line: string): ReplacementLine => {
    if (isBlank(line)) return { text: keep ? line : '' };
    const lead = leadingWhitespace(line);
    let rest = line.slice(lead.length);
    if (styleQuotes) rest = styleQuotes(rest);
    if (!keep) rest = trimEndWs(rest);
    return { text: conformIndent(mapIndent(input.indent, lead), style, width) + rest };
  };

  const syncs: Array<[number, number, number]> = [[-1, -1, -1]];
  for (let s = 0; s < input.searchLines.length; s++) {
    const f = fileOf.get(s);
    const r = replaceOf.get(s);
    if (f !== undefined && r !== undefined) syncs.push([s, f, r]);
  }
  syncs.push([input.searchLines.length, input.fileLines.length, replace.length]);

  const out: ReplacementLine[] = [];
  for (let i = 0; i + 1 < syncs.length; i++) {
    const [s1, f1, r1] = syncs[i];
    const [s2, f2, r2] = syncs[i + 1];
    if (i > 0) out.push({ text: input.fileLines[f1], fileLine: f1 });
    let untouched = r2 - r1 === s2 - s1;
    for (let s = s1 + 1; s < s2 && untouched; s++) if (!replaceOf.has(s)) untouched = false;
    if (untouched) {
      for (let f = f1 + 1; f < f2; f++) out.push({ text: input.fileLines[f], fileLine: f });
      continue;
    }
    const searchOf = new Map<number, number>();
    for (let s = s1 + 1; s < s2; s++) {
      const r = replaceOf.get(s);
      if (r !== undefined) searchOf.set(r, s);
    }
    for (let r = r1 + 1; r < r2; r++) {
      const s = searchOf.get(r);
      const f = s === undefined ? undefined : fileOf.get(s);
      out.push(f !== undefined ? { text: input.fileLines[f], fileLine: f } : restyle(replace[r]));
    }
  }
  return out;
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
