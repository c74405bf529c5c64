// Placeholders in REPLACE ("// ... existing code ..."): each stands for the SEARCH lines between the
// REPLACE lines around it, where those lines pair with SEARCH lines in order (an unchanged line, equal
// through the tiers' readings, or a changed line with its similar original). The expanded REPLACE has
// those SEARCH lines in the placeholder's place, so the write side takes them from the file byte for
// byte like any unchanged line. A placeholder never deletes code: when the pairing around it is not
// certain (two pairings write different text, or a neighbour pairs with nothing) the block is refused.

import { elisionNote, isPlaceholderLine, type PlaceholderContext, placeholderName } from '../formats/placeholders';

export { elisionNote, placeholderName };
import { TIER_TABLE } from '../match/tierTable';
import { foldQuotes, foldUnicode, trimWs } from '../match/normalize';
import { similarity } from '../match/fuzzy/similarity';

/** A run of consecutive placeholder lines in REPLACE (one placeholder), 0-based inclusive. */
export interface PlaceholderRun {
  first: number;
  last: number;
  /** The first placeholder line, trimmed, as messages quote it. */
  text: string;
}

/** What one placeholder was expanded to. */
export interface ExpandedElision {
  /** 0-based REPLACE lines [first, last] of the placeholder as written. */
  replaceFirst: number;
  replaceLast: number;
  /** The placeholder line as written (trimmed). */
  text: string;
  /** SEARCH lines [searchStart, searchEnd) it stands for (0-based; empty when it stood for none). */
  searchStart: number;
  searchEnd: number;
}

export type ReplaceExpansion =
  { kind: 'none' } | { kind: 'expanded'; replaceLines: string[]; elisions: ExpandedElision[] } | { kind: 'refused'; reason: string };

/** A changed REPLACE line this similar to a SEARCH line is that line changed (as the write side pairs them). */
export const SIMILAR_LINE_SCORE = 0.5;

/** Asking for the lines to be written out: the end of every refusal. */
export const WRITE_IT_OUT = 'write those lines out in REPLACE, or split the edit into smaller blocks around the lines that change';

/**
 * The placeholder runs of REPLACE. A placeholder-looking line that is also a SEARCH line (the file has
 * it there: a `...` body, a `// ...` comment) is text, not a placeholder.
 */
export function placeholderRuns(
  replaceLines: readonly string[],
  searchLines: readonly string[],
  context?: PlaceholderContext,
): PlaceholderRun[] {
  const inSearch = new Set(searchLines.map((l) => l.trim()));
  const runs: PlaceholderRun[] = [];
  for (let r = 0; r < replaceLines.length; r++) {
    const line = replaceLines[r];
    if (!isPlaceholderLine(line, context) || inSearch.has(line.trim())) {
      continue;
    }
    const last = runs[runs.length - 1];
    if (last !== undefined && last.last === r - 1) {
      last.last = r;
    } else {
      runs.push({ first: r, last: r, text: line.trim() });
    }
  }
  return runs;
}

/** Line readings from strictest to loosest: as written, then each tier's reading (tiers 2-9), each once. */
const READINGS: ReadonlyArray<(line: string) => string> = [
  (line: string) => line,
  ...TIER_TABLE.flatMap((entry) => ('reading' in entry ? [entry.reading] : []))
    .filter((reading, i, all) => all.findIndex((r) => r.cache === reading.cache) === i)
    .map((reading) => reading.key),
];

function similarKey(line: string): string {
  return foldUnicode(foldQuotes(trimWs(line)));
}

/**
 * The SEARCH lines (0-based, ascending) a REPLACE line may pair with: those equal to it at the strictest
 * reading where any is; failing all, the similar ones (a changed line); none for a new line.
 */
export function pairingCandidates(line: string, searchLines: readonly string[]): number[] {
  for (const read of READINGS) {
    const key = read(line);
    const equal: number[] = [];
    for (let s = 0; s < searchLines.length; s++) {
      if (read(searchLines[s]) === key) {
        equal.push(s);
      }
    }
    if (equal.length > 0) {
      return equal;
    }
  }
  const key = similarKey(line);
  if (key === '') {
    return [];
  }
  const similar: number[] = [];
  for (let s = 0; s < searchLines.length; s++) {
    const other = similarKey(searchLines[s]);
    if (other !== '' && similarity(key, other) >= SIMILAR_LINE_SCORE) {
      similar.push(s);
    }
  }
  return similar;
}

/** Past this many cells (REPLACE lines x SEARCH lines) a block with placeholders is refused as too large to be sure. */
export const MAX_PAIRING_CELLS = 4_000_000;

/** Far below any count of pairs: "no pairing possible". */
const NONE = -1_000_000;

/**
 * The REPLACE lines other than placeholders, in order, with their pairing candidates. A neighbour of a
 * placeholder (an anchor) must pair; the other lines may also be new (or moved) lines.
 */
export interface PairingLine {
  replaceLine: number;
  candidates: readonly number[];
  anchor: boolean;
}

export function pairingLines(
  runs: readonly PlaceholderRun[],
  replaceLines: readonly string[],
  searchLines: readonly string[],
): PairingLine[] {
  const inRun = new Set<number>();
  const anchors = new Set<number>();
  for (const run of runs) {
    for (let r = run.first; r <= run.last; r++) {
      inRun.add(r);
    }
    anchors.add(run.first - 1);
    anchors.add(run.last + 1);
  }
  const out: PairingLine[] = [];
  for (let r = 0; r < replaceLines.length; r++) {
    if (!inRun.has(r)) {
      out.push({ replaceLine: r, candidates: pairingCandidates(replaceLines[r], searchLines), anchor: anchors.has(r) });
    }
  }
  return out;
}

/**
 * The most REPLACE lines that pair with SEARCH lines in order (strictly increasing), every anchor paired.
 * before(i, t): the most among lines [0, i) with SEARCH lines below t; after(i, t): among lines [i, end)
 * with SEARCH lines above t (t from -1). NONE where the anchors cannot all pair.
 */
export class PairingTable {
  private readonly width: number;
  private readonly pre: Int32Array;
  private readonly suf: Int32Array;

  constructor(
    readonly lines: readonly PairingLine[],
    readonly searchCount: number,
  ) {
    const n = searchCount;
    const m = lines.length;
    this.width = n + 1;
    this.pre = new Int32Array((m + 1) * this.width);
    this.suf = new Int32Array((m + 1) * this.width);
    for (let i = 0; i < m; i++) {
      const { candidates, anchor } = lines[i];
      let k = 0;
      let best = NONE;
      for (let t = 0; t <= n; t++) {
        while (k < candidates.length && candidates[k] < t) {
          best = Math.max(best, this.before(i, candidates[k]) + 1);
          k++;
        }
        this.pre[(i + 1) * this.width + t] = Math.max(anchor ? NONE : this.before(i, t), best < 0 ? NONE : best);
      }
    }
    for (let i = m - 1; i >= 0; i--) {
      const { candidates, anchor } = lines[i];
      let k = candidates.length - 1;
      let best = NONE;
      for (let t = n - 1; t >= -1; t--) {
        while (k >= 0 && candidates[k] > t) {
          best = Math.max(best, this.after(i + 1, candidates[k]) + 1);
          k--;
        }
        this.suf[i * this.width + t + 1] = Math.max(anchor ? NONE : this.after(i + 1, t), best < 0 ? NONE : best);
      }
    }
  }

  before(i: number, t: number): number {
    return this.pre[i * this.width + t];
  }

  after(i: number, t: number): number {
    return this.suf[i * this.width + t + 1];
  }

  /** The most lines any pairing pairs; negative when none pairs every anchor. */
  get best(): number {
    return this.after(0, -1);
  }

  /**
   * Whether some best pairing pairs line `left` with s and the next line, `right`, with s2 (an undefined
   * side is the edge of REPLACE).
   */
  bestWith(left: number | undefined, s: number | undefined, right: number | undefined, s2: number | undefined): boolean {
    const before = left === undefined || s === undefined ? 0 : this.before(left, s) + 1;
    const after = right === undefined || s2 === undefined ? 0 : this.after(right + 1, s2) + 1;
    return before >= 0 && after >= 0 && (s === undefined || s2 === undefined || s < s2) && before + after === this.best;
  }
}

/**
 * The SEARCH spans [start, end) a run may stand for under the best pairings: between the SEARCH lines
 * its neighbours pair with (or the edge of SEARCH at the edge of REPLACE).
 */
export function possibleSpans(table: PairingTable, run: PlaceholderRun): Array<[number, number]> {
  const lines = table.lines;
  const n = table.searchCount;
  const leftAt = lines.findIndex((l) => l.replaceLine === run.first - 1);
  const rightAt = lines.findIndex((l) => l.replaceLine === run.last + 1);
  const spans: Array<[number, number]> = [];
  if (leftAt < 0 && rightAt < 0) {
    return table.best >= 0 ? [[0, n]] : [];
  }
  if (leftAt < 0) {
    for (const s2 of lines[rightAt].candidates) {
      if (table.bestWith(undefined, undefined, rightAt, s2)) {
        spans.push([0, s2]);
      }
    }
    return spans;
  }
  for (const s of lines[leftAt].candidates) {
    if (rightAt < 0) {
      if (table.bestWith(leftAt, s, undefined, undefined)) {
        spans.push([s + 1, n]);
      }
      continue;
    }
    for (const s2 of lines[rightAt].candidates) {
      if (table.bestWith(leftAt, s, rightAt, s2)) {
        spans.push([s + 1, s2]);
      }
    }
  }
  return spans;
}

function searchSpan([start, end]: readonly [number, number]): string {
  return end <= start ? 'no SEARCH line' : end - start === 1 ? `SEARCH line ${start + 1}` : `SEARCH lines ${start + 1}-${end}`;
}

/**
 * REPLACE with its placeholders expanded to the SEARCH lines they stand for: 'none' when it has none,
 * 'refused' (with the reason, naming the placeholder) when the expansion is not certain.
 */
export function expandReplacePlaceholders(
  searchLines: readonly string[],
  replaceLines: readonly string[],
  context?: PlaceholderContext,
): ReplaceExpansion {
  const runs = placeholderRuns(replaceLines, searchLines, context);
  if (runs.length === 0) {
    return { kind: 'none' };
  }
  if (searchLines.length === 0 || searchLines.every((l) => l.trim() === '')) {
    return { kind: 'refused', reason: `${placeholderName(runs[0])} stands for SEARCH lines, but SEARCH is empty; ${WRITE_IT_OUT}` };
  }
  const lines = pairingLines(runs, replaceLines, searchLines);
  const unpaired = lines.find((l) => l.anchor && l.candidates.length === 0);
  if (unpaired !== undefined) {
    const run = runs.find((r) => r.first - 1 === unpaired.replaceLine || r.last + 1 === unpaired.replaceLine)!;
    const side = run.first - 1 === unpaired.replaceLine ? 'before' : 'after';
    return {
      kind: 'refused',
      reason: `${placeholderName(run)}: the line ${side} it (REPLACE line ${unpaired.replaceLine + 1}) is no SEARCH line, so which lines the placeholder stands for is not certain; ${WRITE_IT_OUT}`,
    };
  }
  if ((lines.length + 1) * (searchLines.length + 1) > MAX_PAIRING_CELLS) {
    return {
      kind: 'refused',
      reason: `${placeholderName(runs[0])}: the block is too large to pair REPLACE with SEARCH line by line; ${WRITE_IT_OUT}`,
    };
  }
  const table = new PairingTable(lines, searchLines.length);
  const spans: Array<[number, number]> = [];
  for (const run of runs) {
    const possible = possibleSpans(table, run);
    if (possible.length === 0) {
      return {
        kind: 'refused',
        reason: `${placeholderName(run)}: the lines around it do not pair with SEARCH lines in order, so what it stands for is not certain; ${WRITE_IT_OUT}`,
      };
    }
    // The count first: no line and one blank line join to the same string.
    const text = (span: readonly [number, number]) => `${span[1] - span[0]}:${searchLines.slice(span[0], span[1]).join('\n')}`;
    const other = possible.find((span) => text(span) !== text(possible[0]));
    if (other !== undefined) {
      const [a, b] = possible[0][0] <= other[0] && possible[0][1] <= other[1] ? [possible[0], other] : [other, possible[0]];
      return {
        kind: 'refused',
        reason: `${placeholderName(run)} could stand for ${searchSpan(a)} or for ${searchSpan(b)} (the lines around it pair with SEARCH in more than one way); ${WRITE_IT_OUT}`,
      };
    }
    spans.push(possible[0]);
  }
  return { kind: 'expanded', ...expandWith(runs, spans, searchLines, replaceLines) };
}

/** REPLACE with each run replaced by its SEARCH lines, and the record of what each run became. */
export function expandWith(
  runs: readonly PlaceholderRun[],
  spans: ReadonlyArray<readonly [number, number]>,
  searchLines: readonly string[],
  replaceLines: readonly string[],
): { replaceLines: string[]; elisions: ExpandedElision[] } {
  const out: string[] = [];
  const elisions: ExpandedElision[] = [];
  let r = 0;
  runs.forEach((run, j) => {
    out.push(...replaceLines.slice(r, run.first));
    const [start, end] = spans[j];
    out.push(...searchLines.slice(start, end));
    elisions.push({ replaceFirst: run.first, replaceLast: run.last, text: run.text, searchStart: start, searchEnd: Math.max(start, end) });
    r = run.last + 1;
  });
  out.push(...replaceLines.slice(r));
  return { replaceLines: out, elisions };
}

/**
 * The invariant, checked on what a block is about to write: a placeholder line is written only where the
 * same line stood before. `written` are the lines written that are not the file's own lines written
 * back; `region` the file lines they replace. Returns the first offending line (trimmed), if any.
 */
export function placeholderWritten(
  written: readonly string[],
  region: readonly string[],
  context?: PlaceholderContext,
): string | undefined {
  let stood: Set<string> | undefined;
  for (const line of written) {
    if (!isPlaceholderLine(line, context)) {
      continue;
    }
    stood ??= new Set(region.map((l) => l.trim()));
    if (!stood.has(line.trim())) {
      return line.trim();
    }
  }
  return undefined;
}
