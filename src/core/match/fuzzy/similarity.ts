// Text similarity of two strings (character-bigram Dice, the Levenshtein ratio for short ones): the
// measure the fuzzy search's full scorer stands on, and the one the rest of the engine uses to compare
// a line with a line (write/transform, report/lineDiff). Its own file so those need not load the search.

import { distance } from 'fastest-levenshtein';

/** Below this length (of the longer string) similarity() uses the Levenshtein ratio. */
export const SHORT_STRING = 20;

/** Character-bigram Dice coefficient with multiset intersection: 2|A∩B| / (|A|+|B|). */
export function dice(a: string, b: string): number {
  if (a === b) {
    return 1;
  }
  if (a.length < 2 || b.length < 2) {
    return 0;
  }
  const x = bigramCodes(a);
  const y = bigramCodes(b);
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      common++;
      i++;
      j++;
    } else if (x[i] < y[j]) {
      i++;
    } else {
      j++;
    }
  }
  return (2 * common) / (x.length + y.length);
}

/** Dice for ordinary strings; for short ones (bigrams too coarse) the Levenshtein ratio 1 - d/maxLen. */
export function similarity(a: string, b: string): number {
  if (a === b) {
    return 1;
  }
  const longer = Math.max(a.length, b.length);
  if (longer < SHORT_STRING) {
    return 1 - distance(a, b) / longer;
  }
  return dice(a, b);
}

function bigramCodes(s: string): Uint32Array {
  const codes = new Uint32Array(s.length - 1);
  for (let i = 0; i < codes.length; i++) {
    codes[i] = ((s.charCodeAt(i) << 16) | s.charCodeAt(i + 1)) >>> 0;
  }
  return codes.sort();
}
