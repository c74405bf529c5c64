// Windows and their estimate: every window of as many non-blank lines as SEARCH has gets a cheap
// bag-of-bigrams Dice estimate in one sliding pass over the document (how much of it is read is
// decided by sampling()). The hottest code of the search, kept apart from what picks regions from the
// estimates (prefilter.ts). Its loops are indexed, not for-of (see the note at the top of search.ts).

import { type LineSource } from '../lineSource';
import { type Budget } from './budget';
import { isWideSpace, LINE_START } from './lineText';
import { DOCUMENT_PASS_SHARE, type MeasuredLines } from './measure';

const HASH_SIZE = 1 << 16;

/**
 * Multiplicative hash of a character pair: the prefilter samples on its top bits and indexes its
 * table by the middle bits (the document loop inlines the same expression).
 */
function mixBigram(c1: number, c2: number): number {
  return Math.imul((c1 << 16) | c2, 0x9e3779b1);
}

/**
 * Tables the prefilter reuses from one search to the next (zeroing a 64K-entry table per search
 * costs more than the scan of a mid-sized file). Owned by the caller: the engine shares one among all batches
 * (see FuzzyOptions.scratch); a search without one gets a fresh one.
 */
export class FuzzyScratch {
  /** Per code: [2 * code] the sliding window's count, [2 * code + 1] SEARCH's (interleaved: one cache line). */
  readonly counts = new Int32Array(2 * HASH_SIZE);
  /** The codes the last search counted: the only non-zero entries of counts, cleared by the next search (even if one threw). */
  countedCodes: number[] = [];
  /** The prefilter's per-line code store (every slot is written before it is read). */
  codes = new Uint16Array(0);
}

/** How much of the document and of SEARCH the prefilter reads (see sampling()). */
interface Sampling {
  /** Every stride-th non-blank line is hashed. */
  stride: number;
  /** log2 of the share of bigrams kept. */
  sampleBits: number;
  /** A bigram whose hash has any of these bits set is not kept. */
  sampleMask: number;
}

/** SEARCH's sampled bigram codes, counted into the scratch table. */
interface SearchCodes {
  /** One bit per code SEARCH has (small enough to stay in L1). */
  inSearch: Int32Array;
  /** Sampled bigrams of SEARCH, with repeats. */
  size: number;
}

/**
 * Line sampling: for large blocks only every stride-th non-blank line is hashed (reading every
 * character is the dominant cost); the others are only checked for being blank and measured.
 * A window's counts are scaled up by stride before they are clipped against SEARCH's, and its
 * size by its measured content, which estimates the Dice of all its lines.
 * Bigram sampling: keep only bigrams whose hash has its top bits clear, chosen the same way on
 * both sides, so a large block costs a fraction of the table updates while the estimate stays
 * unbiased. A window keeps at least ~256 sampled bigrams; small blocks keep every one.
 */
export function sampling(search: readonly string[]): Sampling {
  const n = search.length;
  const stride = n >= 48 ? 3 : n >= 24 ? 2 : 1;
  let searchChars = 0;
  for (const line of search) {
    searchChars += line.length;
  }
  const hashedPerWindow = Math.floor(searchChars / stride);
  let sampleBits = 0;
  while (sampleBits < 6 && hashedPerWindow >> (sampleBits + 1) >= 256) {
    sampleBits++;
  }
  return { stride, sampleBits, sampleMask: sampleBits === 0 ? 0 : ~0 << (32 - sampleBits) };
}

/**
 * Counts SEARCH's sampled codes into the scratch table (after clearing the previous search's). A
 * document code SEARCH lacks never changes the overlap, so only the others are stored and counted
 * in the sliding window.
 */
export function countSearchCodes(search: readonly string[], { sampleMask }: Sampling, scratch: FuzzyScratch): SearchCodes {
  const inSearch = new Int32Array(HASH_SIZE >> 5);
  const counts = scratch.counts;
  for (const code of scratch.countedCodes) {
    counts[2 * code] = counts[2 * code + 1] = 0;
  }
  const searchCodes: number[] = []; // distinct
  scratch.countedCodes = searchCodes;
  let size = 0;
  for (const line of search) {
    let prev = LINE_START;
    for (let i = 0; i < line.length; i++) {
      const c = line.charCodeAt(i);
      if (c <= 32 ? c === 32 || (c >= 9 && c <= 13) : c >= 0xa0 && isWideSpace(c)) {
        continue;
      }
      const h = mixBigram(prev, c);
      prev = c;
      if ((h & sampleMask) !== 0) {
        continue;
      }
      const code = (h >>> 8) & 0xffff;
      if (counts[2 * code + 1]++ === 0) {
        searchCodes.push(code);
        inSearch[code >> 5] |= 1 << (code & 31);
      }
      size++;
    }
  }
  return { inSearch, size };
}

/** Per non-blank line, what the sliding pass records (prefix sums: entry e + 1 covers lines 0..e). */
interface LineTables {
  /**
   * Where each line's codes start in the code store (typed: a 1M-line file would otherwise grow JS
   * arrays a push at a time).
   */
  lineOffset: Int32Array;
  /** Sampled codes (stored or not) before each non-blank line: the window's size in bigrams. */
  sampledSum: Int32Array;
  /** Content length (after indentation) summed over non-blank lines, all and hashed ones only. */
  charSum: Float64Array;
  hashedCharSum: Float64Array;
}

/** The tables of estimateWindows for M non-blank lines. */
function lineTables(M: number): LineTables {
  return {
    lineOffset: new Int32Array(M + 1),
    sampledSum: new Int32Array(M + 1),
    charSum: new Float64Array(M + 1),
    hashedCharSum: new Float64Array(M + 1),
  };
}

/**
 * The store for the document's codes: the scratch's own, enlarged to the sampled characters. A file
 * that outgrows the scratch buffer gets a larger buffer of its own (estimateWindows grows it as it
 * goes), so at most 512 kB stays allocated between searches.
 */
function codeStore(scratch: FuzzyScratch, nonBlankChars: number, sampleBits: number): Uint16Array {
  const initialCodes = Math.min(nonBlankChars >> sampleBits, 1 << 18) + 16;
  if (scratch.codes.length < initialCodes) {
    scratch.codes = new Uint16Array(initialCodes);
  }
  return scratch.codes;
}

/** A copy of the code store with room for at least `needed` codes (at least twice as large). */
function grownStore(codes: Uint16Array, needed: number): Uint16Array {
  const grown = new Uint16Array(Math.max(codes.length * 2, needed));
  grown.set(codes);
  return grown;
}

/**
 * The pass over the non-blank lines: every window of n of them gets a bag-of-bigrams Dice estimate,
 * kept up to date with a sliding sum (each line's codes are added once and removed once). Returns the
 * estimate per window start (-1: no window starts there). One loop on purpose: it is the hottest code
 * of the tier (its tables come from lineTables, codeStore and grownStore).
 */
export function estimateWindows(
  { text, lineTexts, starts, ends }: LineSource,
  { nonBlank, leads, nonBlankChars }: MeasuredLines,
  n: number,
  { stride, sampleBits, sampleMask }: Sampling,
  { inSearch, size: searchSize }: SearchCodes,
  scratch: FuzzyScratch,
  budget: Budget,
): Float32Array {
  // The document passes may use most of the budget; full scoring needs comparatively little.
  const prefilterCap = budget.cap * DOCUMENT_PASS_SHARE;
  const counts = scratch.counts;
  const M = nonBlank.length;
  let codes = codeStore(scratch, nonBlankChars, sampleBits);
  const { lineOffset, sampledSum, charSum, hashedCharSum } = lineTables(M);
  const best = new Float32Array(M).fill(-1);
  let common = 0; // sum over bigrams of min(window count * stride, SEARCH count)
  let windowSize = 0;
  let used = budget.used;
  for (let e = 0; e < M; e++) {
    if (used > prefilterCap) {
      budget.truncated = true;
      break;
    }
    const ls = starts[nonBlank[e]];
    const length = ends[nonBlank[e]] - ls;
    const line = lineTexts === undefined ? text : lineTexts[nonBlank[e]];
    const lead = leads[e];
    const hashed = e % stride === 0;
    const from = lineOffset[e];
    let to = from;
    let sampled = 0;
    if (hashed) {
      if (codes.length - from < length) {
        codes = grownStore(codes, from + length);
      }
      let prev = LINE_START;
      for (let i = ls + lead, end = ls + length; i < end; i++) {
        const c = line.charCodeAt(i);
        if (c <= 32) {
          if (c === 32 || (c >= 9 && c <= 13)) {
            continue;
          }
        } else if (c >= 0xa0 && isWideSpace(c)) {
          continue;
        }
        const h = Math.imul((prev << 16) | c, 0x9e3779b1);
        prev = c;
        // Branch-free (both tests are coin flips to a branch predictor): the code is written
        // anyway, counted when sampled (top bits, at most 6, clear), kept when SEARCH also has it.
        const sample = (((h & sampleMask) >>> 26) - 1) >>> 31;
        const code = (h >>> 8) & 0xffff;
        sampled += sample;
        codes[to] = code;
        to += sample & (inSearch[code >> 5] >>> (code & 31));
      }
      used += length - lead; // the characters past the indentation (measureLines counted the rest)
    }
    lineOffset[e + 1] = to;
    sampledSum[e + 1] = sampledSum[e] + sampled;
    charSum[e + 1] = charSum[e] + (length - lead);
    hashedCharSum[e + 1] = hashedCharSum[e] + (hashed ? length - lead : 0);

    for (let p = from; p < to; p++) {
      const code = codes[p];
      const have = counts[2 * code]++ * stride;
      const want = counts[2 * code + 1];
      if (have < want) {
        common += Math.min(stride, want - have);
      }
    }
    windowSize += sampled;
    if (e >= n) {
      const rFrom = lineOffset[e - n];
      const rTo = lineOffset[e - n + 1];
      const rSampled = sampledSum[e - n + 1] - sampledSum[e - n];
      for (let p = rFrom; p < rTo; p++) {
        const code = codes[p];
        const have = --counts[2 * code] * stride;
        const want = counts[2 * code + 1];
        if (have < want) {
          common -= Math.min(stride, want - have);
        }
      }
      windowSize -= rSampled;
      used += rSampled;
    }
    used += sampled;
    if (e >= n - 1) {
      const start = e - n + 1;
      const hashedChars = hashedCharSum[e + 1] - hashedCharSum[start];
      // How much more content the window has than its hashed lines (exactly 1 when stride is 1).
      const scale = hashedChars === 0 ? 0 : (charSum[e + 1] - charSum[start]) / hashedChars;
      const total = searchSize + windowSize * scale;
      best[start] = total === 0 ? 0 : (2 * common * (scale / stride)) / total;
    }
  }
  budget.used = used;
  return best;
}
