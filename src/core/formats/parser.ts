// Parses SEARCH/REPLACE blocks as AI tools write them: aider (`<<<<<<< SEARCH` / `=======` /
// `>>>>>>> REPLACE`), Cline (`------- SEARCH` / `=======` / `+++++++ REPLACE`) and Roo's
// `:start_line:N` header, with the target file named on the line before the block or its code fence.
// Pure string work: no vscode, no Node built-ins (runs in the web worker too).
import type { ParseErrorInfo, SearchReplaceBlock } from '../types';

export class BlockParseError extends Error {
  readonly info: ParseErrorInfo;

  constructor(info: ParseErrorInfo) {
    super(info.message);
    this.name = 'BlockParseError';
    this.info = info;
  }
}

// Markers: 5 to 9 marker characters, optional leading indentation (blocks nested in Markdown lists),
// trailing whitespace tolerated. `SEARCH>` is accepted because some prompts spell it that way.
const SEARCH_MARKER = /^([ \t]*)(<{5,9}|-{5,9})[ \t]*SEARCH>?[ \t]*$/;
const DIVIDER = /^([ \t]*)(={5,9})[ \t]*$/;
const REPLACE_MARKER = /^([ \t]*)(>{5,9}|\+{5,9})[ \t]*REPLACE[ \t]*$/;
const START_LINE = /^[ \t]*:start_line:[ \t]*(.*?)[ \t]*$/;
const END_LINE = /^[ \t]*:end_line:[ \t]*\d+[ \t]*$/;
const HEADER_SEPARATOR = /^[ \t]*-{3,9}[ \t]*$/;
const FENCE = /^[ \t]*(?:`{3,}|~{3,})[ \t]*([^`]*?)[ \t]*$/;

// A content line that would read as a marker can be escaped with one backslash (Roo's convention).
const ESCAPED_MARKER = /^([ \t]*)\\((?:<{5,9}|-{5,9})[ \t]*SEARCH>?|={5,9}|(?:>{5,9}|\+{5,9})[ \t]*REPLACE)[ \t]*$/;

// Cheap whole-input scans for containsBlocks (multiline; tolerate CR before the line end).
const SEARCH_MARKER_ANYWHERE = /^[ \t]*(?:<{5,9}|-{5,9})[ \t]*SEARCH>?[ \t]*\r?$/m;
const DIVIDER_OR_REPLACE_ANYWHERE = /^[ \t]*(?:={5,9}|(?:>{5,9}|\+{5,9})[ \t]*REPLACE)[ \t]*\r?$/m;

/** True when the text holds at least one SEARCH marker followed by a divider or REPLACE marker. */
export function containsBlocks(text: string): boolean {
  return firstBlockOffset(text) !== undefined;
}

/** Offset of the first SEARCH marker that a divider or REPLACE marker follows, or undefined. */
export function firstBlockOffset(text: string): number | undefined {
  // Substring checks first: most pasted text has no marker word at all.
  if (!text.includes('SEARCH') || !(text.includes('=====') || text.includes('REPLACE'))) {
    return undefined;
  }
  const match = SEARCH_MARKER_ANYWHERE.exec(text);
  if (!match) {
    return undefined;
  }
  return DIVIDER_OR_REPLACE_ANYWHERE.test(text.slice(match.index + match[0].length)) ? match.index : undefined;
}

/**
 * The 0-based line of the REPLACE marker that closes the block whose SEARCH marker is on line `open`
 * (the first one after it, as parseBlocks reads a block), or undefined when none follows.
 */
export function blockEndLine(lines: readonly string[], open: number): number | undefined {
  for (let i = open + 1; i < lines.length; i++) {
    if (mayBeMarker(lines[i]) && REPLACE_MARKER.test(lines[i])) {
      return i;
    }
  }
  return undefined;
}

/** Marker spelling in the style the block opened with, for error messages. */
interface MarkerStyle {
  search: string;
  divider: string;
  replace: string;
}

function styleOf(openingMarker: string): MarkerStyle {
  const chars = /^[ \t]*([<-]+)/.exec(openingMarker)?.[1] ?? '<<<<<<<';
  const n = chars.length;
  const cline = chars.startsWith('-');
  return {
    search: `${(cline ? '-' : '<').repeat(n)} SEARCH`,
    divider: '='.repeat(n),
    replace: `${(cline ? '+' : '>').repeat(n)} REPLACE`,
  };
}

function fail(block: number, line: number, expected: string, message: string): never {
  throw new BlockParseError({ block, line, expected, message: `Block ${block} (line ${line}): ${message}` });
}

/**
 * Parses every SEARCH/REPLACE block in `text`. Returns [] when there is none; throws BlockParseError
 * for malformed blocks. SEARCH/REPLACE texts are '\n'-joined without a trailing newline.
 */
export function parseBlocks(text: string): SearchReplaceBlock[] {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  // The line count a reader sees: a final newline does not start another line.
  const lastLine = lines.length > 1 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length;
  const blocks: SearchReplaceBlock[] = [];
  let currentPath: string | undefined;
  // Index of the first line after the previous block; path look-back never reaches into a block.
  let afterPrevious = 0;
  let i = 0;

  while (i < lines.length) {
    const line = lines[i];
    const opening = mayBeMarker(line) ? SEARCH_MARKER.exec(line) : null;
    if (!opening) {
      if (mayBeMarker(line)) {
        failOnStrayReplace(line, blocks.length + 1, i + 1);
      }
      i++;
      continue;
    }
    const open: OpenBlock = { number: blocks.length + 1, line: i + 1, indent: opening[1], style: styleOf(line) };
    currentPath = findPathBefore(lines, i, afterPrevious) ?? currentPath;
    const header = readHeader(lines, i + 1, open.number);
    const body = readBody(lines, header.next, open, lastLine);
    blocks.push(blockFrom(open, body, header.startLine, currentPath));
    i = body.next;
    afterPrevious = i;
  }
  return blocks;
}

/** A block whose SEARCH marker has been read. */
interface OpenBlock {
  number: number;
  /** 1-based line of the SEARCH marker. */
  line: number;
  indent: string;
  style: MarkerStyle;
}

/** A REPLACE marker outside any block is an error: the SEARCH half went missing. */
function failOnStrayReplace(line: string, blockNumber: number, lineNumber: number): void {
  const stray = REPLACE_MARKER.exec(line);
  if (stray) {
    const style = styleOf(stray[2].startsWith('+') ? '-------' : '<<<<<<<');
    fail(
      blockNumber,
      lineNumber,
      `'${style.search}'`,
      `expected '${style.search}' before '${line.trim()}' (a REPLACE marker with no open block)`,
    );
  }
}

/** Roo's optional header after the SEARCH marker: `:start_line:N`, `:end_line:N`, a `-------` separator. */
function readHeader(lines: readonly string[], at: number, blockNumber: number): { startLine?: number; next: number } {
  const startMatch = at < lines.length ? START_LINE.exec(lines[at]) : null;
  if (!startMatch) {
    return { next: at };
  }
  const expected = "a positive line number after ':start_line:'";
  if (!/^\d+$/.test(startMatch[1]) || Number(startMatch[1]) < 1) {
    fail(blockNumber, at + 1, expected, `expected a positive line number after ':start_line:', found '${startMatch[1]}'`);
  }
  if (!Number.isSafeInteger(Number(startMatch[1]))) {
    fail(
      blockNumber,
      at + 1,
      expected,
      `expected a line number after ':start_line:', found '${startMatch[1]}', which is too large to be a line of any file`,
    );
  }
  let next = at + 1;
  if (next < lines.length && END_LINE.test(lines[next])) {
    next++;
  }
  if (next < lines.length && HEADER_SEPARATOR.test(lines[next])) {
    next++;
  }
  return { startLine: Number(startMatch[1]), next };
}

interface BlockBody {
  searchLines: string[];
  replaceLines: string[];
  /** Index of the first line after the REPLACE marker. */
  next: number;
}

/** The SEARCH and REPLACE lines up to the block's REPLACE marker; any other marker in between is an error. */
function readBody(lines: readonly string[], at: number, open: OpenBlock, lastLine: number): BlockBody {
  const { style } = open;
  const searchLines: string[] = [];
  const replaceLines: string[] = [];
  let dividerLine = 0;
  for (let i = at; i < lines.length; i++) {
    const current = lines[i];
    const inSearch = dividerLine === 0;
    if (!mayBeMarker(current)) {
      (inSearch ? searchLines : replaceLines).push(current);
      continue;
    }
    if (SEARCH_MARKER.test(current)) {
      if (inSearch) {
        fail(
          open.number,
          i + 1,
          `'${style.divider}'`,
          `expected '${style.divider}' before another '${current.trim()}' (block ${open.number} opened on line ${open.line}; a SEARCH cannot be nested)`,
        );
      }
      fail(
        open.number,
        i + 1,
        `'${style.replace}'`,
        `expected '${style.replace}' before the next '${current.trim()}' (block ${open.number} opened on line ${open.line})`,
      );
    }
    if (REPLACE_MARKER.test(current)) {
      if (inSearch) {
        fail(open.number, i + 1, `'${style.divider}'`, `expected '${style.divider}' before '${current.trim()}'`);
      }
      return { searchLines, replaceLines, next: i + 1 };
    }
    const divider = DIVIDER.exec(current);
    // A divider counts only at the block's own indentation, so indented '=======' content stays content.
    if (divider && divider[1] === open.indent) {
      if (!inSearch) {
        fail(
          open.number,
          i + 1,
          `'${style.replace}'`,
          `expected '${style.replace}' but found a second '${current.trim()}' (the first was on line ${dividerLine}); ` +
            `a content line that looks like a marker makes the block ambiguous: if it is content, escape it as '\\${current.trim()}'`,
        );
      }
      dividerLine = i + 1;
      continue;
    }
    (inSearch ? searchLines : replaceLines).push(unescapeMarker(current));
  }
  const expected = dividerLine === 0 ? style.divider : style.replace;
  return fail(
    open.number,
    lastLine,
    `'${expected}'`,
    `expected '${expected}' but the input ended (block ${open.number} opened on line ${open.line})`,
  );
}

/** The parsed block: indentation of a nested block removed, line-number prefixes of a file view stripped. */
function blockFrom(open: OpenBlock, body: BlockBody, startLine: number | undefined, filePath: string | undefined): SearchReplaceBlock {
  const { searchLines, replaceLines } = body;
  dedentBlock(searchLines, replaceLines, open.indent);
  const numbered = stripLineNumbers(searchLines, replaceLines);
  const block: SearchReplaceBlock = {
    index: open.number,
    search: (numbered?.search ?? searchLines).join('\n'),
    replace: (numbered?.replace ?? replaceLines).join('\n'),
    sourceLine: open.line,
  };
  if (filePath !== undefined) {
    block.filePath = filePath;
  }
  if (startLine !== undefined) {
    block.startLine = startLine;
  } else if (numbered?.firstLine !== undefined) {
    // The numbers came from a view of the file: they say where the model read the text.
    block.startLine = numbered.firstLine;
  }
  if (numbered) {
    block.strippedLineNumbers = true;
  }
  return block;
}

/** Cheap pre-check: every marker (and escaped marker) starts with one of these after indentation. */
function mayBeMarker(line: string): boolean {
  let k = 0;
  while (line.charCodeAt(k) === 32 || line.charCodeAt(k) === 9) {
    k++;
  }
  const c = line[k];
  return c === '<' || c === '>' || c === '=' || c === '-' || c === '+' || c === '\\';
}

function unescapeMarker(line: string): string {
  const escaped = ESCAPED_MARKER.exec(line);
  return escaped ? escaped[1] + escaped[2] : line;
}

/** A block indented as a whole (e.g. inside a Markdown list item) has that indentation removed from its content. */
function dedentBlock(searchLines: string[], replaceLines: string[], indent: string): void {
  if (indent === '') {
    return;
  }
  const all = [...searchLines, ...replaceLines];
  if (!all.every((l) => l.trim() === '' || l.startsWith(indent))) {
    return;
  }
  for (const list of [searchLines, replaceLines]) {
    for (let k = 0; k < list.length; k++) {
      list[k] = list[k].startsWith(indent) ? list[k].slice(indent.length) : list[k].trimStart();
    }
  }
}

// ---------------------------------------------------------------------------------------------
// File paths

const EXTENSIONLESS_FILES = new Set([
  'Makefile',
  'makefile',
  'GNUmakefile',
  'Dockerfile',
  'Containerfile',
  'Gemfile',
  'Rakefile',
  'Procfile',
  'Jenkinsfile',
  'Vagrantfile',
  'Brewfile',
  'Justfile',
  'justfile',
  'LICENSE',
  'README',
  'CHANGELOG',
]);

/** Looks for a path on the nearest non-blank line before line `at`, or before the code fence there. */
export function findPathBefore(lines: readonly string[], at: number, floor: number): string | undefined {
  let j = previousNonBlank(lines, at - 1, floor);
  if (j < 0) {
    return undefined;
  }
  const fence = FENCE.exec(lines[j]);
  if (fence) {
    // ```src/app.ts or ```ts src/app.ts: the fence info may carry the path itself.
    const words = fence[1].split(/[ \t]+/).filter((w) => w !== '');
    for (let w = words.length - 1; w >= 0; w--) {
      const fromInfo = asPath(words[w]);
      if (fromInfo !== undefined) {
        return fromInfo;
      }
    }
    j = previousNonBlank(lines, j - 1, floor);
    return j < 0 ? undefined : asPath(lines[j]);
  }
  return asPath(lines[j]);
}

function previousNonBlank(lines: readonly string[], from: number, floor: number): number {
  for (let j = from; j >= floor; j--) {
    if (lines[j].trim() !== '') {
      return j;
    }
  }
  return -1;
}

/**
 * The path a line names, if the whole line is a path: `src/a.ts`, `**src/a.ts**`, `` `a.py`: ``,
 * `### src/a.ts`, `File: src/a.ts`, `C:\x\a.ts`. Prose and code return undefined. Also used for the
 * file a plain code block names (codeBlocks.ts).
 */
export function asPath(line: string): string | undefined {
  let s = line.trim();
  s = s.replace(/^#{1,6}[ \t]+/, '');
  s = s.replace(/^(?:[-*+]|\d+[.)])[ \t]+/, '');
  s = s.replace(/^(?:file(?:name)?|path)[ \t]*:[ \t]*/i, '');
  let quoted = false;
  for (let previous = ''; previous !== s;) {
    previous = s;
    s = s.replace(/[ \t]*:$/, '').trim();
    const wrapped = /^(\*\*|__|\*|_|`|"|')(.+)\1$/.exec(s);
    if (wrapped) {
      quoted ||= wrapped[1] === '`' || wrapped[1] === '"' || wrapped[1] === "'";
      s = wrapped[2].trim();
    }
  }
  if (s === '' || (!quoted && /\s/.test(s)) || /[\t\n]/.test(s)) {
    return undefined;
  }
  if (/[;<>"'|*?,={}`]/.test(s) || s.includes('://') || s.includes('//')) {
    return undefined;
  }
  // A colon only as a Windows drive letter.
  if (s.includes(':') && !/^[A-Za-z]:[\\/][^:]*$/.test(s)) {
    return undefined;
  }
  if (!/[A-Za-z0-9]/.test(s) || /[\\/]$/.test(s)) {
    return undefined;
  }
  const base = s.split(/[\\/]/).pop() ?? s;
  if (base === '' || base.endsWith('.') || !/[A-Za-z0-9_]/.test(base)) {
    return undefined;
  }
  const hasSlash = /[\\/]/.test(s);
  const hasExtension = /\.[A-Za-z0-9_+-]*[A-Za-z][A-Za-z0-9_+-]*$/.test(base);
  if (!hasSlash && !hasExtension && !EXTENSIONLESS_FILES.has(base)) {
    return undefined;
  }
  // Code that happens to contain a dot or slash: calls, member chains with brackets, operators.
  if (/\)$/.test(s) && !hasExtension) {
    return undefined;
  }
  return s;
}

// ---------------------------------------------------------------------------------------------
// Line-number prefixes copied from numbered views

interface NumberStyle {
  /** Matches a prefixed line; group 1 is the number. The whole match is removed. */
  pattern: RegExp;
  /** Extra check on the stripped SEARCH lines (e.g. a Markdown table is not a numbered view). */
  plausible?: (stripped: readonly string[]) => boolean;
}

const NUMBER_STYLES: readonly NumberStyle[] = [
  // `12 | code` (Roo/Cline numbered reads). One space after the bar belongs to the prefix.
  {
    pattern: /^[ \t]*(\d+)[ \t]*\| ?/,
    // Rows like `1 | Alice | 30` are a table without a leading bar, not a numbered view.
    plausible: (stripped) => !stripped.every((l) => l.includes('|')),
  },
  // cat -n: the number right-aligned in 6 columns, then a tab. Requiring the padding keeps TSV rows out.
  { pattern: /^(?: +(\d+)|(\d{6,}))\t/ },
  // `    12→code` (arrow-numbered reads).
  { pattern: /^[ \t]*(\d+)\u2192/ },
];

interface StrippedLines {
  search: string[];
  replace: string[];
  /** 1-based file line of SEARCH's first line, from its number. */
  firstLine?: number;
}

/**
 * Strips line-number prefixes when every non-blank SEARCH line carries one of the same style and the
 * numbers increase (allowing for blank lines copied without their number). REPLACE lines lose the prefix
 * only where they carry one: lines the model added usually have none.
 */
function stripLineNumbers(searchLines: readonly string[], replaceLines: readonly string[]): StrippedLines | undefined {
  const nonBlank = searchLines.map((l, k) => ({ l, k })).filter(({ l }) => l.trim() !== '');
  if (nonBlank.length === 0) {
    return undefined;
  }
  for (const style of NUMBER_STYLES) {
    const numbers: number[] = [];
    for (const { l } of nonBlank) {
      const m = style.pattern.exec(l);
      if (!m) {
        break;
      }
      numbers.push(Number(m[1] ?? m[2]));
    }
    if (
      numbers.length !== nonBlank.length ||
      !increasing(
        numbers,
        nonBlank.map(({ k }) => k),
      )
    ) {
      continue;
    }
    const strip = (l: string): string => l.replace(style.pattern, '');
    const search = searchLines.map((l) => (l.trim() === '' ? l : strip(l)));
    if (style.plausible && !style.plausible(search.filter((l) => l.trim() !== ''))) {
      continue;
    }
    const replace = replaceLines.map((l) => (style.pattern.test(l) ? strip(l) : l));
    const first = nonBlank[0];
    const firstLine = numbers[0] - first.k;
    // Digits too many for an exact number are no line of any file: strip, but no hint.
    return { search, replace, firstLine: firstLine >= 1 && Number.isSafeInteger(firstLine) ? firstLine : undefined };
  }
  return undefined;
}

/** Numbers rise with the lines; a step may skip a few lines (blank lines the model dropped) but no more. */
function increasing(numbers: readonly number[], positions: readonly number[]): boolean {
  for (let k = 1; k < numbers.length; k++) {
    const step = numbers[k] - numbers[k - 1];
    const gap = positions[k] - positions[k - 1];
    if (step < 1 || step > gap + 5) {
      return false;
    }
  }
  return true;
}
