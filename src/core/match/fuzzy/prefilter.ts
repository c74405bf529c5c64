// The prefilter: the look-alike regions of the document, from the windows' estimates (estimate.ts),
// one per region and clear of each other. What it returns is what the full scorer then looks at.

import { type LineSource } from '../lineSource';
import { type Budget } from './budget';
import { countSearchCodes, estimateWindows, type FuzzyScratch, sampling } from './estimate';
import { type MeasuredLines } from './measure';

/**
 * Look-alike regions: the best window per region by bag-of-bigrams similarity to SEARCH, clear of
 * each other, in non-blank coordinates.
 */
export function prefilter(
  doc: LineSource,
  lines: MeasuredLines,
  search: readonly string[],
  maxCandidates: number,
  budget: Budget,
  scratch: FuzzyScratch,
): Array<{ start: number; end: number }> {
  const sample = sampling(search);
  const searchCodes = countSearchCodes(search, sample, scratch);
  const best = estimateWindows(doc, lines, search.length, sample, searchCodes, scratch, budget);
  const M = lines.nonBlank.length;
  const n = search.length;
  // A document shorter than SEARCH still gets one window: all of it.
  if (M > 0 && M < n) {
    best[0] = 1;
  }
  const top = bestPerChunk(best, M, n, maxCandidates);
  budget.used += M;
  return separateSeeds(top, M, Math.min(n, M), maxCandidates);
}

/** One representative start per chunk of starts (so a single strong region does not crowd out the rest), best first. */
function bestPerChunk(best: Float32Array, M: number, n: number, maxCandidates: number): Array<{ start: number; score: number }> {
  const chunk = Math.max(1, Math.floor(n / 3));
  const keep = (maxCandidates + 3) * 4;
  const top: Array<{ start: number; score: number }> = [];
  for (let c = 0; c < M; c += chunk) {
    let arg = -1;
    for (let st = c; st < Math.min(M, c + chunk); st++) {
      if (best[st] >= 0 && (arg < 0 || best[st] > best[arg])) {
        arg = st;
      }
    }
    if (arg < 0) {
      continue;
    }
    const score = best[arg];
    if (top.length === keep && score <= top[keep - 1].score) {
      continue;
    }
    let pos = top.length === keep ? keep - 1 : top.length;
    if (top.length < keep) {
      top.push({ start: 0, score: 0 });
    }
    while (pos > 0 && top[pos - 1].score < score) {
      top[pos] = top[pos - 1];
      pos--;
    }
    top[pos] = { start: arg, score };
  }
  return top;
}

/** Windows of `size` lines at the best starts, until maxCandidates + 3 of them are clear of each other. */
function separateSeeds(
  top: ReadonlyArray<{ start: number; score: number }>,
  M: number,
  size: number,
  maxCandidates: number,
): Array<{ start: number; end: number }> {
  const seeds: Array<{ start: number; end: number }> = [];
  const wanted = maxCandidates + 3;
  let separate = 0;
  for (const t of top) {
    const end = Math.min(M, t.start + size);
    // Seeds may overlap a little: a region right next to its twin (or near twin) still gets its own.
    // Only seeds clear of all others count towards the regions wanted.
    let overlap = 0;
    for (const sd of seeds) {
      overlap = Math.max(overlap, Math.min(end, sd.end) - Math.max(t.start, sd.start));
    }
    if (2 * overlap > size) {
      continue;
    }
    seeds.push({ start: t.start, end });
    if (overlap <= 0 && ++separate >= wanted) {
      break;
    }
  }
  return seeds;
}
