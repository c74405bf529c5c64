// The JSON merge's writing (json.ts decides what changes): the file's own style (indent unit, tabs, line
// ending, the space after a colon), values rendered in it, and entries inserted into an object or a list
// with the commas fixed, as text edits of the original. A new entry goes on its own line, indented as its
// siblings, after the sibling's trailing comment (`"a": 1, // why`), so no comment changes owner; a new
// entry's own comments (the line above it, the end of its line) come with it in JSON with comments.

import type { Node } from 'jsonc-parser';
import type { ConfigTextEdit } from './types';

export interface JsonStyle {
  /** One level of indentation: a tab, or N spaces. */
  unit: string;
  eol: string;
}

/** The file's indentation unit (tabs when most indented lines start with one, else the smallest space indent) and line ending. */
export function detectStyle(text: string): JsonStyle {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  let tabs = 0;
  let spaced = 0;
  let smallest = Infinity;
  // Each line's indentation, when a non-space character follows it (/\n([ \t]+)\S/g, without a match
  // object per line: a lockfile has 10,000 lines).
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    let end = i + 1;
    while (end < text.length && (text.charCodeAt(end) === 32 || text.charCodeAt(end) === 9)) {
      end++;
    }
    if (end === i + 1 || end >= text.length || /\s/.test(text[end])) {
      continue;
    }
    if (text.charCodeAt(i + 1) === 9) {
      tabs++;
    } else {
      spaced++;
      smallest = Math.min(smallest, end - i - 1);
    }
  }
  if (tabs > spaced) {
    return { unit: '\t', eol };
  }
  return { unit: ' '.repeat(Number.isFinite(smallest) ? Math.min(smallest, 8) : 2), eol };
}

/** The leading whitespace of the line holding `offset`. */
export function lineIndentAt(text: string, offset: number): string {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(start, start + 200))?.[0] ?? '';
}

/** A value as JSON on one line, spaced as people write it (`{ "a": 1, "b": [1, 2] }`). */
export function renderInline(value: unknown): string {
  if (Array.isArray(value)) {
    return value.length === 0 ? '[]' : `[${value.map(renderInline).join(', ')}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>);
    return entries.length === 0 ? '{}' : `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${renderInline(v)}`).join(', ')} }`;
  }
  return JSON.stringify(value);
}

/** A value as JSON over several lines in the file's style, its inner lines indented from `indent` (the line it starts on). */
export function renderValue(value: unknown, style: JsonStyle, indent: string): string {
  const text = JSON.stringify(value, null, style.unit);
  return text.split('\n').join(style.eol + indent);
}

/** Where entries go in a container: after its child `after` (an index), or before its first child (-1). */
export interface Insertion {
  after: number;
  /** Each entry's text: `"key": value` or a list item, already rendered for `indent` (comment lines above it included). */
  entries: string[];
  /** Each entry's comment at the end of its line (`// why`), written after the entry's comma. */
  trailing?: ReadonlyArray<string | undefined>;
}

/** The entries on lines of their own, each after a line break: commas between them (and after the last when `lastComma`), each trailing comment after its comma. */
function entryLines(insertion: Insertion, indent: string, eol: string, lastComma: boolean): string {
  const { entries, trailing } = insertion;
  return entries
    .map((entry, i) => {
      const comma = i < entries.length - 1 || lastComma ? ',' : '';
      const note = trailing?.[i] ? ` ${trailing[i]}` : '';
      return `${eol}${indent}${entry}${comma}${note}`;
    })
    .join('');
}

/** The end of the line of `offset` when the rest of it is only a comma and a comment: where a line of its own goes. */
function endOfQuietLine(text: string, offset: number): { end: number; comma: boolean } | undefined {
  let i = offset;
  const skipBlanks = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t')) {
      i++;
    }
  };
  skipBlanks();
  const comma = text[i] === ',';
  if (comma) {
    i++;
    skipBlanks();
  }
  if (text.startsWith('//', i)) {
    const nl = text.indexOf('\n', i);
    i = nl < 0 ? text.length : nl;
  } else if (text.startsWith('/*', i)) {
    const close = text.indexOf('*/', i + 2);
    if (close < 0 || text.slice(i, close).includes('\n')) {
      return undefined;
    }
    i = close + 2;
    skipBlanks();
  }
  if (i < text.length && text[i] !== '\n' && text[i] !== '\r') {
    return undefined;
  }
  return { end: i, comma };
}

/** Whether the container is written over several lines (its first child below its opening bracket). */
export function isMultiLine(text: string, container: Node): boolean {
  const first = container.children?.[0];
  if (!first) {
    return text.slice(container.offset, container.offset + container.length).includes('\n');
  }
  return text.slice(container.offset, first.offset).includes('\n');
}

/** The indentation of the container's entries: its first child's, else its own line's plus one unit. */
export function childIndent(text: string, container: Node, style: JsonStyle): string {
  const first = container.children?.[0];
  if (first && isMultiLine(text, container)) {
    return lineIndentAt(text, first.offset);
  }
  return lineIndentAt(text, container.offset) + style.unit;
}

/**
 * The edits that insert `insertion.entries` into `container` (an object or array node of `text`), with
 * commas fixed and each entry on a line of its own when the container is written over several lines.
 * `inline` entries (for a one-line container) are given separately, rendered on one line.
 */
export function insertionEdits(
  text: string,
  container: Node,
  insertion: Insertion,
  inlineEntries: string[],
  style: JsonStyle,
): ConfigTextEdit[] {
  const children = container.children ?? [];
  const indent = childIndent(text, container, style);
  const open = container.offset + 1;
  const close = container.offset + container.length - 1;
  if (children.length === 0) {
    const own = lineIndentAt(text, container.offset);
    const body = `${entryLines(insertion, indent, style.eol, false)}${style.eol}${own}`;
    if (text.slice(open, close).trim() !== '') {
      // Only a comment inside: the entries go after it, each on a line.
      return [{ offset: close, length: 0, content: body }];
    }
    return [{ offset: open, length: close - open, content: body }];
  }
  const multi = isMultiLine(text, container);
  if (insertion.after < 0) {
    const line = multi ? endOfQuietLine(text, open) : undefined;
    if (line && !line.comma) {
      return [{ offset: line.end, length: 0, content: entryLines(insertion, indent, style.eol, true) }];
    }
    const gap = text[open] === ' ' ? 1 : 0;
    return [{ offset: open + gap, length: 0, content: `${inlineEntries.join(', ')}, ` }];
  }
  const child = children[insertion.after];
  const valueEnd = child.offset + child.length;
  const line = multi ? endOfQuietLine(text, valueEnd) : undefined;
  if (line) {
    if (line.comma) {
      // A comma follows the sibling (another entry, or a trailing comma kept as the file writes it).
      return [{ offset: line.end, length: 0, content: entryLines(insertion, indent, style.eol, true) }];
    }
    const body = entryLines(insertion, indent, style.eol, false);
    if (line.end === valueEnd) {
      return [{ offset: valueEnd, length: 0, content: `,${body}` }];
    }
    return [
      { offset: valueEnd, length: 0, content: ',' },
      { offset: line.end, length: 0, content: body },
    ];
  }
  return [{ offset: valueEnd, length: 0, content: `, ${inlineEntries.join(', ')}` }];
}

/** Applies non-overlapping edits of the original text (any order). */
export function applyTextEdits(text: string, edits: readonly ConfigTextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.offset - b.offset);
  let out = '';
  let at = 0;
  for (const edit of sorted) {
    if (edit.offset < at) {
      throw new Error(`overlapping edits at offset ${edit.offset}`);
    }
    out += text.slice(at, edit.offset) + edit.content;
    at = edit.offset + edit.length;
  }
  return out + text.slice(at);
}
