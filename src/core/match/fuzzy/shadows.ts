// Comments that copy a code line (issue 25): `// return x + 1;` right above `return x + 1;` is the code
// line's shadow. A SEARCH line with a note of its own (`return x + 1; // note`) looks more like the
// shadow than like the code, so a window could start or end on the shadow, beside the code it copies,
// and outrank it. The leading windows are moved off their shadows here: a window whose edge line is a
// shadow of the line just beyond it takes that line in, and an edge shadow of the line just inside is
// left out. A SEARCH that holds the comment itself keeps it (the model is editing the comment).

import { untilCapReached } from './budget';
import { lineKey } from './lineText';
import { byScoreThenStart, type FuzzyWindow } from './window';

/** How many of the best windows are moved off their shadows (each costs a few lines and a score). */
const SHADOWED_WINDOWS = 16;

/** A line comment's opening marker: `//`, `#`, `--`, `;`, `%`, `/*`, ` * `, `<!--`. */
const COMMENT_START = /^(?:\/\/+|#+|--|;+|%+|\/\*+|\*(?!\/)|<!--)\s?/;
/** What a one-line block comment closes with. */
const COMMENT_END = /\s*(?:\*\/|-->)$/;

/** The code a comment line holds (its text without the comment markers), or undefined for a line that is no comment. */
function commentedCode(norm: string): string | undefined {
  const m = COMMENT_START.exec(norm);
  if (!m) {
    return undefined;
  }
  const body = norm.slice(m[0].length).replace(COMMENT_END, '');
  return body === '' ? undefined : body;
}

/** Non-blank document lines, read as the search reads them (trimmed, inner spaces collapsed). */
export interface ShadowLines {
  /** Non-blank document lines. */
  readonly M: number;
  norm(j: number): string;
}

/**
 * Whether non-blank line j is a comment copying line t (its code, by lineKey, is t's, and t is no
 * comment), where SEARCH lacks that comment line.
 */
function shadows(lines: ShadowLines, searchKeys: ReadonlySet<string>, j: number, t: number): boolean {
  if (t < 0 || t >= lines.M) {
    return false;
  }
  const norm = lines.norm(j);
  const code = commentedCode(norm);
  const target = lines.norm(t);
  return code !== undefined && commentedCode(target) === undefined && lineKey(code) === lineKey(target) && !searchKeys.has(lineKey(norm));
}

/** Window [start, end) moved off its shadows: each edge takes in the code line a shadow on it copies from beyond, then drops a shadow of the line inside. */
function offShadows(
  w: { start: number; end: number },
  lines: ShadowLines,
  searchKeys: ReadonlySet<string>,
): { start: number; end: number } {
  let { start, end } = w;
  if (shadows(lines, searchKeys, start, start - 1)) {
    start--;
  }
  if (shadows(lines, searchKeys, end - 1, end)) {
    end++;
  }
  if (end - start > 1 && shadows(lines, searchKeys, start, start + 1)) {
    start++;
  }
  if (end - start > 1 && shadows(lines, searchKeys, end - 1, end - 2)) {
    end--;
  }
  return { start, end };
}

/**
 * All windows with each of the leading ones moved off its shadows (rescored by `score`), best first,
 * without duplicates. A grown region (FuzzyWindow.grown) keeps its flag and count.
 */
export function offShadowEdges(
  all: readonly FuzzyWindow[],
  lines: ShadowLines,
  searchKeys: readonly string[],
  score: (a: number, b: number) => number,
): FuzzyWindow[] {
  const keys = new Set(searchKeys);
  let out: FuzzyWindow[] = [...all];
  untilCapReached(() => {
    let moved = false;
    const leading = all.slice(0, SHADOWED_WINDOWS).map((w) => {
      const r = offShadows(w, lines, keys);
      if (r.start === w.start && r.end === w.end) {
        return w;
      }
      moved = true;
      return { ...r, score: score(r.start, r.end), ...(w.grown !== undefined && { grown: w.grown }) };
    });
    if (!moved) {
      return;
    }
    const seen = new Set<string>();
    out = [...leading, ...all.slice(SHADOWED_WINDOWS)]
      .filter((w) => {
        const key = `${w.start}:${w.end}`;
        return seen.has(key) ? false : (seen.add(key), true);
      })
      .sort(byScoreThenStart);
  });
  return out;
}
