// How the fuzzy search reads one line: its key (lineKey, what tiers 1-9 forgive taken away; keyCode,
// the same per character for the readers that never build the key), its normalised text (normalizeLine,
// what the full scorer compares) and the white space beyond ASCII. Every stage reads lines this way,
// so it is one file below all of them.

/**
 * The key under which a line counts as exactly equal to a SEARCH line: what tiers 1-9 forgive taken
 * away (whitespace anywhere, quote kinds, unicode dashes, ellipsis, zero-width characters).
 */
export function lineKey(line: string): string {
  // Regular expressions rather than a loop over the characters: native code, fast in a cold process.
  if (!KEY_UNSTABLE.test(line)) {
    return line;
  }
  const key = line.replace(/[\s\u200B-\u200D\u2060\uFEFF]+/g, '');
  if (!KEY_FOLDED.test(key)) {
    return key;
  }
  return key.replace(KEY_QUOTES, "'").replace(KEY_DASHES, '-').replace(KEY_ELLIPSIS, '...');
}

/** A character lineKey may drop or fold: control characters and space, `"`, backquote, anything past ASCII. */
const KEY_UNSTABLE = /[\x00-\x20"`\x7f-\uffff]/;
/** What lineKey folds: quote kinds to `'`, unicode dashes to `-`, the ellipsis to `...`. */
const KEY_QUOTES = /[\u2018\u2019\u201A\u201B\u2032\u201C\u201D\u201E\u201F\u2033\u00AB\u00BB\u2039\u203A"`]/g;
const KEY_DASHES = /[\u2010-\u2015\u2212]/g;
const KEY_ELLIPSIS = /\u2026/g;
/** Any character lineKey folds, once white space is gone (not global: test() keeps no state). */
const KEY_FOLDED = new RegExp(`${KEY_QUOTES.source}|${KEY_DASHES.source}|${KEY_ELLIPSIS.source}`);

/** A character code as lineKey spells it: SKIPPED (whitespace, zero-width), ELLIPSIS ('...'), or the folded code. */
export const SKIPPED = -1;
export const ELLIPSIS = -2;
// The key readers (keyMatcher.ts) test ASCII inline and call keyCode only past it: a call per character
// is what a cold (not yet optimised) run pays most for.
export function keyCode(c: number): number {
  if (c === 32 || (c >= 9 && c <= 13)) {
    return SKIPPED;
  }
  if (c < 0x7f) {
    return c === 34 || c === 96 ? 39 : c;
  }
  if (
    c === 0xa0 ||
    c === 0xfeff ||
    c === 0x2060 ||
    c === 0x3000 ||
    (c >= 0x2000 && c <= 0x200d) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x1680
  ) {
    return SKIPPED;
  }
  if ((c >= 0x2018 && c <= 0x201f) || c === 0x2032 || c === 0x2033 || c === 0xab || c === 0xbb || c === 0x2039 || c === 0x203a) {
    return 39;
  }
  if ((c >= 0x2010 && c <= 0x2015) || c === 0x2212) {
    return 45;
  }
  return c === 0x2026 ? ELLIPSIS : c;
}

/** Trim and collapse inner whitespace runs: the text the full scorer compares. */
export function normalizeLine(line: string): string {
  const t = line.trim();
  // Most lines have only single ASCII spaces inside: a test (native, as lineKey's) spares them the replace.
  return COLLAPSIBLE_SPACE.test(t) ? t.replace(/\s+/g, ' ') : t;
}

/** What normalizeLine may change inside a trimmed line: two spaces in a row, a control character or any past U+009F. */
const COLLAPSIBLE_SPACE = /  |[\x00-\x1f\xa0-\uffff]/;

/**
 * White space beyond ASCII as JavaScript reads it (\s: NBSP, BOM, the U+2000 spaces, the line and
 * paragraph separators, ...) and the zero-width space; the hot loops test ASCII inline.
 */
export function isWideSpace(c: number): boolean {
  return (
    c === 0xa0 ||
    c === 0xfeff ||
    (c >= 0x2000 && c <= 0x200b) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0x1680
  );
}

export const LINE_START = 10; // '\n': never part of a line's content, so it marks where a line begins
