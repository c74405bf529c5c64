// Replacement transforms: REPLACE lines that stand unchanged from SEARCH are written back as the
// file's own lines, byte for byte. A changed REPLACE line that pairs with a SEARCH line is merged at
// token level (merge.ts): what it kept from SEARCH is written with the file's characters, only what the
// model changed comes from REPLACE. Indentation of changed and new lines goes through the match's one
// indentation relation (indent.ts); under the identity relation REPLACE's indentation is written as
// given. Text the model wrote follows the file's look-alike conventions (quote pair, no special spaces
// or zero-width characters the file does not have); trailing whitespace it added is dropped (not in
// Markdown). Line endings are the caller's business (it joins the lines). Nothing here interprets `$`.

import { alignEqual, alignLines } from './align';
import { bestIndentMap, deriveIndentMap, type IndentMap, leadPairs, mapIndent } from '../match/indent';
import {
  foldQuotes,
  foldUnicode,
  isBlank,
  leadingWhitespace,
  quoteChars,
  restoreSomeTags,
  stripLineNumber,
  tokenKey,
  trimEndWs,
  trimWs,
} from '../match/normalize';
import { alignQuotes, quoteStyler } from '../match/quotes';
import { similarity } from '../match/fuzzy/similarity';
import { straightenCurlyQuotes } from './curlyQuotes';
import { mergeLine, type Piece, tokenizeLine } from './merge';

export interface ReplacementInput {
  /** The file's lines in the placed region (contents, no line breaks). */
  fileLines: readonly string[];
  /** SEARCH lines as matched (line-number prefixes removed, sanitised tags restored where needed). */
  searchLines: readonly string[];
  /** [SEARCH line index, fileLines index] pairs that correspond (1:1 for tiers 1-9). */
  pairs: ReadonlyArray<readonly [number, number]>;
  replaceLines: readonly string[];
  /** The match's indentation relation (SEARCH -> file). */
  indent: IndentMap;
  /** SEARCH carried line-number prefixes; REPLACE lines lose theirs too. */
  lineNumbersStripped: boolean;
  /** Sanitised tags (short forms) the match restored; REPLACE gets them restored too. */
  restoredTags: readonly string[];
  /** Markdown: trailing whitespace is meaningful (hard line breaks). */
  keepTrailingWhitespace: boolean;
  preserveQuoteStyle: boolean;
  /** Whether the document contains this character (special spaces the model wrote follow the file). */
  fileHas?: (ch: string) => boolean;
}

export interface ReplacementLine {
  text: string;
  /** Index into fileLines when this line is the file's own line written back unchanged. */
  fileLine?: number;
}

/** REPLACE lines after the same preprocessing SEARCH needed to match. */
export function prepareReplaceLines(lines: readonly string[], lineNumbersStripped: boolean, restoredTags: readonly string[]): string[] {
  return lines.map((line) => {
    let out = line;
    if (lineNumbersStripped) {
      out = stripLineNumber(out) ?? out;
    }
    if (restoredTags.length) {
      out = restoreSomeTags(out, restoredTags);
    }
    return out;
  });
}

/** Changed lines this similar to a SEARCH line of the same stretch are merged with it. */
const PAIR_LINE_SCORE = 0.5;
/** Above this many line pairs in one changed stretch, lines pair by position only. */
const MAX_PAIRING_CELLS = 2_500;

/**
 * Pair changed REPLACE lines [r1, r2) with changed SEARCH lines [s1, s2) in order, maximising the summed
 * similarity of pairs that reach PAIR_LINE_SCORE.
 */
function pairChanged(
  replace: readonly string[],
  search: readonly string[],
  r1: number,
  r2: number,
  s1: number,
  s2: number,
): Map<number, number> {
  const out = new Map<number, number>();
  const n = r2 - r1;
  const m = s2 - s1;
  if (n <= 0 || m <= 0) {
    return out;
  }
  const score = (r: number, s: number) => {
    const a = trimWs(replace[r]);
    const b = trimWs(search[s]);
    if (a === '' || b === '') {
      return 0;
    }
    const v = similarity(foldUnicode(foldQuotes(a)), foldUnicode(foldQuotes(b)));
    return v >= PAIR_LINE_SCORE ? v : 0;
  };
  if (n * m > MAX_PAIRING_CELLS) {
    for (let k = 0; k < Math.min(n, m); k++) {
      if (score(r1 + k, s1 + k) > 0) {
        out.set(r1 + k, s1 + k);
      }
    }
    return out;
  }
  const w = m + 1;
  const best = new Float64Array((n + 1) * w);
  const sc = new Float64Array(n * m);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      const v = (sc[i * m + j] = score(r1 + i, s1 + j));
      const take = v > 0 ? best[(i + 1) * w + j + 1] + v : 0;
      best[i * w + j] = Math.max(take, best[(i + 1) * w + j], best[i * w + j + 1]);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    const v = sc[i * m + j];
    if (v > 0 && best[i * w + j] === best[(i + 1) * w + j + 1] + v) {
      out.set(r1 + i, s1 + j);
      i++;
      j++;
    } else if (best[(i + 1) * w + j] >= best[i * w + j + 1]) {
      i++;
    } else {
      j++;
    }
  }
  return out;
}

const SPECIAL_SPACE_RE = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g;
const ZERO_WIDTH_RE = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;

/**
 * A three-way merge at line level, then at token level: the changes SEARCH -> REPLACE are carried onto
 * the file's region. Sync points are SEARCH lines that correspond to a file line and stand unchanged in
 * REPLACE. Between two sync points, a stretch REPLACE left alone is written as the file's own lines
 * (even where SEARCH and the file disagree, e.g. a line SEARCH invented or garbled in a fuzzy match); a
 * stretch REPLACE changed is written from REPLACE: its unchanged lines again taken from the file where
 * they pair, its changed lines merged with the SEARCH line they pair with (merge.ts), new lines as
 * written, each with indentation through the match's relation.
 */
export function buildReplacement(input: ReplacementInput): ReplacementLine[] {
  return new ReplacementWriter(input).lines();
}

/** One buildReplacement: the three line lists, how they align, and the file's conventions the matched lines show. */
class ReplacementWriter {
  private readonly replace: string[];
  private readonly search: readonly string[];
  private readonly fileLines: readonly string[];
  /** Trailing whitespace is kept (Markdown). */
  private readonly keep: boolean;
  /** SEARCH line -> the file line it corresponds to. */
  private readonly fileOf: Map<number, number>;
  /** SEARCH line -> the REPLACE line that repeats it unchanged. */
  private readonly replaceOf = new Map<number, number>();
  /** SEARCH indentation -> the file's, as the matched lines show it (first pair wins in a mixed file). */
  private readonly leadOf = new Map<string, string>();
  /** [SEARCH line, file line] of every pair. */
  private readonly linePairs: Array<readonly [string, string]> = [];
  private styleQuotes: ReturnType<typeof quoteStyler> | undefined;
  private stylerReady = false;
  private readonly fileHas: (ch: string) => boolean;

  constructor(private readonly input: ReplacementInput) {
    this.replace = prepareReplaceLines(input.replaceLines, input.lineNumbersStripped, input.restoredTags);
    this.search = input.searchLines;
    this.fileLines = input.fileLines;
    this.keep = input.keepTrailingWhitespace;
    const key = this.keep ? (l: string) => l : trimEndWs;
    this.fileOf = new Map<number, number>(input.pairs.map(([s, f]) => [s, f]));
    for (const [r, s] of alignEqual(this.replace.map(key), this.search.map(key))) {
      this.replaceOf.set(s, r);
    }
    for (const [si, fi] of input.pairs) {
      const sl = this.search[si];
      const fl = input.fileLines[fi];
      this.linePairs.push([sl, fl]);
      if (isBlank(sl) || isBlank(fl)) {
        continue;
      }
      const ls = leadingWhitespace(sl);
      if (!this.leadOf.has(ls)) {
        this.leadOf.set(ls, leadingWhitespace(fl));
      }
    }
    this.fileHas = input.fileHas ?? ((ch: string) => input.fileLines.some((l) => l.includes(ch)));
  }

  lines(): ReplacementLine[] {
    const syncs = this.syncPoints();
    const out: ReplacementLine[] = [];
    for (let i = 0; i + 1 < syncs.length; i++) {
      const [s1, f1, r1] = syncs[i];
      const [s2, f2, r2] = syncs[i + 1];
      if (i > 0) {
        out.push({ text: this.fileLines[f1], fileLine: f1 });
      }
      if (this.untouched(s1, r1, s2, r2)) {
        for (let f = f1 + 1; f < f2; f++) {
          out.push({ text: this.fileLines[f], fileLine: f });
        }
        continue;
      }
      this.writeChanged(out, s1, r1, s2, r2);
    }
    return out;
  }

  /** [SEARCH, file, REPLACE] line of each sync point, framed by one before the start and one past the end. */
  private syncPoints(): Array<[number, number, number]> {
    const syncs: Array<[number, number, number]> = [[-1, -1, -1]];
    for (let s = 0; s < this.search.length; s++) {
      const f = this.fileOf.get(s);
      const r = this.replaceOf.get(s);
      if (f !== undefined && r !== undefined) {
        syncs.push([s, f, r]);
      }
    }
    syncs.push([this.search.length, this.fileLines.length, this.replace.length]);
    return syncs;
  }

  /** REPLACE left the stretch between two sync points alone: every SEARCH line of it stands unchanged. */
  private untouched(s1: number, r1: number, s2: number, r2: number): boolean {
    let untouched = r2 - r1 === s2 - s1;
    for (let s = s1 + 1; s < s2 && untouched; s++) {
      if (!this.replaceOf.has(s)) {
        untouched = false;
      }
    }
    return untouched;
  }

  /** A stretch REPLACE changed: unchanged lines from the file, changed ones merged, new ones as written. */
  private writeChanged(out: ReplacementLine[], s1: number, r1: number, s2: number, r2: number): void {
    const searchOf = new Map<number, number>();
    for (let s = s1 + 1; s < s2; s++) {
      const r = this.replaceOf.get(s);
      if (r !== undefined) {
        searchOf.set(r, s);
      }
    }
    const changed = this.pairChangedLines(searchOf, s1, r1, s2, r2);
    for (let r = r1 + 1; r < r2; r++) {
      const s = searchOf.get(r);
      const f = s === undefined ? undefined : this.fileOf.get(s);
      if (f !== undefined) {
        out.push({ text: this.fileLines[f], fileLine: f });
        continue;
      }
      const sc = changed.get(r);
      const fc = sc === undefined ? undefined : this.fileOf.get(sc);
      out.push(sc !== undefined && fc !== undefined ? this.mergedLine(r, sc, fc) : this.newLine(this.replace[r]));
    }
  }

  /** Changed lines pair with changed SEARCH lines between the same unchanged neighbours (REPLACE line -> SEARCH line). */
  private pairChangedLines(searchOf: ReadonlyMap<number, number>, s1: number, r1: number, s2: number, r2: number): Map<number, number> {
    const changed = new Map<number, number>();
    let rs = r1 + 1;
    let ss = s1 + 1;
    const flush = (rEnd: number, sEnd: number) => {
      for (const [r, s] of pairChanged(this.replace, this.search, rs, rEnd, ss, sEnd)) {
        changed.set(r, s);
      }
    };
    for (let r = r1 + 1; r < r2; r++) {
      const s = searchOf.get(r);
      if (s === undefined) {
        continue;
      }
      flush(r, s);
      rs = r + 1;
      ss = s + 1;
    }
    flush(r2, s2);
    return changed;
  }

  private mapLead(lead: string): string {
    return this.leadOf.get(lead) ?? mapIndent(this.input.indent, lead);
  }

  /**
   * The quote relation of the matched lines (the same at every tier, so the written text does not
   * depend on which tier matched, e.g. on the file's line endings). Made on first use.
   */
  private styler(): ReturnType<typeof quoteStyler> | undefined {
    if (!this.stylerReady) {
      this.stylerReady = true;
      if (this.input.preserveQuoteStyle) {
        const withQuotes = this.linePairs.filter(([a, b]) => quoteChars(a).length === quoteChars(b).length);
        this.styleQuotes = quoteStyler(alignQuotes(withQuotes) ?? [], this.fileLines.join('\n'));
      }
    }
    return this.styleQuotes;
  }

  private conformFresh(text: string): string {
    let out = text;
    if (/[^\x00-\x7F]/.test(out)) {
      out = out.replace(SPECIAL_SPACE_RE, (ch) => (this.fileHas(ch) ? ch : ' '));
      out = out.replace(ZERO_WIDTH_RE, (ch) => (this.fileHas(ch) ? ch : ''));
      if (!this.keep) {
        out = straightenCurlyQuotes(out, this.fileHas);
      }
    }
    return out;
  }

  /** Lead + pieces -> one line, the model's pieces brought into the file's conventions. */
  private assemble(lead: string, pieces: Piece[], trailing: Piece): ReplacementLine {
    const all = [...pieces];
    if (trailing.text !== '' && (!trailing.fresh || this.keep)) {
      all.push(trailing);
    }
    let text = lead;
    const fresh: Array<[number, number]> = [];
    for (const p of all) {
      const t = p.fresh ? this.conformFresh(p.text) : p.text;
      if (p.fresh) {
        fresh.push([text.length, text.length + t.length]);
      }
      text += t;
    }
    const quotes = fresh.length ? this.styler() : undefined;
    if (quotes) {
      text = quotes(text, (i) => fresh.some(([a, b]) => i >= a && i < b));
    }
    return { text };
  }

  private newLine(line: string): ReplacementLine {
    if (isBlank(line)) {
      return { text: this.keep ? line : '' };
    }
    const lead = leadingWhitespace(line);
    const rest = line.slice(lead.length);
    const body = this.keep ? rest : trimEndWs(rest);
    return this.assemble(this.mapLead(lead), [{ text: body, fresh: true }], { text: '', fresh: true });
  }

  private mergedLine(r: number, s: number, f: number): ReplacementLine {
    const line = this.replace[r];
    if (isBlank(line)) {
      return { text: this.keep ? line : '' };
    }
    const rt = tokenizeLine(line);
    const st = tokenizeLine(this.search[s]);
    const ft = tokenizeLine(this.fileLines[f]);
    const lead = rt.lead === st.lead ? ft.lead : this.mapLead(rt.lead);
    const { body, trailing } = mergeLine(st, ft, rt, alignEqual, !this.input.preserveQuoteStyle);
    return this.assemble(lead, body, trailing);
  }
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
): { pairs: Array<[number, number]>; indent: IndentMap | undefined; bestIndent: IndentMap; disagree: number[] } {
  const sk = searchLines.map(looseKey);
  const fk = fileLines.map(looseKey);
  // Near-equal pairing costs a similarity per DP cell; only for regions of ordinary size.
  const near = sk.length * fk.length <= 10_000;
  const pairs = alignLines(sk, fk, (a, b) => a.length > 0 && b.length > 0 && (a === b || (near && similarity(a, b) >= SAME_LINE_SCORE)));
  const nonBlank = pairs.filter(([s, f]) => !isBlank(searchLines[s]) && !isBlank(fileLines[f]));
  const leads = leadPairs(nonBlank.map(([s, f]) => [searchLines[s], fileLines[f]] as const));
  const indent = deriveIndentMap(leads);
  const best = indent ? { map: indent, disagree: [] } : bestIndentMap(leads);
  return { pairs, indent, bestIndent: best.map, disagree: best.disagree.map((i) => nonBlank[i][1]) };
}
