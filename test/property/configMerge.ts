// Generative property test of configuration snippets merged by key (issue 26), on real files.
//
// A case: a configuration file (from node_modules, or a realistic fixture where none ships), a random
// mapping of it (a subtree), and a random edit of that subtree: scalar values changed, keys added, keys
// left out (a careful person's "delete": the snippet does not show them, so they are kept), lists of
// scalars changed, grown or shortened (shown whole, so they replace). The edited subtree is written as a
// snippet the way a chat answer writes one: whole (with its parent keys from the root), as a bare fragment
// (indented, without its parents), or with placeholder comments between the keys it shows.
// Properties: the merge gives exactly the edit's value (or refuses: an ambiguous bare key); it never
// changes a key the snippet did not show; its result parses; every comment line of the file is kept; a
// snippet that changes nothing leaves the file byte for byte.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml, parseAllDocuments, stringify as stringifyYaml } from 'yaml';
import { mergeYaml } from '../../src/core/config/yaml';
import { mergeToml } from '../../src/core/config/toml';
import { mergeEditorconfig, mergeEnv, mergeIni } from '../../src/core/config/lineFormats';
import { mergeJson, mergeJsonc } from '../../src/core/config/json';
import { parse as parseJsonc, type ParseError } from 'jsonc-parser';
import { parse as parseToml, stringify as stringifyToml } from 'smol-toml';
import type { ConfigMerge, ConfigMergeResult } from '../../src/core/config/types';
import { type Random, seededRandom } from '../shared/seededRandom';

const ROOT = path.resolve(__dirname, '../../..');

const int = (rng: Random, n: number) => Math.floor(rng() * n);
const pick = <T>(rng: Random, list: readonly T[]): T => list[int(rng, list.length)];

type Plain = { [key: string]: unknown };
const isMap = (value: unknown): value is Plain =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);

/** One format under test: its real files, its parser, how a snippet of it is written, and its merge. */
export interface FormatUnderTest {
  name: string;
  files: () => Array<{ name: string; text: string }>;
  /** The file's value (undefined: not usable, e.g. not a mapping at the root). */
  parse: (text: string) => Plain | undefined;
  /** A snippet showing `shown` (a value from the root, or a bare subtree), in the given shape. */
  render: (shown: Plain, shape: Shape, rng: Random) => string | undefined;
  merge: ConfigMerge;
  /** Only scalar values (no nested tables or lists). */
  scalarsOnly?: boolean;
  /** Values are text (the line formats): the edit's values compared as strings. */
  stringValues?: boolean;
  /** The file as a person may have it (JSON: tabs for spaces), before the case's CRLF roll. */
  vary?: (text: string, rng: Random) => string;
}

export type Shape = 'whole' | 'fragment' | 'placeholders';

function walkFiles(dir: string, accept: (name: string) => boolean, out: string[], depth = 0, maxDepth = 6): string[] {
  if (depth > maxDepth || !fs.existsSync(dir)) {
    return out;
  }
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      walkFiles(full, accept, out, depth + 1, maxDepth);
    } else if (entry.isFile() && accept(entry.name)) {
      out.push(full);
    }
  }
  return out;
}

const cache = new Map<string, Array<{ name: string; text: string }>>();
export function realFiles(
  key: string,
  accept: (name: string) => boolean,
  fixtures: readonly string[],
): Array<{ name: string; text: string }> {
  const cached = cache.get(key);
  if (cached) {
    return cached;
  }
  const found = walkFiles(path.join(ROOT, 'node_modules'), accept, []).slice(0, 400);
  const files = [...found, ...fixtures.map((name) => path.join(ROOT, 'test/fixtures/config', name))]
    .filter((file) => fs.existsSync(file) && fs.statSync(file).size < 200_000)
    .map((file) => ({ name: path.relative(ROOT, file), text: fs.readFileSync(file, 'utf8') }));
  cache.set(key, files);
  return files;
}

// ---- the edit -----------------------------------------------------------------------------------------

let newKeys = 0;

function changedScalar(rng: Random, value: unknown): unknown {
  if (typeof value === 'number') {
    return Number.isInteger(value) ? value + 1 + int(rng, 50) : value + 0.5;
  }
  if (typeof value === 'boolean') {
    return !value;
  }
  if (typeof value === 'string') {
    return pick(rng, [`${value}-next`, `${value}2`, 'changed value', value.toUpperCase() === value ? `${value}x` : value.toUpperCase()]);
  }
  return pick(rng, ['set', 7, true]);
}

const isScalar = (value: unknown) => value === null || ['string', 'number', 'boolean'].includes(typeof value);

/**
 * An edit of a mapping: answers the snippet's value (what it shows) and the expected merged value of the
 * mapping. Keys left out of the snippet are kept in the expected value.
 */
function editMapping(
  rng: Random,
  value: Plain,
  depth: number,
  format: FormatUnderTest,
): { shown: Plain; expected: Plain; changed: boolean } {
  const shown: Plain = {};
  const expected: Plain = { ...value };
  let changed = false;
  const keys = Object.keys(value);
  for (const key of keys) {
    const item = value[key];
    const roll = rng();
    if (roll < 0.3 && keys.length > 1) {
      continue; // not shown: kept
    }
    if (isMap(item) && Object.keys(item).length > 0 && depth < 3 && !format.scalarsOnly) {
      const inner = editMapping(rng, item, depth + 1, format);
      shown[key] = inner.shown;
      expected[key] = inner.expected;
      changed ||= inner.changed;
    } else if (Array.isArray(item) && item.every(isScalar) && roll < 0.6 && !format.scalarsOnly) {
      const list = [...item];
      const what = int(rng, 3);
      if (what === 0 && list.length > 0) {
        list[int(rng, list.length)] = changedScalar(rng, list[int(rng, list.length)] ?? 'x');
      } else if (what === 1 || list.length === 0) {
        list.splice(int(rng, list.length + 1), 0, `item-${++newKeys}`);
      } else {
        list.splice(int(rng, list.length), 1);
      }
      shown[key] = list;
      expected[key] = list;
      changed = true;
    } else if (isScalar(item) && roll < 0.7) {
      const next = changedScalar(rng, item);
      shown[key] = next;
      expected[key] = next;
      changed = true;
    } else {
      shown[key] = item; // shown as it is
    }
  }
  if (rng() < 0.4) {
    const key = `added_key_${++newKeys}`;
    const next = pick(rng, ['new value', 42, true, 'with: colon']);
    shown[key] = next;
    expected[key] = next;
    changed = true;
  }
  return { shown, expected, changed };
}

// ---- a case -------------------------------------------------------------------------------------------

export interface ConfigCaseResult {
  kind: 'merged' | 'refused' | 'skipped';
  reason?: string;
  shape?: Shape;
  unchanged?: boolean;
  failure?: string;
}

function subtreePath(rng: Random, root: Plain): string[] {
  const path: string[] = [];
  let node: Plain = root;
  while (rng() < 0.6) {
    const keys = Object.keys(node).filter((key) => isMap(node[key]) && Object.keys(node[key] as Plain).length > 0);
    if (keys.length === 0) {
      break;
    }
    const key = pick(rng, keys);
    path.push(key);
    node = node[key] as Plain;
  }
  return path;
}

const withParents = (path: readonly string[], value: Plain): Plain => path.reduceRight<Plain>((inner, key) => ({ [key]: inner }), value);

function setAt(root: Plain, path: readonly string[], value: Plain): Plain {
  if (path.length === 0) {
    return value;
  }
  return { ...root, [path[0]]: setAt(root[path[0]] as Plain, path.slice(1), value) };
}

const sameData = (a: unknown, b: unknown) => JSON.stringify(sortKeys(a)) === JSON.stringify(sortKeys(b));
function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    return value.map(sortKeys);
  }
  if (value instanceof Date) {
    return value.toISOString();
  }
  if (isMap(value)) {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, sortKeys(value[key])]),
    );
  }
  return typeof value === 'bigint' ? String(value) : value;
}

/** Every mapping's path, the root first. */
function mappingPaths(root: Plain, prefix: string[] = [], out: string[][] = []): string[][] {
  out.push(prefix);
  for (const [key, value] of Object.entries(root)) {
    if (isMap(value)) {
      mappingPaths(value, [...prefix, key], out);
    }
  }
  return out;
}

/** `base` with what `shown` shows set: mappings merged key by key, anything else (lists too) replaced. */
function mergedInto(base: Plain, shown: Plain): Plain {
  const out: Plain = { ...base };
  for (const [key, value] of Object.entries(shown)) {
    out[key] = isMap(value) && isMap(base[key]) ? mergedInto(base[key], value) : value;
  }
  return out;
}

const commentLines = (text: string) => text.split(/\r?\n/).filter((line) => /^\s*([#;]|\/\/)/.test(line));

export function runConfigCase(format: FormatUnderTest, seed: number, index: number): ConfigCaseResult {
  const rng = seededRandom(seed * 1_000_003 + index * 7919 + format.name.length);
  const files = format.files();
  const file = pick(rng, files);
  let text = format.vary ? format.vary(file.text, rng) : file.text;
  if (rng() < 0.2) {
    text = text.replace(/\r?\n/g, '\r\n');
  }
  const root = format.parse(text);
  if (!root || Object.keys(root).length === 0) {
    return { kind: 'skipped' };
  }
  const at = subtreePath(rng, root);
  const subtree = at.reduce<Plain>((node, key) => node[key] as Plain, root);
  const noOp = rng() < 0.1;
  const edit = noOp ? { shown: subtree, expected: subtree, changed: false } : editMapping(rng, subtree, 0, format);
  const shape: Shape = pick(rng, ['whole', 'fragment', 'placeholders'] as const);
  const shown = shape === 'fragment' ? edit.shown : withParents(at, edit.shown);
  const snippet = format.render(shown, shape, rng);
  if (snippet === undefined || Object.keys(edit.shown).length === 0) {
    return { kind: 'skipped' };
  }
  const result: ConfigMergeResult = format.merge(text, snippet);
  const where = `${format.name} ${file.name} at ${at.join('.') || '(root)'} (${shape})`;
  const fail = (message: string): ConfigCaseResult => ({
    kind: result.kind,
    shape,
    failure: `${where}: ${message}\n--- snippet ---\n${snippet}\n--- result ---\n${result.kind === 'merged' ? result.text : JSON.stringify(result)}`,
  });
  if (result.kind === 'refused') {
    // A bare key may fit several places (or none: a new key of a file with no root keys).
    if (result.reason === 'ambiguous') {
      return { kind: 'refused', reason: result.reason, shape };
    }
    if (result.reason === 'unsupported') {
      return { kind: 'refused', reason: result.reason, shape };
    }
    return fail(`refused (${result.reason}): ${result.message}`);
  }
  const merged = format.parse(result.text);
  if (!merged) {
    return fail('the merged text does not parse');
  }
  const expected = format.stringValues ? scalarStrings(setAt(root, at, edit.expected)) : setAt(root, at, edit.expected);
  if (shape !== 'fragment' && !sameData(merged, expected)) {
    return fail(
      `merged value differs from the edit\nexpected ${JSON.stringify(sortKeys(expected))}\nmerged   ${JSON.stringify(sortKeys(merged))}`,
    );
  }
  let placedAt = at;
  if (shape === 'fragment' && !sameData(merged, expected)) {
    // A fragment has no parents: it goes where its keys are (the top level first, README "Where it goes").
    // Placed elsewhere, the result must be exactly the fragment merged into that one mapping.
    const shownValues = format.stringValues ? scalarStrings(edit.shown) : edit.shown;
    const other = mappingPaths(root).find((p) => {
      const base = p.reduce<Plain>((node, key) => node[key] as Plain, root);
      return sameData(merged, setAt(root, p, mergedInto(base, shownValues)));
    });
    if (!other) {
      return fail('a fragment changed the file other than merged into one mapping');
    }
    placedAt = other;
  }
  const lost = commentLines(text).filter((line) => !result.text.includes(line));
  if (lost.length > 0) {
    return fail(`comment lines lost: ${JSON.stringify(lost.slice(0, 3))}`);
  }
  if (!edit.changed && placedAt === at && result.text !== text) {
    return fail('a snippet that changes nothing changed the text');
  }
  return { kind: 'merged', shape, unchanged: result.text === text };
}

// ---- formats ------------------------------------------------------------------------------------------

function placeholderLines(text: string, rng: Random): string {
  const lines = text.replace(/\n$/, '').split('\n');
  const out: string[] = [];
  lines.forEach((line, i) => {
    // Before a key line at a mapping's own indent (not inside a list item), sometimes a placeholder.
    const indent = line.length - line.trimStart().length;
    const insideList = lines.slice(0, i).some((before) => /^\s*- /.test(before) && before.length - before.trimStart().length <= indent);
    if (/^\s*[\w"'-][^:]*:/.test(line) && !line.trimStart().startsWith('- ') && !insideList && rng() < 0.35) {
      out.push(`${' '.repeat(indent)}${pick(rng, ['# ...', '# ... existing keys ...', '# (rest unchanged)', '...'])}`);
    }
    out.push(line);
  });
  return `${out.join('\n')}\n`;
}

export const yamlUnderTest: FormatUnderTest = {
  name: 'yaml',
  files: () =>
    realFiles('yaml', (name) => /\.ya?ml$/.test(name), ['compose.yaml', 'k8s.yaml']).filter((file) => !file.text.includes('\n---')),
  parse: (text) => {
    const docs = parseAllDocuments(text);
    if (!Array.isArray(docs) || docs.length !== 1 || docs[0].errors.length > 0) {
      return undefined;
    }
    const value = docs[0].toJS() as unknown;
    return isMap(value) ? value : undefined;
  },
  render: (shown, shape, rng) => {
    const text = stringifyYaml(shown, { lineWidth: 0 });
    if (shape === 'fragment') {
      const indent = ' '.repeat(pick(rng, [0, 0, 2, 4]));
      return text
        .split('\n')
        .map((line) => (line ? indent + line : line))
        .join('\n');
    }
    return shape === 'placeholders' ? placeholderLines(text, rng) : text;
  },
  merge: mergeYaml,
};

// Sanity: the YAML renderer's output is read back as what it shows.
export const yamlRoundTrips = (value: Plain) => sameData(parseYaml(stringifyYaml(value)), value);

export interface ConfigSummary {
  cases: number;
  merged: number;
  unchanged: number;
  refused: Record<string, number>;
  skipped: number;
  byShape: Record<string, number>;
  failures: Array<{ index: number; message: string }>;
}

export function runConfigProperty(
  formats: readonly FormatUnderTest[],
  options: { cases: number; seed: number; maxFailures: number },
): Record<string, ConfigSummary> {
  const summaries: Record<string, ConfigSummary> = {};
  for (const format of formats) {
    const summary: ConfigSummary = { cases: 0, merged: 0, unchanged: 0, refused: {}, skipped: 0, byShape: {}, failures: [] };
    for (let index = 0; index < options.cases && summary.failures.length < options.maxFailures; index++) {
      summary.cases++;
      let result: ConfigCaseResult;
      try {
        result = runConfigCase(format, options.seed, index);
      } catch (error) {
        result = { kind: 'merged', failure: `threw ${(error as Error).stack}` };
      }
      if (result.failure) {
        summary.failures.push({ index, message: result.failure });
      } else if (result.kind === 'merged') {
        summary.merged++;
        summary.unchanged += result.unchanged ? 1 : 0;
        summary.byShape[result.shape!] = (summary.byShape[result.shape!] ?? 0) + 1;
      } else if (result.kind === 'refused') {
        summary.refused[result.reason!] = (summary.refused[result.reason!] ?? 0) + 1;
      } else {
        summary.skipped++;
      }
    }
    summaries[format.name] = summary;
  }
  return summaries;
}

const hasListOfMaps = (value: unknown): boolean =>
  Array.isArray(value)
    ? value.some((item) => typeof item === 'object' && item !== null) || value.some(hasListOfMaps)
    : isMap(value) && Object.values(value).some(hasListOfMaps);

export const tomlUnderTest: FormatUnderTest = {
  name: 'toml',
  files: () => realFiles('toml', (name) => name.endsWith('.toml'), ['Cargo.toml', 'pyproject.toml']),
  parse: (text) => {
    try {
      return parseToml(text) as Plain;
    } catch {
      return undefined;
    }
  },
  render: (shown, shape, rng) => {
    if (hasListOfMaps(shown)) {
      return undefined; // [[array]] tables and lists of inline tables: not generated
    }
    if (shape === 'fragment' && Object.values(shown).some(isMap)) {
      return undefined; // a bare fragment is the keys of one table
    }
    const text = `${stringifyToml(shown)}\n`;
    if (shape !== 'placeholders') {
      return text;
    }
    return text
      .split('\n')
      .flatMap((line) => (/^[\w"-]+\s*=/.test(line) && rng() < 0.3 ? [pick(rng, ['# ...', '# ... existing keys ...']), line] : [line]))
      .join('\n');
  },
  merge: mergeToml,
};

/** A section reader of the simplest kind, to check the line formats' merges from the outside. */
function readSections(text: string, comment: RegExp, sections: boolean): Plain | undefined {
  const root: Plain = {};
  let current: Plain = root;
  for (const line of text.split(/\r?\n/)) {
    const trimmed = line.trim();
    if (trimmed === '' || comment.test(trimmed)) {
      continue;
    }
    const header = /^\[(.*)\]$/.exec(trimmed);
    if (header && sections) {
      current = (root[header[1].trim()] as Plain | undefined) ?? {};
      root[header[1].trim()] = current;
      continue;
    }
    const entry = /^(?:export\s+)?([^=]+?)\s*=\s*(.*)$/.exec(trimmed);
    if (!entry) {
      return undefined;
    }
    // .env: a quoted value is its inside; an unquoted one ends before a ` # comment`.
    const quoted = sections ? undefined : /^(["'])(.*)\1$/.exec(entry[2]);
    current[entry[1]] = quoted ? quoted[2] : sections ? entry[2] : entry[2].replace(/\s+#.*$/, '');
  }
  return root;
}

function scalarStrings(value: Plain): Plain {
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, isMap(item) ? scalarStrings(item) : String(item)]));
}

function lineFormatUnderTest(
  name: string,
  accept: (file: string) => boolean,
  fixtures: string[],
  sections: boolean,
  merge: ConfigMerge,
): FormatUnderTest {
  return {
    name,
    files: () => realFiles(name, accept, fixtures),
    parse: (text) => readSections(text, /^[#;]/, sections),
    render: (shown, shape, rng) => {
      const lines: string[] = [];
      const write = (map: Plain) => {
        for (const [key, value] of Object.entries(map)) {
          if (!isMap(value)) {
            if (shape === 'placeholders' && rng() < 0.3) {
              lines.push('# ...');
            }
            const text = String(value);
            if (text !== text.trim() || /^["']|\s#/.test(text) || text === '') {
              return false;
            }
            lines.push(sections ? `${key} = ${text}` : `${key}=${text}`);
          }
        }
        return true;
      };
      if (!write(shown)) {
        return undefined;
      }
      for (const [key, value] of Object.entries(shown)) {
        if (isMap(value)) {
          if (shape === 'fragment') {
            return undefined;
          }
          lines.push('', `[${key}]`);
          if (!write(value)) {
            return undefined;
          }
        }
      }
      return `${lines.join('\n')}\n`;
    },
    merge: (file, snippet) => merge(file, snippet),
    scalarsOnly: !sections,
    stringValues: true,
  };
}

export const envUnderTest = lineFormatUnderTest('env', (name) => name === '.env' || name.endsWith('.env'), ['app.env'], false, mergeEnv);
export const editorconfigUnderTest = lineFormatUnderTest('editorconfig', (name) => name === '.editorconfig', [], true, mergeEditorconfig);
export const iniUnderTest = lineFormatUnderTest('ini', (name) => name.endsWith('.ini'), [], true, mergeIni);

// ---- JSON ---------------------------------------------------------------------------------------------

/** Every package.json, or every tsconfig*.json, under node_modules (and this repository's own JSONC files). */
function jsonFiles(key: string, accept: (name: string) => boolean, own: readonly string[]): Array<{ name: string; text: string }> {
  const cached = cache.get(key);
  if (cached) {
    return cached;
  }
  const found = walkFiles(path.join(ROOT, 'node_modules'), accept, [], 0, 8);
  const files = [...found, ...own.map((name) => path.join(ROOT, name))]
    .filter((file) => fs.existsSync(file) && fs.statSync(file).size < 200_000)
    .map((file) => ({ name: path.relative(ROOT, file), text: fs.readFileSync(file, 'utf8') }));
  cache.set(key, files);
  return files;
}

function parseJsonValue(text: string): Plain | undefined {
  const errors: ParseError[] = [];
  const value = parseJsonc(text, errors, { allowTrailingComma: true, disallowComments: false }) as unknown;
  return errors.length === 0 && isMap(value) ? value : undefined;
}

/** Placeholder comments before some key lines of pretty-printed JSON, only where no list encloses the key. */
function jsonPlaceholders(text: string, rng: Random): string {
  const out: string[] = [];
  const open: string[] = [];
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    if (/^[\]}]/.test(trimmed)) {
      open.pop();
    }
    if (/^"(?:[^"\\]|\\.)*":/.test(trimmed) && open.every((c) => c === '{') && rng() < 0.35) {
      out.push(`${line.slice(0, line.length - line.trimStart().length)}${pick(rng, ['// ...', '// ... existing keys ...', '/* ... */'])}`);
    }
    out.push(line);
    const last = trimmed.replace(/,$/, '').at(-1);
    if (last === '{' || last === '[') {
      open.push(last);
    }
  }
  return out.join('\n');
}

function renderJson(shown: Plain, shape: Shape, rng: Random): string {
  const indent = pick(rng, [2, 2, 4, '\t']);
  const text = JSON.stringify(shown, null, indent);
  if (shape === 'placeholders') {
    return `${jsonPlaceholders(text, rng)}\n`;
  }
  if (shape === 'whole') {
    return `${text}\n`;
  }
  // A fragment: the key-value lines without the outer braces, dedented, sometimes with a trailing comma.
  const inner = text.split('\n').slice(1, -1);
  const unit = typeof indent === 'number' ? ' '.repeat(indent) : indent;
  const lines = inner.map((line) => (line.startsWith(unit) ? line.slice(unit.length) : line));
  return `${lines.join('\n')}${rng() < 0.5 ? ',' : ''}\n`;
}

/** A file as people keep it: sometimes tab-indented (settings.json), whatever its width was. */
function varyJson(text: string, rng: Random): string {
  if (rng() >= 0.15) {
    return text;
  }
  const unit = /\n( +)"/.exec(text)?.[1].length ?? 2;
  return text.replace(/^( +)/gm, (lead: string) => '\t'.repeat(Math.floor(lead.length / unit)) + ' '.repeat(lead.length % unit));
}

export const jsonUnderTest: FormatUnderTest = {
  name: 'json (package.json)',
  files: () => jsonFiles('package.json', (name) => name === 'package.json', ['package.json']),
  parse: parseJsonValue,
  render: renderJson,
  merge: mergeJson,
  vary: varyJson,
};

export const jsoncUnderTest: FormatUnderTest = {
  name: 'jsonc (tsconfig, settings)',
  files: () =>
    jsonFiles('tsconfig', (name) => /^tsconfig.*\.json$/.test(name), [
      'tsconfig.json',
      'tsconfig.scripts.json',
      '.vscode/launch.json',
      '.vscode/tasks.json',
    ]),
  parse: parseJsonValue,
  render: renderJson,
  merge: mergeJsonc,
  vary: varyJson,
};

export const CONFIG_FORMATS_UNDER_TEST: readonly FormatUnderTest[] = [
  jsonUnderTest,
  jsoncUnderTest,
  yamlUnderTest,
  tomlUnderTest,
  envUnderTest,
  editorconfigUnderTest,
];
