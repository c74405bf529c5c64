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

/** Where a line scan stands between lines: in templates and their `${` expressions (JS), in a construct left open, or lost. */
interface ScanState {
  /** Open templates and the `${` expressions inside them, innermost last; each expression's `{` depth. */
  stack: Array<{ template: true } | { depth: number }>;
  /** A block comment's closer, a triple quote, or the quote of a string continued by a backslash. */
  open?: string;
  lost: boolean;
  /** The line the next two were found on (afterSlash): its next backtick from the last `/` read (Infinity: none), its last `/`. */
  slashesOf?: string;
  nextTick: number;
  lastSlash: number;
}

/**
 * Which lines are code from start to end: not inside, opening or closing a string or comment that spans
 * lines, where a quote is text (a template literal, followed through its `${...}` expressions, or a block
 * comment in JavaScript; a triple-quoted string in Python; a string continued by a backslash). A JavaScript
 * regular expression is skipped whole. Where the scan loses track (a quote or a regular expression that
 * does not close on its line, a comment closer with no opener), no line from there on is code. `certain`
 * is false when the lines end inside such a construct or the scan lost track: lines that do not start at
 * code (a block cut from the middle of a docstring) read like that.
 */
function codeLines(lines: readonly string[], python: boolean): { code: boolean[]; certain: boolean } {
  const state: ScanState = { stack: [], lost: false, nextTick: Infinity, lastSlash: -1 };
  const settled = () => state.stack.length === 0 && state.open === undefined && !state.lost;
  const code = lines.map((line) => {
    const startsAsCode = settled();
    const touched = scanLine(line, python, state);
    // A JSDoc line of a comment the lines do not open (a block cut from inside one) is text too.
    return startsAsCode && !touched && settled() && (python || !/^\s*\*(?!\/)/.test(line));
  });
  return { code, certain: settled() };
}

/** Reads a line on from `state` and updates it; true when part of the line was in a construct that may span lines. */
function scanLine(line: string, python: boolean, state: ScanState): boolean {
  let touched = false;
  let i = 0;
  while (i < line.length && !state.lost) {
    if (state.open !== undefined) {
      const close = closeOf(line, i, state.open);
      if (close < 0) {
        return true;
      }
      i = close + state.open.length;
      state.open = undefined;
      touched = true;
      continue;
    }
    const top = state.stack[state.stack.length - 1];
    if (top && 'template' in top) {
      i = stepInTemplate(line, i, state.stack);
      touched = true;
      continue;
    }
    const ch = line[i];
    if (python ? ch === '#' : line.startsWith('//', i)) {
      break;
    }
    if (!python && (ch === '/' || line.startsWith('*/', i))) {
      i = afterSlash(line, i, top !== undefined, state);
      if (state.open !== undefined) {
        return true;
      }
      continue;
    }
    if (!python && ch === '`') {
      state.stack.push({ template: true });
      touched = true;
      i++;
      continue;
    }
    const triple = python && (line.startsWith("'''", i) || line.startsWith('"""', i)) ? line.slice(i, i + 3) : undefined;
    if (triple !== undefined || ch === "'" || ch === '"') {
      const opener = triple ?? ch;
      const close = closeOf(line, i + opener.length, opener);
      if (close < 0) {
        // Runs past the line: a triple quote, or a string continued by a backslash; any other is a misreading.
        state.open = triple !== undefined || line.endsWith('\\') ? opener : undefined;
        state.lost = state.open === undefined;
        return true;
      }
      i = close + opener.length;
      continue;
    }
    if (top && ch === '{') {
      top.depth++;
    } else if (top && ch === '}') {
      if (top.depth === 0) {
        state.stack.pop();
      } else {
        top.depth--;
      }
    }
    i++;
  }
  return touched;
}

/** One step inside a template literal: an escape, its closing backtick, a `${` opening an expression, or a character. */
function stepInTemplate(line: string, i: number, stack: ScanState['stack']): number {
  if (line[i] === '\\') {
    return i + 2;
  }
  if (line[i] === '`') {
    stack.pop();
    return i + 1;
  }
  if (line.startsWith('${', i)) {
    stack.push({ depth: 0 });
    return i + 2;
  }
  return i + 1;
}

/** Past a `/` in JavaScript code: a block comment (left open at the line's end), a regular expression, a division; `*` `/` there is lost. */
function afterSlash(line: string, i: number, inExpression: boolean, state: ScanState): number {
  if (line.startsWith('*/', i)) {
    state.lost = true;
    return line.length;
  }
  if (line.startsWith('/*', i)) {
    const close = line.indexOf('*/', i + 2);
    state.open = close < 0 ? '*/' : undefined;
    return close < 0 ? line.length : close + 2;
  }
  if (startsRegex(line, i)) {
    const end = regexEnd(line, i + 1);
    state.lost = end < 0;
    return end < 0 ? line.length : end + 1;
  }
  // Read as a division; but if it opened a regular expression holding a backtick (a `/` after that backtick
  // could close it), the backtick opens no template. In a template's expression, a backtick after a
  // division is that template's end.
  // The next backtick and the last `/` of the line, found once per line (a minified line has thousands of `/`).
  if (state.slashesOf !== line || state.nextTick < i) {
    const tick = line.indexOf('`', i);
    state.nextTick = tick < 0 ? Infinity : tick;
    state.lastSlash = state.slashesOf === line ? state.lastSlash : line.lastIndexOf('/');
    state.slashesOf = line;
  }
  state.lost = !inExpression && state.lastSlash > state.nextTick;
  return i + 1;
}

/** Where `open` (a quote, a triple quote, a comment's closer), open at `from`, closes on the line, escapes skipped; -1 when it does not. */
function closeOf(line: string, from: number, open: string): number {
  if (open === '*/') {
    return line.indexOf(open, from);
  }
  for (let i = from; i < line.length; i++) {
    if (line[i] === '\\') {
      i++;
    } else if (line.startsWith(open, i)) {
      return i;
    }
  }
  return -1;
}

/** Whether the `/` at `at` opens a regular expression rather than divides, by the code before it on its line. */
function startsRegex(line: string, at: number): boolean {
  // The code before it, read backwards from its last character (not copied: a minified line has thousands of `/`).
  let last = at - 1;
  while (last >= 0 && (line[last] === ' ' || line[last] === '\t')) {
    last--;
  }
  return (
    last < 0 ||
    '(,=:[!&|?{};+-*%<>~^'.includes(line[last]) ||
    /\b(return|typeof|case|in|of|delete|void|throw|new|yield|await)$/.test(line.slice(Math.max(0, last - 10), last + 1))
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
  // The block first: one that may start or end inside a string or comment is left as written, and the
  // file (often thousands of lines) is not read for it.
  const { code: blockCode, certain } = codeLines(blockLines, python);
  if (!certain) {
    return [...blockLines];
  }
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
