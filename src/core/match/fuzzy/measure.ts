// The first pass over the document: which lines are non-blank (the only ones the fuzzy search sees)
// and how far each is indented, with the quick exact-line lookup read along. Every later stage works
// in the coordinates it sets (non-blank lines), so it is a stage of its own. Its per-line loop is
// indexed, not for-of (see the note at the top of search.ts).

import { type Budget } from './budget';
import { type LineSource } from '../lineSource';
import { isWideSpace } from './lineText';

/** The non-blank document lines: the only lines the fuzzy tier sees (blank lines are invisible to it). */
export interface MeasuredLines {
  /** Document line index of each non-blank line. */
  nonBlank: Int32Array;
  /** Per non-blank line: the length of its indentation (leading whitespace). */
  leads: Int32Array;
  /** Characters of the non-blank lines (whole lines, indentation included). */
  nonBlankChars: number;
  /** The non-blank lines (lines[m]) equal once trimmed to a SEARCH line with key keys[m] (see scanTrimmedLines). */
  trimmedMatches?: { lines: number[]; keys: number[] };
}

/**
 * SEARCH's lines as a document line may read once trimmed (exactPass.ts trimmedForms), each with its key's
 * index, and which lengths they have: most lines are ruled out by their length before a string is cut.
 */
export interface TrimmedForms {
  byText: ReadonlyMap<string, number>;
  /** lengths[n] is 1 when a form has n characters. */
  lengths: Uint8Array;
}

/** The share of the work cap the passes over the whole document (measureLines, the prefilter) may use. */
export const DOCUMENT_PASS_SHARE = 0.85;

/**
 * One pass over the document: which lines are non-blank and how far each is indented (white space and
 * zero-width spaces, isWideSpace), and, given SEARCH's trimmed forms
 * (trimmedForms), which lines equal one of them once trimmed. Counted as work as a read of each line
 * up to its first non-space character; a document the budget cannot afford is cut short (and the
 * result marked truncated).
 */
export function measureLines(doc: LineSource, budget: Budget, forms?: TrimmedForms): MeasuredLines {
  const cap = budget.cap * DOCUMENT_PASS_SHARE;
  const { text, lineTexts, starts, ends } = doc;
  const nonBlank = new Int32Array(starts.length);
  const leads = new Int32Array(starts.length);
  const matches = forms && { lines: [] as number[], keys: [] as number[] };
  let count = 0;
  let nonBlankChars = 0;
  let used = budget.used;
  for (let li = 0; li < starts.length; li++) {
    if (used > cap) {
      budget.truncated = true;
      break;
    }
    const ls = starts[li];
    const le = ends[li];
    const t = lineTexts === undefined ? text : lineTexts[li];
    const lead = leadingSpace(t, ls, le) - ls;
    const length = le - ls;
    if (lead === length) {
      used += length + 8;
      continue;
    }
    used += lead + 8;
    if (matches) {
      const k = trimmedFormOf(t, ls + lead, le, forms);
      if (k !== undefined) {
        matches.lines.push(count);
        matches.keys.push(k);
      }
    }
    nonBlank[count] = li;
    leads[count] = lead;
    count++;
    nonBlankChars += length;
  }
  budget.used = used;
  return { nonBlank: nonBlank.subarray(0, count), leads: leads.subarray(0, count), nonBlankChars, trimmedMatches: matches };
}

/**
 * The key index of the form text[from, end) equals once trimmed at its end, if any (text[from] is the
 * line's first character past its indentation, so the trim stops there at the latest).
 */
function trimmedFormOf(text: string, from: number, end: number, forms: TrimmedForms): number | undefined {
  let c = text.charCodeAt(end - 1);
  while (c === 32 || (c >= 9 && c <= 13)) {
    c = text.charCodeAt(--end - 1);
  }
  // Past ASCII the end may be a wide space trimEnd drops: the native trim decides.
  if (c >= 0x80) {
    return forms.byText.get(text.slice(from, end).trimEnd());
  }
  const length = end - from;
  return length < forms.lengths.length && forms.lengths[length] === 1 ? forms.byText.get(text.slice(from, end)) : undefined;
}

/**
 * Where the indentation of line text[ls, le) ends: white space and the wide spaces (isWideSpace), the
 * zero-width space among them (which trimStart would keep). A loop, not a native trim: trimStart cuts a
 * string per line, and the collector then has more to do than the loop.
 */
function leadingSpace(text: string, ls: number, le: number): number {
  let at = ls;
  while (at < le) {
    const c = text.charCodeAt(at);
    if (c <= 32 ? c === 32 || (c >= 9 && c <= 13) : c >= 0xa0 && isWideSpace(c)) {
      at++;
    } else {
      break;
    }
  }
  return at;
}
