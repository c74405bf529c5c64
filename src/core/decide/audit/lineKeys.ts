// Lines as the audit compares them (issue 25): no white space, quotes and unicode punctuation folded, the
// way the write side may restyle a line. The rules compare a few lines of the block against a result of
// 10,000 lines, so a result line's key is made only when a rule reads it, once, and a plain ASCII line is
// compared against a key without making its own.

import { foldQuotes, foldUnicode } from '../../match/normalize';

/** A line as the write side may restyle it: no white space, quotes and unicode punctuation folded. */
export const lineKey = (line: string): string => foldUnicode(foldQuotes(line)).replace(/\s+/g, '');

/**
 * Whether lineKey(line) is `key`. The fold works character by character (white space dropped, each quote
 * made `"`, other ASCII kept), so an ASCII line is walked against the key and left at its first
 * difference; a line with other characters is folded whole.
 */
export function keyEquals(line: string, key: string): boolean {
  // The fold keeps a line's last two characters when they are ASCII and not white space (a quote made
  // `"`), so the key ends with them: most lines differ there, and are left without a walk from their start.
  const last = foldedEnd(line.charCodeAt(line.length - 1));
  if (last >= 0) {
    if (last !== key.charCodeAt(key.length - 1)) {
      return false;
    }
    const before = foldedEnd(line.charCodeAt(line.length - 2));
    if (before >= 0 && before !== key.charCodeAt(key.length - 2)) {
      return false;
    }
  }
  let k = 0;
  for (let i = 0; i < line.length; i++) {
    let c = line.charCodeAt(i);
    if (c === 32 || (c >= 9 && c <= 13)) {
      continue;
    }
    if (c >= 128) {
      return lineKey(line) === key;
    }
    if (c === 39) {
      c = 34;
    }
    if (k >= key.length || key.charCodeAt(k) !== c) {
      return false;
    }
    k++;
  }
  return k === key.length;
}

/** An ASCII character other than white space as the fold writes it (a quote is `"`); -1 for any other (or none). */
function foldedEnd(c: number): number {
  return c > 32 && c < 128 ? (c === 39 ? 34 : c) : -1;
}

/** The keys of an array of lines, each made when first read (shared by every rule that reads that array). */
export interface LineKeys {
  at(index: number): string;
}

const keysByLines = new WeakMap<readonly string[], LineKeys>();

export function lineKeys(lines: readonly string[]): LineKeys {
  let keys = keysByLines.get(lines);
  if (!keys) {
    const made: Array<string | undefined> = new Array<string | undefined>(lines.length);
    keys = {
      at: (index) => (made[index] ??= lineKey(lines[index])),
    };
    keysByLines.set(lines, keys);
  }
  return keys;
}
