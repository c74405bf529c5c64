// Exact evidence, the comparison: which of SEARCH's line keys a document line has, read in place from
// the line's characters (a signature of its two ends rules most lines out; no key string is built). The
// hottest part of the exact-line pass, with its own constants, so it is a file of its own.

import { type ExactLines, MAX_VOTES_PER_LINE } from './exactLines';
import { ELLIPSIS, keyCode, SKIPPED } from './lineText';

/** Buckets of the signature pre-test (a bit each). */
const SIGNATURE_BUCKETS = 1 << 12;
/** Leading key characters in the signature. */
const SIGNATURE_HEAD = 8;
/**
 * Trailing key characters in the signature. Lines of one file often share their first eight (function
 * declarations, `return node`, `node.type...`); the end tells them apart ("(node, body) {").
 */
const SIGNATURE_TAIL = 6;

/**
 * A cheap signature of lineKey of the line text[from, end) (`from` past the indentation): its first
 * SIGNATURE_HEAD and its last SIGNATURE_TAIL characters, without reading the rest of the line. Rules
 * out almost every line before it is compared (lines of one file often share their first few
 * characters, and their last).
 */
function keySignature(text: string, from: number, end: number): number {
  const head = hashKeyChars(0x811c9dc5, text, from, 1, from, end, SIGNATURE_HEAD);
  return hashKeyChars(head, text, end - 1, -1, from, end, SIGNATURE_TAIL) >>> 0;
}

/**
 * FNV-1a over `count` characters of lineKey(text[lo, end)), read from index `i` by `step` (forwards or
 * backwards) without leaving [lo, end). An ellipsis supplies as many of its three dots as are still wanted.
 */
function hashKeyChars(sig: number, text: string, i: number, step: 1 | -1, lo: number, end: number, count: number): number {
  for (let taken = 0; i >= lo && i < end && taken < count; i += step) {
    const raw = text.charCodeAt(i);
    const c = raw < 0x7f ? (raw === 32 || (raw >= 9 && raw <= 13) ? SKIPPED : raw === 34 || raw === 96 ? 39 : raw) : keyCode(raw);
    if (c === SKIPPED) {
      continue;
    }
    if (c === ELLIPSIS) {
      for (let k = Math.min(3, count - taken); k > 0; k--) {
        sig = Math.imul(sig ^ 46, 0x01000193);
        taken++;
      }
    } else {
      sig = Math.imul(sig ^ c, 0x01000193);
      taken++;
    }
  }
  return sig;
}

/** Is lineKey(text[from, end)) equal to `key`? Read in place (`from` past the indentation), without building the key. */
function keyEquals(text: string, from: number, end: number, key: string): boolean {
  let p = 0;
  for (let i = from; i < end; i++) {
    const raw = text.charCodeAt(i);
    const c = raw < 0x7f ? (raw === 32 || (raw >= 9 && raw <= 13) ? SKIPPED : raw === 34 || raw === 96 ? 39 : raw) : keyCode(raw);
    if (c === SKIPPED) {
      continue;
    }
    if (c === ELLIPSIS) {
      if (!key.startsWith('...', p)) {
        return false;
      }
      p += 3;
    } else if (key.charCodeAt(p++) !== c) {
      return false;
    }
  }
  return p === key.length;
}

/**
 * The key comparison of scanExactLines: which of SEARCH's keys a document line has, reading its
 * characters in place. Most lines are ruled out by a signature read from their two ends; no key string
 * is built.
 */
export class KeyMatcher {
  /** keySignature -> keys with it, sorted by key (see keyAmong). */
  private readonly bySignature = new Map<number, number[]>();
  /** One bit per signature bucket: most lines leave after this test, before the map is asked. */
  private readonly signatureBits = new Int32Array(SIGNATURE_BUCKETS >> 5);
  /**
   * One bit per (first, last) pair of ASCII key characters some key has: a line whose first and last
   * characters are ASCII leaves after two reads unless its pair is here (a line with a non-ASCII end
   * goes on to the signature).
   */
  private readonly endPairs = new Int32Array((128 * 128) >> 5);

  constructor(private readonly exact: ExactLines) {
    const keys = exact.keys;
    keys.forEach((key, k) => {
      const sig = keySignature(key, 0, key.length);
      this.signatureBits[(sig & (SIGNATURE_BUCKETS - 1)) >> 5] |= 1 << (sig & 31);
      const pair = (key.charCodeAt(0) << 7) | key.charCodeAt(key.length - 1);
      if (key.length > 0 && pair < 128 * 128 && key.charCodeAt(key.length - 1) < 128) {
        this.endPairs[pair >> 5] |= 1 << (pair & 31);
      }
      const same = this.bySignature.get(sig);
      if (same) {
        same.push(k);
      } else {
        this.bySignature.set(sig, [k]);
      }
    });
    for (const same of this.bySignature.values()) {
      same.sort((x, y) => (keys[x] < keys[y] ? -1 : 1));
    }
  }

  /**
   * Non-blank document line j, text[from, end) (`from` past its indentation, at a character that is
   * not white space): note it if its key is SEARCH's.
   */
  visit(text: string, from: number, end: number, j: number): void {
    // The key's first and last characters are the line's first and last non-space ones (quotes folded)
    // when those are ASCII: a pair no key has rules the line out before its signature is read.
    const first = text.charCodeAt(from);
    if (first < 128) {
      let at = end - 1;
      let last = text.charCodeAt(at);
      while (last === 32 || (last >= 9 && last <= 13)) {
        last = text.charCodeAt(--at);
      }
      if (last < 128) {
        const pair = ((first === 34 || first === 96 ? 39 : first) << 7) | (last === 34 || last === 96 ? 39 : last);
        if ((this.endPairs[pair >> 5] & (1 << (pair & 31))) === 0) {
          return;
        }
      }
    }
    const sig = keySignature(text, from, end);
    if ((this.signatureBits[(sig & (SIGNATURE_BUCKETS - 1)) >> 5] & (1 << (sig & 31))) === 0) {
      return;
    }
    const same = this.bySignature.get(sig);
    if (!same) {
      return;
    }
    // Keys past the vote limit cast no vote anyway: their lines are neither compared nor stored.
    const exact = this.exact;
    let voting = false;
    for (let s = 0; s < same.length && !voting; s++) {
      voting = exact.docLines[same[s]].length <= MAX_VOTES_PER_LINE;
    }
    if (!voting) {
      return;
    }
    const k = same.length === 1 ? (keyEquals(text, from, end, exact.keys[same[0]]) ? same[0] : -1) : this.keyAmong(text, from, end, same);
    if (k >= 0) {
      exact.add(k, j);
    }
  }

  /**
   * Which of the keys `sorted` (by key) lineKey(line) equals, or -1: the line's key characters are read
   * once, narrowing the keys that start the same way to those with the same next character (a
   * contiguous run, as the keys are sorted) until none is left or the line ends.
   */
  private keyAmong(text: string, from: number, end: number, sorted: readonly number[]): number {
    const keys = this.exact.keys;
    let lo = 0;
    let hi = sorted.length;
    let p = 0;
    for (let i = from; i < end; i++) {
      const raw = text.charCodeAt(i);
      const c = raw < 0x7f ? (raw === 32 || (raw >= 9 && raw <= 13) ? SKIPPED : raw === 34 || raw === 96 ? 39 : raw) : keyCode(raw);
      if (c === SKIPPED) {
        continue;
      }
      for (let dots = c === ELLIPSIS ? 3 : 1; dots > 0; dots--) {
        const want = c === ELLIPSIS ? 46 : c;
        // [lo, hi) share the first p characters: skip those whose next one is smaller (or missing).
        while (lo < hi && keys[sorted[lo]].charCodeAt(p) !== want) {
          lo++;
        }
        let end = lo;
        while (end < hi && keys[sorted[end]].charCodeAt(p) === want) {
          end++;
        }
        hi = end;
        if (lo === hi) {
          return -1;
        }
        p++;
      }
    }
    // The key that is exactly the characters read sorts first among those that extend it.
    return keys[sorted[lo]].length === p ? sorted[lo] : -1;
  }
}
