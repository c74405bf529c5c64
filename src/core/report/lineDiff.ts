// A small line diff (longest common subsequence): how a block's SEARCH differs from a candidate region.
// One source for the editor hover (rendered as a diff) and the LLM-facing message (describeDifferences).

import { alignEqual } from '../write/align';
import { similarity } from '../match/fuzzy/similarity';
import { splitBlockLines } from '../match/lines';
import { comparisonKeys } from '../match/normalize';

/** Above this many cells of the LCS table, the middle of a diff is left unaligned (see alignEqual). */
const DIFF_CELLS = 250_000;

export type DiffLine = { kind: ' ' | '-' | '+'; text: string };

/** Lines only in `a` are '-', lines only in `b` are '+'. Above `maxCells` the part between the common head and tail shows as removed, then added. */
export function diffLines(a: readonly string[], b: readonly string[], maxCells = DIFF_CELLS): DiffLine[] {
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  for (const [pi, pj] of [...alignEqual(a, b, maxCells), [a.length, b.length] as const]) {
    while (i < pi) {
      out.push({ kind: '-', text: a[i++] });
    }
    while (j < pj) {
      out.push({ kind: '+', text: b[j++] });
    }
    if (pi < a.length) {
      out.push({ kind: ' ', text: a[i++] });
      j++;
    }
  }
  return out;
}

/** Renders a diff as unified-diff lines ("- x", "+ y", "  z"). */
export function renderDiff(lines: readonly DiffLine[]): string {
  return lines.map((l) => `${l.kind} ${l.text}`).join('\n');
}

/** Longest quoted line in a difference, in characters. */
const MAX_QUOTED = 160;
/** At most this many difference lines per candidate; the rest is counted. */
export const MAX_DIFFERENCE_LINES = 8;

function quoteLine(text: string): string {
  const t = text.trim();
  return t.length <= MAX_QUOTED ? t : `${t.slice(0, MAX_QUOTED)}… (${t.length} characters)`;
}

/** Lines at least this similar (after trimming) are shown as one changed line. */
const PAIR_SIMILARITY = 0.4;

/** "SEARCH line 3 is", "SEARCH lines 1-2 are", "file lines 4, 9 are". */
function lineList(what: string, lines: readonly number[]): string {
  if (lines.length === 1) {
    return `${what} line ${lines[0]} is`;
  }
  const contiguous = lines[lines.length - 1] - lines[0] === lines.length - 1;
  return `${what} lines ${contiguous ? `${lines[0]}-${lines[lines.length - 1]}` : lines.join(', ')} are`;
}

/**
 * What differs between SEARCH and a candidate region, for the model and the user: changed lines as
 * `- SEARCH line 3: sum += xx` / `+ file line 6: sum += x`, SEARCH lines the region lacks as "SEARCH
 * lines 1-2 are not in the file here", region lines SEARCH lacks as "file line 9 is not in SEARCH".
 * Lines are compared without their indentation and trailing whitespace (tiers 2-4 forgive those);
 * blank lines are not reported. At most MAX_DIFFERENCE_LINES lines, then a count of the rest.
 */
export function describeDifferences(
  search: string,
  region: { startLine: number; text: string },
  maxLines = MAX_DIFFERENCE_LINES,
): string[] {
  const a = splitBlockLines(search);
  const b = region.text.split('\n');
  const ka = comparisonKeys(a);
  const kb = comparisonKeys(b);
  const out: string[] = [];
  let i = 0; // SEARCH line index
  let j = 0; // region line index
  // The aligned pairs directly (what diffLines renders): between two pairs, SEARCH lines i..pi are
  // only in SEARCH and region lines j..pj only in the region.
  const pairs = alignEqual(ka, kb, DIFF_CELLS);
  for (let p = 0; p <= pairs.length; p++) {
    const pi = p < pairs.length ? pairs[p][0] : a.length;
    const pj = p < pairs.length ? pairs[p][1] : b.length;
    if (pi === i && pj === j) {
      i++;
      j++;
      continue;
    }
    const removed: number[] = [];
    const added: number[] = [];
    while (i < pi) {
      removed.push(i++);
    }
    while (j < pj) {
      added.push(j++);
    }
    i++;
    j++;
    const r = removed.filter((x) => ka[x] !== '');
    const d = added.filter((x) => kb[x] !== '');
    // Pair a SEARCH line with a file line only when they look alike; the others stand alone.
    const onlySearch: number[] = [];
    const onlyFile: number[] = [];
    let x = 0;
    let y = 0;
    while (x < r.length || y < d.length) {
      if (x < r.length && y < d.length && similarity(ka[r[x]], kb[d[y]]) >= PAIR_SIMILARITY) {
        out.push(`- SEARCH line ${r[x] + 1}: ${quoteLine(a[r[x]])}`);
        out.push(`+ file line ${region.startLine + d[y]}: ${quoteLine(b[d[y]])}`);
        x++;
        y++;
      } else if (y >= d.length || (x < r.length && r.length - x >= d.length - y)) {
        onlySearch.push(r[x++] + 1);
      } else {
        onlyFile.push(region.startLine + d[y++]);
      }
    }
    if (onlySearch.length > 0) {
      out.push(`${lineList('SEARCH', onlySearch)} not in the file here`);
    }
    if (onlyFile.length > 0) {
      out.push(`${lineList('file', onlyFile)} not in SEARCH`);
    }
  }
  if (out.length > maxLines) {
    const more = out.length - maxLines;
    return [...out.slice(0, maxLines), `… and ${more} more difference line${more === 1 ? '' : 's'}`];
  }
  return out;
}
