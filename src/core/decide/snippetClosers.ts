// A code block that ends with a placeholder and leaves its declarations open (`// ... rest of the class
// unchanged ...` as the last line, the class and its namespace never closed): the placeholder stands for the
// rest of them, their closing braces included. The block is read with those braces written in, marked as
// implied, so they place the block without replacing the file's own closing lines.

import { type Outline, walkDecls } from '../match/structure/outline';
import { columnsOf, leadOf } from './snippetIndent';

export interface ClosedBlock {
  lines: string[];
  placeholders: boolean[];
  /** Lines the block did not write: the closing braces its last placeholder stands for. */
  implied: boolean[];
}

/**
 * The brackets of some lines, outside strings and comments: those still open at the end (the line of each,
 * outermost first), and how many `}` closed a `{` the lines never opened. Undefined when a bracket closes
 * another kind, or a `)` or `]` has no opener.
 */
function scanBrackets(lines: readonly string[]): { open: Array<{ ch: string; line: number }>; closersWithoutOpeners: number } | undefined {
  const open: Array<{ ch: string; line: number }> = [];
  let closersWithoutOpeners = 0;
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
        if (!last && ch === '}') {
          closersWithoutOpeners++;
        } else if (!last || '{(['.indexOf(last.ch) !== '})]'.indexOf(ch)) {
          return undefined;
        }
      }
    }
  }
  return { open, closersWithoutOpeners };
}

/** The `{` still open at the end of some lines (the line of each, outermost first); undefined when another bracket is open or a `}` has no `{`. */
function openBraces(lines: readonly string[]): number[] | undefined {
  const scan = scanBrackets(lines);
  return scan && scan.closersWithoutOpeners === 0 && scan.open.every((o) => o.ch === '{') ? scan.open.map((o) => o.line) : undefined;
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
  const depth = (line: string) => columnsOf(leadOf(line));
  if (openers.some((row) => depth(lines[row]) >= depth(lines[last]))) {
    return undefined;
  }
  const closers = openers.reverse().map((row) => `${leadOf(lines[row])}}`);
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

/**
 * Lines after a placeholder that close declarations they never open (Copilot's column-0 `// ...existing
 * code...` above a method and its class's `}`; the tail of a method and its `}` after a placeholder): the
 * placeholder stands for their openings too. The file says which declarations: those around the first line
 * shown, which must stand once in the file. The block is read with the file's own first lines of each of
 * them written in after the placeholder, each followed by a placeholder for what comes before the lines
 * shown, and, for the outer ones the lines do not close, a placeholder and the file's closing line after
 * them; all marked implied. Undefined when no part of the block closes more than it opens, or the file
 * does not say.
 */
export function openAfterPlaceholders(
  lines: readonly string[],
  placeholders: readonly boolean[],
  file: { lines: readonly string[]; outline: Outline },
): ClosedBlock | undefined {
  const out: ClosedBlock = { lines: [], placeholders: [], implied: [] };
  const push = (line: string, placeholder: boolean, implied: boolean) => {
    out.lines.push(line);
    out.placeholders.push(placeholder);
    out.implied.push(implied);
  };
  let opened = false;
  for (let i = 0; i < lines.length; i++) {
    push(lines[i], placeholders[i], false);
    if (!placeholders[i]) {
      continue;
    }
    let end = i + 1;
    while (end < lines.length && !placeholders[end]) {
      end++;
    }
    const shown = lines.slice(i + 1, end);
    const closers = scanBrackets(shown)?.closersWithoutOpeners;
    if (closers === undefined || closers === 0) {
      continue;
    }
    const first = shown.find((l) => l.trim() !== '') ?? '';
    const at = file.lines.flatMap((l, n) => (l.trim() === first.trim() ? [n] : []));
    if (at.length !== 1) {
      return undefined;
    }
    // Outermost first.
    const around = [...walkDecls(file.outline.decls)]
      .map(({ decl }) => decl)
      .filter((d) => d.interior !== undefined && d.interior.start <= at[0] && at[0] < d.interior.end)
      .sort((a, b) => a.start - b.start);
    if (around.length < closers) {
      return undefined;
    }
    const placeholderText = lines[i].trim();
    around.forEach((decl, k) => {
      for (let n = decl.start; n < decl.interior!.start; n++) {
        push(file.lines[n], false, true);
      }
      push(`${leadOf(k + 1 < around.length ? file.lines[around[k + 1].start] : first)}${placeholderText}`, true, true);
    });
    for (const line of shown) {
      push(line, false, false);
    }
    // The outer declarations the lines shown do not close: the rest of each, and its closing line.
    const open = around.slice(0, around.length - closers).reverse();
    open.forEach((decl, k) => {
      const inner = k === 0 ? around[around.length - closers] : open[k - 1];
      push(`${leadOf(file.lines[inner.start])}${placeholderText}`, true, true);
      push(file.lines[decl.end], false, true);
    });
    i = end - 1;
    opened = true;
  }
  return opened ? out : undefined;
}

/**
 * Whether every implied line the file gave (not a placeholder) starts, continues the first lines of, or ends a
 * declaration of the block as read: else they do not open what the lines shown close, and are a guess.
 */
export function opensDeclarations(outline: Outline, block: ClosedBlock): boolean {
  const decls = [...walkDecls(outline.decls)].map(({ decl }) => decl);
  const starts = new Set(decls.map((d) => d.start));
  const ends = new Set(decls.map((d) => d.end));
  const header = (i: number) => i > 0 && block.implied[i - 1] && !block.placeholders[i - 1];
  return (
    outline.errors === 0 &&
    block.implied.every((isImplied, i) => !isImplied || block.placeholders[i] || starts.has(i) || ends.has(i) || header(i))
  );
}
