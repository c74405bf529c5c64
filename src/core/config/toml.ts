// TOML snippets merged by key (issue 26): Cargo.toml, pyproject.toml and the like. smol-toml parses and
// validates the file and the snippet (and the merged text, for the audit); tomlLines.ts finds where each
// table, key and value is, so the merge writes minimal text edits: a changed value replaced where it is
// (its key, spacing and trailing comment kept), a new key after the key that precedes it in the snippet,
// else in its table's sorted place when the table's keys are sorted (Cargo's [dependencies]), else after
// the table's last key; a new table after the last table that shares its parent ([tool.ruff] after the
// other [tool.*] tables), else at the end. `[[array]]` tables are matched by name, id or key.

import { parse as parseToml, TomlError } from 'smol-toml';
import {
  ConfigRefusal,
  eolOf,
  finishMerge,
  firstDifference,
  hashCommentsAbove,
  isPlainMap,
  lineOfOffset,
  mergeValues,
  pathText,
  type PendingChange,
  refusedResult,
  sameValue,
  withEol,
  identityOf,
} from './keyed';
import { keyPathText, readToml, type TomlEntry, type TomlTable } from './tomlLines';
import type { ConfigMerge, ConfigTextEdit, KeptKeys, KeyPath } from './types';

function parsed(text: string, reason: 'invalid-file' | 'invalid-snippet' | 'audit'): Record<string, unknown> {
  try {
    return parseToml(text) as Record<string, unknown>;
  } catch (error) {
    const what = reason === 'invalid-file' ? 'the file' : reason === 'invalid-snippet' ? 'the snippet' : 'the merged text';
    const message =
      error instanceof TomlError ? `${error.message.split('\n')[0]} at line ${error.line}, column ${error.column}` : String(error);
    throw new ConfigRefusal(reason, `${what} does not parse as TOML: ${message}${reason === 'audit' ? '; nothing was written' : ''}`);
  }
}

export const mergeToml: ConfigMerge = (fileText, snippetText) => {
  try {
    return mergeTomlOrRefuse(fileText, snippetText);
  } catch (error) {
    return refusedResult(error);
  }
};

/** A table of the snippet and the file's table it merges into (undefined: a new table). */
interface Placement {
  shown: TomlTable;
  target: TomlTable | undefined;
  /** The target's path from the root (array tables with their index). */
  path: KeyPath;
  /** Keys under a value the file writes inline (`serde = { version = "1" }`): that entry, rewritten. */
  inline?: { table: TomlTable; entry: TomlEntry };
}

const samePath = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((key, i) => key === b[i]);

function entryValue(text: string, entry: TomlEntry): unknown {
  return (parseToml(`v = ${text.slice(entry.valueStart, entry.valueEnd)}`) as { v: unknown }).v;
}

/** The value of an array table's block as data (for its identity). */
function blockValue(text: string, table: TomlTable): unknown {
  const value: Record<string, unknown> = {};
  for (const entry of table.entries) {
    if (entry.keys.length === 1) {
      value[entry.keys[0]] = entryValue(text, entry);
    }
  }
  return value;
}

function mergeTomlOrRefuse(fileText: string, snippetText: string) {
  const snippet = snippetText.replace(/\r\n?/g, '\n');
  const snippetValue = parsed(snippet, 'invalid-snippet');
  const fileValue = parsed(fileText, 'invalid-file');
  const fileTables = readToml(fileText, 'invalid-file');
  const shownTables = readToml(snippet, 'invalid-snippet').filter((table, i) => i > 0 || table.entries.length > 0);
  if (shownTables.length === 0) {
    throw new ConfigRefusal('invalid-snippet', 'the snippet shows no TOML key');
  }
  const placements = shownTables.flatMap((shown) => {
    const placement = place(fileText, fileTables, shown, snippet, shownTables.length === 1);
    return shown.arrayTable || (shownTables.length === 1 && shown.path.length === 0) ? [placement] : route(fileTables, shown);
  });
  const eol = eolOf(fileText);
  const edits: ConfigTextEdit[] = [];
  const changes: PendingChange[] = [];
  const kept: KeptKeys[] = [];
  // Keys into existing tables first: a new table written at the same place (the end) comes after them.
  const ordered = [...placements.filter((p) => p.target || p.inline), ...placements.filter((p) => !p.target && !p.inline)];
  for (const placement of ordered) {
    if (placement.inline) {
      rewriteInline(fileText, placement.inline, snippetValue, placement.path, { edits, changes, kept });
    } else if (placement.target) {
      mergeTable(fileText, snippet, placement.target, placement.shown, placement.path, eol, { edits, changes, kept });
    } else {
      addTable(fileText, snippet, fileTables, placement.shown, eol, { edits, changes, kept });
    }
  }
  return finishMerge(fileText, edits, changes, kept, (merged) => {
    const after = parsed(merged, 'audit');
    const expected = expectedValue(fileValue, snippetValue, placements);
    const difference = firstDifference(expected, after);
    if (difference) {
      throw new ConfigRefusal(
        'audit',
        `the merged TOML would change ${pathText(difference)} other than the rules say; nothing was written`,
      );
    }
  });
}

/** The rules' value: the file's, with each snippet table's keys merged where it was placed. */
function expectedValue(fileValue: unknown, snippetValue: Record<string, unknown>, placements: Placement[]): unknown {
  const bare = placements.length === 1 && placements[0].shown.path.length === 0 && placements[0].path.length > 0;
  if (!bare) {
    return mergeValues(fileValue, snippetValue, () => undefined);
  }
  const at = placements[0].path;
  const replace = (value: unknown, depth: number): unknown => {
    if (depth === at.length) {
      return mergeValues(value, snippetValue, () => undefined);
    }
    const key = at[depth];
    if (Array.isArray(value) && typeof key === 'number') {
      return value.map((item, i) => (i === key ? replace(item, depth + 1) : item));
    }
    return isPlainMap(value) ? { ...value, [key]: replace(value[key], depth + 1) } : value;
  };
  return replace(fileValue, 0);
}

/** The file's table a snippet table merges into. */
function place(fileText: string, fileTables: TomlTable[], shown: TomlTable, snippet: string, alone: boolean): Placement {
  if (shown.arrayTable) {
    const blocks = fileTables.filter((table) => table.arrayTable && samePath(table.path, shown.path));
    const identity = identityOf(blockValue(snippet, shown));
    const matching = identity ? blocks.filter((block) => sameValue(identityOf(blockValue(fileText, block)), identity)) : [];
    if (matching.length > 1) {
      throw new ConfigRefusal(
        'ambiguous',
        `[[${keyPathText(shown.path)}]] with ${identity!.key} "${identity!.value}" fits ${matching.length} tables of the file`,
      );
    }
    return { shown, target: matching[0], path: matching[0] ? [...shown.path, blocks.indexOf(matching[0])] : shown.path };
  }
  const same = fileTables.find((table) => !table.arrayTable && samePath(table.path, shown.path));
  if (shown.path.length > 0 || !alone) {
    return { shown, target: same, path: shown.path };
  }
  // A snippet without a header: the root when it has one of the keys (or keys of its own), else the one
  // table that has them.
  const keys = shown.entries.map((entry) => keyPathText(entry.keys));
  const held = (table: TomlTable) => keys.filter((key) => table.entries.some((entry) => keyPathText(entry.keys) === key)).length;
  const counts = fileTables.map(held);
  const best = Math.max(...counts);
  if (counts[0] === best && (best > 0 || fileTables[0].entries.length > 0 || fileTables.length === 1)) {
    return { shown, target: fileTables[0], path: [] };
  }
  const fits = fileTables.filter((_, i) => counts[i] === best && best > 0);
  if (fits.length === 1) {
    const blocks = fileTables.filter((table) => table.arrayTable && samePath(table.path, fits[0].path));
    return { shown, target: fits[0], path: fits[0].arrayTable ? [...fits[0].path, blocks.indexOf(fits[0])] : fits[0].path };
  }
  const places = fits.map((table) => ({ path: table.path as KeyPath, line: lineOfOffset(fileText, table.headerStart) }));
  throw new ConfigRefusal(
    'ambiguous',
    fits.length > 1
      ? `the key "${keys[0]}" fits ${fits.length} tables: ${fits.map((t) => `[${keyPathText(t.path)}] (line ${lineOfOffset(fileText, t.headerStart)})`).join(', ')}; show the table header to say which`
      : 'the snippet has no [table] header and its keys are in no table of the file: show the table header (e.g. [dependencies]) to say which',
    places,
  );
}

const isPrefix = (prefix: readonly string[], path: readonly string[]) =>
  prefix.length <= path.length && prefix.every((key, i) => key === path[i]);

/**
 * A snippet table's keys sent where the file has them: a key the file has under another table (a dotted
 * key against a [table.header], or the reverse) is set there; a new key goes to the deepest table of the
 * file its path is under (not above the snippet's own table); keys left go to a new table.
 */
function route(fileTables: TomlTable[], shown: TomlTable): Placement[] {
  const tables = fileTables.filter((table) => !table.arrayTable);
  const groups = new Map<TomlTable | undefined, ShownEntry[]>();
  const inline = new Map<TomlEntry, Placement>();
  for (const entry of shown.entries) {
    const full = [...shown.path, ...entry.keys];
    const holder = tables
      .flatMap((table) => table.entries.map((e) => ({ table, entry: e, path: [...table.path, ...e.keys] })))
      .find((candidate) => candidate.path.length < full.length && isPrefix(candidate.path, full));
    if (holder) {
      inline.set(holder.entry, { shown, target: undefined, path: holder.path, inline: { table: holder.table, entry: holder.entry } });
      continue;
    }
    let target = tables.find(
      (table) => isPrefix(table.path, full) && table.entries.some((e) => samePath([...table.path, ...e.keys], full)),
    );
    target ??= tables
      .filter((table) => isPrefix(table.path, full) && table.path.length >= shown.path.length && table.path.length < full.length)
      .sort((a, b) => b.path.length - a.path.length)[0];
    const keys = target ? full.slice(target.path.length) : entry.keys;
    groups.set(target, [...(groups.get(target) ?? []), { ...entry, keys, rekeyed: !samePath(keys, entry.keys) }]);
  }
  return [
    ...[...groups].map(([target, entries]) => ({ shown: { ...shown, entries }, target, path: target ? target.path : shown.path })),
    ...inline.values(),
  ];
}

interface Output {
  edits: ConfigTextEdit[];
  changes: PendingChange[];
  kept: KeptKeys[];
}

function insertAt(fileText: string, out: Output, offset: number, lines: string, eol: string): number {
  const atEndWithoutBreak = offset === fileText.length && fileText.length > 0 && !fileText.endsWith('\n');
  out.edits.push({ offset, length: 0, content: atEndWithoutBreak ? eol + lines : lines + eol });
  return out.edits.length - 1;
}

type ShownEntry = TomlEntry & { rekeyed?: boolean };

/** A snippet entry's line as written (its key written again when it was moved to another table). */
const entryText = (snippet: string, entry: ShownEntry) =>
  entry.rekeyed
    ? `${keyPathText(entry.keys)} = ${snippet.slice(entry.valueStart, entry.valueEnd)}`
    : snippet.slice(entry.lineStart, entry.end).replace(/\n$/, '').trimStart();

/** Whether a table's keys are in ascending order (three or more: two may be so by chance). */
function sortedKeys(table: TomlTable): boolean {
  const names = table.entries.map((entry) => keyPathText(entry.keys).toLowerCase());
  return names.length >= 3 && names.every((name, i) => i === 0 || names[i - 1] <= name);
}

function mergeTable(fileText: string, snippet: string, target: TomlTable, shown: TomlTable, path: KeyPath, eol: string, out: Output): void {
  const shownKeys = new Set(shown.entries.map((entry) => keyPathText(entry.keys)));
  out.kept.push({ path, keys: target.entries.map((entry) => keyPathText(entry.keys)).filter((key) => !shownKeys.has(key)) });
  const sorted = sortedKeys(target);
  const indent = target.entries.length > 0 ? /^[ \t]*/.exec(fileText.slice(target.entries[0].lineStart))![0] : '';
  const tableEnd = target.entries.length > 0 ? target.entries[target.entries.length - 1].end : target.bodyStart;
  let anchor: TomlEntry | undefined;
  for (const entry of shown.entries) {
    const name = keyPathText(entry.keys);
    const keyPath = [...path, ...entry.keys];
    const existing = target.entries.find((candidate) => keyPathText(candidate.keys) === name);
    if (existing) {
      if (sameValue(entryValue(fileText, existing), entryValue(snippet, entry))) {
        out.changes.push({ path: keyPath, action: 'unchanged', at: { fileOffset: existing.lineStart } });
      } else {
        const content = withEol(snippet.slice(entry.valueStart, entry.valueEnd), eol);
        out.edits.push({ offset: existing.valueStart, length: existing.valueEnd - existing.valueStart, content });
        out.changes.push({ path: keyPath, action: 'set', at: { fileOffset: existing.lineStart } });
      }
      anchor = existing;
      continue;
    }
    let offset = anchor ? anchor.end : tableEnd;
    if (sorted) {
      const next = target.entries.find((candidate) => keyPathText(candidate.keys).toLowerCase() > name.toLowerCase());
      offset = next ? next.lineStart : tableEnd;
    }
    const lines = [...hashCommentsAbove(snippet, entry.lineStart), entryText(snippet, entry)].map((line) => indent + line);
    const edit = insertAt(fileText, out, offset, withEol(lines.join('\n'), eol), eol);
    const leadingBreak = out.edits[edit].content.startsWith(eol) && offset === fileText.length ? 1 : 0;
    out.changes.push({ path: keyPath, action: 'added', at: { edit, lineInContent: leadingBreak + lines.length - 1 } });
  }
}

/** A table the file does not have: after the last table sharing its parent path, else at the end. */
function addTable(fileText: string, snippet: string, fileTables: TomlTable[], shown: TomlTable, eol: string, out: Output): void {
  let offset = fileText.length;
  for (let depth = shown.path.length - 1; depth >= 1 && offset === fileText.length; depth--) {
    const prefix = shown.path.slice(0, depth);
    const related = fileTables.filter((table) => table.path.length >= depth && samePath(table.path.slice(0, depth), prefix));
    if (related.length > 0) {
      const last = related[related.length - 1];
      const index = fileTables.indexOf(last);
      offset = index + 1 < fileTables.length ? fileTables[index + 1].headerStart : fileText.length;
    }
  }
  if (shown.arrayTable) {
    const blocks = fileTables.filter((table) => table.arrayTable && samePath(table.path, shown.path));
    if (blocks.length > 0) {
      const index = fileTables.indexOf(blocks[blocks.length - 1]);
      offset = index + 1 < fileTables.length ? fileTables[index + 1].headerStart : fileText.length;
    }
  }
  const header = `${shown.arrayTable ? '[[' : '['}${keyPathText(shown.path)}${shown.arrayTable ? ']]' : ']'}`;
  // The snippet's own comments above the header and above each key come along.
  const lines = [...(shown.headerStart >= 0 ? hashCommentsAbove(snippet, shown.headerStart) : []), header];
  const entryLines = shown.entries.map((entry) => {
    lines.push(...hashCommentsAbove(snippet, entry.lineStart), entryText(snippet, entry));
    return lines.length - 1;
  });
  const body = lines.join('\n');
  const atEnd = offset === fileText.length;
  const before = atEnd ? (fileText.trim() === '' ? '' : fileText.endsWith('\n\n') ? '' : fileText.endsWith('\n') ? eol : eol + eol) : '';
  out.edits.push({ offset, length: 0, content: before + withEol(body, eol) + eol + (atEnd ? '' : eol) });
  const edit = out.edits.length - 1;
  const lead = before.split(eol).length - 1;
  shown.entries.forEach((entry, i) =>
    out.changes.push({ path: [...shown.path, ...entry.keys], action: 'added', at: { edit, lineInContent: lead + entryLines[i] } }),
  );
}

/** A value written inline (TOML's inline table and array syntax). */
function inlineText(value: unknown): string {
  if (Array.isArray(value)) {
    return `[${value.map(inlineText).join(', ')}]`;
  }
  if (value instanceof Date) {
    return (value as Date & { toISOString(): string }).toISOString();
  }
  if (isPlainMap(value)) {
    return `{ ${Object.entries(value)
      .map(([key, item]) => `${keyPathText([key])} = ${inlineText(item)}`)
      .join(', ')} }`;
  }
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/** Keys the snippet shows under a value the file writes inline: the value merged and written inline again. */
function rewriteInline(fileText: string, inline: { entry: TomlEntry }, snippetValue: unknown, path: KeyPath, out: Output): void {
  const { entry } = inline;
  const before = entryValue(fileText, entry);
  const shown = path.reduce<unknown>((value, key) => (isPlainMap(value) ? value[key] : undefined), snippetValue);
  const merged = mergeValues(before, shown, () => undefined);
  if (sameValue(before, merged)) {
    out.changes.push({ path, action: 'unchanged', at: { fileOffset: entry.lineStart } });
    return;
  }
  out.edits.push({ offset: entry.valueStart, length: entry.valueEnd - entry.valueStart, content: inlineText(merged) });
  out.changes.push({ path, action: 'set', at: { fileOffset: entry.lineStart } });
}
