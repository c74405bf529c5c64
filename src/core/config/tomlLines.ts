// A line-oriented reader of TOML text for minimal edits: its tables ([a.b] and [[a.b]] headers), and in
// each, its key = value entries with where the key and the value are (a value may run over several lines:
// multi-line strings, arrays, inline tables). Values are not interpreted here: smol-toml parses them.

import { ConfigRefusal } from './keyed';

export interface TomlEntry {
  /** The key path inside its table (a dotted key has several parts). */
  keys: string[];
  lineStart: number;
  valueStart: number;
  valueEnd: number;
  /** After the entry's last line and its line break. */
  end: number;
}

export interface TomlTable {
  /** [] for the keys before the first header. */
  path: string[];
  arrayTable: boolean;
  headerStart: number;
  /** After the header line (or 0 for the root). */
  bodyStart: number;
  entries: TomlEntry[];
}

/** Reads one key (bare, "basic" or 'literal') at `at`; answers the key and where it ends. */
function readKey(text: string, at: number, where: () => string): { key: string; end: number } {
  const ch = text[at];
  if (ch === '"') {
    const match = /^"((?:[^"\\\n]|\\.)*)"/.exec(text.slice(at));
    if (match) {
      return {
        key: JSON.parse(
          `"${match[1].replace(/\\U([0-9a-fA-F]{8})/g, (_, hex: string) => String.fromCodePoint(parseInt(hex, 16)))}"`,
        ) as string,
        end: at + match[0].length,
      };
    }
  } else if (ch === "'") {
    const close = text.indexOf("'", at + 1);
    if (close > at && !text.slice(at, close).includes('\n')) {
      return { key: text.slice(at + 1, close), end: close + 1 };
    }
  } else {
    const match = /^[A-Za-z0-9_-]+/.exec(text.slice(at));
    if (match) {
      return { key: match[0], end: at + match[0].length };
    }
  }
  throw new ConfigRefusal('invalid-file', `no TOML key at ${where()}`);
}

/** A dotted key from `at` (spaces around the dots allowed); answers its parts and where it ends. */
function readDottedKey(text: string, at: number, where: () => string): { keys: string[]; end: number } {
  const keys: string[] = [];
  let position = at;
  for (;;) {
    const { key, end } = readKey(text, position, where);
    keys.push(key);
    const dot = /^[ \t]*\.[ \t]*/.exec(text.slice(end));
    if (!dot) {
      return { keys, end };
    }
    position = end + dot[0].length;
  }
}

/** Where a TOML value starting at `at` ends (after its last character). */
export function valueEndAt(text: string, at: number): number {
  const rest = text.slice(at);
  for (const quote of ['"""', "'''"]) {
    if (rest.startsWith(quote)) {
      let close = text.indexOf(quote, at + 3);
      if (quote === '"""') {
        while (close > 0 && /(^|[^\\])(\\\\)*\\$/.test(text.slice(at + 3, close))) {
          close = text.indexOf(quote, close + 1);
        }
      }
      if (close < 0) {
        return text.length;
      }
      let end = close + 3;
      while (text[end] === quote[0] && end < close + 5) {
        end++;
      }
      return end;
    }
  }
  if (rest[0] === '"') {
    const match = /^"(?:[^"\\\n]|\\.)*"/.exec(rest);
    return at + (match ? match[0].length : rest.indexOf('\n') < 0 ? rest.length : rest.indexOf('\n'));
  }
  if (rest[0] === "'") {
    const close = text.indexOf("'", at + 1);
    return close < 0 ? text.length : close + 1;
  }
  if (rest[0] === '[' || rest[0] === '{') {
    return bracketEnd(text, at);
  }
  const match = /^[^\s#,\]}]+(?:[ ][0-9:.+\-Z]+)?/.exec(rest);
  return at + (match ? match[0].length : 0);
}

/** The end of an array or inline table: brackets counted outside strings and comments. */
function bracketEnd(text: string, at: number): number {
  let depth = 0;
  let i = at;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '"' || ch === "'") {
      i = valueEndAt(text, i);
      continue;
    }
    if (ch === '#') {
      const newline = text.indexOf('\n', i);
      i = newline < 0 ? text.length : newline;
      continue;
    }
    if (ch === '[' || ch === '{') {
      depth++;
    } else if (ch === ']' || ch === '}') {
      depth--;
      if (depth === 0) {
        return i + 1;
      }
    }
    i++;
  }
  return text.length;
}

const lineEnd = (text: string, at: number) => {
  const newline = text.indexOf('\n', at);
  return newline < 0 ? text.length : newline + 1;
};

/** Reads TOML text into its tables and entries (throws a ConfigRefusal of `reason` on what it cannot read). */
export function readToml(text: string, reason: 'invalid-file' | 'invalid-snippet'): TomlTable[] {
  const tables: TomlTable[] = [{ path: [], arrayTable: false, headerStart: -1, bodyStart: 0, entries: [] }];
  let offset = 0;
  const lineNumber = (at: number) => text.slice(0, at).split('\n').length;
  try {
    while (offset < text.length) {
      const end = lineEnd(text, offset);
      const line = text.slice(offset, end);
      const indent = line.length - line.trimStart().length;
      const trimmed = line.trim();
      const at = offset + indent;
      const where = () => `line ${lineNumber(at)}`;
      if (trimmed === '' || trimmed.startsWith('#')) {
        offset = end;
        continue;
      }
      if (trimmed.startsWith('[')) {
        const arrayTable = trimmed.startsWith('[[');
        const start = at + (arrayTable ? 2 : 1);
        const space = /^[ \t]*/.exec(text.slice(start))![0].length;
        const { keys, end: keyEnd } = readDottedKey(text, start + space, where);
        const close = /^[ \t]*\]\]?/.exec(text.slice(keyEnd));
        if (!close) {
          throw new ConfigRefusal(reason, `a TOML table header does not close at ${where()}`);
        }
        tables.push({ path: keys, arrayTable, headerStart: offset, bodyStart: end, entries: [] });
        offset = end;
        continue;
      }
      const { keys, end: keyEnd } = readDottedKey(text, at, where);
      const equals = /^[ \t]*=[ \t]*/.exec(text.slice(keyEnd));
      if (!equals) {
        throw new ConfigRefusal(reason, `a TOML key has no "=" at ${where()}`);
      }
      const valueStart = keyEnd + equals[0].length;
      const valueEnd = valueEndAt(text, valueStart);
      tables[tables.length - 1].entries.push({ keys, lineStart: offset, valueStart, valueEnd, end: lineEnd(text, valueEnd) });
      offset = lineEnd(text, valueEnd);
    }
  } catch (error) {
    if (error instanceof ConfigRefusal) {
      throw new ConfigRefusal(reason, error.message);
    }
    throw error;
  }
  return tables;
}

const BARE = /^[A-Za-z0-9_-]+$/;
export const keyPathText = (keys: readonly string[]): string => keys.map((key) => (BARE.test(key) ? key : JSON.stringify(key))).join('.');
