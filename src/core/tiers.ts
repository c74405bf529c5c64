// Tiers 1-9: whole-line matching of a SEARCH block against a document, strictest first.
//
// Speed: nothing is computed per window of the document. One "anchor" (the longest run of SEARCH
// text that every tier guarantees to find verbatim in the file) is located with indexOf; only the
// windows it points at are verified, line by line, with keys normalised once per line and cached on
// the DocLines. Without a usable anchor every window is verified (still one key per line per tier).
//
// Tiers are cumulative: tier k tolerates the differences of tiers 2..k, so a CRLF file whose block
// also drifted in indentation matches at the indentation tier, and the notes list everything needed.

import { Tier } from './types';
import { DocLines, splitBlockLines } from './lines';
import {
  foldQuotes,
  foldUnicode,
  isBlank,
  leadingWhitespace,
  restoreTags,
  SANITIZED_TAGS,
  stripLineNumber,
  tokenKey,
  trimEndWs,
  trimWs,
  unicodeDifferences,
  UnicodeKind,
} from './normalize';
import { deriveIndentMap, deriveIndentMapLoose, describeIndentMap, IndentMap, leadPairs } from './indent';
import { alignQuotes, QuotePairs, quotesDiffer } from './quotes';

/** The tiers this module decides (fuzzy is tier 10, elsewhere). */
export const LINE_TIERS: readonly Tier[] = [
  'exact',
  'line-endings',
  'trailing-whitespace',
  'indentation',
  'quotes',
  'unicode',
  'line-numbers',
  'sanitized-tags',
  'whitespace',
];

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
  anchor?: { text: string; line: number };
  /** Longest run of word characters (guaranteed even when whitespace between tokens differs). */
  wordAnchor?: { text: string; line: number };
}

/** Per-tier readings of each SEARCH line, computed once per SEARCH. */
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

export interface PartialMatch {
  start: number;
  end: number;
  /** 0-based document lines of which SEARCH quoted only a part. */
  partialLines: number[];
}

// ---- SEARCH preparation ---------------------------------------------------------------------------

// Characters a tier may match against something else in the file: whitespace, quotes, dashes, special
// spaces, ellipsis, zero-width characters; runs of dots may stand for an ellipsis.
const UNSTABLE_RE =
  /[\s'"\u2018-\u201F\u2039\u203A\u00AB\u00BB\-\u2010-\u2015\u2212\uFE58\uFE63\uFF0D\u00A0\u1680\u2000-\u200D\u202F\u205F\u2060\u3000\uFEFF\u00AD\u2026]+|\.{3,}/;
const NON_WORD_RE = /[^A-Za-z0-9_$\u0080-\uFFFF]+/;

function longestRun(parts: readonly string[], best: { text: string; line: number } | undefined, line: number) {
  for (const p of parts) if (p.length > 0 && (!best || p.length > best.text.length)) best = { text: p, line };
  return best;
}

export function prepareSearch(search: string): SearchSpec {
  const lines = splitBlockLines(search);
  let anchor: SearchSpec['anchor'];
  let wordAnchor: SearchSpec['wordAnchor'];
  for (let k = 0; k < lines.length; k++) {
    let core = stripLineNumber(lines[k]) ?? lines[k];
    for (const [short] of SANITIZED_TAGS) if (core.includes(short)) core = core.split(short).join('\u0000');
    const runs = core.split('\u0000').flatMap((piece) => piece.split(UNSTABLE_RE));
    anchor = longestRun(runs, anchor, k);
    wordAnchor = longestRun(
      runs.flatMap((r) => r.split(NON_WORD_RE)),
      wordAnchor,
      k,
    );
  }
  return { raw: search, lines, anchor, wordAnchor };
}

function fold6(line: string): string {
  return trimWs(foldUnicode(foldQuotes(line)));
}

function fold9(line: string): string {
  return tokenKey(foldUnicode(foldQuotes(line)));
}

/** Document-side key of a line at a tier (cached per document). */
function docKeyFn(tier: Tier): { cache: string; fn: (line: string) => string } {
  switch (tier) {
    case 'line-endings':
      return { cache: 'line', fn: (l) => l };
    case 'trailing-whitespace':
      return { cache: 'trimEnd', fn: trimEndWs };
    case 'indentation':
      return { cache: 'trim', fn: trimWs };
    case 'quotes':
      return { cache: 'quotes', fn: (l) => foldQuotes(trimWs(l)) };
    case 'unicode':
    case 'line-numbers':
    case 'sanitized-tags':
      return { cache: 'unicode', fn: fold6 };
    default:
      return { cache: 'tokens', fn: fold9 };
  }
}

function alternativesFor(spec: SearchSpec, tier: Tier): SearchAlternative[][] {
  let perTier = alternativesCache.get(spec);
  if (!perTier) {
    perTier = new Map();
    alternativesCache.set(spec, perTier);
  }
  let alts = perTier.get(tier);
  if (alts) return alts;
  const { fn } = docKeyFn(tier);
  alts = spec.lines.map((line) => {
    const texts: Array<{ text: string; strippedLineNumber: boolean; restoredTags: string[] }> = [
      { text: line, strippedLineNumber: false, restoredTags: [] },
    ];
    if (tier === 'line-numbers' || tier === 'sanitized-tags' || tier === 'whitespace') {
      const stripped = stripLineNumber(line);
      if (stripped !== undefined) texts.push({ text: stripped, strippedLineNumber: true, restoredTags: [] });
    }
    if (tier === 'sanitized-tags' || tier === 'whitespace') {
      for (const t of [...texts]) {
        const r = restoreTags(t.text);
        if (r.tags.length) texts.push({ text: r.line, strippedLineNumber: t.strippedLineNumber, restoredTags: r.tags });
      }
    }
    const out: SearchAlternative[] = [];
    for (const t of texts) {
      const key = fn(t.text);
      if (!out.some((a) => a.key === key)) out.push({ key, ...t });
    }
    return out;
  });
  perTier.set(tier, alts);
  return alts;
}

// ---- candidate windows ----------------------------------------------------------------------------

/** Window starts worth verifying: those an anchor occurrence points at, or every start. */
function anchoredStarts(doc: DocLines, m: number, anchor: { text: string; line: number }): number[] {
  const text = doc.text;
  const starts = doc.starts;
  const out: number[] = [];
  let li = 0;
  let last = -1;
  for (let p = text.indexOf(anchor.text); p !== -1; p = text.indexOf(anchor.text, p + 1)) {
    while (li + 1 < starts.length && starts[li + 1] <= p) li++;
    const s = li - anchor.line;
    if (s !== last && s >= 0 && s + m <= starts.length) {
      out.push(s);
      last = s;
    }
  }
  return out;
}

function allStarts(doc: DocLines, m: number): number[] {
  const out: number[] = [];
  for (let s = 0; s + m <= doc.count; s++) out.push(s);
  return out;
}

/** Matching of one SEARCH against one document, with the windows to check computed once. */
export class Matcher {
  private anchored: number[] | undefined;
  private wordAnchored: number[] | undefined;
  private everything: number[] | undefined;

  /** useAnchors=false verifies every window (the reference the anchored search must agree with). */
  constructor(
    readonly doc: DocLines,
    readonly spec: SearchSpec,
    private readonly useAnchors = true,
  ) {}

  private windows(tier: Tier): number[] {
    const m = this.spec.lines.length;
    const unicodeTier = tier === 'unicode' || tier === 'line-numbers' || tier === 'sanitized-tags' || tier === 'whitespace';
    const anchor = tier === 'whitespace' ? this.spec.wordAnchor : this.spec.anchor;
    if (!anchor || !this.useAnchors || (unicodeTier && this.doc.hasZeroWidth())) {
      return (this.everything ??= allStarts(this.doc, m));
    }
    if (tier === 'whitespace') return (this.wordAnchored ??= anchoredStarts(this.doc, m, anchor));
    return (this.anchored ??= anchoredStarts(this.doc, m, anchor));
  }

  /** All occurrences at one tier, in file order. */
  find(tier: Tier): Occurrence[] {
    const out: Occurrence[] = [];
    if (tier === 'exact') {
      for (const s of this.windows('exact')) {
        const occ = this.verifyExact(s);
        if (occ) out.push(occ);
      }
      return out;
    }
    const alts = alternativesFor(this.spec, tier);
    const { cache: cacheName, fn } = docKeyFn(tier);
    const cache = this.doc.keyCache(cacheName);
    const m = this.spec.lines.length;
    for (const s of this.windows(tier)) {
      const chosen: SearchAlternative[] = [];
      let ok = true;
      for (let k = 0; k < m; k++) {
        let key = cache[s + k];
        if (key === undefined) {
          key = fn(this.doc.line(s + k));
          cache[s + k] = key;
        }
        const alt = alts[k].length === 1 ? (alts[k][0].key === key ? alts[k][0] : undefined) : alts[k].find((a) => a.key === key);
        if (!alt) {
          ok = false;
          break;
        }
        chosen.push(alt);
      }
      if (!ok) continue;
      const occ = this.verifyWindow(tier, s, chosen);
      if (occ) out.push(occ);
    }
    return out;
  }

  /** The first tier (1-9) with any occurrence decides. */
  findFirst(): { tier: Tier; occurrences: Occurrence[] } | undefined {
    for (const tier of LINE_TIERS) {
      const occurrences = this.find(tier);
      if (occurrences.length > 0) return { tier, occurrences };
    }
    return undefined;
  }

  private verifyExact(s: number): Occurrence | undefined {
    const doc = this.doc;
    const raw = this.spec.raw;
    const from = doc.starts[s];
    const lastLine = s + this.spec.lines.length - 1;
    if (from + raw.length !== doc.contentEnd(lastLine) || !doc.text.startsWith(raw, from)) return undefined;
    const searchLines = this.spec.lines.slice();
    const pairs = searchLines.map((l, k) => [l, doc.line(s + k)] as const);
    return {
      tier: 'exact',
      start: s,
      end: s + searchLines.length,
      searchLines,
      indent: { kind: 'identity' },
      quotes: alignQuotes(pairs) ?? [],
      lineNumbersStripped: false,
      restoredTags: [],
      notes: [],
    };
  }

  private verifyWindow(tier: Tier, s: number, chosen: SearchAlternative[]): Occurrence | undefined {
    const searchLines = chosen.map((a) => a.text);
    const pairs = searchLines.map((l, k) => [l, this.doc.line(s + k)] as const);
    let indent: IndentMap = { kind: 'identity' };
    const rank = LINE_TIERS.indexOf(tier);
    if (rank >= LINE_TIERS.indexOf('indentation')) {
      const leads = leadPairs(pairs);
      if (tier === 'whitespace') indent = deriveIndentMapLoose(leads);
      else {
        const strict = deriveIndentMap(leads);
        if (!strict) return undefined;
        indent = strict;
      }
    }
    const quotes = alignQuotes(pairs);
    if (!quotes) return undefined;
    const restored = new Set<string>();
    for (const a of chosen) for (const t of a.restoredTags) restored.add(t);
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
    if (lines.every((l) => l.length === 0)) return [];
    const out: PartialMatch[] = [];
    for (const s of this.windows('indentation')) {
      const partialLines: number[] = [];
      let ok = true;
      for (let k = 0; k < m && ok; k++) {
        const want = lines[k];
        const have = trimWs(this.doc.line(s + k));
        if (have === want) continue;
        if (want.length === 0) ok = false;
        else if (m === 1) ok = have.includes(want);
        else if (k === 0) ok = have.endsWith(want);
        else if (k === m - 1) ok = have.startsWith(want);
        else ok = false;
        if (ok) partialLines.push(s + k);
      }
      if (ok && partialLines.length > 0) out.push({ start: s, end: s + m, partialLines });
    }
    return out;
  }
}

// ---- notes ----------------------------------------------------------------------------------------

function trailing(line: string): string {
  return line.slice(trimEndWs(line).length);
}

function describeNormalisations(
  doc: DocLines,
  occ: Occurrence,
  pairs: ReadonlyArray<readonly [string, string]>,
): string[] {
  const notes: string[] = [];
  const rank = LINE_TIERS.indexOf(occ.tier);
  const at = (t: Tier) => rank >= LINE_TIERS.indexOf(t);
  if (at('line-endings')) {
    let crlf = false;
    for (let i = occ.start; i < occ.end - 1; i++) if (doc.eol(i) === '\r\n') crlf = true;
    if (crlf) notes.push('matched after normalising line endings (the file uses CRLF)');
  }
  if (at('trailing-whitespace') && pairs.some(([s, d]) => trailing(s) !== trailing(d))) {
    notes.push('matched after ignoring trailing whitespace');
  }
  if (occ.indent.kind !== 'identity') {
    const what = occ.indent.kind === 'columns' ? 'tabs vs spaces' : describeIndentMap(occ.indent);
    notes.push(`matched after normalising indentation (${what})`);
  } else if (occ.tier === 'whitespace' && pairs.some(([s, d]) => !isBlank(s) && leadingWhitespace(s) !== leadingWhitespace(d))) {
    notes.push('matched after normalising indentation');
  }
  const q = quotesDiffer(occ.quotes);
  if (q.curly || q.swapped) {
    const what = [q.curly ? 'curly vs straight' : '', q.swapped ? `' vs "` : ''].filter(Boolean).join(', ');
    notes.push(`matched after normalising quotes (${what})`);
  }
  if (at('unicode')) {
    const kinds = new Set<UnicodeKind>();
    for (const [s, d] of pairs) for (const k of unicodeDifferences(s, d)) kinds.add(k);
    if (kinds.size) notes.push(`matched after normalising unicode punctuation (${[...kinds].join(', ')})`);
  }
  if (occ.lineNumbersStripped) notes.push('matched after removing line-number prefixes from SEARCH');
  if (occ.restoredTags.length) {
    const full = new Map(SANITIZED_TAGS);
    const list = occ.restoredTags.map((t) => `${t} as ${full.get(t)}`).join(', ');
    notes.push(`matched after restoring sanitised tags (${list})`);
  }
  if (occ.tier === 'whitespace' && pairs.some(([s, d]) => fold6(s) !== fold6(d))) {
    notes.push('matched after ignoring whitespace differences between tokens');
  }
  return notes;
}

export function offsetsOf(doc: DocLines, start: number, end: number): { start: number; end: number } {
  return { start: doc.starts[start], end: doc.contentEnd(end - 1) };
}
