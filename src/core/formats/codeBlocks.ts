// Plain fenced code blocks, as chat answers hold them: the whole file, one rewritten declaration, or a
// lazy snippet with `// ... existing code ...` around the changed parts. This file only finds them and
// the file each names; applying one is the snippet applier's job. A fence whose content is an edit
// format (SEARCH/REPLACE blocks, a unified diff, an apply_patch patch) is not a code block: the edit
// parsers (edits.ts) own those. Pure string work, as every parser of core.
import { detectEditFormat, type EditFormat, formatName } from './edits';
import { asPath } from './parser';

/** Where a code block's file name came from. */
export type CodePathSource = 'info' | 'comment' | 'line-before';

/** A fenced code block found in a text. */
export interface CodeBlock {
  /** The code: fences, info string and a `// filepath:` first line stripped; lines joined with '\n'. */
  code: string;
  /** The language the info string gives (`ts`, `python`), lower-cased, if any. */
  language?: string;
  /** The file the block names, if any, as written. */
  filePath?: string;
  pathSource?: CodePathSource;
  /** 1-based line of the opening fence. */
  fenceLine: number;
  /** 1-based line of the closing fence. */
  closeLine: number;
  /** 1-based line of the path line before the fence (aider's way), when that named the file. */
  pathLine?: number;
}

/** A snippet read from text given as "the code" (CLI --snippet, the tool's `code`): one fenced block or raw code. */
export type SnippetText =
  { ok: true; code: string; language?: string; filePath?: string; fenced: boolean } | { ok: false; message: string; format?: EditFormat };

// An opening fence: indentation (a block nested in a list may be indented further), 3+ backticks or
// tildes, the info string. A backtick fence's info has no backtick (```a``` is inline code).
const OPENING = /^([ \t]*)(`{3,}|~{3,})[ \t]*(.*?)[ \t]*$/;
// The first line Copilot writes in a block: `// filepath: src/cart.ts` (or `#`, `--`, `/* */`, `<!-- -->`).
const PATH_COMMENT =
  /^[ \t]*(?:\/\/+|#+|--|;+|%+|\/\*+|<!--|\{\/\*)[ \t]*(?:file[ _-]?path|file[ _-]?name|file|path)[ \t]*:[ \t]*(.+?)[ \t]*(?:\*+\/\}?|-->)?[ \t]*$/i;
// `path=src/cart.ts`, `filepath="src/cart.ts"`, `title="src/cart.ts"` in the info string.
const PATH_ATTRIBUTE = /(?:^|[\s{])(?:file[_-]?path|file[_-]?name|path|file|title)[ \t]*=[ \t]*(?:"([^"]*)"|'([^']*)'|([^\s}]+))/i;
const LANGUAGE_WORD = /^[A-Za-z][A-Za-z0-9_+#.-]*$/;

interface Fence {
  indent: string;
  char: string;
  length: number;
  info: string;
}

function openingFence(line: string): Fence | undefined {
  const m = OPENING.exec(line);
  if (!m || (m[2][0] === '`' && m[3].includes('`'))) {
    return undefined;
  }
  return { indent: m[1], char: m[2][0], length: m[2].length, info: m[3] };
}

function closesFence(line: string, fence: Fence): boolean {
  const trimmed = line.trim();
  return trimmed.length >= fence.length && [...trimmed].every((c) => c === fence.char);
}

/** A content line without the opening fence's indentation (a list-nested block's lines carry it too). */
function unindent(line: string, indent: string): string {
  if (indent === '' || line.startsWith(indent)) {
    return line.slice(indent.length);
  }
  const own = /^[ \t]*/.exec(line)?.[0].length ?? 0;
  return line.slice(Math.min(own, indent.length));
}

/** The language and file an info string gives: "ts src/cart.ts", "ts:src/cart.ts", "path=src/cart.ts", "src/cart.ts". */
export function readInfoString(info: string): { language?: string; filePath?: string } {
  const out: { language?: string; filePath?: string } = {};
  const attribute = PATH_ATTRIBUTE.exec(info);
  if (attribute) {
    out.filePath = asPath(attribute[1] ?? attribute[2] ?? attribute[3]);
  }
  const words = info
    .replace(PATH_ATTRIBUTE, ' ')
    .split(/[\s{}]+/)
    .filter((w) => w !== '' && !w.includes('='));
  words.forEach((word, i) => {
    const colon = word.indexOf(':');
    const bare = word.replace(/^\./, '');
    const rest = word.slice(colon + 1);
    if (colon > 0 && LANGUAGE_WORD.test(word.slice(0, colon)) && !/^[\\/]/.test(rest) && asPath(rest) !== undefined) {
      out.language ??= word.slice(0, colon).toLowerCase();
      out.filePath ??= asPath(rest);
    } else if (i === 0 && LANGUAGE_WORD.test(bare) && !bare.includes('/') && asPath(bare) === undefined) {
      out.language = bare.toLowerCase();
    } else if (out.filePath === undefined) {
      out.filePath = asPath(word);
    }
  });
  return out;
}

/** The file a first line such as `// filepath: src/cart.ts` names, if it is one. */
export function pathComment(line: string): string | undefined {
  const m = PATH_COMMENT.exec(line);
  return m ? asPath(m[1].replace(/^`(.*)`$/, '$1')) : undefined;
}

/** The path line just before a fence (aider), at most one blank line above it. */
function pathLineBefore(lines: readonly string[], fenceIndex: number): { path: string; index: number } | undefined {
  for (let j = fenceIndex - 1; j >= 0 && j >= fenceIndex - 2; j--) {
    if (lines[j].trim() === '') {
      continue;
    }
    const path = openingFence(lines[j]) ? undefined : asPath(lines[j]);
    return path === undefined ? undefined : { path, index: j };
  }
  return undefined;
}

interface RawBlock {
  fence: Fence;
  start: number;
  /** Index of the closing fence line, or -1 when the block runs to the end of the text unclosed. */
  close: number;
  content: string[];
}

/** Every top-level fenced block, in order (a shorter fence inside a longer one is content). */
function scanFences(lines: readonly string[]): RawBlock[] {
  const blocks: RawBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = openingFence(lines[i]);
    if (!fence) {
      continue;
    }
    let close = -1;
    for (let k = i + 1; k < lines.length; k++) {
      if (closesFence(lines[k], fence)) {
        close = k;
        break;
      }
    }
    const end = close < 0 ? lines.length : close;
    blocks.push({ fence, start: i, close, content: lines.slice(i + 1, end).map((l) => unindent(l, fence.indent)) });
    if (close < 0) {
      break;
    }
    i = close;
  }
  return blocks;
}

/** A code block from a fence: its language, its file (info string, first-line comment, line before), its code. */
function toCodeBlock(lines: readonly string[], raw: RawBlock): CodeBlock {
  const info = readInfoString(raw.fence.info);
  let content = raw.content;
  const block: CodeBlock = { code: '', fenceLine: raw.start + 1, closeLine: raw.close + 1 };
  if (info.language !== undefined) {
    block.language = info.language;
  }
  const firstCode = content.findIndex((l) => l.trim() !== '');
  const commented = firstCode >= 0 ? pathComment(content[firstCode]) : undefined;
  if (commented !== undefined) {
    content = content.filter((_, k) => k !== firstCode);
  }
  const before = pathLineBefore(lines, raw.start);
  if (info.filePath !== undefined) {
    block.filePath = info.filePath;
    block.pathSource = 'info';
  } else if (commented !== undefined) {
    block.filePath = commented;
    block.pathSource = 'comment';
  } else if (before !== undefined) {
    block.filePath = before.path;
    block.pathSource = 'line-before';
    block.pathLine = before.index + 1;
  }
  block.code = content.join('\n');
  return block;
}

function isEditFormat(block: CodeBlock): boolean {
  return block.language === 'diff' || block.language === 'patch' || detectEditFormat(block.code) !== undefined;
}

/**
 * The plain code blocks of a text (a chat answer, a Markdown transcript, the clipboard): closed fences
 * of ``` or ~~~ (any length, indented in lists too) that hold code, not an edit format, in order.
 */
export function findCodeBlocks(text: string): CodeBlock[] {
  const lines = text.split(/\r?\n/);
  return scanFences(lines)
    .filter((raw) => raw.close >= 0)
    .map((raw) => toCodeBlock(lines, raw))
    .filter((block) => block.code.trim() !== '' && !isEditFormat(block));
}

/**
 * Reads text given as the code itself (the CLI's --snippet, the tool's `code`): a text that is one
 * fenced block (after an optional path line) loses its fences and info string; any other text is the
 * code as written. Either way a first line `// filepath: ...` is taken as the file it names and
 * dropped. Edit formats and an unclosed fence are refused with a message saying what to do.
 */
export function readSnippetText(text: string): SnippetText {
  const lines = text.split(/\r?\n/);
  let first = lines.findIndex((l) => l.trim() !== '');
  if (first < 0) {
    return { ok: false, message: 'the code is empty' };
  }
  if (!openingFence(lines[first]) && first + 1 < lines.length && asPath(lines[first]) !== undefined) {
    const next = lines.findIndex((l, k) => k > first && l.trim() !== '');
    first = next >= 0 && openingFence(lines[next]) ? next : first;
  }
  if (openingFence(lines[first])) {
    const [raw] = scanFences(lines.slice(first));
    if (raw.close < 0) {
      return { ok: false, message: `the code block opened at line ${first + 1} (${lines[first].trim()}) has no closing fence` };
    }
    const after = lines.findIndex((l, k) => k > first + raw.close && l.trim() !== '');
    if (after >= 0) {
      return {
        ok: false,
        message: `line ${after + 1} follows the code block that ends at line ${first + raw.close + 1}: give one code block, or the code without fences`,
      };
    }
    const block = toCodeBlock(lines, { ...raw, start: first, close: first + raw.close });
    return snippetOf(block.code, block.language, block.filePath, true);
  }
  const codeLines = lines.slice(lines.findIndex((l) => l.trim() !== ''));
  const commented = pathComment(codeLines[0]);
  const code = (commented !== undefined ? codeLines.slice(1) : codeLines).join('\n');
  return snippetOf(code.replace(/\n+$/, ''), undefined, commented, false);
}

function snippetOf(code: string, language: string | undefined, filePath: string | undefined, fenced: boolean): SnippetText {
  if (code.trim() === '') {
    return { ok: false, message: fenced ? 'the code block is empty' : 'the code is empty' };
  }
  const format = detectEditFormat(code);
  if (format !== undefined) {
    const what = format === 'search-replace' ? formatName(format) : `a ${formatName(format)}`;
    return { ok: false, format, message: `the code holds ${what}, not code` };
  }
  const snippet: SnippetText = { ok: true, code, fenced };
  if (language !== undefined) {
    snippet.language = language;
  }
  if (filePath !== undefined) {
    snippet.filePath = filePath;
  }
  return snippet;
}
