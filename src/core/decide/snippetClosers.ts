// A code block that ends with a placeholder and leaves its declarations open (`// ... rest of the class
// unchanged ...` as the last line, the class and its namespace never closed): the placeholder stands for the
// rest of them, their closing braces included. The block is read with those braces written in, marked as
// implied, so they place the block without replacing the file's own closing lines.

import { type Outline, walkDecls } from '../match/structure/outline';

export interface ClosedBlock {
  lines: string[];
  placeholders: boolean[];
  /** Lines the block did not write: the closing braces its last placeholder stands for. */
  implied: boolean[];
}

/** The `{` still open at the end of some lines (the line of each, outermost first); undefined when another bracket is open or a `}` has no `{`. */
function openBraces(lines: readonly string[]): number[] | undefined {
  const open: Array<{ ch: string; line: number }> = [];
  let inBlockComment = false;
  for (const [row, line] of lines.entries()) {
    let quote = '';
    for (let i = 0; i < line.length; i++) {
      const ch = line[i];
      if (inBlockComment) {
        if (ch === '*' && line[i + 1] === '/') {
          inBlockComment = false;
          i++;
        }
      } else if (quote) {
        if (ch === '\\') {
          i++;
        } else if (ch === quote) {
          quote = '';
        }
      } else if (ch === '"' || ch === "'" || ch === '`') {
        quote = ch;
      } else if (ch === '/' && line[i + 1] === '/') {
        break;
      } else if (ch === '/' && line[i + 1] === '*') {
        inBlockComment = true;
        i++;
      } else if ('{(['.includes(ch)) {
        open.push({ ch, line: row });
      } else if ('})]'.includes(ch)) {
        const last = open.pop();
        if (!last || '{(['.indexOf(last.ch) !== '})]'.indexOf(ch)) {
          return undefined;
        }
      }
    }
  }
  return open.every((o) => o.ch === '{') ? open.map((o) => o.line) : undefined;
}

/**
 * The block with the closing braces its last line, a placeholder, leaves out: one `}` per open `{`, at the
 * indentation of the line that opened it. Undefined when the block does not end with a placeholder, closes
 * everything it opens, or leaves a bracket other than `{` open.
 */
export function closeAfterLastPlaceholder(lines: readonly string[], placeholders: readonly boolean[]): ClosedBlock | undefined {
  let last = lines.length - 1;
  while (last >= 0 && lines[last].trim() === '') {
    last--;
  }
  if (last < 0 || !placeholders[last]) {
    return undefined;
  }
  const open = openBraces(lines.filter((_, i) => !placeholders[i]));
  if (!open || open.length === 0) {
    return undefined;
  }
  // Rows of `open` count the block's lines without placeholders: map them back.
  const rows = lines.flatMap((_, i) => (placeholders[i] ? [] : [i]));
  const openers = open.map((row) => rows[row]);
  // The placeholder stands for the rest of what it is inside: deeper than every line that opened a brace
  // (a placeholder at a function's own depth, after a body that does not balance, is no such rest).
  const depth = (line: string) => (/^[ \t]*/.exec(line)?.[0] ?? '').replace(/\t/g, '    ').length;
  if (openers.some((row) => depth(lines[row]) >= depth(lines[last]))) {
    return undefined;
  }
  const closers = openers.reverse().map((row) => `${/^[ \t]*/.exec(lines[row])?.[0] ?? ''}}`);
  const kept = lines.slice(0, last + 1);
  return {
    lines: [...kept, ...closers],
    placeholders: [...placeholders.slice(0, last + 1), ...closers.map(() => false)],
    implied: [...kept.map(() => false), ...closers.map(() => true)],
  };
}

/** Whether every implied closing line ends a declaration of the block as read: else they are no declaration's end, and a guess. */
export function closesDeclarations(outline: Outline, implied: readonly boolean[]): boolean {
  const ends = new Set([...walkDecls(outline.decls)].map(({ decl }) => decl.end));
  return outline.errors === 0 && implied.every((isImplied, i) => !isImplied || ends.has(i));
}
