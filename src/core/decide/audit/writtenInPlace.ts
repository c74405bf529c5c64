// The audit's rule on the lines a plan writes (issue 25): every line of the result that is not a kept
// line of the file came from the code block, so it must stand where the block puts it. Its nearest code
// line above and below in the result is its neighbour in the block (unless the block has a placeholder or
// its own edge there; the file's comments and annotations the block left out may stand between), at the
// same relative depth (a line the block indents under its neighbour is not written to the left of it),
// and it is never written beside the file's own copy of itself. Real plans broke each: a changed SCSS
// declaration written above the old one instead of over it, a nested rule written at column 0 under its
// parent, a line before a placeholder written again beside the file's copy. Reads only the file, the block
// and the result (the audit's own line diff), never the planner's pairing.

import type { AuditFailure, AuditInput } from './auditTypes';
import { fileLineOf, keptLines } from './lineDiff';
import { keyEquals, lineKey as key, type LineKeys, lineKeys } from './lineKeys';
const blank = (line: string): boolean => line.trim() === '';

/**
 * Lines a block may leave out above or inside a declaration without a placeholder, which the plan keeps:
 * comments, and annotations or attributes on a line of their own (`@Override`, `#[derive(Debug)]`,
 * `[Obsolete]`), never a statement (`@include x;`).
 */
const LEAD = /^\s*(\/\/|\/\*|\*|#|--|;|<!--|%|'|@[\w.]+(\(.*\))?\s*$|\[[\w.]+(\(.*\))?\]\s*$)/;

// A comment line of the file, for the two allowances the line diff's pairing of repeated lines needs (a
// JSDoc's opener, middle and closer lines): not a string line (`'a',`) or a preprocessor line, which LEAD
// also lets stand above a declaration.
const COMMENT = /^\s*(\/\/|\/\*|\*|#(?=\s|$)|--\s|<!--)/;

/** Lines that repeat next to each other in real code: closers, `else`, `end`, closing tags. */
const REPEATABLE = /^([\])}>;,]*|end;?|fi|done|esac|endif|#endif|else|break;|\}?else\{?|<\/[\w.:-]+>|\*\/)$/;

/** Width of a line's leading white space (a tab counts as four columns, enough to compare depths). */
const depth = (line: string): number => {
  let width = 0;
  for (const c of line) {
    if (c === ' ') {
      width++;
    } else if (c === '\t') {
      width += 4;
    } else {
      break;
    }
  }
  return width;
};

/** Two keys of the same line: equal, or a declaration's first line shown without the file's modifiers. */
const sameLine = (a: string, b: string): boolean => a === b || (a.length >= 4 && b.length >= 4 && (a.endsWith(b) || b.endsWith(a)));

export function writtenInPlace(input: AuditInput): AuditFailure | undefined {
  if (input.wholeFile) {
    return undefined;
  }
  const { fileLines, resultLines, blockLines, placeholders } = input;
  const kept = keptLines(fileLines, resultLines);
  if (kept === undefined) {
    return undefined;
  }
  const fromFile = fileLineOf(kept, resultLines.length);
  // The result's keys are made for the lines the rule reads: the written lines and their neighbours.
  const resultKeys = lineKeys(resultLines);
  const blockKeys = blockLines.map(key);
  const byKey = new Map<string, number[]>();
  blockKeys.forEach((k, i) => {
    if (!placeholders[i] && k !== '') {
      byKey.set(k, [...(byKey.get(k) ?? []), i]);
    }
  });
  /** The block's nearest code line from `k` in direction `dir`: its index, -1 for a placeholder or the edge. */
  const blockNeighbour = (k: number, dir: 1 | -1): number => {
    let i = k + dir;
    while (i >= 0 && i < blockLines.length && !placeholders[i] && blank(blockLines[i])) {
      i += dir;
    }
    return i < 0 || i >= blockLines.length || placeholders[i] ? -1 : i;
  };
  const fileHasLine = lazyLineSet(fileLines);
  /** The result line from `r` in direction `dir` that is the block's line `k`, the file's lead lines skipped; -1 when none. */
  const resultNeighbour = (r: number, dir: 1 | -1, k: number): number => {
    for (let i = r + dir; i >= 0 && i < resultLines.length; i += dir) {
      if (blank(resultLines[i])) {
        continue;
      }
      if (sameLine(resultKeys.at(i), blockKeys[k])) {
        return i;
      }
      if (fromFile[i] >= 0 ? !LEAD.test(resultLines[i]) : !COMMENT.test(resultLines[i]) || !fileHasLine(resultLines[i])) {
        return -1;
      }
    }
    return -1;
  };
  /** Whether line `r` of the result has the neighbour the block's line `k` has on side `dir`: 'ok', 'moved' or 'depth'. */
  const fits = (r: number, k: number, dir: 1 | -1): 'ok' | 'moved' | 'depth' => {
    const kn = blockNeighbour(k, dir);
    if (kn < 0) {
      return 'ok';
    }
    const rn = resultNeighbour(r, dir, kn);
    if (rn < 0) {
      return 'moved';
    }
    // The same relative depth: a line the block indents under its neighbour (or out of it) is so in the
    // result; lines the block writes at one depth may differ (continuation lines aligned by the writer).
    const inBlock = Math.sign(depth(blockLines[k]) - depth(blockLines[kn]));
    const inResult = Math.sign(depth(resultLines[r]) - depth(resultLines[rn]));
    return inBlock === 0 || inBlock === inResult ? 'ok' : 'depth';
  };
  // One binding for the whole loop (the closures below that read it run within the turn): a binding
  // per turn would be a new scope object for each of the result's lines.
  let r = 0;
  for (; r < resultLines.length; r++) {
    if (fromFile[r] >= 0 || blank(resultLines[r])) {
      continue;
    }
    const candidates = byKey.get(resultKeys.at(r));
    if (!candidates) {
      continue;
    }
    const besideCopy = besideItsCopy(r, resultKeys, fromFile, resultLines);
    if (besideCopy >= 0 && !candidates.some((k) => repeatedInBlock(k, blockKeys, blockLines, placeholders))) {
      return failure(input, r, fromFile, `it is written again beside the file's own line ${fromFile[besideCopy] + 1}`);
    }
    const verdicts = candidates.map((k) => [fits(r, k, -1), fits(r, k, 1)]);
    if (!verdicts.some(([above, below]) => above === 'ok' && below === 'ok') && !standsAsInFile(r, resultLines, resultKeys, fileLines)) {
      const k = candidates[0];
      const [above, below] = [blockNeighbour(k, -1), blockNeighbour(k, 1)];
      const where = [
        above >= 0 ? `after ${JSON.stringify(blockLines[above].trim())}` : '',
        below >= 0 ? `before ${JSON.stringify(blockLines[below].trim())}` : '',
      ]
        .filter(Boolean)
        .join(' and ');
      const why = verdicts[0].includes('moved')
        ? `the code block has it ${where} (its line ${k + 1}), and the result has other lines there`
        : `the code block indents it ${depth(blockLines[k]) > depth(blockLines[above >= 0 ? above : below]) ? 'deeper than' : 'less than'} ${JSON.stringify(blockLines[above >= 0 ? above : below].trim())} and the result does not`;
      return failure(input, r, fromFile, why);
    }
  }
  return undefined;
}

// Whether the file has a line (trimmed): the line diff may pair the file's comment opener or closer with the
// block's copy and call the file's own one, kept above a neighbour declaration, written. Made when first asked.
function lazyLineSet(fileLines: readonly string[]): (line: string) => boolean {
  let trimmed: Set<string> | undefined;
  return (line) => {
    trimmed ??= new Set(fileLines.map((l) => l.trim()));
    return trimmed.has(line.trim());
  };
}

/**
 * A line of the file the diff did not pair (two equal lines, `/**` or `}`, and the diff kept the other):
 * it stands between the same lines as a line of the file with its text.
 */
function standsAsInFile(r: number, resultLines: readonly string[], resultKeys: LineKeys, fileLines: readonly string[]): boolean {
  const fileKeys = lineKeys(fileLines);
  const near = (lines: readonly string[], keys: LineKeys, i: number, dir: number): string => {
    let j = i + dir;
    while (j >= 0 && j < lines.length && blank(lines[j])) {
      j += dir;
    }
    return j >= 0 && j < lines.length ? keys.at(j) : '';
  };
  const [above, below] = [near(resultLines, resultKeys, r, -1), near(resultLines, resultKeys, r, 1)];
  const own = resultKeys.at(r);
  // A comment line (`/**`, ` */`) is the file's own beside the rest of its comment: the same neighbour on
  // one side is enough, as the block's new code may stand on the other.
  const comment = COMMENT.test(resultLines[r]);
  return fileLines.some((line, f) => {
    if (!keyEquals(line, own)) {
      return false;
    }
    const [sameAbove, sameBelow] = [near(fileLines, fileKeys, f, -1) === above, near(fileLines, fileKeys, f, 1) === below];
    return comment ? sameAbove || sameBelow : sameAbove && sameBelow;
  });
}

/** The kept line of the result right beside `r` (blank lines between) with the same text, or -1. */
function besideItsCopy(r: number, keys: LineKeys, fromFile: Int32Array, lines: readonly string[]): number {
  const own = keys.at(r);
  if (REPEATABLE.test(own) || !/\w{2}/.test(own)) {
    return -1;
  }
  for (const dir of [-1, 1]) {
    let i = r + dir;
    while (i >= 0 && i < lines.length && blank(lines[i])) {
      i += dir;
    }
    if (i >= 0 && i < lines.length && fromFile[i] >= 0 && keys.at(i) === own) {
      return i;
    }
  }
  return -1;
}

/** The block itself has line `k` twice in a row (blank lines between): a repeat it asks for. */
function repeatedInBlock(k: number, keys: readonly string[], lines: readonly string[], placeholders: readonly boolean[]): boolean {
  return [-1, 1].some((dir) => {
    let i = k + dir;
    while (i >= 0 && i < lines.length && !placeholders[i] && blank(lines[i])) {
      i += dir;
    }
    return i >= 0 && i < lines.length && !placeholders[i] && keys[i] === keys[k];
  });
}

function failure(input: AuditInput, r: number, fromFile: Int32Array, why: string): AuditFailure {
  // The closest place in the file: the kept line above the written one.
  let above = r - 1;
  while (above >= 0 && fromFile[above] < 0) {
    above--;
  }
  const at = above >= 0 ? fromFile[above] + 1 : 0;
  return {
    rule: 'written-in-place',
    reason: `line ${r + 1} of the result (${JSON.stringify(input.resultLines[r].trim())}) would be written after line ${at} of the file, but ${why}`,
    places: [{ start: Math.max(0, at - 1), end: Math.min(input.fileLines.length, at + 1) }],
  };
}
