// The review of an apply's changes (issue 27) as plain data, for the editor's thin adapter
// (src/extension/review): which hunks a review holds and where they are now, what an Undo writes, and the
// words of the lenses, hovers and messages. Pure and loaded with the engine (esbuild.mjs): a review
// starts only after an apply, when the engine is there.
import {
  type ChangedRegion,
  type ChangeHunk,
  changeHunks,
  followChanges,
  hunkLinesPhrase,
  hunkStateAt,
  lineChange,
  linesWithEnds,
  locateHunk,
  regionHunks,
  restoreEdit,
} from './hunks';

/** A hunk in review: where it is now (0-based line, followed through every change) and whether it is undone. */
export interface TrackedHunk {
  id: number;
  hunk: ChangeHunk;
  line: number;
  /** A change reached into it: restored only if its lines are still exactly at `line`. */
  touched: boolean;
  /** Undone hunks stay (unmarked), so an editor undo of the Undo brings the hunk back to review. */
  state: 'pending' | 'undone';
}

/** A document change as the editor reports it: start line, start character, end line, end character, text written. */
export type RawChange = [number, number, number, number, string];

/** Whether an apply changing `count` places is reviewed under the `review` setting. */
export function reviewsApply(mode: string, count: number): boolean {
  return mode === 'always' ? count > 0 : mode === 'multiple' ? count > 1 : false;
}

/** The lines a hunk takes now. */
export function hunkLength(h: TrackedHunk): number {
  return h.state === 'pending' ? h.hunk.newLines.length : h.hunk.oldLines.length;
}

/**
 * The hunks to review after an apply that changed `region` (regionHunks), with the earlier review's
 * `kept` hunks this apply did not reach; undefined when the setting does not review it. Ids start at
 * `firstId`.
 */
export function startReview(region: ChangedRegion, kept: readonly TrackedHunk[], mode: string, firstId: number): TrackedHunk[] | undefined {
  const stay = kept.filter((h) => h.state === 'pending' && !h.touched);
  const hunks = regionHunks(region);
  if (!reviewsApply(mode, hunks.length + stay.length)) {
    return undefined;
  }
  const fresh = hunks.map((hunk, k): TrackedHunk => ({ id: firstId + k, hunk, line: hunk.newStart, touched: false, state: 'pending' }));
  return [...stay, ...fresh].sort((a, b) => a.line - b.line);
}

/**
 * Follows the hunks through one change event. After an editor undo or redo (`text` given) each hunk is
 * read again from the text: applied (to review again), undone, or typed in (left as it was).
 */
export function followReview(hunks: TrackedHunk[], raw: readonly RawChange[], text?: string): void {
  const changes = raw.map(([sl, sc, el, ec, t]) => lineChange(sl, sc, el, ec, t));
  for (const h of hunks) {
    const moved = followChanges(h.line, hunkLength(h), changes);
    h.line = moved.line;
    h.touched ||= moved.touched;
  }
  if (text !== undefined) {
    const lines = linesWithEnds(text);
    for (const h of hunks) {
      const state = hunkStateAt(h.hunk, lines, h.line);
      if (state) {
        h.state = state === 'applied' ? 'pending' : 'undone';
        h.touched = false;
      }
    }
  }
}

/** A file opened again: its pending hunks found again by their text (it may have changed on disk); the others dropped. */
export function reopenReview(hunks: readonly TrackedHunk[], text: string): TrackedHunk[] {
  const lines = linesWithEnds(text);
  return hunks.filter((h) => {
    const line = h.state === 'pending' ? locateHunk(h.hunk, lines, h.line, true) : undefined;
    h.line = line ?? h.line;
    return line !== undefined;
  });
}

/** What an Undo of some hunks writes: one edit per hunk found, and the numbers ("change n") of those typed in. */
export interface UndoPlan {
  edits: Array<{ id: number; start: number; end: number; newText: string; line: number }>;
  refused: number[];
}

export function planUndo(hunks: readonly TrackedHunk[], ids: readonly number[], text: string): UndoPlan {
  const pending = hunks.filter((h) => h.state === 'pending');
  const plan: UndoPlan = { edits: [], refused: [] };
  for (const [k, h] of pending.entries()) {
    if (!ids.includes(h.id)) {
      continue;
    }
    const edit = restoreEdit(h.hunk, text, h.line, !h.touched);
    if (edit) {
      plan.edits.push({ id: h.id, ...edit });
    } else {
      plan.refused.push(k + 1);
    }
  }
  return plan;
}

/** After the plan's edits were applied: each restored hunk is undone, where its edit put it (moved by those above it). */
export function markUndone(hunks: readonly TrackedHunk[], plan: UndoPlan): void {
  let shift = 0;
  for (const edit of [...plan.edits].sort((a, b) => a.start - b.start)) {
    const h = hunks.find((x) => x.id === edit.id);
    if (h) {
      h.line = edit.line + shift;
      h.touched = false;
      h.state = 'undone';
      shift += h.hunk.oldLines.length - h.hunk.newLines.length;
    }
  }
}

/** Why hunks were not undone, naming them ("Change 2 of 3 was edited ..."). */
export function refusalMessage(refused: readonly number[], total: number, label: string): string {
  const what = refused.length === 1 ? `Change ${refused[0]} of ${total} was` : `Changes ${refused.join(', ')} of ${total} were`;
  return `${what} edited since the apply in ${label}; Undo would overwrite your typing, so nothing was written there. Edit by hand, or Keep.`;
}

export type LensKind = 'keepAll' | 'undoAll' | 'keep' | 'undo';

/** The lenses of the pending hunks (top to bottom): Keep all | Undo all above the first when there are several, Keep | Undo change n of m above each. */
export function reviewLenses(pending: readonly TrackedHunk[]): Array<{ line: number; kind: LensKind; title: string; id: number }> {
  const lenses: Array<{ line: number; kind: LensKind; title: string; id: number }> = [];
  for (const [k, h] of pending.entries()) {
    if (k === 0 && pending.length > 1) {
      lenses.push(
        { line: h.line, kind: 'keepAll', title: 'Keep all', id: h.id },
        { line: h.line, kind: 'undoAll', title: 'Undo all', id: h.id },
      );
    }
    lenses.push(
      { line: h.line, kind: 'keep', title: 'Keep', id: h.id },
      { line: h.line, kind: 'undo', title: `Undo change ${k + 1} of ${pending.length}`, id: h.id },
    );
  }
  return lenses;
}

/** Longest removed text shown in a hover, in lines. */
const HOVER_LINES = 40;

/** The hover of a hunk: the lines the apply replaced, in a fence of the file's language (Markdown). */
export function replacedLinesMarkdown(oldLines: readonly string[], languageId: string): string | undefined {
  if (oldLines.length === 0) {
    return undefined;
  }
  const shown = oldLines.slice(0, HOVER_LINES).map((l) => l.replace(/\r?\n$/, ''));
  let fence = '```';
  while (shown.some((l) => l.includes(fence))) {
    fence += '`';
  }
  const more = oldLines.length > HOVER_LINES ? `\n\n…and ${oldLines.length - HOVER_LINES} more lines` : '';
  const n = oldLines.length;
  return `**Before the apply** (${n} line${n === 1 ? '' : 's'}; Undo puts ${n === 1 ? 'it' : 'them'} back):\n\n${fence}${languageId}\n${shown.join('\n')}\n${fence}${more}`;
}

/** "3 changes: lines 8, 40 and 112; after Apply, review them in the editor (Keep or Undo each)" ("" when nothing changes). */
export function changesSentence(before: string, after: string, mode: string): string {
  const hunks = changeHunks(before, after);
  if (hunks.length === 0) {
    return '';
  }
  const count = `${hunks.length} change${hunks.length === 1 ? '' : 's'}: ${hunkLinesPhrase(hunks)}`;
  return reviewsApply(mode, hunks.length)
    ? `${count}; after Apply, review ${hunks.length === 1 ? 'it' : 'them'} in the editor (Keep or Undo each)`
    : count;
}

/** The line of the next (direction 1) or previous (-1) hunk from `cursor`, round the ends. */
export function nextHunkLine(lines: readonly number[], cursor: number, direction: 1 | -1): number | undefined {
  if (lines.length === 0) {
    return undefined;
  }
  if (direction === 1) {
    return lines.find((l) => l > cursor) ?? lines[0];
  }
  return [...lines].reverse().find((l) => l < cursor) ?? lines[lines.length - 1];
}
