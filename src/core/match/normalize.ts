// Per-line normalisations used by the matching tiers. Each is a pure string -> string function so a
// tier's key for a document line can be computed once and cached.

const SPACE = 32;
const TAB = 9;

export function isIndentChar(c: number): boolean {
  return c === SPACE || c === TAB;
}

/** Leading spaces and tabs (the line's indentation). */
export function leadingWhitespace(line: string): string {
  let i = 0;
  while (i < line.length && isIndentChar(line.charCodeAt(i))) {
    i++;
  }
  return line.slice(0, i);
}

export function trimEndWs(line: string): string {
  let j = line.length;
  while (j > 0 && isIndentChar(line.charCodeAt(j - 1))) {
    j--;
  }
  return j === line.length ? line : line.slice(0, j);
}

export function trimWs(line: string): string {
  let i = 0;
  while (i < line.length && isIndentChar(line.charCodeAt(i))) {
    i++;
  }
  let j = line.length;
  while (j > i && isIndentChar(line.charCodeAt(j - 1))) {
    j--;
  }
  return i === 0 && j === line.length ? line : line.slice(i, j);
}

export function isBlank(line: string): boolean {
  for (let i = 0; i < line.length; i++) {
    if (!isIndentChar(line.charCodeAt(i))) {
      return false;
    }
  }
  return true;
}

// ---- quotes ---------------------------------------------------------------------------------------

export type QuoteFamily = 'single' | 'double';

const SINGLE_QUOTES = "'\u2018\u2019\u201A\u201B\u2039\u203A";
const DOUBLE_QUOTES = '"\u201C\u201D\u201E\u201F\u00AB\u00BB';

export function quoteFamily(ch: string): QuoteFamily | undefined {
  if (SINGLE_QUOTES.includes(ch)) {
    return 'single';
  }
  if (DOUBLE_QUOTES.includes(ch)) {
    return 'double';
  }
  return undefined;
}

const QUOTE_RE = /['"\u2018\u2019\u201A\u201B\u2039\u203A\u201C\u201D\u201E\u201F\u00AB\u00BB]/g;

/** Every quote character (straight, curly, low-9, guillemet) becomes '"'; families are checked separately. */
export function foldQuotes(line: string): string {
  QUOTE_RE.lastIndex = 0;
  return QUOTE_RE.test(line) ? line.replace(QUOTE_RE, '"') : line;
}

/** The quote characters of a line, in order. */
export function quoteChars(line: string): string[] {
  QUOTE_RE.lastIndex = 0;
  return line.match(QUOTE_RE) ?? [];
}

// ---- unicode punctuation --------------------------------------------------------------------------

const DASH_RE = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/g;
const SPACE_RE = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g;
const ZERO_WIDTH_RE = /[\u200B-\u200D\u2060\uFEFF\u00AD]/g;
const ELLIPSIS_RE = /\u2026/g;
const NON_ASCII_RE = /[^\x00-\x7F]/;

export type UnicodeKind = 'dashes' | 'special spaces' | 'ellipsis' | 'zero-width characters';

/** Dashes -> '-', NBSP and other spaces -> ' ', ellipsis -> '...', zero-width characters removed. */
export function foldUnicode(line: string): string {
  if (!NON_ASCII_RE.test(line)) {
    return line;
  }
  return line.replace(DASH_RE, '-').replace(SPACE_RE, ' ').replace(ELLIPSIS_RE, '...').replace(ZERO_WIDTH_RE, '');
}

function unicodeKindOf(ch: string): UnicodeKind | undefined {
  const test = (re: RegExp) => {
    re.lastIndex = 0;
    return re.test(ch);
  };
  if (test(DASH_RE)) {
    return 'dashes';
  }
  if (test(SPACE_RE)) {
    return 'special spaces';
  }
  if (test(ELLIPSIS_RE)) {
    return 'ellipsis';
  }
  if (test(ZERO_WIDTH_RE)) {
    return 'zero-width characters';
  }
  return undefined;
}

/** Kinds of unicode punctuation one line has and the other has not (what the unicode tier bridged). */
export function unicodeDifferences(a: string, b: string): UnicodeKind[] {
  if (!NON_ASCII_RE.test(a) && !NON_ASCII_RE.test(b)) {
    return [];
  }
  const count = (s: string) => {
    const m = new Map<string, number>();
    for (const ch of s) {
      if (unicodeKindOf(ch)) {
        m.set(ch, (m.get(ch) ?? 0) + 1);
      }
    }
    return m;
  };
  const ca = count(a);
  const cb = count(b);
  const kinds = new Set<UnicodeKind>();
  for (const [ch, n] of ca) {
    if ((cb.get(ch) ?? 0) !== n) {
      kinds.add(unicodeKindOf(ch)!);
    }
  }
  for (const [ch, n] of cb) {
    if ((ca.get(ch) ?? 0) !== n) {
      kinds.add(unicodeKindOf(ch)!);
    }
  }
  return [...kinds];
}

// ---- line-number prefixes -------------------------------------------------------------------------

/**
 * `12 | code`, `12: code`, `12→code`, cat -n `    12\tcode`. One space after a bar or a colon belongs to
 * the prefix (the view puts it there, as the block parser also reads it); none after an arrow, whose
 * views put none, so taking one would cut into the code's indentation. Left with the line, that space
 * would have to be told from the code's own indentation by the indentation relation, which cannot when
 * the view also expanded tabs ("12: " + 8 spaces for one tab) or the model shifted the block.
 */
const LINE_NUMBER_RE = /^[ \t]*\d+(?:[ \t]?[|\u2502:] ?|[ \t]?\u2192|\t)/;

/** The line without a numbered-view prefix, or undefined when it has none. */
export function stripLineNumber(line: string): string | undefined {
  const m = LINE_NUMBER_RE.exec(line);
  return m ? line.slice(m[0].length) : undefined;
}

// ---- sanitised tags -------------------------------------------------------------------------------

/**
 * Tags some model providers refuse to emit and replace with short forms. Our own list of the ones
 * seen in practice; a SEARCH saying `<e>` where the file says `<error>` matches at the sanitised-tags tier.
 */
export const SANITIZED_TAGS: ReadonlyArray<readonly [string, string]> = [
  ['<e>', '<error>'],
  ['</e>', '</error>'],
  ['<o>', '<output>'],
  ['</o>', '</output>'],
  ['<s>', '<system>'],
  ['</s>', '</system>'],
  ['<r>', '<result>'],
  ['</r>', '</result>'],
  ['<n>', '<name>'],
  ['</n>', '</name>'],
  ['<fnr>', '<function_results>'],
  ['</fnr>', '</function_results>'],
  ['<fc>', '<function_calls>'],
  ['</fc>', '</function_calls>'],
  ['<m>', '<message>'],
  ['</m>', '</message>'],
];

/** Restore sanitised tags; returns the line and which short forms were replaced. */
export function restoreTags(line: string): { line: string; tags: string[] } {
  if (!line.includes('<')) {
    return { line, tags: [] };
  }
  const tags: string[] = [];
  let out = line;
  for (const [short, full] of SANITIZED_TAGS) {
    if (out.includes(short)) {
      out = out.split(short).join(full);
      tags.push(short);
    }
  }
  return { line: out, tags };
}

/** Restore only the given short forms (the ones the match needed) in a REPLACE line. */
export function restoreSomeTags(line: string, shorts: readonly string[]): string {
  let out = line;
  for (const [short, full] of SANITIZED_TAGS) {
    if (shorts.includes(short) && out.includes(short)) {
      out = out.split(short).join(full);
    }
  }
  return out;
}

// ---- whitespace between tokens --------------------------------------------------------------------

/** A run of whitespace (space, tab, VT, FF, CR) between two word characters (ASCII letters, digits, _, $, or any non-ASCII). */
const SPACE_BETWEEN_WORDS = /(?<=[0-9A-Za-z_$\x80-\uffff])[ \t\v\f\r]+(?=[0-9A-Za-z_$\x80-\uffff])/g;
/** A run of whitespace with no word character on one side (or the start or end of the line there). */
const SPACE_BESIDE_NON_WORD = /(?<![0-9A-Za-z_$\x80-\uffff])[ \t\v\f\r]+|[ \t\v\f\r]+(?![0-9A-Za-z_$\x80-\uffff])/g;

/**
 * Whitespace-insensitive key: whitespace disappears except a single space between two word
 * characters, so `f(a,b)` == `f(a, b)` but `return x` != `returnx`. Two native replaces rather than
 * a loop over the characters: the tier that reads lines this way is reached only after every stricter
 * one missed, so this code usually runs cold, where a per-character loop costs many times more.
 */
export function tokenKey(line: string): string {
  return line.replace(SPACE_BETWEEN_WORDS, ' ').replace(SPACE_BESIDE_NON_WORD, '');
}

/**
 * Each line trimmed, with every run of whitespace as one space (so indentation and spacing are not
 * differences). One regex pass over all the lines rather than one per line: `\s` and trim() take the
 * same characters, and a line holds no '\n'.
 */
export function comparisonKeys(lines: readonly string[]): string[] {
  const keys = lines
    .join('\n')
    .replace(/[^\S\n]+/g, ' ')
    .split('\n');
  for (let k = 0; k < keys.length; k++) {
    const key = keys[k];
    if (key.length > 0 && (key.charCodeAt(0) === 32 || key.charCodeAt(key.length - 1) === 32)) {
      keys[k] = key.trim();
    }
  }
  return keys;
}
