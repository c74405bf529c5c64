// Character-level merge of one changed line: REPLACE's line R was written against SEARCH's line S,
// which stands for the file's line F (equal up to the match's normalisations). Every stretch R kept
// from S is written with F's characters at the aligned place (its quotes, dashes, special spaces,
// ellipsis, zero-width characters, spacing between tokens); only what the model changed comes from R.
//
// Lines are cut into tokens (words, runs of dots or an ellipsis, single other characters) with the
// whitespace between them as gaps. S and F are aligned on folded token keys, S and R on exact text.

const SPECIAL_SPACE = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/;
const ZERO_WIDTH = /[\u200B-\u200D\u2060\uFEFF\u00AD]/;
const DASH = /[\u2010-\u2015\u2212\uFE58\uFE63\uFF0D]/;
const QUOTE = /['"\u2018\u2019\u201A\u201B\u2039\u203A\u201C\u201D\u201E\u201F\u00AB\u00BB]/;

export interface TokenLine {
  /** Leading spaces and tabs. */
  lead: string;
  tokens: string[];
  /** Folded keys of the tokens (quotes, dashes, ellipsis, zero-width characters folded). */
  keys: string[];
  /** gaps[i]: whitespace (and stray zero-width characters) before tokens[i]; gaps[0] follows the lead. */
  gaps: string[];
  /** Whitespace after the last token. */
  trailing: string;
}

function isGapChar(ch: string): boolean {
  const c = ch.charCodeAt(0);
  return c === 32 || c === 9 || c === 11 || c === 12 || c === 13 || (c > 127 && (SPECIAL_SPACE.test(ch) || ZERO_WIDTH.test(ch)));
}

function isWordChar(ch: string): boolean {
  const c = ch.charCodeAt(0);
  if ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95 || c === 36) {
    return true;
  }
  return c > 127 && !SPECIAL_SPACE.test(ch) && !ZERO_WIDTH.test(ch) && !DASH.test(ch) && !QUOTE.test(ch) && ch !== '\u2026';
}

function keyOf(token: string): string {
  if (token.length === 1) {
    if (QUOTE.test(token)) {
      return '"';
    }
    if (DASH.test(token)) {
      return '-';
    }
  }
  let key = token.replace(/\u2026/g, '...');
  if (key.length > 1 && /[\u200B-\u200D\u2060\uFEFF\u00AD]/.test(key)) {
    key = key.replace(/[\u200B-\u200D\u2060\uFEFF\u00AD]/g, '');
  }
  return key;
}

export function tokenizeLine(line: string): TokenLine {
  let i = 0;
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) {
    i++;
  }
  const lead = line.slice(0, i);
  const tokens: string[] = [];
  const gaps: string[] = [];
  let gap = '';
  const n = line.length;
  while (i < n) {
    const ch = line[i];
    if (isGapChar(ch)) {
      gap += ch;
      i++;
      continue;
    }
    let j = i + 1;
    if (isWordChar(ch)) {
      // A word continues across zero-width characters inside it.
      while (j < n) {
        const c = line[j];
        if (isWordChar(c)) {
          j++;
        } else if (ZERO_WIDTH.test(c) && j + 1 < n && (isWordChar(line[j + 1]) || ZERO_WIDTH.test(line[j + 1]))) {
          j++;
        } else {
          break;
        }
      }
    } else if (ch === '.' || ch === '\u2026') {
      while (j < n && (line[j] === '.' || line[j] === '\u2026')) {
        j++;
      }
    } else if (ch.charCodeAt(0) >= 0xd800 && ch.charCodeAt(0) < 0xdc00 && j < n) {
      j++;
    }
    gaps.push(gap);
    gap = '';
    tokens.push(line.slice(i, j));
    i = j;
  }
  return { lead, tokens, keys: tokens.map(keyOf), gaps, trailing: gap };
}

/** A piece of a merged line: `fresh` text came from the model, the rest is the file's. */
export interface Piece {
  text: string;
  fresh: boolean;
}

type Align = (a: readonly string[], b: readonly string[]) => Array<[number, number]>;

/**
 * Merge R onto F through S. `align` is a longest-common-subsequence aligner. Returns the body pieces
 * (everything after the leading indentation) and the trailing whitespace as its own last piece.
 */
export function mergeLine(s: TokenLine, f: TokenLine, r: TokenLine, align: Align, modelQuotes = false): { body: Piece[]; trailing: Piece } {
  const sToF = new Map<number, number>();
  for (const [a, b] of align(s.keys, f.keys)) {
    sToF.set(a, b);
  }
  const rToS = new Map<number, number>();
  for (const [a, b] of align(r.tokens, s.tokens)) {
    rToS.set(a, b);
  }
  const kept = (j: number): [number, number] | undefined => {
    const si = rToS.get(j);
    if (si === undefined) {
      return undefined;
    }
    const fi = sToF.get(si);
    return fi === undefined ? undefined : [si, fi];
  };
  const after = (t: TokenLine, i: number) => (i + 1 < t.tokens.length ? t.gaps[i + 1] : t.trailing);
  const body: Piece[] = [];
  let prev: [number, number] | undefined;
  for (let j = 0; j < r.tokens.length; j++) {
    const here = kept(j);
    const gap = r.gaps[j];
    let counterpart: [string, string] | undefined;
    if (here) {
      counterpart = [s.gaps[here[0]], f.gaps[here[1]]];
    } else if (prev && prev[0] + 1 < s.tokens.length && prev[1] + 1 < f.tokens.length) {
      // Only a gap between two tokens stands for R's gap here, which is inside the line: whitespace at
      // the end of S's (or F's) line is no counterpart, and R's space before a new token is its own.
      counterpart = [after(s, prev[0]), after(f, prev[1])];
    }
    if (gap !== '' || (counterpart && counterpart[1] !== '')) {
      body.push(counterpart && gap === counterpart[0] ? { text: counterpart[1], fresh: false } : { text: gap, fresh: true });
    }
    // With modelQuotes (quote style preservation off) REPLACE's quote characters are written as given.
    const own = here && !(modelQuotes && r.keys[j] === '"');
    body.push(own ? { text: f.tokens[here[1]], fresh: false } : { text: r.tokens[j], fresh: !here });
    prev = here;
  }
  const trailing: Piece = r.trailing === s.trailing ? { text: f.trailing, fresh: false } : { text: r.trailing, fresh: true };
  return { body, trailing };
}
