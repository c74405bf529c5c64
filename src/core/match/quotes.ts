// Quote characters: the consistency rule of the quotes tier and the file's quote style for changed
// REPLACE lines ("curly in, curly out"; if SEARCH said "x" where the file says 'x', REPLACE follows).

import { quoteChars, quoteFamily, type QuoteFamily } from './normalize';

/** Aligned quote characters [SEARCH char, file char] from matched line pairs. */
export type QuotePairs = Array<[string, string]>;

/**
 * Collect aligned quote characters from line pairs whose keys matched with quotes folded, so the i-th
 * quote of one line corresponds to the i-th quote of the other. Returns undefined when the mapping
 * between families is not one consistent (and reversible) substitution across the whole block.
 */
export function alignQuotes(pairs: ReadonlyArray<readonly [string, string]>): QuotePairs | undefined {
  const out: QuotePairs = [];
  const forward = new Map<QuoteFamily, QuoteFamily>();
  const backward = new Map<QuoteFamily, QuoteFamily>();
  for (const [s, d] of pairs) {
    const sq = quoteChars(s);
    const dq = quoteChars(d);
    if (sq.length !== dq.length) {
      return undefined;
    }
    for (let i = 0; i < sq.length; i++) {
      const sf = quoteFamily(sq[i])!;
      const df = quoteFamily(dq[i])!;
      if ((forward.get(sf) ?? df) !== df || (backward.get(df) ?? sf) !== sf) {
        return undefined;
      }
      forward.set(sf, df);
      backward.set(df, sf);
      out.push([sq[i], dq[i]]);
    }
  }
  return out;
}

export function quotesDiffer(pairs: QuotePairs): { curly: boolean; swapped: boolean } {
  let curly = false;
  let swapped = false;
  for (const [s, d] of pairs) {
    if (s === d) {
      continue;
    }
    if (quoteFamily(s) !== quoteFamily(d)) {
      swapped = true;
    } else {
      curly = true;
    }
  }
  return { curly, swapped };
}

const STRAIGHT: Record<QuoteFamily, string> = { single: "'", double: '"' };

function isStraight(ch: string): boolean {
  return ch === "'" || ch === '"';
}

interface Target {
  family: QuoteFamily;
  curly: boolean;
  open: string;
  close: string;
}

/** The opening/closing pair the file uses for a family, judged from the curly characters it shows. */
function curlyPair(family: QuoteFamily, seen: readonly string[]): { open: string; close: string } {
  const has = (c: string) => seen.includes(c);
  if (family === 'double') {
    if (has('\u201E')) {
      return { open: '\u201E', close: has('\u201D') && !has('\u201C') ? '\u201D' : '\u201C' };
    }
    if (has('\u00AB') || has('\u00BB')) {
      return { open: '\u00AB', close: '\u00BB' };
    }
    return { open: '\u201C', close: '\u201D' };
  }
  if (has('\u201A')) {
    return { open: '\u201A', close: '\u2018' };
  }
  if (has('\u2039') || has('\u203A')) {
    return { open: '\u2039', close: '\u203A' };
  }
  return { open: '\u2018', close: '\u2019' };
}

/** An opening quote follows the start of the line, whitespace, an opening bracket or a dash. */
function opensAt(text: string, i: number): boolean {
  if (i === 0) {
    return true;
  }
  const prev = text[i - 1];
  return /[\s([{<\u2014\u2013\-/]/.test(prev) || (quoteFamily(prev) !== undefined && opensAt(text, i - 1));
}

/**
 * A function bringing a changed REPLACE line into the file's quote style, or undefined when there is
 * nothing to do; `editable` limits it to the characters the model wrote (not those taken from the file). `aligned` are the SEARCH/file quote pairs of the match; `fileText` is the matched
 * region (for files whose quotes SEARCH never mentioned, e.g. straight REPLACE quotes in curly prose).
 */
export function quoteStyler(
  aligned: QuotePairs,
  fileText: string,
): ((line: string, editable?: (index: number) => boolean) => string) | undefined {
  // SEARCH wrote every quote as the file does (a code block's SEARCH is the file's own lines): nothing to
  // learn, so the model's quotes stay as written (`«non»` inside a straight string is not restyled `„non“`).
  if (aligned.every(([s, d]) => s === d)) {
    return undefined;
  }
  // Classes of SEARCH characters: the straight ones by character, curly ones by family.
  const classOf = (ch: string) => (isStraight(ch) ? ch : `curly-${quoteFamily(ch)}`);
  const seen = new Map<string, string[]>();
  for (const [s, d] of aligned) {
    const key = classOf(s);
    const list = seen.get(key);
    if (list) {
      list.push(d);
    } else {
      seen.set(key, [d]);
    }
  }
  const fileQuotes = quoteChars(fileText);
  const targets = new Map<string, Target>();
  for (const [key, docChars] of seen) {
    const family = quoteFamily(docChars[0])!;
    const allCurly = docChars.every((c) => !isStraight(c));
    const allStraight = docChars.every(isStraight);
    if (!allCurly && !allStraight) {
      continue;
    }
    const pair = curlyPair(family, allCurly ? docChars : []);
    targets.set(key, { family, curly: allCurly, ...pair });
  }
  // Straight quotes SEARCH never used: when the model is known to straighten this file's curly quotes
  // (some aligned pair shows it), follow the region's curly style for the other family as well.
  const straightens = aligned.some(([s, d]) => isStraight(s) && !isStraight(d));
  for (const family of straightens ? (['single', 'double'] as const) : []) {
    const key = STRAIGHT[family];
    if (targets.has(key)) {
      continue;
    }
    const ofFamily = fileQuotes.filter((c) => quoteFamily(c) === family);
    if (ofFamily.length > 0 && ofFamily.every((c) => !isStraight(c))) {
      targets.set(key, { family, curly: true, ...curlyPair(family, ofFamily) });
    }
  }
  const identity = [...targets].every(([key, t]) => (isStraight(key) ? !t.curly && STRAIGHT[t.family] === key : false));
  if (targets.size === 0 || identity) {
    return undefined;
  }

  return (line: string, editable?: (index: number) => boolean) => {
    let out = '';
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      const family = quoteFamily(ch);
      const target = family ? targets.get(classOf(ch)) : undefined;
      if (!target || (editable && !editable(i))) {
        out += ch;
        continue;
      }
      if (!target.curly) {
        out += STRAIGHT[target.family];
      } else if (!isStraight(ch) && target.family === family && (ch === target.open || ch === target.close)) {
        out += ch;
      } else {
        out += opensAt(line, i) ? target.open : target.close;
      }
    }
    return out;
  };
}
