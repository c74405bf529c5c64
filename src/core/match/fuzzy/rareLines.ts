// A document too large for one pass within the work cap (a 50 MB file has over a million lines) is not
// searched whole: the search would stop at the cap partway through and find nothing, although a line of
// SEARCH may stand in the file exactly once. Instead one native pass looks up each line, trimmed, among
// SEARCH's trimmed lines; the lines found rarely are anchors, and the usual search runs on a slice of
// the document around each. The result says it was cut short, as it is: regions without an exact line
// are not looked at.

import { type LineSource } from '../lineSource';

/** A SEARCH line found more often than this in the document is no anchor: it tells no place apart. */
const MAX_ANCHOR_HITS = 4;
/** At most this many slices are searched, those of the rarest anchors first. */
const MAX_SLICES = 16;
/** A SEARCH line shorter than this once trimmed (`}`, `end`, `return;`) is no anchor. */
const MIN_ANCHOR_LENGTH = 8;

/** A run of document lines [start, end) that a search on its own covers. */
export interface DocumentSlice {
  start: number;
  end: number;
}

/**
 * Whether the passes over the whole document (measureLines: about 8 units a line and its indentation; the
 * prefilter: about a unit a character) cost more than the share of the cap they may use: then the
 * document is searched by slices. Stops adding as soon as the answer is known.
 */
export function tooLargeForOnePass(doc: LineSource, passCap: number): boolean {
  const { starts, ends } = doc;
  let cost = 0;
  for (let li = 0; li < starts.length; li++) {
    cost += ends[li] - starts[li] + 8;
    if (cost > passCap) {
      return true;
    }
  }
  return false;
}

/**
 * The slices around the document lines that equal a rare SEARCH line once trimmed: each reaches far
 * enough on both sides to hold SEARCH with as many lines again inserted or removed. Overlapping slices are
 * merged; the rarest anchors' come first.
 */
export function slicesAroundRareLines(doc: LineSource, searchLines: readonly string[]): DocumentSlice[] {
  const wanted = new Map<string, number>();
  searchLines.forEach((line, i) => {
    const t = line.trim();
    if (t.length >= MIN_ANCHOR_LENGTH && !wanted.has(t)) {
      wanted.set(t, i);
    }
  });
  if (wanted.size === 0) {
    return [];
  }
  let shortest = Infinity;
  let longest = 0;
  for (const t of wanted.keys()) {
    shortest = Math.min(shortest, t.length);
    longest = Math.max(longest, t.length);
  }
  const hits = new Map<number, number[]>();
  const { starts, ends } = doc;
  for (let li = 0; li < starts.length; li++) {
    // Most lines are ruled out by their length alone, without a trim (an allocation) or a lookup.
    if (ends[li] - starts[li] < shortest) {
      continue;
    }
    const t = doc.line(li).trim();
    if (t.length < shortest || t.length > longest) {
      continue;
    }
    const at = wanted.get(t);
    if (at === undefined) {
      continue;
    }
    const list = hits.get(at) ?? [];
    if (list.length <= MAX_ANCHOR_HITS) {
      list.push(li);
      hits.set(at, list);
    }
  }
  const reach = 2 * searchLines.length + 10;
  const anchors = [...hits.entries()]
    .filter(([, lines]) => lines.length <= MAX_ANCHOR_HITS)
    .sort((a, b) => a[1].length - b[1].length || a[0] - b[0])
    .flatMap(([at, lines]) =>
      lines.map((li) => ({ start: Math.max(0, li - at - reach), end: Math.min(doc.length, li - at + searchLines.length + reach) })),
    );
  return mergeSlices(anchors).slice(0, MAX_SLICES);
}

/** Overlapping or touching slices as one, in the order of their first appearance. */
function mergeSlices(slices: readonly DocumentSlice[]): DocumentSlice[] {
  const merged: DocumentSlice[] = [];
  for (const s of slices) {
    const overlap = merged.find((m) => s.start <= m.end && m.start <= s.end);
    if (overlap) {
      overlap.start = Math.min(overlap.start, s.start);
      overlap.end = Math.max(overlap.end, s.end);
    } else {
      merged.push({ ...s });
    }
  }
  return merged;
}
