// The matching tiers, one entry each, strictest first: what a tier forgives, how it reads a line, and
// the words users and models see for it. The matcher (tiers.ts), the engine, the LLM-facing message,
// chat, CodeLens, the status bar and the log all read this table; adding or changing a tier means
// changing its entry here (and its example in test/unit/tierTable.test.ts).
//
// Tiers are cumulative: tier k forgives what tiers 2..k forgive, so the flags below, once true, stay
// true for every later line tier (a unit test checks it).

import { foldQuotes, foldUnicode, tokenKey, trimEndWs, trimWs } from './normalize';

/** How a tier compares SEARCH with the file: byte for byte, through a normalised reading, or by similarity. */
export type TierKind = 'exact' | 'normalising' | 'fuzzy';

/** How a line is read at a tier: two lines match when their keys are equal. */
export interface LineReading {
  /** Name of the per-document key cache; tiers that read lines the same way share one. */
  readonly cache: string;
  readonly key: (line: string) => string;
}

export interface TierEntry {
  /** The tier's name: the `tier` of a block outcome, in the CLI's --json and in the log. */
  readonly name: string;
  readonly kind: TierKind;
  /** What it forgives, as a noun phrase: "matched after normalising <forgives>" (the LLM-facing message). */
  readonly forgives: string;
  /** How a match at this tier is told to users: "matched <phrase>" (chat, CodeLens, status bar). */
  readonly phrase: string;
  /** How a line is read (normalising tiers only; exact compares bytes, fuzzy scores similarity). */
  readonly reading?: LineReading;
  /**
   * What the reading removes without changing any other character, so a line whose trimmed length
   * differs from every SEARCH key's cannot match: 'none', 'end' (trailing blanks), 'both' (leading
   * and trailing blanks). Undefined when the reading may change lengths (then a length bound is used).
   */
  readonly sameLengthAfterTrimming?: 'none' | 'end' | 'both';
  /** The reading ignores whitespace between tokens: anchors are whole words, not runs of text. */
  readonly tokensOnly: boolean;
  /** The reading folds unicode, zero-width characters included (which could split an anchor in the file). */
  readonly foldsUnicode: boolean;
  /** A SEARCH line may also be read without a line-number prefix ("12 | x", "   12\tx"). */
  readonly stripsLineNumbers: boolean;
  /** A SEARCH line may also be read with sanitised tags restored. */
  readonly restoresTags: boolean;
  /** Leading indentation is related by one shift or rescale over all lines (see indent.ts). */
  readonly relatesIndentation: boolean;
  /**
   * Differs from exact only in what a model cannot see (CR, trailing spaces and tabs): occurrences at
   * this tier count as the same text for ambiguity, and the large-batch line index answers for it.
   */
  readonly invisible: boolean;
  /** Applied even when automatic application of normalised matches is off: it cannot land in the wrong place. */
  readonly appliesWithoutConsent: boolean;
}

/** Unicode punctuation and spaces folded, quotes folded, blanks trimmed at both ends. */
export function foldPunctuation(line: string): string {
  return trimWs(foldUnicode(foldQuotes(line)));
}

/** Only the tokens count: whitespace between them is ignored (after folding quotes and unicode). */
function foldTokens(line: string): string {
  return tokenKey(foldUnicode(foldQuotes(line)));
}

const asIs: LineReading = { cache: 'line', key: (line) => line };
const punctuation: LineReading = { cache: 'unicode', key: foldPunctuation };

/** Flags of a tier that forgives nothing beyond exact; entries below switch on what they add. */
const STRICT = {
  tokensOnly: false,
  foldsUnicode: false,
  stripsLineNumbers: false,
  restoresTags: false,
  relatesIndentation: false,
  invisible: false,
  appliesWithoutConsent: false,
} as const;

/** Every tier, cheapest and strictest first. The first line tier with any match decides. */
export const TIER_TABLE = [
  {
    ...STRICT,
    name: 'exact',
    kind: 'exact',
    forgives: 'nothing',
    phrase: 'exactly',
    appliesWithoutConsent: true,
  },
  {
    ...STRICT,
    name: 'line-endings',
    kind: 'normalising',
    forgives: 'line endings (CRLF/LF)',
    phrase: 'after normalising line endings',
    reading: asIs,
    sameLengthAfterTrimming: 'none',
    invisible: true,
    appliesWithoutConsent: true,
  },
  {
    ...STRICT,
    name: 'trailing-whitespace',
    kind: 'normalising',
    forgives: 'trailing whitespace',
    phrase: 'after ignoring trailing whitespace',
    reading: { cache: 'trimEnd', key: trimEndWs },
    sameLengthAfterTrimming: 'end',
    invisible: true,
  },
  {
    ...STRICT,
    name: 'indentation',
    kind: 'normalising',
    forgives: 'indentation',
    phrase: 'after normalising indentation',
    reading: { cache: 'trim', key: trimWs },
    sameLengthAfterTrimming: 'both',
    relatesIndentation: true,
  },
  {
    ...STRICT,
    name: 'quotes',
    kind: 'normalising',
    forgives: 'quote characters',
    phrase: 'after normalising quotes',
    reading: { cache: 'quotes', key: (line) => foldQuotes(trimWs(line)) },
    sameLengthAfterTrimming: 'both',
    relatesIndentation: true,
  },
  {
    ...STRICT,
    name: 'unicode',
    kind: 'normalising',
    forgives: 'unicode punctuation and spaces',
    phrase: 'after normalising unicode punctuation',
    reading: punctuation,
    foldsUnicode: true,
    relatesIndentation: true,
  },
  {
    ...STRICT,
    name: 'line-numbers',
    kind: 'normalising',
    forgives: 'line-number prefixes',
    phrase: 'after stripping line numbers',
    reading: punctuation,
    foldsUnicode: true,
    stripsLineNumbers: true,
    relatesIndentation: true,
  },
  {
    ...STRICT,
    name: 'sanitized-tags',
    kind: 'normalising',
    forgives: 'sanitised tags',
    phrase: 'after restoring sanitised tags',
    reading: punctuation,
    foldsUnicode: true,
    stripsLineNumbers: true,
    restoresTags: true,
    relatesIndentation: true,
  },
  {
    ...STRICT,
    name: 'whitespace',
    kind: 'normalising',
    forgives: 'whitespace between tokens',
    phrase: 'after ignoring whitespace between tokens',
    reading: { cache: 'tokens', key: foldTokens },
    tokensOnly: true,
    foldsUnicode: true,
    stripsLineNumbers: true,
    restoresTags: true,
    relatesIndentation: true,
  },
  {
    ...STRICT,
    name: 'fuzzy',
    kind: 'fuzzy',
    forgives: 'fuzzy similarity',
    phrase: 'by fuzzy match',
  },
] as const satisfies readonly TierEntry[];

/** The matching tiers, cheapest and strictest first. The first tier with any match decides. */
export type Tier = (typeof TIER_TABLE)[number]['name'];

/** Tier names in table order. */
export const TIERS: readonly Tier[] = TIER_TABLE.map((entry) => entry.name);

const BY_NAME = new Map<Tier, TierEntry & { rank: number }>(TIER_TABLE.map((entry, rank) => [entry.name, { ...entry, rank }]));

/** The table entry of a tier, with its 0-based rank (0 = exact). */
export function tierInfo(tier: Tier): TierEntry & { readonly rank: number } {
  return BY_NAME.get(tier)!;
}

/** The tiers tiers.ts decides line by line (every tier but fuzzy), in order. */
export const LINE_TIERS: readonly Tier[] = TIER_TABLE.filter((entry) => entry.kind !== 'fuzzy').map((entry) => entry.name);

/** Exact and the tiers that differ from it only in what a model cannot see, in order. */
export const INVISIBLE_TIERS: readonly Tier[] = TIER_TABLE.filter((entry) => entry.kind === 'exact' || entry.invisible).map(
  (entry) => entry.name,
);

/** "after normalising indentation", "exactly", "by fuzzy match": how a match at this tier is told to users. */
export function tierPhrase(tier: Tier): string {
  return tierInfo(tier).phrase;
}

/** "indentation", "quote characters": what the tier forgives, for "matched after normalising ...". */
export function tierForgives(tier: Tier): string {
  return tierInfo(tier).forgives;
}

/** Whether a tier is at least as loose as another (tiers are cumulative). */
export function atLeast(tier: Tier, than: Tier): boolean {
  return tierInfo(tier).rank >= tierInfo(than).rank;
}
