// The audit of a SEARCH/REPLACE whose REPLACE placeholders were expanded (issue 25): checked on what the
// block is about to write, without the expansion's pairing (decide/elisions.ts), so that a pairing bug
// cannot vouch for itself. REPLACE's parts between placeholders are written as they stand (restyled at
// most) and in order; each placeholder is written as a run of the file's own lines, byte for byte, that
// reaches from the line before it to the line after it: a file line beside the run that the result
// drops must be the neighbouring REPLACE line's own original (the same line, or that line changed).

import { type PlaceholderContext, isPlaceholderLine } from '../../formats/placeholders';
import { lineKey, lineSimilarity } from './codeBlockAudit';

export interface ElisionAuditInput {
  /** The file lines the block replaces. */
  region: readonly string[];
  /** REPLACE as written, placeholders included. */
  replaceLines: readonly string[];
  /** The lines about to be written in the region's place. */
  written: readonly string[];
  context?: PlaceholderContext;
}

/** What failed, in a sentence naming the placeholder; undefined when the written lines pass. */
export function auditElisions(input: ElisionAuditInput): string | undefined {
  const { region, replaceLines, written } = input;
  const inRegion = new Set(region.map((l) => l.trim()));
  const isPlaceholder = replaceLines.map((l) => isPlaceholderLine(l, input.context) && !inRegion.has(l.trim()));
  // REPLACE's parts: runs of lines between placeholder runs, blank lines left out.
  const parts: Array<{ keys: string[]; first: number; placeholderBefore?: number }> = [];
  let pendingPlaceholder: number | undefined;
  for (let r = 0; r < replaceLines.length; r++) {
    if (isPlaceholder[r]) {
      pendingPlaceholder ??= r;
      continue;
    }
    if (replaceLines[r].trim() === '') {
      continue;
    }
    const last = parts[parts.length - 1];
    if (last && pendingPlaceholder === undefined) {
      last.keys.push(lineKey(replaceLines[r]));
    } else {
      parts.push({ keys: [lineKey(replaceLines[r])], first: r, placeholderBefore: pendingPlaceholder });
      pendingPlaceholder = undefined;
    }
  }
  const trailing = pendingPlaceholder;
  if (parts.length === 0) {
    return undefined;
  }
  // Where each part is written: its lines in a row (blank lines skipped), in order.
  const writtenFilled = written.map((l, i) => ({ key: lineKey(l), i })).filter((w) => w.key !== '');
  const at: Array<{ from: number; to: number }> = [];
  let next = 0;
  for (const part of parts) {
    let found = -1;
    for (let w = next; w + part.keys.length <= writtenFilled.length; w++) {
      if (part.keys.every((k, j) => writtenFilled[w + j].key === k)) {
        found = w;
        break;
      }
    }
    if (found < 0) {
      return `REPLACE line ${part.first + 1} (${JSON.stringify(replaceLines[part.first].trim())}) and the lines after it are not written in order`;
    }
    at.push({ from: found, to: found + part.keys.length });
    next = found + part.keys.length;
  }
  // The gaps: what each placeholder was written as, and nothing written where REPLACE has no placeholder.
  const gaps: Array<{ placeholder?: number; before?: number; after?: number; from: number; to: number }> = [];
  parts.forEach((part, p) => {
    gaps.push({
      placeholder: part.placeholderBefore,
      before: p > 0 ? p - 1 : undefined,
      after: p,
      from: p > 0 ? at[p - 1].to : 0,
      to: at[p].from,
    });
  });
  gaps.push({ placeholder: trailing, before: parts.length - 1, from: at[at.length - 1].to, to: writtenFilled.length });
  for (const gap of gaps) {
    if (gap.placeholder === undefined) {
      if (gap.to > gap.from) {
        const where = gap.after !== undefined ? `before REPLACE line ${parts[gap.after].first + 1}` : 'after the last REPLACE line';
        return `${JSON.stringify(written[writtenFilled[gap.from].i].trim())} is written ${where}, where REPLACE has no such line and no placeholder`;
      }
      continue;
    }
    const problem = placeholderProblem(input, gap, writtenFilled);
    if (problem) {
      return `the placeholder on REPLACE line ${gap.placeholder + 1} (${JSON.stringify(replaceLines[gap.placeholder].trim())}) ${problem}`;
    }
  }
  return undefined;
}

/** A placeholder's written run: the file's lines byte for byte, from the line before it to the line after it. */
function placeholderProblem(
  input: ElisionAuditInput,
  gap: { before?: number; after?: number; from: number; to: number },
  writtenFilled: ReadonlyArray<{ key: string; i: number }>,
): string | undefined {
  const { region, written } = input;
  const filledRegion = region.map((l, i) => ({ l, i })).filter((r) => r.l.trim() !== '');
  const regionKeys = new Set(region.map(lineKey));
  const run = writtenFilled.slice(gap.from, gap.to).map((w) => written[w.i]);
  // Where the run lies in the region: a place whose neighbours are what is written beside the run.
  const writtenBefore = writtenFilled
    .slice(0, gap.from)
    .map((w) => written[w.i])
    .reverse();
  const writtenAfter = writtenFilled.slice(gap.to).map((w) => written[w.i]);
  let start = -1;
  for (let s = 0; s + run.length <= filledRegion.length; s++) {
    if (run.every((l, j) => filledRegion[s + j].l === l)) {
      const before = s > 0 ? filledRegion[s - 1].l : undefined;
      const after = s + run.length < filledRegion.length ? filledRegion[s + run.length].l : undefined;
      if (edgeHolds(before, writtenBefore, regionKeys) && edgeHolds(after, writtenAfter, regionKeys)) {
        start = s;
        break;
      }
    }
  }
  if (start < 0) {
    return run.length === 0
      ? 'stands for no line, but the file has lines there that the result drops'
      : "is not written as the file's lines it stands for (all of them, byte for byte, up to the lines around it)";
  }
  return undefined;
}

/**
 * The file line beside a placeholder's run, and the lines written beside the run on that side, nearest
 * first: nothing beside it in the file (the region's edge); or, past new lines (no line of the region, and
 * not like the file line), the same line, or that line changed (no line of the region, similar to it).
 */
function edgeHolds(fileLine: string | undefined, writtenSide: readonly string[], regionKeys: ReadonlySet<string>): boolean {
  if (fileLine === undefined) {
    return true;
  }
  const fileKey = lineKey(fileLine);
  for (const line of writtenSide) {
    const key = lineKey(line);
    if (key === fileKey) {
      return true;
    }
    if (regionKeys.has(key)) {
      // Another line of the file stands beside the run: the file line between them was dropped.
      return false;
    }
    if (lineSimilarity(fileLine, line) >= CHANGED_LINE) {
      return true;
    }
  }
  return false;
}

/** How similar (by tokens) a changed line beside a placeholder is to the file line it replaces. */
const CHANGED_LINE = 0.5;
