// What the merges by key of YAML, TOML and the line formats share: the rules on plain values (maps merged
// key by key, lists with identity merged item by item, other lists replaced), which each merge uses twice:
// to plan its text edits and, after writing them, to audit the re-parsed result against the value the
// rules give. Also the text helpers every minimal edit needs (lines, line endings, applying edits).

import { isPlaceholderLine } from '../formats/placeholders';
import type { ConfigMergeResult, ConfigTextEdit, KeptKeys, KeyChange, KeyPath } from './types';

/** A refusal raised anywhere inside a merge and turned into its 'refused' result at the top. */
export class ConfigRefusal extends Error {
  constructor(
    readonly reason: Extract<ConfigMergeResult, { kind: 'refused' }>['reason'],
    message: string,
    readonly places?: Array<{ path: KeyPath; line: number }>,
  ) {
    super(message);
  }
}

export function refusedResult(error: unknown): ConfigMergeResult {
  if (error instanceof ConfigRefusal) {
    return { kind: 'refused', reason: error.reason, message: error.message, ...(error.places ? { places: error.places } : {}) };
  }
  throw error;
}

export type PlainMap = { [key: string]: unknown };

export const isPlainMap = (value: unknown): value is PlainMap =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** Values equal as data (map key order does not matter; dates by time). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) {
    return true;
  }
  if (a instanceof Date && b instanceof Date) {
    return a.getTime() === b.getTime();
  }
  if (typeof a === 'number' && typeof b === 'number') {
    return Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
  }
  if (isPlainMap(a) && isPlainMap(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  if (typeof a === 'bigint' || typeof b === 'bigint') {
    return String(a) === String(b);
  }
  return false;
}

/** The keys that give a list item its identity, in the order they are tried. */
export const IDENTITY_KEYS = ['name', 'id', 'uses', 'key'] as const;

/** An identity value as compared: a workflow step's `uses` without its `@ref` (the version it pins). */
const identityValue = (key: string, value: unknown): string | undefined =>
  typeof value === 'string' || typeof value === 'number'
    ? key === 'uses'
      ? String(value).replace(/@[^@]*$/, '')
      : String(value)
    : undefined;

/** The identity of a list item: its first identity key with a scalar value. */
export function identityOf(item: unknown): { key: string; value: string } | undefined {
  if (!isPlainMap(item)) {
    return undefined;
  }
  for (const key of IDENTITY_KEYS) {
    const value = identityValue(key, item[key]);
    if (value !== undefined) {
      return { key, value };
    }
  }
  return undefined;
}

/**
 * How a list the snippet shows meets the file's list:
 * - identity: every item the snippet shows has an identity and some item of the file has one; shown items
 *   are matched by it (and merged), new ones added after the preceding shown item (else at the end), the
 *   file's other items kept;
 * - additive: the snippet's list has a placeholder among its items; items are matched by identity, else
 *   by being equal to one of the file's, the others added after the preceding match (else at the end),
 *   nothing removed;
 * - whole: the list shown replaces the file's; the items both have in the same order stay (a longest
 *   common subsequence), the others are removed or inserted in place.
 * `insertAfter` gives, per new snippet item, the file item it follows (-1: before the first).
 */
export interface SequencePlan {
  mode: 'identity' | 'additive' | 'whole';
  /** Snippet item index -> the file item it merges with (identity, additive) or equals (whole). */
  matches: Map<number, number>;
  insertAfter: Map<number, number>;
  removed: Set<number>;
}

export function planSequence(
  fileItems: readonly unknown[],
  snippetItems: readonly unknown[],
  placeholderGaps: ReadonlySet<number> | undefined,
): SequencePlan {
  const hasPlaceholder = placeholderGaps !== undefined && placeholderGaps.size > 0;
  const byIdentity =
    snippetItems.length > 0 &&
    snippetItems.every((item) => identityOf(item) !== undefined) &&
    fileItems.some((item) => identityOf(item) !== undefined);
  if (!byIdentity && !hasPlaceholder) {
    return planWhole(fileItems, snippetItems);
  }
  const matches = new Map<number, number>();
  const used = new Set<number>();
  snippetItems.forEach((item, j) => {
    const identity = identityOf(item);
    const found = identity
      ? fileItems.flatMap((fileItem, i) =>
          isPlainMap(fileItem) && identityValue(identity.key, fileItem[identity.key]) === identity.value ? [i] : [],
        )
      : [];
    if (identity && found.length > 1) {
      throw new ConfigRefusal(
        'ambiguous',
        `the list item with ${identity.key} "${identity.value}" fits ${found.length} items of the file's list (items ${found.map((i) => i + 1).join(', ')})`,
      );
    }
    const i = found.length === 1 ? found[0] : fileItems.findIndex((fileItem, index) => !used.has(index) && sameValue(fileItem, item));
    if (i >= 0 && !used.has(i)) {
      matches.set(j, i);
      used.add(i);
    }
  });
  return {
    mode: byIdentity ? 'identity' : 'additive',
    matches,
    insertAfter: insertionPoints(snippetItems.length, matches, fileItems.length - 1, hasPlaceholder ? placeholderGaps : undefined),
    removed: new Set(),
  };
}

/**
 * Where new items go: after the file item the preceding match is; when a placeholder stands between that
 * match (or the list's start) and the item, after the items it stands for: before the following match,
 * else at the end. Without placeholders, an item no match precedes goes at the end.
 * `gaps` holds g when a placeholder is just before snippet item g (g = count: after the last).
 */
function insertionPoints(
  count: number,
  matches: Map<number, number>,
  last: number,
  gaps: ReadonlySet<number> | undefined,
): Map<number, number> {
  const insertAfter = new Map<number, number>();
  let preceding: number | undefined;
  let precedingIndex = -1;
  for (let j = 0; j < count; j++) {
    const match = matches.get(j);
    if (match !== undefined) {
      preceding = match;
      precedingIndex = j;
      continue;
    }
    if (gaps === undefined) {
      insertAfter.set(j, preceding ?? last);
      continue;
    }
    let placeholderBetween = false;
    for (let g = precedingIndex + 1; g <= j; g++) {
      placeholderBetween ||= gaps.has(g);
    }
    if (!placeholderBetween) {
      insertAfter.set(j, preceding ?? -1);
      continue;
    }
    let following: number | undefined;
    for (let k = j + 1; k < count && following === undefined; k++) {
      following = matches.get(k);
    }
    insertAfter.set(j, following !== undefined ? Math.max(following - 1, preceding ?? -1) : last);
  }
  return insertAfter;
}

function planWhole(fileItems: readonly unknown[], snippetItems: readonly unknown[]): SequencePlan {
  const n = fileItems.length;
  const m = snippetItems.length;
  // Longest common subsequence of equal items, table from the ends.
  const table = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i][j] = sameValue(fileItems[i], snippetItems[j]) ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const matches = new Map<number, number>();
  for (let i = 0, j = 0; i < n && j < m;) {
    if (sameValue(fileItems[i], snippetItems[j]) && table[i][j] === table[i + 1][j + 1] + 1) {
      matches.set(j++, i++);
    } else if (table[i + 1][j] >= table[i][j + 1]) {
      i++;
    } else {
      j++;
    }
  }
  const kept = new Set(matches.values());
  const removed = new Set(fileItems.map((_, i) => i).filter((i) => !kept.has(i)));
  // A new item goes where the items around it are: after the file item the preceding kept item is, or
  // after the removed item in the same place, so a changed item is written where it was.
  const insertAfter = new Map<number, number>();
  let preceding = -1;
  for (let j = 0; j < m; j++) {
    const match = matches.get(j);
    if (match !== undefined) {
      preceding = match;
    } else {
      insertAfter.set(j, preceding);
    }
  }
  return { mode: 'whole', matches, insertAfter, removed };
}

/** The items of a planned list in their merged order. */
export function mergedItems(
  fileItems: readonly unknown[],
  snippetItems: readonly unknown[],
  plan: SequencePlan,
  mergeItem: (fileItem: unknown, snippetItem: unknown, snippetIndex: number) => unknown,
): unknown[] {
  const bySnippet = new Map<number, number>([...plan.matches].map(([j, i]) => [i, j]));
  const inserted = (after: number) => [...plan.insertAfter].filter(([, a]) => a === after).map(([j]) => snippetItems[j]);
  const result: unknown[] = [...inserted(-1)];
  fileItems.forEach((item, i) => {
    if (!plan.removed.has(i)) {
      const j = bySnippet.get(i);
      result.push(j === undefined ? item : mergeItem(item, snippetItems[j], j));
    }
    result.push(...inserted(i));
  });
  return result;
}

/**
 * The rules on plain values: what the file's value becomes when the snippet's is merged into it. Maps:
 * keys shown set (merged when both sides are maps or lists), keys not shown kept. Lists: planSequence.
 * `placeholderGaps(path)`: where the snippet's list at that path (snippet indices) has placeholders.
 */
export function mergeValues(
  fileValue: unknown,
  snippetValue: unknown,
  placeholderGaps: (path: KeyPath) => ReadonlySet<number> | undefined,
  path: KeyPath = [],
): unknown {
  if (isPlainMap(fileValue) && isPlainMap(snippetValue)) {
    const result: PlainMap = { ...fileValue };
    for (const [key, value] of Object.entries(snippetValue)) {
      result[key] = Object.hasOwn(fileValue, key) ? mergeValues(fileValue[key], value, placeholderGaps, [...path, key]) : value;
    }
    return result;
  }
  if (Array.isArray(fileValue) && Array.isArray(snippetValue)) {
    const plan = planSequence(fileValue, snippetValue, placeholderGaps(path));
    return mergedItems(fileValue, snippetValue, plan, (fileItem, snippetItem, j) =>
      plan.mode === 'whole' ? snippetItem : mergeValues(fileItem, snippetItem, placeholderGaps, [...path, j]),
    );
  }
  return snippetValue;
}

/** A placeholder line of a configuration snippet: a comment saying keys are left out, or a bare ellipsis. */
export const isConfigPlaceholder = (line: string): boolean => isPlaceholderLine(line) || /^\s*(?:\.\.\.|\u2026)\s*$/.test(line);

/**
 * The `#` comment lines right above the line at `lineStart` of a snippet (no blank line between), each
 * without its indentation; placeholders are left out and end the run. A key the snippet adds brings them.
 */
export function hashCommentsAbove(text: string, lineStart: number): string[] {
  const found: string[] = [];
  let end = lineStart;
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 2) + 1;
    const line = text
      .slice(start, end)
      .replace(/\r?\n$/, '')
      .trim();
    if (!line.startsWith('#') || isConfigPlaceholder(line)) {
      break;
    }
    found.unshift(line);
    end = start;
  }
  return found;
}

// Text helpers: offsets are UTF-16 code units of the text they are given.

export const eolOf = (text: string): '\n' | '\r\n' => (/\r\n/.test(text) && !/(^|[^\r])\n/.test(text) ? '\r\n' : '\n');

export function lineStartAt(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The offset just after the line that holds `offset` (after its line break), or the text's end. */
export function lineEndAfter(text: string, offset: number): number {
  if (offset > 0 && text[offset - 1] === '\n') {
    return offset;
  }
  const newline = text.indexOf('\n', offset);
  return newline < 0 ? text.length : newline + 1;
}

/** 1-based line of an offset. */
export function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
  }
  return line;
}

/**
 * Applies edits given on the original text: insertions at one offset keep their order and come before a
 * replacement starting there. Also answers where each edit's content starts in the result.
 */
export function applyTextEdits(text: string, edits: readonly ConfigTextEdit[]): { text: string; starts: number[] } {
  const sorted = edits
    .map((edit, order) => ({ edit, order }))
    .sort((a, b) => a.edit.offset - b.edit.offset || Number(a.edit.length > 0) - Number(b.edit.length > 0) || a.order - b.order);
  const starts = new Array<number>(edits.length).fill(0);
  let result = '';
  let at = 0;
  for (const { edit, order } of sorted) {
    if (edit.offset < at) {
      throw new ConfigRefusal('unsupported', 'two changes of the merge overlap; nothing was written');
    }
    result += text.slice(at, edit.offset);
    starts[order] = result.length;
    result += edit.content;
    at = edit.offset + edit.length;
  }
  return { text: result + text.slice(at), starts };
}

/** Where an original offset is after the edits (insertions at that offset are before it). */
export function mapOffset(edits: readonly ConfigTextEdit[], offset: number): number {
  let shift = 0;
  for (const edit of edits) {
    if (edit.offset + edit.length <= offset) {
      shift += edit.content.length - edit.length;
    }
  }
  return offset + shift;
}

/** The text of `lines` with a line ending of the file's style. */
export const withEol = (text: string, eol: string): string => (eol === '\n' ? text : text.replace(/\r?\n/g, eol));

export const pathText = (path: KeyPath): string =>
  path.length === 0 ? '(root)' : path.map((part, i) => (typeof part === 'number' ? `[${part}]` : i === 0 ? part : `.${part}`)).join('');

/** The first key path where two values differ (for an audit's message). */
export function firstDifference(a: unknown, b: unknown, path: KeyPath = []): KeyPath | undefined {
  if (sameValue(a, b)) {
    return undefined;
  }
  if (isPlainMap(a) && isPlainMap(b)) {
    for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const found = firstDifference(a[key], b[key], [...path, key]);
      if (found) {
        return found;
      }
    }
  }
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (let i = 0; i < a.length; i++) {
      const found = firstDifference(a[i], b[i], [...path, i]);
      if (found) {
        return found;
      }
    }
  }
  return path;
}

/** A change found while planning, placed in the merged text once the edits are applied. */
export interface PendingChange {
  path: KeyPath;
  action: KeyChange['action'];
  /** An offset of the original text, or a line inside one edit's content. */
  at: { fileOffset: number } | { edit: number; lineInContent: number };
}

/**
 * Applies the planned edits, audits the result (the check throws a ConfigRefusal with reason 'audit'), and
 * answers the merge's result with each change's line in the merged text.
 */
export function finishMerge(
  fileText: string,
  edits: ConfigTextEdit[],
  changes: readonly PendingChange[],
  kept: KeptKeys[],
  audit: (mergedText: string) => void,
): ConfigMergeResult {
  const { text, starts } = applyTextEdits(fileText, edits);
  audit(text);
  const lineOf = (change: PendingChange) =>
    'fileOffset' in change.at
      ? lineOfOffset(text, mapOffset(edits, change.at.fileOffset))
      : lineOfOffset(text, starts[change.at.edit]) + change.at.lineInContent;
  return {
    kind: 'merged',
    text,
    edits,
    changes: changes.map((change) => ({ path: change.path, action: change.action, line: lineOf(change) })),
    kept: kept.filter((entry) => entry.keys.length > 0),
  };
}
