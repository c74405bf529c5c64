// JSON and JSON with comments merged by key (issue 26). The file and the snippet are read by jsonc-parser
// (the parser VS Code edits settings.json with); the snippet may be a whole object, or a fragment of
// key-value lines without the outer braces (`"lint": "eslint ."`, `"scripts": { ... },`), with comments
// such as `// ... existing ...` standing for what it leaves out. The rules (README, "Configuration files"):
// - keys the snippet shows are set: a changed value replaced in place (its trailing comment kept); a new
//   key after the key that precedes it in the snippet (else before the one that follows it, else at the
//   end), indented as its siblings, commas fixed; in a sorted object (dependencies) at its sorted place;
// - keys the snippet does not show are kept and listed per object;
// - nothing is removed: no key disappears through a snippet (JSON's null is a value, and an object shown
//   with fewer keys is shown in part); a removal is a SEARCH/REPLACE block's job;
// - a list shown whole (no placeholder comment inside) replaces the list, unless its items carry an
//   identity (name, id, key, uses): those are matched by it and merged, new ones added at the end, the
//   file's other items kept; a list with a placeholder comment adds the items it shows that are missing;
// - a snippet whose top-level keys are not at the file's top level goes where they are, if that is one
//   object; when several objects fit as well, it is refused naming them;
// - the result is parsed again and refused if it does not parse, a key not shown changed, or a key
//   shown does not hold the snippet's value.

import { lastStartAtOrBefore } from '../match/lines';
import { getNodeValue, type Node, parseTree, type ParseError, printParseErrorCode, visit } from 'jsonc-parser';
import { formatKeyPath } from '../report/configMessage';
import {
  applyTextEdits,
  childIndent,
  detectStyle,
  type JsonStyle,
  insertionEdits,
  lineIndentAt,
  renderInline,
  renderValue,
} from './jsonText';
import type { ConfigMerge, ConfigMergeResult, ConfigTextEdit, KeptKeys, KeyChange, KeyPath } from './types';

const PARSE_OPTIONS = { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true };

/** Keys whose value names a list item (a launch configuration, a workflow step, a keybinding). */
const IDENTITY_KEYS = ['name', 'id', 'key', 'uses'];

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

interface Snippet {
  root: Node;
  text: string;
  /** Offsets (in `text`) of comments that stand for content left out (`// ... existing ...`). */
  placeholders: number[];
}

const isPlaceholderComment = (comment: string): boolean => /\.\.\.|\u2026/.test(comment);

/** A comment line of its own: `// why` or a one-line block comment. */
const COMMENT_LINE = /^[ \t]*(\/\/.*|\/\*(?:(?!\*\/).)*\*\/)[ \t]*$/;
/** A comment at the end of an entry's line, after its comma. */
const END_COMMENT = /^[ \t]*,?[ \t]*(\/\/[^\r\n]*|\/\*(?:(?!\*\/)[^\r\n])*\*\/)[ \t]*(?:\r?\n|$)/;

/** The comment lines right above an entry of the snippet (no blank line between), placeholders left out. */
function commentsAbove(text: string, entry: Node): string[] {
  const lineStart = text.lastIndexOf('\n', entry.offset - 1) + 1;
  if (text.slice(lineStart, entry.offset).trim() !== '') {
    return [];
  }
  const lines = text.slice(0, lineStart).split('\n');
  lines.pop();
  const found: string[] = [];
  for (let i = lines.length - 1; i >= 0; i--) {
    const comment = COMMENT_LINE.exec(lines[i].replace(/\r$/, ''))?.[1];
    if (comment === undefined || isPlaceholderComment(comment)) {
      break;
    }
    found.unshift(comment.trimEnd());
  }
  return found;
}

/** The comment at the end of an entry's line in the snippet (`"a": 1, // why`), unless a placeholder. */
function commentAfter(text: string, entry: Node): string | undefined {
  const comment = END_COMMENT.exec(text.slice(entry.offset + entry.length))?.[1]?.trimEnd();
  return comment && !isPlaceholderComment(comment) ? comment : undefined;
}

function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  return { line, column: offset - (before.lastIndexOf('\n') + 1) + 1 };
}

function parseProblem(text: string, errors: readonly ParseError[], lineShift = 0): string {
  const [first] = errors;
  const at = lineColumn(text, first.offset);
  return `${printParseErrorCode(first.error)} at line ${at.line + lineShift}, column ${at.column}`;
}

function placeholderComments(text: string): number[] {
  const found: number[] = [];
  visit(text, {
    onComment: (offset, length) => {
      if (isPlaceholderComment(text.slice(offset, offset + length))) {
        found.push(offset);
      }
    },
  });
  return found;
}

/** The snippet as a whole value, else as key-value lines inside braces; or why it reads as neither. */
function readSnippet(code: string, formatName: string): Snippet | string {
  const text = code
    .replace(/^\uFEFF/, '')
    .replace(/,\s*$/, '')
    .trimEnd();
  const errors: ParseError[] = [];
  const root = parseTree(text, errors, PARSE_OPTIONS);
  if (root && errors.length === 0) {
    return { root, text, placeholders: placeholderComments(text) };
  }
  const wrapped = `{\n${text}\n}`;
  const wrappedErrors: ParseError[] = [];
  const inner = parseTree(wrapped, wrappedErrors, PARSE_OPTIONS);
  if (inner && inner.type === 'object' && wrappedErrors.length === 0) {
    return { root: inner, text: wrapped, placeholders: placeholderComments(wrapped) };
  }
  if (!root && errors.length === 0) {
    return 'the snippet holds no JSON value';
  }
  const whole = /^\s*[[{]/.test(text);
  const problem = whole ? parseProblem(text, errors) : parseProblem(wrapped, wrappedErrors, -1);
  return `the snippet does not parse as ${formatName}, whole or as key-value lines (${problem} of the snippet)`;
}

function isObject(value: Json | undefined): value is { [key: string]: Json } {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function deepEqual(a: Json | undefined, b: Json | undefined): boolean {
  if (a === b) {
    return true;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    return a.length === b.length && a.every((v, i) => deepEqual(v, b[i]));
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && deepEqual(a[k], b[k]));
  }
  return false;
}

const keyOf = (path: KeyPath): string => JSON.stringify(path);

const propertyKey = (prop: Node): string => String(prop.children?.[0]?.value ?? '');

/**
 * Keys in the order `a.localeCompare(b, 'en')` gives them: that call makes a collator each time (a sorted
 * object of 2,000 lockfile entries made 4,000), this one is made once.
 */
const compareKeys = new Intl.Collator('en').compare;

/** An object kept in sorted order: its keys are sorted, and there are enough of them to say so (or it holds dependencies). */
function isSortedKeys(keys: readonly string[], path: KeyPath): boolean {
  const enough = keys.length >= 3 || (keys.length === 2 && /dependencies$/i.test(String(path[path.length - 1] ?? '')));
  return enough && keys.every((k, i) => i === 0 || compareKeys(keys[i - 1], k) < 0);
}

/** One merge: the file's text and tree, the snippet's, and what the merge did so far. */
class JsonMerge {
  readonly edits: ConfigTextEdit[] = [];
  readonly changes: Array<Omit<KeyChange, 'line'>> = [];
  readonly kept: KeptKeys[] = [];
  /** Paths whose whole value the merge wrote (the audit does not compare below them). */
  readonly written = new Set<string>();
  /** The value each path written must hold after the merge. */
  readonly expected: Array<{ path: KeyPath; value: Json }> = [];

  private madeStyle?: JsonStyle;

  constructor(
    readonly text: string,
    readonly snippet: Snippet,
    /** JSON with comments: a new key's own comments in the snippet are written with it. */
    readonly writesComments: boolean,
  ) {}

  /** The file's indentation and line ends, read when a merge first writes more than a snippet's scalar (a scan of the whole file). */
  get style(): JsonStyle {
    return (this.madeStyle ??= detectStyle(this.text));
  }

  private snippetRaw(node: Node): string {
    return this.snippet.text.slice(node.offset, node.offset + node.length);
  }

  /** A value of the snippet as the file writes it, for a line starting with `indent`. */
  private render(node: Node, indent: string): string {
    if (node.type !== 'object' && node.type !== 'array') {
      return this.snippetRaw(node);
    }
    return renderValue(getNodeValue(node) as Json, this.style, indent);
  }

  private wrote(path: KeyPath, action: 'set' | 'added', value: Json): void {
    this.changes.push({ path, action });
    this.written.add(keyOf(path));
    this.expected.push({ path, value });
  }

  mergeValue(fileNode: Node, snipNode: Node, path: KeyPath): void {
    if (fileNode.type === 'object' && snipNode.type === 'object') {
      this.mergeObject(fileNode, snipNode, path);
      return;
    }
    if (fileNode.type === 'array' && snipNode.type === 'array') {
      this.mergeArray(fileNode, snipNode, path);
      return;
    }
    const value = getNodeValue(snipNode) as Json;
    if (deepEqual(getNodeValue(fileNode) as Json, value)) {
      this.changes.push({ path, action: 'unchanged' });
      return;
    }
    this.replaceValue(fileNode, value, snipNode, path);
  }

  private replaceValue(fileNode: Node, value: Json, snipNode: Node | undefined, path: KeyPath): void {
    const old = this.text.slice(fileNode.offset, fileNode.offset + fileNode.length);
    const container = value !== null && typeof value === 'object';
    let content: string;
    if (!container && snipNode) {
      content = this.snippetRaw(snipNode);
    } else if (container && !old.includes('\n') && /^[[{]./.test(old) && !/^(\{\s*\}|\[\s*\])$/.test(old)) {
      content = renderInline(value); // a one-line list or object stays on one line
    } else {
      content = renderValue(value, this.style, lineIndentAt(this.text, fileNode.offset));
    }
    this.edits.push({ offset: fileNode.offset, length: fileNode.length, content });
    this.wrote(path, 'set', value);
  }

  mergeObject(fileObj: Node, snipObj: Node, path: KeyPath): void {
    const fileProps = fileObj.children ?? [];
    const fileKeys = fileProps.map(propertyKey);
    const indexOf = new Map<string, number>();
    fileKeys.forEach((k, i) => indexOf.set(k, i));
    const sorted = isSortedKeys(fileKeys, path);
    const snipProps = (snipObj.children ?? []).filter((p) => p.children?.[1] !== undefined);
    const shown = new Set<string>();
    const groups = new Map<number, Array<{ key: string; node: Node; prop: Node }>>();
    let lastAnchor: number | undefined;
    snipProps.forEach((prop, i) => {
      const key = propertyKey(prop);
      const valueNode = prop.children?.[1] as Node;
      shown.add(key);
      const at = indexOf.get(key);
      if (at !== undefined) {
        this.mergeValue(fileProps[at].children?.[1] as Node, valueNode, [...path, key]);
        lastAnchor = at;
        return;
      }
      let anchor: number;
      if (sorted) {
        anchor = fileKeys.filter((k) => compareKeys(k, key) < 0).length - 1;
      } else {
        const following = snipProps.slice(i + 1).find((p) => indexOf.has(propertyKey(p)));
        anchor = lastAnchor ?? (following ? (indexOf.get(propertyKey(following)) as number) - 1 : fileProps.length - 1);
        lastAnchor = anchor;
      }
      const group = groups.get(anchor) ?? [];
      group.push({ key, node: valueNode, prop });
      groups.set(anchor, group);
      this.wrote([...path, key], 'added', getNodeValue(valueNode) as Json);
    });
    const keptKeys = fileKeys.filter((k) => !shown.has(k));
    if (keptKeys.length > 0) {
      this.kept.push({ path, keys: [...new Set(keptKeys)] });
    }
    const indent = childIndent(this.text, fileObj, this.style);
    for (const [after, group] of groups) {
      if (sorted) {
        group.sort((a, b) => compareKeys(a.key, b.key));
      }
      const above = (g: { prop: Node }) =>
        this.writesComments ? commentsAbove(this.snippet.text, g.prop).map((c) => `${c}${this.style.eol}${indent}`) : [];
      const entries = group.map((g) => `${above(g).join('')}${JSON.stringify(g.key)}: ${this.render(g.node, indent)}`);
      const trailing = group.map((g) => (this.writesComments ? commentAfter(this.snippet.text, g.prop) : undefined));
      const inline = group.map((g) => `${JSON.stringify(g.key)}: ${renderInline(getNodeValue(g.node) as Json)}`);
      this.edits.push(...insertionEdits(this.text, fileObj, { after, entries, trailing }, inline, this.style));
    }
  }

  /** Whether a placeholder comment stands between the list's items (not inside one of them). */
  private hasPlaceholder(list: Node): boolean {
    const items = list.children ?? [];
    return this.snippet.placeholders.some(
      (o) => o > list.offset && o < list.offset + list.length && !items.some((it) => o >= it.offset && o < it.offset + it.length),
    );
  }

  mergeArray(fileArr: Node, snipArr: Node, path: KeyPath): void {
    const fileItems = fileArr.children ?? [];
    const snipItems = snipArr.children ?? [];
    const fileValues = fileItems.map((n) => getNodeValue(n) as Json);
    const snipValues = snipItems.map((n) => getNodeValue(n) as Json);
    const partial = this.hasPlaceholder(snipArr);
    const idKey = IDENTITY_KEYS.find(
      (k) =>
        snipValues.length > 0 &&
        snipValues.every((v) => isObject(v) && (typeof v[k] === 'string' || typeof v[k] === 'number')) &&
        fileValues.some((v) => isObject(v) && v[k] !== undefined),
    );
    const used = new Set<number>();
    const match = snipValues.map((v) => {
      const j = fileValues.findIndex((f, j) =>
        used.has(j) ? false : idKey ? isObject(f) && isObject(v) && f[idKey] === v[idKey] : deepEqual(f, v),
      );
      if (j >= 0) {
        used.add(j);
      }
      return j >= 0 ? j : undefined;
    });
    if (!partial && !idKey) {
      // A list shown whole is the list: the file's items in order with new ones after them are added in
      // place; any other difference writes the list as shown.
      const appendsOnly =
        match.slice(0, fileItems.length).every((j, i) => j === i) && match.slice(fileItems.length).every((j) => j === undefined);
      if (!appendsOnly || snipItems.length < fileItems.length) {
        if (!deepEqual(fileValues, snipValues)) {
          this.replaceValue(fileArr, snipValues, undefined, path);
        } else {
          this.changes.push({ path, action: 'unchanged' });
        }
        return;
      }
    }
    snipItems.forEach((item, i) => {
      const j = match[i];
      if (j !== undefined && idKey) {
        this.mergeValue(fileItems[j], item, [...path, j]);
      } else if (j !== undefined) {
        this.changes.push({ path: [...path, j], action: 'unchanged' });
      }
    });
    if (idKey) {
      const keptItems = fileValues.flatMap((v, j) =>
        used.has(j) ? [] : [`[${j}] (${idKey} ${JSON.stringify(isObject(v) ? v[idKey] : v)})`],
      );
      if (keptItems.length > 0) {
        this.kept.push({ path, keys: keptItems });
      }
    }
    const added = snipItems.filter((_, i) => match[i] === undefined);
    if (added.length === 0) {
      return;
    }
    const indent = childIndent(this.text, fileArr, this.style);
    added.forEach((item, k) => this.wrote([...path, fileItems.length + k], 'added', getNodeValue(item) as Json));
    this.edits.push(
      ...insertionEdits(
        this.text,
        fileArr,
        { after: fileItems.length - 1, entries: added.map((n) => this.render(n, indent)) },
        added.map((n) => renderInline(getNodeValue(n) as Json)),
        this.style,
      ),
    );
  }
}

/** Every object of the file below the root that has one of `keys`, with its path and how many of them it has. */
function objectsWithKeys(root: Node, keys: ReadonlySet<string>): Array<{ node: Node; path: KeyPath; count: number }> {
  // Walked with a link to the parent step, so that a path is made only for the objects found (a lockfile
  // has thousands of objects, few of them with the snippet's keys).
  interface Step {
    node: Node;
    part?: string | number;
    up?: Step;
  }
  const pathOf = (step: Step): KeyPath => {
    const path: Array<string | number> = [];
    for (let at: Step | undefined = step; at?.up; at = at.up) {
      path.push(at.part as string | number);
    }
    return path.reverse();
  };
  const found: Array<{ node: Node; path: KeyPath; count: number }> = [];
  const stack: Step[] = [{ node: root }];
  while (stack.length > 0) {
    const step = stack.pop() as Step;
    const node = step.node;
    if (node.type === 'object') {
      let count = 0;
      for (const prop of node.children ?? []) {
        const key = propertyKey(prop);
        count += keys.has(key) ? 1 : 0;
        const value = prop.children?.[1];
        if (value && (value.type === 'object' || value.type === 'array')) {
          stack.push({ node: value, part: key, up: step });
        }
      }
      if (count > 0 && step.up) {
        found.push({ node, path: pathOf(step), count });
      }
    } else if (node.type === 'array') {
      (node.children ?? []).forEach((item, i) => stack.push({ node: item, part: i, up: step }));
    }
  }
  return found;
}

/** Where the snippet's top-level object goes: the root, or the one object holding most of its keys. */
function placeSnippet(
  text: string,
  fileRoot: Node,
  snipRoot: Node,
): { node: Node; path: KeyPath } | { places: Array<{ path: KeyPath; line: number }>; key: string } {
  const keys = (snipRoot.children ?? []).map(propertyKey);
  const rootKeys = new Set((fileRoot.children ?? []).map(propertyKey));
  if (keys.length === 0 || keys.some((k) => rootKeys.has(k))) {
    return { node: fileRoot, path: [] };
  }
  const candidates = objectsWithKeys(fileRoot, new Set(keys));
  if (candidates.length === 0) {
    return { node: fileRoot, path: [] };
  }
  if (candidates.length === 1) {
    return { node: candidates[0].node, path: candidates[0].path };
  }
  // Most keys of the snippet first; among those, most values the snippet shows as they are (a `"name"`
  // that names one of several launch configurations).
  const snippetValue = getNodeValue(snipRoot) as { [key: string]: Json };
  const same = (node: Node): number =>
    (node.children ?? []).filter((p) => {
      const key = propertyKey(p);
      return key in snippetValue && p.children?.[1] !== undefined && deepEqual(getNodeValue(p.children[1]) as Json, snippetValue[key]);
    }).length;
  const scored = candidates.map((c) => ({ ...c, score: c.count * 1000 + same(c.node) }));
  const best = Math.max(...scored.map((c) => c.score));
  const top = scored.filter((c) => c.score === best).sort((a, b) => a.node.offset - b.node.offset);
  if (top.length === 1) {
    return { node: top[0].node, path: top[0].path };
  }
  const key = keys.find((k) => top.every((c) => (c.node.children ?? []).some((p) => propertyKey(p) === k))) ?? keys[0];
  const places = top.map((c) => {
    const prop = (c.node.children ?? []).find((p) => propertyKey(p) === key) ?? c.node;
    return { path: [...c.path, key], line: lineColumn(text, prop.offset).line };
  });
  return { places, key };
}

function lineOfPath(root: Node | undefined, lineStarts: readonly number[], path: KeyPath, changed?: ChangedRegion): number {
  let node = root;
  // Offsets in the result: a node of the file before the changed region keeps its offset, one after it
  // moves by the region's growth; inside the region the nodes are the region's reparse, from its start.
  let base = 0;
  path.forEach((part, i) => {
    if (changed && node === changed.node) {
      node = changed.root;
      base = changed.node.offset;
    }
    if (node?.type === 'object') {
      node = node.children?.find((p) => propertyKey(p) === part);
      // The key's line names a key; a key on the way down leads to its value.
      node = node && i < path.length - 1 ? node.children?.[1] : node;
    } else {
      node = node?.type === 'array' ? node.children?.[part as number] : undefined;
    }
  });
  let offset = node ? base + node.offset : 0;
  if (changed && node && base === 0 && node.offset >= changed.node.offset + changed.node.length) {
    offset += changed.growth;
  }
  return lastStartAtOrBefore(lineStarts, lineStarts.length - 1, offset) + 1;
}

/** The child of `node` whose text holds [from, to] (children are in text order: found by bisection). */
function childHolding(node: Node, from: number, to: number): Node | undefined {
  const children = node.children ?? [];
  let low = 0;
  let high = children.length - 1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    const child = children[mid];
    if (child.offset + child.length < from) {
      low = mid + 1;
    } else if (child.offset > from) {
      high = mid - 1;
    } else {
      return to <= child.offset + child.length ? child : undefined;
    }
  }
  return undefined;
}

/** The one value of the file that holds every edit (inside its brackets), reparsed from the merged text. */
interface ChangedRegion {
  /** The file's node, and its path. */
  node: Node;
  path: KeyPath;
  /** The merged text of that value, parsed on its own (offsets from the value's start). */
  root: Node;
  /** How many characters longer the merged value is. */
  growth: number;
}

/**
 * The innermost object or list of the file whose brackets hold every edit, and its merged text parsed on
 * its own: the text outside it is the file's, byte for byte, so the merged file parses exactly when it
 * does, and every value outside it is the file's. Undefined when the edits reach the top level's brackets
 * or the merged value does not parse on its own (then the whole merged file is parsed, for the message).
 */
function changedRegion(
  fileRoot: Node,
  text: string,
  edits: readonly ConfigTextEdit[],
  paths: readonly KeyPath[],
): ChangedRegion | undefined {
  const from = Math.min(...edits.map((e) => e.offset));
  const to = Math.max(...edits.map((e) => e.offset + e.length));
  let node = fileRoot;
  const path: Array<string | number> = [];
  for (;;) {
    const inner = childHolding(node, from, to);
    const value = inner?.type === 'property' ? inner.children?.[1] : inner;
    if (
      !inner ||
      !value ||
      (value.type !== 'object' && value.type !== 'array') ||
      !(value.offset < from && to < value.offset + value.length)
    ) {
      break;
    }
    path.push(inner.type === 'property' ? propertyKey(inner) : (node.children ?? []).indexOf(inner));
    node = value;
  }
  if (node === fileRoot || !paths.every((p) => path.every((part, i) => p[i] === part))) {
    return undefined;
  }
  const growth = edits.reduce((sum, e) => sum + e.content.length - e.length, 0);
  const errors: ParseError[] = [];
  const root = parseTree(text.slice(node.offset, node.offset + node.length + growth), errors, PARSE_OPTIONS);
  if (!root || errors.length > 0 || root.type !== node.type) {
    return undefined;
  }
  return { node, path, root, growth };
}

/** The audit: a key the snippet did not show that changed or went, as a path; undefined when none. */
function changedUnshown(before: Json, after: Json, path: KeyPath, written: ReadonlySet<string>): KeyPath | undefined {
  if (written.has(keyOf(path))) {
    return undefined;
  }
  if (isObject(before)) {
    if (!isObject(after)) {
      return path;
    }
    for (const key of Object.keys(before)) {
      if (!(key in after)) {
        return [...path, key];
      }
      const inner = changedUnshown(before[key], after[key], [...path, key], written);
      if (inner) {
        return inner;
      }
    }
    return undefined;
  }
  if (Array.isArray(before)) {
    if (!Array.isArray(after) || after.length < before.length) {
      return path;
    }
    for (let i = 0; i < before.length; i++) {
      const inner = changedUnshown(before[i], after[i], [...path, i], written);
      if (inner) {
        return inner;
      }
    }
    return undefined;
  }
  return deepEqual(before, after) ? undefined : path;
}

function valueAt(value: Json, path: KeyPath): Json | undefined {
  let at: Json | undefined = value;
  for (const part of path) {
    at = Array.isArray(at) ? at[part as number] : isObject(at) ? at[part as string] : undefined;
  }
  return at;
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    starts.push(i + 1);
  }
  return starts;
}

function refused(reason: Extract<ConfigMergeResult, { kind: 'refused' }>['reason'], message: string): ConfigMergeResult {
  return { kind: 'refused', reason, message };
}

function mergeJsonText(fileText: string, code: string, strict: boolean): ConfigMergeResult {
  const formatName = strict ? 'JSON' : 'JSON with comments';
  const snippet = readSnippet(code, formatName);
  if (typeof snippet === 'string') {
    return refused('invalid-snippet', snippet);
  }
  if (fileText.trim() === '') {
    const value = getNodeValue(snippet.root) as Json;
    const text = `${renderValue(value, { unit: '  ', eol: '\n' }, '')}\n`;
    const starts = lineStartsOf(text);
    const root = parseTree(text, [], PARSE_OPTIONS);
    const changes = isObject(value)
      ? Object.keys(value).map((k) => ({ path: [k], action: 'added' as const, line: lineOfPath(root, starts, [k]) }))
      : [];
    return { kind: 'merged', text, edits: [{ offset: 0, length: fileText.length, content: text }], changes, kept: [] };
  }
  const fileErrors: ParseError[] = [];
  const fileRoot = parseTree(fileText, fileErrors, PARSE_OPTIONS);
  if (!fileRoot || fileErrors.length > 0) {
    return refused(
      'invalid-file',
      `the file does not parse as ${formatName} (${parseProblem(fileText, fileErrors.length > 0 ? fileErrors : [{ error: 2, offset: 0, length: 0 }])}); fix it first, or send SEARCH/REPLACE blocks`,
    );
  }
  if (fileRoot.type !== snippet.root.type || (fileRoot.type !== 'object' && fileRoot.type !== 'array')) {
    return refused(
      'unsupported',
      `the snippet is ${snippet.root.type === 'array' ? 'a list' : `a ${snippet.root.type}`} and the file's top level is ${fileRoot.type === 'array' ? 'a list' : `an ${fileRoot.type}`}: show the key it belongs to`,
    );
  }
  const merge = new JsonMerge(fileText, snippet, !strict);
  if (fileRoot.type === 'array') {
    merge.mergeArray(fileRoot, snippet.root, []);
  } else {
    const place = placeSnippet(fileText, fileRoot, snippet.root);
    if ('places' in place) {
      const where = place.places.map((p) => `${formatKeyPath(p.path)} (line ${p.line})`).join(', ');
      return {
        kind: 'refused',
        reason: 'ambiguous',
        message: `${JSON.stringify(place.key)} fits ${place.places.length} places: ${where}; re-send the snippet inside the key it belongs to`,
        places: place.places,
      };
    }
    merge.mergeObject(place.node, snippet.root, place.path);
  }
  return finish(fileText, fileRoot, merge, formatName);
}

function finish(fileText: string, fileRoot: Node, merge: JsonMerge, formatName: string): ConfigMergeResult {
  const text = merge.edits.length === 0 ? fileText : applyTextEdits(fileText, merge.edits);
  // A merge inside one value of a large file (a lockfile's entry) is audited on that value: the rest of the
  // text is the file's, so parsing the whole merged file again would only read the file a second time.
  const changed =
    merge.edits.length === 0
      ? undefined
      : changedRegion(
          fileRoot,
          text,
          merge.edits,
          merge.expected.map((e) => e.path),
        );
  let newRoot: Node | undefined = fileRoot;
  if (merge.edits.length > 0 && !changed) {
    const errors: ParseError[] = [];
    newRoot = parseTree(text, errors, PARSE_OPTIONS);
    if (!newRoot || errors.length > 0) {
      return refused('audit', `the merged file would not parse as ${formatName} (${parseProblem(text, errors)}), so nothing was changed`);
    }
  }
  if (merge.edits.length > 0) {
    const [start, before, after] = changed
      ? [changed.path, getNodeValue(changed.node) as Json, getNodeValue(changed.root) as Json]
      : [[], getNodeValue(fileRoot) as Json, getNodeValue(newRoot as Node) as Json];
    const moved = changedUnshown(before, after, start, merge.written);
    if (moved) {
      return refused(
        'audit',
        `the merge would have changed ${formatKeyPath(moved)}, which the snippet does not show, so nothing was changed`,
      );
    }
    const wrong = merge.expected.find((e) => !deepEqual(valueAt(after, e.path.slice(start.length)), e.value));
    if (wrong) {
      return refused('audit', `the merge would not have set ${formatKeyPath(wrong.path)} to the snippet's value, so nothing was changed`);
    }
  }
  const lineStarts = lineStartsOf(text);
  const changes = merge.changes.map((c) => ({ ...c, line: lineOfPath(newRoot, lineStarts, c.path, changed) }));
  return { kind: 'merged', text, edits: [...merge.edits].sort((a, b) => a.offset - b.offset), changes, kept: merge.kept };
}

export const mergeJson: ConfigMerge = (fileText, snippetText) => mergeJsonText(fileText, snippetText, true);
export const mergeJsonc: ConfigMerge = (fileText, snippetText) => mergeJsonText(fileText, snippetText, false);
