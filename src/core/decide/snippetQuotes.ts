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
 * The line with each string's delimiter written as `delimiter` gives for it, when its strings are plain
 * ones whose delimiter may be swapped without changing the line's meaning; else undefined. The code part may hold no
 * backslash, backtick, `/` (a regular expression, JS) or `<` before a letter, `/` or `>` (a JSX tag);
 * a comment ends the code part and is kept as it is.
 */
function rewriteStrings(line: string, python: boolean, delimiter: (quote: string) => string): string | undefined {
  // A triple quote is a string whose inner quotes are text (`"""the "id" field"""`).
  if (python && (line.includes("'''") || line.includes('"""'))) {
    return undefined;
  }
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
      // A string touching the next one would make a triple quote when swapped (`""'a'`); braces that do not
      // pair are an f-string whose expression holds a string of its own (`f"{d["k"]}"`).
      const touching = close >= 0 && (line[close + 1] === "'" || line[close + 1] === '"');
      const unpaired = python && (content.match(/\{/g) ?? []).length !== (content.match(/\}/g) ?? []).length;
      if (close < 0 || /['"\\]/.test(content) || touching || unpaired) {
        return undefined;
      }
      out += delimiter(ch) + content + delimiter(ch);
      i = close + 1;
      continue;
    }
    out += ch;
    i++;
  }
  return out;
}

/** The line with every string delimiter as `\u0000`: two lines of one shape differ at most in delimiters. */
const delimiterShape = (line: string, python: boolean) => rewriteStrings(line, python, () => '\u0000');

const hasQuote = (line: string) => line.includes("'") || line.includes('"');

/**
 * Which lines are code from start to end: not inside (nor opening or closing) a string or comment that
 * spans lines, where a quote is text (a template literal or a block comment in JavaScript, a triple-quoted
 * string in Python, a string continued by a backslash); a JavaScript regular expression is skipped whole. Where the
 * scan loses track (a quote or a regular expression that does not close on its line; a `*` `/` closing no comment), no line from there on
 * is code. `certain` is false when the lines end inside such a construct or the scan lost track: lines
 * that do not start at code (a block cut from the middle of a docstring) read like that.
 */
function codeLines(lines: readonly string[], python: boolean): { code: boolean[]; certain: boolean } {
  let open: string | undefined; // what a line starts inside: '`', '*/', "'''", '"""', "'" or '"'
  let lost = false;
  const code = lines.map((line) => {
    let isCode = open === undefined && !lost;
    let i = 0;
    while (i < line.length && !lost) {
      if (open !== undefined) {
        const close = closeOf(line, i, open);
        if (close === LOST) {
          lost = true;
        }
        if (close < 0) {
          break;
        }
        i = close + open.length;
        open = undefined;
        isCode = false;
        continue;
      }
      const ch = line[i];
      if (python ? ch === '#' : line.startsWith('//', i)) {
        break;
      }
      if (!python && line.startsWith('*/', i)) {
        lost = true;
        break;
      }
      if (!python && ch === '/' && !line.startsWith('/*', i) && startsRegex(line.slice(0, i))) {
        const end = regexEnd(line, i + 1);
        if (end < 0) {
          lost = true;
          break;
        }
        i = end + 1;
        continue;
      }
      if (!python && ch === '/' && !line.startsWith('/*', i) && line.includes('`', i)) {
        // Read as a division, but a regular expression holding a backtick would open no template.
        lost = true;
        break;
      }
      const triple = python && (line.startsWith("'''", i) || line.startsWith('"""', i)) ? line.slice(i, i + 3) : undefined;
      const opener =
        triple ?? (ch === '`' && !python ? '`' : !python && line.startsWith('/*', i) ? '*/' : ch === "'" || ch === '"' ? ch : undefined);
      if (opener === undefined) {
        i++;
        continue;
      }
      const from = i + (triple ? 3 : opener === '*/' ? 2 : 1);
      const close = closeOf(line, from, opener);
      if (close === LOST) {
        lost = true;
        break;
      }
      if (close < 0) {
        // Runs past the line: a template, a comment, a triple quote, or a string continued by a backslash.
        if ((opener === "'" || opener === '"') && !line.endsWith('\\')) {
          lost = true;
        } else {
          open = opener;
        }
        isCode = false;
        break;
      }
      i = close + opener.length;
    }
    // A JSDoc line of a comment the lines do not open (a block cut from inside one) is text too.
    return isCode && open === undefined && !lost && !(!python && /^\s*\*(?!\/)/.test(line));
  });
  return { code, certain: open === undefined && !lost };
}

/** closeOf's answer when the line cannot be read: a template's `${` whose `}` is not on the line. */
const LOST = -2;

/**
 * Where the construct `open` (a quote, a triple quote, a template's backtick, a comment's closer) that is
 * open at `from` closes on the line, escapes skipped; -1 when it does not. In a template, an expression
 * `${...}` must close on its line without a backtick in it (a template nested across lines): else LOST.
 */
function closeOf(line: string, from: number, open: string): number {
  if (open === '*/') {
    return line.indexOf(open, from);
  }
  for (let i = from; i < line.length; i++) {
    if (line[i] === '\\') {
      i++;
    } else if (line.startsWith(open, i)) {
      return i;
    } else if (open === '`' && line.startsWith('${', i)) {
      let depth = 0;
      for (i++; i < line.length; i++) {
        if (line[i] === '`') {
          return LOST;
        }
        depth += line[i] === '{' ? 1 : line[i] === '}' ? -1 : 0;
        if (depth === 0) {
          break;
        }
      }
      if (depth !== 0) {
        return LOST;
      }
    }
  }
  return -1;
}

/** Whether a `/` after `before` (code on its line) opens a regular expression rather than divides. */
function startsRegex(before: string): boolean {
  const code = before.trimEnd();
  return (
    code === '' || /[(,=:[!&|?{};+\-*%<>~^]$/.test(code) || /\b(return|typeof|case|in|of|delete|void|throw|new|yield|await)$/.test(code)
  );
}

/** Where the regular expression whose body starts at `from` ends (its closing `/`; a `/` in a class `[...]` does not); -1 when not on the line. */
function regexEnd(line: string, from: number): number {
  let inClass = false;
  for (let i = from; i < line.length; i++) {
    const ch = line[i];
    if (ch === '\\') {
      i++;
    } else if (ch === '[') {
      inClass = true;
    } else if (ch === ']') {
      inClass = false;
    } else if (ch === '/' && !inClass) {
      return i;
    }
  }
  return -1;
}

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
  const fileCode = codeLines(fileLines, python).code;
  for (const [k, line] of fileLines.entries()) {
    const text = line.trim();
    const shape = fileCode[k] && hasQuote(text) ? delimiterShape(text, python) : undefined;
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
  const { code: blockCode, certain } = codeLines(blockLines, python);
  if (!certain) {
    return [...blockLines];
  }
  const out = blockLines.map((line, k) => {
    const text = line.trim();
    const shape = blockCode[k] && hasQuote(text) ? delimiterShape(text, python) : undefined;
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
    const restyled =
      line === blockLines[i] && blockCode[i] ? rewriteStrings(text, python, (quote) => (quote === from ? to : quote)) : undefined;
    return restyled === undefined || restyled === text ? line : withText(line, restyled);
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
