// The first pass over the document: which lines are non-blank (the only ones the fuzzy search sees)
// and how far each is indented, with the quick exact-line lookup read along. Every later stage works
// in the coordinates it sets (non-blank lines), so it is a stage of its own. Its per-line loop is
// indexed, not for-of (see the note at the top of search.ts).

import { type Budget } from './budget';
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
export function measureLines(docLines: readonly string[], budget: Budget, forms?: TrimmedForms): MeasuredLines {
  const cap = budget.cap * DOCUMENT_PASS_SHARE;
  const nonBlank = new Int32Array(docLines.length);
  const leads = new Int32Array(docLines.length);
  const matches = forms && { lines: [] as number[], keys: [] as number[] };
  let count = 0;
  let nonBlankChars = 0;
  let used = budget.used;
  for (let li = 0; li < docLines.length; li++) {
    if (used > cap) {
      budget.truncated = true;
      break;
    }
    const line = docLines[li];
    // Native trims: a loop over every line's indentation in JavaScript is what a cold run would pay
    // most for here. trimStart stops only at a zero-width space among what isWideSpace skips: a line
    // whose text starts with a non-ASCII character is read character by character.
    let content = line.trimStart();
    if (content.charCodeAt(0) >= 0x80) {
      content = line.slice(leadingSpace(line));
    }
    const lead = line.length - content.length;
    if (lead === line.length) {
      used += line.length + 8;
      continue;
    }
    used += lead + 8;
    if (matches) {
      const k = trimmedFormOf(line, lead, forms);
      if (k !== undefined) {
        matches.lines.push(count);
        matches.keys.push(k);
      }
    }
    nonBlank[count] = li;
    leads[count] = lead;
    count++;
    nonBlankChars += line.length;
  }
  budget.used = used;
  return { nonBlank: nonBlank.subarray(0, count), leads: leads.subarray(0, count), nonBlankChars, trimmedMatches: matches };
}

/** The key index of the form `line` equals from `lead` once trimmed at its end, if any. */
function trimmedFormOf(line: string, lead: number, forms: TrimmedForms): number | undefined {
  let end = line.length;
  let c = line.charCodeAt(end - 1);
  while (c === 32 || (c >= 9 && c <= 13)) {
    c = line.charCodeAt(--end - 1);
  }
  // Past ASCII the end may be a wide space trimEnd drops: the native trim decides.
  if (c >= 0x80) {
    return forms.byText.get(line.slice(lead).trimEnd());
  }
  const length = end - lead;
  return length < forms.lengths.length && forms.lengths[length] === 1 ? forms.byText.get(line.slice(lead, end)) : undefined;
}

/** Length of the line's indentation: white space and the wide spaces (isWideSpace). */
function leadingSpace(line: string): number {
  let lead = 0;
  while (lead < line.length) {
    const c = line.charCodeAt(lead);
    if (c <= 32 ? c === 32 || (c >= 9 && c <= 13) : c >= 0xa0 && isWideSpace(c)) {
      lead++;
    } else {
      break;
    }
  }
  return lead;
}
