// Tiers 1-9: whole-line matching of a SEARCH block against a document, strictest first.
//
// Speed: nothing is computed per window of the document. One "anchor" (the longest run of SEARCH
// text that a match at tiers 1-8 must contain verbatim; tier 9 uses the longest word) is located with
// indexOf. Each hit's own line is checked first, sliced locally, so no line index is built for hits
// that fail; the windows that pass are verified line by line with keys normalised once per line and
// cached on the DocLines. Without a usable anchor (or when zero-width characters in the file could
// split one) every window is verified, still one key per line per tier.
//
// Tiers are cumulative: tier k tolerates the differences of tiers 2..k, so a CRLF file whose block
// also drifted in indentation matches at the indentation tier, and the notes list everything needed.

import { atLeast, foldPunctuation, INVISIBLE_TIERS, LINE_TIERS, type LineReading, type Tier, tierInfo } from './tierTable';
import { type DocLines, splitBlockLines } from './lines';
import {
  isBlank,
  leadingWhitespace,
  restoreTags,
  SANITIZED_TAGS,
  stripLineNumber,
  trimEndWs,
  trimWs,
  unicodeDifferences,
  type UnicodeKind,
} from './normalize';
import { bestIndentMap, deriveIndentMap, describeIndentMap, type IndentMap } from './indent';
import { alignQuotes, type QuotePairs, quotesDiffer } from './quotes';

/** The tiers this module decides (fuzzy is tier 10, elsewhere); see tierTable.ts. */
export { LINE_TIERS };

/** One way to read a SEARCH line: as written, without a line-number prefix, with sanitised tags restored. */
interface SearchAlternative {
  key: string;
  /** The SEARCH line as it is taken to mean (prefix removed / tags restored), before normalisation. */
  text: string;
  strippedLineNumber: boolean;
  restoredTags: string[];
}

export interface SearchSpec {
  /** SEARCH text exactly as given. */
  raw: string;
  /** SEARCH lines ('\r' at line ends dropped). */
  lines: string[];
  /** Longest run of SEARCH text any tier 1-8 match must contain verbatim, and its SEARCH line. */
  anchor?: Anchor;
  /** Longest run of word characters (guaranteed even when whitespace between tokens differs). */
  wordAnchor?: Anchor;
}

/** Per-tier readings of each SEARCH line, computed on first use and kept with the SEARCH. */
const alternativesCache = new WeakMap<SearchSpec, Map<Tier, SearchAlternative[][]>>();

export interface Occurrence {
  tier: Tier;
  /** 0-based first document line and end (exclusive) of the matched lines. */
  start: number;
  end: number;
  /** SEARCH lines as matched (prefixes removed, tags restored where needed), aligned 1:1 with start..end. */
  searchLines: string[];
  indent: IndentMap;
  quotes: QuotePairs;
  lineNumbersStripped: boolean;
  restoredTags: string[];
  /** What had to be normalised, e.g. "matched after normalising indentation (tabs vs spaces)". */
  notes: string[];
}

/** A window whose lines match at some tier except that no one indentation relation maps SEARCH onto it. */
export interface IndentMiss {
  start: number;
  end: number;
  /** The lines whose indentation disagrees with the relation most lines follow (0-based document lines). */
  lines: Array<{ line: number; search: string; file: string }>;
}

export interface PartialMatch {
  start: number;
  end: number;
  /** 0-based document lines of which SEARCH quoted only a part. */
  partialLines: number[];
}

// ---- SEARCH preparation ---------------------------------------------------------------------------

/**
 * Characters a tier may match against something else in the file: whitespace, quotes, dashes, special
 * spaces, ellipsis, zero-width characters (and runs of 3+ dots, which may stand for an ellipsis).
 */
export function isUnstable(c: number): boolean {
  if (c <= 32) {
    return true;
  }
  if (c < 127) {
    return c === 34 || c === 39 || c === 45;
  }
  return (
    c === 0x85 ||
    c === 0xa0 ||
    c === 0xab ||
    c === 0xad ||
    c === 0xbb ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x201f) ||
    c === 0x2026 ||
    (c >= 0x2028 && c <= 0x202f) ||
    c === 0x2039 ||
    c === 0x203a ||
    c === 0x205f ||
    c === 0x2060 ||
    c === 0x2212 ||
    c === 0x3000 ||
    c === 0xfe58 ||
    c === 0xfe63 ||
    c === 0xfeff ||
    c === 0xff0d
  );
}

function isIndentCode(c: number): boolean {
  return c === 32 || c === 9;
}

/**
 * Whether line [ls, le) is certainly longer than any key of length maxKey at tiers 6-9. Without
 * zero-width characters (anchors are only used then) those tiers drop nothing but whitespace at the
 * edges (tier 9: all whitespace) and only lengthen (ellipsis), so the remaining characters bound the key.
 */
function tooLong(text: string, ls: number, le: number, maxKey: number, allWhitespace: boolean): boolean {
  if (allWhitespace) {
    let n = 0;
    for (let i = ls; i < le; i++) {
      if (!isUnicodeSpace(text.charCodeAt(i)) && ++n > maxKey) {
        return true;
      }
    }
    return false;
  }
  let a = ls;
  let b = le;
  while (b > a && isUnicodeSpace(text.charCodeAt(b - 1))) {
    b--;
  }
  while (a < b && isUnicodeSpace(text.charCodeAt(a))) {
    a++;
  }
  return b - a > maxKey;
}

function isUnicodeSpace(c: number): boolean {
  return (
    c === 32 ||
    c === 9 ||
    c === 11 ||
    c === 12 ||
    c === 13 ||
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000
  );
}

export function isWordChar(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36 || c >= 128;
}

type Anchor = { text: string; line: number };

/** Longest stable run and longest stable word run of one line, folded into the best so far. */
function scanRuns(core: string, line: number, best: { any?: Anchor; word?: Anchor }): void {
  if (!NON_ASCII.test(core)) {
    scanAsciiRuns(core, line, best);
    return;
  }
  let runStart = 0;
  let wordStart = 0;
  const take = (from: number, to: number, which: 'any' | 'word') => {
    const cur = best[which];
    if (to - from > 0 && (!cur || to - from > cur.text.length)) {
      best[which] = { text: core.slice(from, to), line };
    }
  };
  for (let i = 0; i <= core.length; i++) {
    const c = i < core.length ? core.charCodeAt(i) : 0;
    let dots = 0;
    if (c === 46) {
      while (core.charCodeAt(i + dots) === 46) {
        dots++;
      }
    }
    if (i === core.length || isUnstable(c) || dots >= 3) {
      take(runStart, i, 'any');
      take(wordStart, i, 'word');
      i += Math.max(dots - 1, 0);
      runStart = wordStart = i + 1;
    } else if (!isWordChar(c)) {
      take(wordStart, i, 'word');
      wordStart = i + 1;
    }
  }
}

const NON_ASCII = /[^\x00-\x7f]/;
/** Runs of stable ASCII characters (isUnstable: controls, space, quotes, '-'; dots in runs of three or more). */
const ASCII_STABLE_RUN = /(?:[^\x00-\x20"'\-.]|(?<!\.)\.{1,2}(?!\.))+/g;
/** Runs of ASCII word characters (isWordChar); none of them is unstable. */
const ASCII_WORD_RUN = /[0-9A-Za-z_$]+/g;

/**
 * scanRuns for a line without non-ASCII characters, by regex: one native match per kind of run instead
 * of a few calls per character (SEARCH is prepared once per block, so this code is usually cold).
 */
function scanAsciiRuns(core: string, line: number, best: { any?: Anchor; word?: Anchor }): void {
  best.any = longestRun(core.match(ASCII_STABLE_RUN), line, best.any);
  best.word = longestRun(core.match(ASCII_WORD_RUN), line, best.word);
}

/** The first of the longest runs, if longer than the best so far (which it otherwise returns). */
function longestRun(runs: RegExpMatchArray | null, line: number, current: Anchor | undefined): Anchor | undefined {
  let best = current;
  for (const run of runs ?? []) {
    if (run.length > (best ? best.text.length : 0)) {
      best = { text: run, line };
    }
  }
  return best;
}

export function prepareSearch(search: string): SearchSpec {
  const lines = splitBlockLines(search);
  const best: { any?: Anchor; word?: Anchor } = {};
  for (let k = 0; k < lines.length; k++) {
    let core = stripLineNumber(lines[k]) ?? lines[k];
    if (core.includes('<')) {
      for (const [short] of SANITIZED_TAGS) {
        if (core.includes(short)) {
          core = core.split(short).join('\u0000');
        }
      }
    }
    scanRuns(core, k, best);
  }
  return { raw: search, lines, anchor: best.any, wordAnchor: best.word };
}

/** How a normalising tier reads a line (see tierTable.ts). */
function readingOf(tier: Tier): LineReading {
  const reading = tierInfo(tier).reading;
  if (!reading) {
    throw new Error(`the ${tier} tier does not read lines by key`);
  }
  return reading;
}

/** The readings of SEARCH line k at a tier (as written, without a line-number prefix, tags restored). */
function alternativesFor(spec: SearchSpec, tier: Tier, k: number): SearchAlternative[] {
  let perTier = alternativesCache.get(spec);
  if (!perTier) {
    perTier = new Map();
    alternativesCache.set(spec, perTier);
  }
  let lines = perTier.get(tier);
  if (!lines) {
    lines = new Array<SearchAlternative[]>(spec.lines.length);
    perTier.set(tier, lines);
  }
  const known = lines[k];
  if (known) {
    return known;
  }
  const info = tierInfo(tier);
  const fn = readingOf(tier).key;
  const line = spec.lines[k];
  if (!info.stripsLineNumbers && !info.restoresTags) {
    // The one reading as written (tiers 2-6): no lists to build and search.
    const only = [{ key: fn(line), text: line, strippedLineNumber: false, restoredTags: [] }];
    lines[k] = only;
    return only;
  }
  const texts: Array<{ text: string; strippedLineNumber: boolean; restoredTags: string[] }> = [
    { text: line, strippedLineNumber: false, restoredTags: [] },
  ];
  if (info.stripsLineNumbers) {
    const stripped = stripLineNumber(line);
    if (stripped !== undefined) {
      texts.push({ text: stripped, strippedLineNumber: true, restoredTags: [] });
    }
  }
  if (info.restoresTags) {
    for (const t of [...texts]) {
      const r = restoreTags(t.text);
      if (r.tags.length) {
        texts.push({ text: r.line, strippedLineNumber: t.strippedLineNumber, restoredTags: r.tags });
      }
    }
  }
  const out: SearchAlternative[] = [];
  for (const t of texts) {
    const key = fn(t.text);
    if (!out.some((a) => a.key === key)) {
      out.push({ key, ...t });
    }
  }
  lines[k] = out;
  return out;
}

// ---- candidate windows ----------------------------------------------------------------------------

/**
 * Per document, the anchor hits found so far (anchorLineStarts), as several Matchers look for the same
 * anchor in one text: a block's REPLACE (is it already applied?) mostly holds SEARCH's longest run.
 */
const anchorHitsCache = new WeakMap<DocLines, Map<string, readonly number[]>>();

/** anchorLineStarts, each anchor looked for once per document. */
function anchorHitsIn(doc: DocLines, anchor: string): readonly number[] {
  let known = anchorHitsCache.get(doc);
  if (!known) {
    known = new Map();
    anchorHitsCache.set(doc, known);
  }
  let hits = known.get(anchor);
  if (!hits) {
    hits = anchorLineStarts(doc, anchor);
    known.set(anchor, hits);
  }
  return hits;
}

/** Start offsets of the lines an anchor occurs in (file order, each line once). */
function anchorLineStarts(doc: DocLines, anchor: string): number[] {
  const text = doc.text;
  const first = doc.start(0);
  const out: number[] = [];
  let p = text.indexOf(anchor);
  while (p !== -1) {
    out.push(Math.max(p > 0 ? text.lastIndexOf('\n', p - 1) + 1 : 0, first));
    // One entry per line: continue after this line, so a line holding the anchor many times (minified
    // code) costs one scan, not one per occurrence.
    const nl = text.indexOf('\n', p);
    if (nl === -1) {
      break;
    }
    p = text.indexOf(anchor, nl + 1);
  }
  return out;
}

function allStarts(doc: DocLines, m: number): number[] {
  const out: number[] = [];
  for (let s = 0; s + m <= doc.count; s++) {
    out.push(s);
  }
  return out;
}

/** End of the line starting at `ls`, before its line break (and a CR before it). */
function lineEndAt(text: string, ls: number): number {
  const le = text.indexOf('\n', ls);
  if (le === -1) {
    return text.length;
  }
  return le > ls && text.charCodeAt(le - 1) === 13 ? le - 1 : le;
}

/** Length of text[ls, le) without trailing (trims >= 1) and leading (trims >= 2) indentation. */
function trimmedLength(text: string, ls: number, le: number, trims: number): number {
  let a = ls;
  let b = le;
  if (trims >= 1) {
    while (b > a && isIndentCode(text.charCodeAt(b - 1))) {
      b--;
    }
  }
  if (trims >= 2) {
    while (a < b && isIndentCode(text.charCodeAt(a))) {
      a++;
    }
  }
  return b - a;
}

/** Matching of one SEARCH against one document, with the anchor located once. */
export class Matcher {
  private anchorHits: readonly number[] | undefined;
  /** Keys of anchor-hit lines by line start offset, per normalisation (tiers 6-8 share one). */
  private readonly hitKeys: Record<string, Map<number, string>> = {};
  private wordHits: readonly number[] | undefined;
  private everything: number[] | undefined;
  /** Windows rejected because SEARCH's indentation does not map consistently onto them, by start line. */
  readonly indentMisses = new Map<number, IndentMiss>();

  /** useAnchors=false verifies every window (the reference the anchored search must agree with). */
  constructor(
    readonly doc: DocLines,
    readonly spec: SearchSpec,
    private readonly useAnchors = true,
  ) {}

  /** Start offset of the line before the one starting at ls, or -1 at the top of the file. */
  private previousLineStart(ls: number): number {
    const first = this.doc.start(0);
    if (ls <= first) {
      return -1;
    }
    const nl = ls >= 2 ? this.doc.text.lastIndexOf('\n', ls - 2) : -1;
    return Math.max(nl + 1, first);
  }

  /**
   * Window starts (0-based lines) worth verifying at a tier. Each anchor hit is first checked on its own
   * line (sliced locally, no line index needed); only survivors get a line number, so a frequent anchor
   * far down the file does not make us index the whole document.
   */
  private windows(tier: Tier): number[] {
    const doc = this.doc;
    const info = tierInfo(tier);
    const anchor = info.tokensOnly ? this.spec.wordAnchor : this.spec.anchor;
    if (!anchor || !this.useAnchors || (info.foldsUnicode && doc.hasZeroWidth())) {
      return (this.everything ??= allStarts(doc, this.spec.lines.length));
    }
    const hits = info.tokensOnly
      ? (this.wordHits ??= anchorHitsIn(doc, anchor.text))
      : (this.anchorHits ??= anchorHitsIn(doc, anchor.text));
    if (info.kind === 'exact') {
      return this.exactWindows(hits, anchor.line);
    }
    return hits.length === 0 ? [] : this.normalisedWindows(tier, hits, anchor.line);
  }

  /** Exact tier: the whole SEARCH text must start at the window's first line. */
  private exactWindows(hits: readonly number[], anchorLine: number): number[] {
    const doc = this.doc;
    const m = this.spec.lines.length;
    const out: number[] = [];
    for (const ls of hits) {
      let ws = ls;
      for (let k = 0; k < anchorLine && ws !== -1; k++) {
        ws = this.previousLineStart(ws);
      }
      if (ws === -1 || !doc.text.startsWith(this.spec.raw, ws)) {
        continue;
      }
      const s = doc.lineAt(ws);
      if (doc.has(s + m - 1)) {
        out.push(s);
      }
    }
    return out;
  }

  /** Tiers 2-9: the anchor hit's line, read the tier's way, must equal one of SEARCH's anchor-line alternatives. */
  private normalisedWindows(tier: Tier, hits: readonly number[], anchorLine: number): number[] {
    const doc = this.doc;
    const text = doc.text;
    const m = this.spec.lines.length;
    const info = tierInfo(tier);
    const keys = alternativesFor(this.spec, tier, anchorLine);
    const { cache: cacheName, key: fn } = readingOf(tier);
    // Tiers 2-5 only trim and swap characters one for one: the trimmed length must already agree.
    const trimming = info.sameLengthAfterTrimming;
    const trims = trimming === 'none' ? 0 : trimming === 'end' ? 1 : trimming === 'both' ? 2 : -1;
    const lengths = trims >= 0 ? new Set(keys.map((a) => a.key.length)) : undefined;
    const byStart = (this.hitKeys[cacheName] ??= new Map<number, string>());
    let maxKey = 0;
    for (const a of keys) {
      maxKey = Math.max(maxKey, a.key.length);
    }
    const out: number[] = [];
    for (const ls of hits) {
      const le = lineEndAt(text, ls);
      if (lengths ? !lengths.has(trimmedLength(text, ls, le, trims)) : tooLong(text, ls, le, maxKey, info.tokensOnly)) {
        continue;
      }
      let key = byStart.get(ls);
      if (key === undefined) {
        key = fn(text.slice(ls, le));
        byStart.set(ls, key);
      }
      if (!keys.some((a) => a.key === key)) {
        continue;
      }
      const s = doc.lineAt(ls) - anchorLine;
      if (s >= 0 && doc.has(s + m - 1)) {
        out.push(s);
      }
    }
    return out;
  }

  /** Window starts from anchor hits without any per-tier check (for partial-line matching). */
  private looseWindows(): number[] {
    const doc = this.doc;
    const m = this.spec.lines.length;
    const anchor = this.spec.anchor;
    if (!anchor || !this.useAnchors) {
      return (this.everything ??= allStarts(doc, m));
    }
    const out: number[] = [];
    for (const ls of (this.anchorHits ??= anchorHitsIn(doc, anchor.text))) {
      const s = doc.lineAt(ls) - anchor.line;
      if (s >= 0 && doc.has(s + m - 1)) {
        out.push(s);
      }
    }
    return out;
  }

  /** All occurrences at one tier, in file order. */
  find(tier: Tier): Occurrence[] {
    const out: Occurrence[] = [];
    if (tierInfo(tier).kind === 'exact') {
      for (const s of this.windows(tier)) {
        const occ = this.verifyExact(s);
        if (occ) {
          out.push(occ);
        }
      }
      return out;
    }
    const { cache: cacheName, key: fn } = readingOf(tier);
    const cache = this.doc.keyCache(cacheName);
    const m = this.spec.lines.length;
    for (const s of this.windows(tier)) {
      const chosen: SearchAlternative[] = [];
      let ok = true;
      for (let k = 0; k < m; k++) {
        let key = cache.get(s + k);
        if (key === undefined) {
          key = fn(this.doc.line(s + k));
          cache.set(s + k, key);
        }
        const alts = alternativesFor(this.spec, tier, k);
        const alt = alts.length === 1 ? (alts[0].key === key ? alts[0] : undefined) : alts.find((a) => a.key === key);
        if (!alt) {
          ok = false;
          break;
        }
        chosen.push(alt);
      }
      if (!ok) {
        continue;
      }
      const occ = this.verifyWindow(tier, s, chosen);
      if (occ) {
        out.push(occ);
      }
    }
    return out;
  }

  /**
   * The first tier (1-9) with any occurrence decides, together with every place that differs from its
   * occurrences only in what a model cannot see (CR, trailing spaces and tabs): to the model those are
   * the same text, so they count for ambiguity. Tiers from trailing-whitespace on tolerate both
   * already; for exact and line-endings the looser occurrences up to trailing-whitespace are added
   * (each with the strictest tier it matches at), in file order.
   */
  findFirst(): { tier: Tier; occurrences: Occurrence[] } | undefined {
    for (const tier of LINE_TIERS) {
      const occurrences = this.find(tier);
      if (occurrences.length === 0) {
        continue;
      }
      const known = new Set(occurrences.map((o) => o.start));
      // The looser tiers that still differ from exact only in what a model cannot see.
      const looser = INVISIBLE_TIERS.filter((t) => tierInfo(t).rank > tierInfo(tier).rank);
      let added = false;
      for (const t of looser) {
        for (const o of this.find(t)) {
          if (known.has(o.start)) {
            continue;
          }
          known.add(o.start);
          occurrences.push(o);
          added = true;
        }
      }
      if (added) {
        occurrences.sort((a, b) => a.start - b.start);
      }
      return { tier, occurrences };
    }
    return undefined;
  }

  private verifyExact(s: number): Occurrence | undefined {
    const doc = this.doc;
    const raw = this.spec.raw;
    const from = doc.start(s);
    const lastLine = s + this.spec.lines.length - 1;
    if (from + raw.length !== doc.contentEnd(lastLine) || !doc.text.startsWith(raw, from)) {
      return undefined;
    }
    // Byte-equal: no quote relation to carry over (an identity mapping changes nothing).
    const searchLines = this.spec.lines;
    return {
      tier: 'exact',
      start: s,
      end: s + searchLines.length,
      searchLines,
      indent: { kind: 'identity' },
      quotes: [],
      lineNumbersStripped: false,
      restoredTags: [],
      notes: [],
    };
  }

  private verifyWindow(tier: Tier, s: number, chosen: SearchAlternative[]): Occurrence | undefined {
    const searchLines = chosen.map((a) => a.text);
    const pairs = searchLines.map((l, k) => [l, this.doc.line(s + k)] as const);
    let indent: IndentMap = { kind: 'identity' };
    if (tierInfo(tier).relatesIndentation) {
      // One relation for every non-blank line, at every tier from here on (spacing between tokens is
      // forgiven by the whitespace tier, leading indentation never beyond this relation).
      const rows: number[] = [];
      const leads: Array<[string, string]> = [];
      pairs.forEach(([sl, dl], k) => {
        if (isBlank(sl) || isBlank(dl)) {
          return;
        }
        rows.push(k);
        leads.push([leadingWhitespace(sl), leadingWhitespace(dl)]);
      });
      const strict = deriveIndentMap(leads);
      if (!strict) {
        if (!this.indentMisses.has(s)) {
          const { disagree } = bestIndentMap(leads);
          this.indentMisses.set(s, {
            start: s,
            end: s + searchLines.length,
            lines: disagree.map((i) => ({ line: s + rows[i], search: leads[i][0], file: leads[i][1] })),
          });
        }
        return undefined;
      }
      indent = strict;
    }
    const quotes = alignQuotes(pairs);
    if (!quotes) {
      return undefined;
    }
    const restored = new Set<string>();
    for (const a of chosen) {
      for (const t of a.restoredTags) {
        restored.add(t);
      }
    }
    const occ: Occurrence = {
      tier,
      start: s,
      end: s + searchLines.length,
      searchLines,
      indent,
      quotes,
      lineNumbersStripped: chosen.some((a) => a.strippedLineNumber),
      restoredTags: [...restored],
      notes: [],
    };
    occ.notes = describeNormalisations(this.doc, occ, pairs);
    return occ;
  }

  /**
   * SEARCH found only inside lines (a truncated last line, a dropped period, a lone identifier):
   * compared with indentation and trailing whitespace ignored. Only called when tiers 1-9 found nothing.
   */
  findPartial(): PartialMatch[] {
    const lines = this.spec.lines.map(trimWs);
    const m = lines.length;
    if (lines.every((l) => l.length === 0)) {
      return [];
    }
    const out: PartialMatch[] = [];
    for (const s of this.looseWindows()) {
      const partialLines: number[] = [];
      let ok = true;
      for (let k = 0; k < m && ok; k++) {
        const want = lines[k];
        const have = trimWs(this.doc.line(s + k));
        if (have === want) {
          continue;
        }
        if (want.length === 0) {
          ok = false;
        } else if (m === 1) {
          ok = have.includes(want);
        } else if (k === 0) {
          ok = have.endsWith(want);
        } else if (k === m - 1) {
          ok = have.startsWith(want);
        } else {
          ok = false;
        }
        if (ok) {
          partialLines.push(s + k);
        }
      }
      if (ok && partialLines.length > 0) {
        out.push({ start: s, end: s + m, partialLines });
      }
    }
    return out;
  }
}

// ---- notes ----------------------------------------------------------------------------------------

function trailing(line: string): string {
  return line.slice(trimEndWs(line).length);
}

function describeNormalisations(doc: DocLines, occ: Occurrence, pairs: ReadonlyArray<readonly [string, string]>): string[] {
  const notes: string[] = [];
  const at = (t: Tier) => atLeast(occ.tier, t);
  if (at('line-endings')) {
    let crlf = false;
    for (let i = occ.start; i < occ.end - 1; i++) {
      if (doc.eol(i) === '\r\n') {
        crlf = true;
      }
    }
    if (crlf) {
      notes.push('matched after normalising line endings (the file uses CRLF)');
    }
  }
  if (at('trailing-whitespace') && pairs.some(([s, d]) => trailing(s) !== trailing(d))) {
    notes.push('matched after ignoring trailing whitespace');
  }
  if (occ.indent.kind !== 'identity') {
    const what = occ.indent.kind === 'columns' && occ.indent.num === occ.indent.den ? 'tabs vs spaces' : describeIndentMap(occ.indent);
    notes.push(`matched after normalising indentation (${what})`);
  }
  const q = quotesDiffer(occ.quotes);
  if (q.curly || q.swapped) {
    const what = [q.curly ? 'curly vs straight' : '', q.swapped ? `' vs "` : ''].filter(Boolean).join(', ');
    notes.push(`matched after normalising quotes (${what})`);
  }
  if (at('unicode')) {
    const kinds = new Set<UnicodeKind>();
    for (const [s, d] of pairs) {
      for (const k of unicodeDifferences(s, d)) {
        kinds.add(k);
      }
    }
    if (kinds.size) {
      notes.push(`matched after normalising unicode punctuation (${[...kinds].join(', ')})`);
    }
  }
  if (occ.lineNumbersStripped) {
    notes.push('matched after removing line-number prefixes from SEARCH');
  }
  if (occ.restoredTags.length) {
    const full = new Map(SANITIZED_TAGS);
    const list = occ.restoredTags.map((t) => `${t} as ${full.get(t)}`).join(', ');
    notes.push(`matched after restoring sanitised tags (${list})`);
  }
  if (tierInfo(occ.tier).tokensOnly && pairs.some(([s, d]) => foldPunctuation(s) !== foldPunctuation(d))) {
    notes.push('matched after ignoring whitespace differences between tokens');
  }
  return notes;
}
