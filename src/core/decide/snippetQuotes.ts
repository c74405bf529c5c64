// A code block repeats lines of the file, and a model often writes them with its own string quotes
// (`from "./a"` where the file has `from './a'`): written as they stand, those lines change bytes that
// mean the same, against the file's style (and its formatter). In JavaScript, TypeScript and Python a
// string's value does not depend on its delimiter, so such a block line is read as the file's line.
// Only when the swap provably means the same: every string a plain one without quotes or escapes in it,
// no template literal, no regular expression or JSX text where a quote is a character, not a delimiter.
import { grammarFor } from '../match/structure/languages';

/** Grammars whose ' and " strings are the same strings (TSX is not: in JSX text a quote is a character). */
const DELIMITER_FREE = new Set(['typescript', 'javascript', 'python']);

/** A closing tag or a self-closing one: JavaScript with JSX, where a line of text may be a quoted phrase. */
const JSX_TAG = /<\/[A-Za-z]|\/>/;

/**
 * The line with every string delimiter replaced by `\u0000`, when its strings are plain ones whose
 * delimiter may be swapped without changing the line's meaning; else undefined. The code part may hold no
 * backslash, backtick, `/` (a regular expression, JS) or `<` before a letter, `/` or `>` (a JSX tag);
 * a comment ends the code part and is kept as it is.
 */
function delimiterShape(line: string, python: boolean): string | undefined {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (python ? ch === '#' : line.startsWith('//', i)) {
      return out + line.slice(i);
    }
    if (ch === '\\' || ch === '`' || (!python && ch === '/') || (ch === '<' && /[A-Za-z/>]/.test(line[i + 1] ?? ''))) {
      return undefined;
    }
    if (ch === "'" || ch === '"') {
      const close = line.indexOf(ch, i + 1);
      const content = close < 0 ? '' : line.slice(i + 1, close);
      if (close < 0 || /['"\\]/.test(content)) {
        return undefined;
      }
      out += `\u0000${content}\u0000`;
      i = close + 1;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

const hasQuote = (line: string) => line.includes("'") || line.includes('"');

/**
 * The block's lines, each one that is a line of the file up to its strings' delimiters (and indentation)
 * written with the file's delimiters; in other languages, or with no such line, the lines as they are.
 * Where two different file lines read the same, which one the block repeats is not known: left as written.
 */
export function keepFileQuoteStyle(
  blockLines: readonly string[],
  fileLines: readonly string[],
  context: { languageId?: string; fileName?: string },
): string[] {
  const grammar = grammarFor(context.languageId, context.fileName);
  if (!grammar || !DELIMITER_FREE.has(grammar.id) || !blockLines.some(hasQuote)) {
    return [...blockLines];
  }
  if (
    grammar.id === 'javascript' &&
    (/\.jsx$/i.test(context.fileName ?? '') || [...blockLines, ...fileLines].some((l) => JSX_TAG.test(l)))
  ) {
    return [...blockLines];
  }
  const python = grammar.id === 'python';
  // Each shape's file text (trimmed); null when two different file lines share it.
  const byShape = new Map<string, string | null>();
  for (const line of fileLines) {
    const text = line.trim();
    const shape = hasQuote(text) ? delimiterShape(text, python) : undefined;
    if (shape !== undefined) {
      const seen = byShape.get(shape);
      byShape.set(shape, seen === undefined || seen === text ? text : null);
    }
  }
  if (byShape.size === 0) {
    return [...blockLines];
  }
  // What the repeated lines show of the model's delimiters against the file's: [block's, file's] per string.
  const swaps = new Set<string>();
  const out = blockLines.map((line) => {
    const text = line.trim();
    const shape = hasQuote(text) ? delimiterShape(text, python) : undefined;
    const fileText = shape === undefined ? undefined : byShape.get(shape);
    if (typeof fileText !== 'string') {
      return line;
    }
    for (const pair of delimiterPairs(text, fileText)) {
      swaps.add(pair);
    }
    return fileText === text ? line : withText(line, fileText);
  });
  // New lines follow the file too when every string the block repeated swapped one delimiter for the other.
  const [only] = swaps;
  if (swaps.size !== 1 || only[0] === only[1]) {
    return out;
  }
  const [from, to] = only;
  return out.map((line, i) => {
    const text = line.trim();
    if (line !== blockLines[i] || !text.includes(from) || delimiterShape(text, python) === undefined) {
      return line;
    }
    return withText(line, restyle(text, from, to, python));
  });
}

/** The line with its trimmed text replaced, its indentation and trailing whitespace kept. */
function withText(line: string, text: string): string {
  const lead = line.length - line.trimStart().length;
  return line.slice(0, lead) + text + line.slice(line.trimEnd().length);
}

/** "ab" pairs of each string's delimiter in `a` and in `b`, two lines of one delimiter shape. */
function delimiterPairs(a: string, b: string): string[] {
  const pairs: string[] = [];
  for (let i = 0; i < a.length; i++) {
    if ((a[i] === "'" || a[i] === '"') && (b[i] === "'" || b[i] === '"')) {
      pairs.push(a[i] + b[i]);
    }
  }
  return pairs;
}

/** The line, of a swappable delimiter shape, with its strings delimited by `to` where they were by `from`; comments as they are. */
function restyle(line: string, from: string, to: string, python: boolean): string {
  let out = '';
  let i = 0;
  while (i < line.length) {
    const ch = line[i];
    if (python ? ch === '#' : line.startsWith('//', i)) {
      return out + line.slice(i);
    }
    if (ch === "'" || ch === '"') {
      const close = line.indexOf(ch, i + 1);
      const quote = ch === from ? to : ch;
      out += quote + line.slice(i + 1, close) + quote;
      i = close + 1;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}
