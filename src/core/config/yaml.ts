// YAML snippets merged by key (issue 26). The `yaml` package parses the file and the snippet (its nodes
// carry their source ranges); the merge writes minimal text edits at those ranges, so every byte it does
// not touch (comments, quotes, blank lines, the indentation of the rest) stays. Never re-stringifies the
// document: only a flow collection it changes is written again, in flow style.
//
// The snippet: a whole document, a subtree with its parent keys, or a bare fragment (indented or not);
// placeholder comments (`# ...`, `# ... existing ...`, a bare `...`) stand for kept keys (and, inside a
// list, say the list is added to, not replaced). Where it goes: keys at the file's root merge there; a
// snippet none of whose top keys is at the root goes to the one mapping that has them (refused, naming
// the places, when several do). Multi-document files: the document whose kind and metadata.name (or top
// keys) the snippet shows.

import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Node,
  type Pair,
  parseAllDocuments,
  stringify,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import {
  ConfigRefusal,
  eolOf,
  finishMerge,
  firstDifference,
  hashCommentsAbove,
  isPlainMap,
  lineEndAfter,
  lineOfOffset,
  lineStartAt,
  mergeValues,
  pathText,
  type PendingChange,
  planSequence,
  refusedResult,
  sameValue,
  withEol,
} from './keyed';
import type { ConfigMerge, ConfigTextEdit, KeptKeys, KeyPath } from './types';
import { prepareYamlSnippet, type PreparedSnippet } from './yamlSnippet';

type YamlDoc = Document.Parsed;
type AnyPair = Pair<unknown, unknown>;

interface MergeState {
  file: string;
  snippet: PreparedSnippet;
  eol: string;
  fileDoc: YamlDoc;
  snippetDoc: YamlDoc;
  edits: ConfigTextEdit[];
  changes: PendingChange[];
  kept: KeptKeys[];
}

export const mergeYaml: ConfigMerge = (fileText, snippetText) => {
  try {
    return mergeYamlOrRefuse(fileText, snippetText);
  } catch (error) {
    return refusedResult(error);
  }
};

function parseErrorText(doc: YamlDoc, columnShift = 0): string | undefined {
  const error = doc.errors[0];
  if (!error) {
    return undefined;
  }
  const where = error.linePos ? ` at line ${error.linePos[0].line}, column ${error.linePos[0].col + columnShift}` : '';
  return `${error.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '')}${where}`;
}

function mergeYamlOrRefuse(fileText: string, snippetText: string) {
  const snippet = prepareYamlSnippet(snippetText);
  const snippetDocs = parseAllDocuments(snippet.text);
  if (!Array.isArray(snippetDocs) || snippetDocs.length === 0) {
    throw new ConfigRefusal('invalid-snippet', 'the snippet shows no YAML key');
  }
  for (const doc of snippetDocs) {
    const error = parseErrorText(doc, snippet.dedent);
    if (error) {
      throw new ConfigRefusal('invalid-snippet', `the snippet does not parse as YAML: ${error}`);
    }
  }
  const parsedFile = parseAllDocuments(fileText);
  const fileDocs = Array.isArray(parsedFile) ? parsedFile : [];
  for (const doc of fileDocs) {
    const error = parseErrorText(doc);
    if (error) {
      throw new ConfigRefusal('invalid-file', `the file does not parse as YAML: ${error}`);
    }
  }
  const eol = eolOf(fileText);
  const edits: ConfigTextEdit[] = [];
  const changes: PendingChange[] = [];
  const kept: KeptKeys[] = [];
  const targets: Array<{ docIndex: number; path: KeyPath; snippetDoc: YamlDoc }> = [];
  if (fileDocs.every((doc) => doc.contents === null) && fileText.trim() === '') {
    return appendWholeSnippet(fileText, snippet, snippetDocs, eol);
  }
  for (const snippetDoc of snippetDocs) {
    const docIndex = chooseDocument(fileText, fileDocs, snippetDoc);
    if (targets.some((t) => t.docIndex === docIndex)) {
      throw new ConfigRefusal('ambiguous', `two documents of the snippet fit document ${docIndex + 1} of the file`);
    }
    const state: MergeState = { file: fileText, snippet, eol, fileDoc: fileDocs[docIndex], snippetDoc, edits, changes, kept };
    targets.push({ docIndex, path: mergeDocument(state), snippetDoc });
  }
  return finishMerge(fileText, edits, changes, kept, (merged) => auditYaml(fileDocs, targets, snippet, merged));
}

/** An empty file becomes the snippet. */
function appendWholeSnippet(fileText: string, snippet: PreparedSnippet, snippetDocs: YamlDoc[], eol: string) {
  const body = snippet.text.replace(/^\n+/, '').replace(/\n*$/, '\n');
  const edits = [{ offset: fileText.length, length: 0, content: withEol(body, eol) }];
  const changes: PendingChange[] = [];
  for (const doc of snippetDocs) {
    if (isMap(doc.contents)) {
      for (const pair of doc.contents.items) {
        changes.push({
          path: [keyText(pair)],
          action: 'added',
          at: { edit: 0, lineInContent: lineOfOffset(body, nodeRange(pair.key)[0]) - 1 },
        });
      }
    }
  }
  return finishMerge(fileText, edits, changes, [], (merged) => {
    const docs = parseAllDocuments(merged);
    if (!Array.isArray(docs) || docs.some((doc) => doc.errors.length > 0)) {
      throw new ConfigRefusal('audit', 'the merged YAML does not parse; nothing was written');
    }
  });
}

/** The file's document the snippet's document merges into. */
function chooseDocument(fileText: string, fileDocs: YamlDoc[], snippetDoc: YamlDoc): number {
  if (fileDocs.length === 1) {
    return 0;
  }
  const shown = snippetDoc.toJS() as unknown;
  const identity = (value: unknown) => {
    const map = isPlainMap(value) ? value : {};
    const metadata = isPlainMap(map.metadata) ? map.metadata : {};
    return { kind: map.kind, name: metadata.name };
  };
  const wanted = identity(shown);
  const topKeys = isPlainMap(shown) ? Object.keys(shown) : [];
  const fits = fileDocs.flatMap((doc, i) => {
    const value = doc.toJS() as unknown;
    const has = identity(value);
    if (wanted.kind !== undefined || wanted.name !== undefined) {
      return (wanted.kind === undefined || wanted.kind === has.kind) && (wanted.name === undefined || wanted.name === has.name) ? [i] : [];
    }
    return isPlainMap(value) && topKeys.every((key) => Object.hasOwn(value, key)) ? [i] : [];
  });
  if (fits.length === 1) {
    return fits[0];
  }
  // Several documents have the top keys: the one that has the most of the snippet's key paths.
  const scores = fits.map((i) => pathsHeld(fileDocs[i].toJS(), shown));
  const best = Math.max(...scores);
  if (fits.length > 1 && best > 0 && scores.filter((score) => score === best).length === 1) {
    return fits[scores.indexOf(best)];
  }
  const line = (i: number) => lineOfOffset(fileText, fileDocs[i].range[0]);
  throw new ConfigRefusal(
    'ambiguous',
    fits.length === 0
      ? `the file has ${fileDocs.length} YAML documents and the snippet fits none of them: show the document's kind and metadata.name (or keys it has)`
      : `the file has ${fileDocs.length} YAML documents and the snippet fits documents ${fits.map((i) => `${i + 1} (line ${line(i)})`).join(', ')}: show the document's kind and metadata.name`,
    fits.map((i) => ({ path: [], line: line(i) })),
  );
}

/** How many of the snippet's key paths (of mappings, to any depth) the value has. */
function pathsHeld(value: unknown, shown: unknown): number {
  if (!isPlainMap(value) || !isPlainMap(shown)) {
    return 0;
  }
  return Object.keys(shown).reduce((sum, key) => (Object.hasOwn(value, key) ? sum + 1 + pathsHeld(value[key], shown[key]) : sum), 0);
}

/** Merges one snippet document; answers the file path it was merged at. */
function mergeDocument(state: MergeState): KeyPath {
  const fileRoot = state.fileDoc.contents;
  const snippetRoot = state.snippetDoc.contents;
  if (isMap(snippetRoot)) {
    if (!isMap(fileRoot)) {
      throw new ConfigRefusal('unsupported', 'the snippet shows keys but the file (or its document) is not a mapping of keys');
    }
    const place = placeOfMapping(state, fileRoot, snippetRoot);
    mergeMapping(state, place.map, snippetRoot, place.path, []);
    return place.path;
  }
  if (isSeq(snippetRoot)) {
    const place = placeOfSequence(state, snippetRoot);
    mergeSequence(state, undefined, place.seq, snippetRoot, place.path, [], true);
    return place.path;
  }
  throw new ConfigRefusal('invalid-snippet', 'the snippet shows no YAML key (only a value)');
}

export const keyText = (pair: AnyPair): string => {
  if (!isScalar(pair.key)) {
    throw new ConfigRefusal('unsupported', 'a complex (non-scalar) YAML key cannot be merged by key');
  }
  return String(pair.key.value);
};

const nodeRange = (node: unknown): [number, number, number] => {
  const range = (node as Node | null)?.range;
  if (!range) {
    throw new ConfigRefusal('unsupported', 'a YAML node without a source position cannot be merged');
  }
  return range;
};

const findPair = (map: YAMLMap, key: string): AnyPair | undefined => (map.items as AnyPair[]).find((pair) => keyText(pair) === key);

interface FoundMap {
  path: KeyPath;
  map: YAMLMap;
}

function allMappings(node: unknown, path: KeyPath, found: FoundMap[]): FoundMap[] {
  if (isMap(node)) {
    found.push({ path, map: node });
    for (const pair of node.items as AnyPair[]) {
      if (isScalar(pair.key)) {
        allMappings(pair.value, [...path, String(pair.key.value)], found);
      }
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => allMappings(item, [...path, i], found));
  }
  return found;
}

/**
 * Where a snippet mapping goes: the mapping of the file that has the most of its top keys, the root when
 * it has as many as any other (or none of them is anywhere). Several nested mappings tied: refused,
 * naming them.
 */
function placeOfMapping(state: MergeState, root: YAMLMap, snippetRoot: YAMLMap): FoundMap {
  const topKeys = (snippetRoot.items as AnyPair[]).map(keyText);
  const all = allMappings(root, [], []);
  const held = (map: YAMLMap) => topKeys.filter((key) => findPair(map, key)).length;
  const counts = all.map(({ map }) => held(map));
  const best = Math.max(...counts);
  if (best === 0 || counts[0] === best) {
    return { path: [], map: root };
  }
  const fits = all.filter((_, i) => counts[i] === best);
  if (fits.length === 1) {
    return fits[0];
  }
  const key = topKeys.find((k) => findPair(fits[0].map, k))!;
  const places = fits.map(({ path, map }) => ({
    path: [...path, key],
    line: lineOfOffset(state.file, nodeRange(findPair(map, key)!.key)[0]),
  }));
  throw new ConfigRefusal(
    'ambiguous',
    `the key "${key}" fits ${places.length} places: ${places.map((p) => `${pathText(p.path)} (line ${p.line})`).join(', ')}; show its parent keys to say which`,
    places,
  );
}

/** Where a snippet that is a bare list goes: the file's root list, or the one list an item of it matches by identity. */
function placeOfSequence(state: MergeState, snippetRoot: YAMLSeq): { path: KeyPath; seq: YAMLSeq } {
  const fileRoot = state.fileDoc.contents;
  if (isSeq(fileRoot)) {
    return { path: [], seq: fileRoot };
  }
  const lists: Array<{ path: KeyPath; seq: YAMLSeq }> = [];
  const walk = (node: unknown, path: KeyPath) => {
    if (isSeq(node)) {
      lists.push({ path, seq: node });
      node.items.forEach((item, i) => walk(item, [...path, i]));
    } else if (isMap(node)) {
      for (const pair of node.items as AnyPair[]) {
        walk(pair.value, [...path, keyText(pair)]);
      }
    }
  };
  walk(fileRoot, []);
  const shown = snippetRoot.toJS(state.snippetDoc) as unknown[];
  const fits = lists.filter(({ seq }) => {
    const plan = safePlan(seq.toJS(state.fileDoc) as unknown[], shown);
    return plan !== undefined && plan.mode === 'identity' && plan.matches.size > 0;
  });
  if (fits.length === 1) {
    return fits[0];
  }
  throw new ConfigRefusal(
    fits.length > 1 ? 'ambiguous' : 'unsupported',
    fits.length > 1
      ? `the list items fit ${fits.length} lists: ${fits.map((f) => pathText(f.path)).join(', ')}; show the list's parent keys to say which`
      : "the snippet is a bare list whose items match no list of the file by name, id, uses or key: show the list's parent keys",
  );
}

function safePlan(fileItems: unknown[], shown: unknown[]) {
  try {
    return planSequence(fileItems, shown, new Set([0]));
  } catch {
    return undefined;
  }
}

const columnOf = (text: string, offset: number) => offset - lineStartAt(text, offset);

/** Snippet text from..to, its lines after the first moved by `shift` columns, in the file's line endings. */
function shifted(state: MergeState, from: number, to: number, shift: number): string {
  const lines = state.snippet.text.slice(from, to).replace(/\n$/, '').split('\n');
  const moved = lines.map((line, i) => {
    if (i === 0 || line.trim() === '') {
      return i === 0 ? line : '';
    }
    return shift >= 0 ? ' '.repeat(shift) + line : line.slice(Math.min(-shift, line.length - line.trimStart().length));
  });
  return withEol(moved.join('\n'), state.eol);
}

/** Where a pair's value ends (before the line break of a block collection). */
function pairEnd(text: string, pair: AnyPair): number {
  let end = pair.value ? nodeRange(pair.value)[1] : nodeRange(pair.key)[1];
  while (end > 0 && (text[end - 1] === '\n' || text[end - 1] === '\r')) {
    end--;
  }
  return end;
}

/** A snippet pair written at a column of the file, with its own trailing comment when `withComment`. */
function renderPair(state: MergeState, pair: AnyPair, column: number, withComment: boolean): string {
  const text = state.snippet.text;
  const start = nodeRange(pair.key)[0];
  let end = pairEnd(text, pair);
  if (withComment) {
    const rest = /^[ \t]*#[^\n]*/.exec(text.slice(end));
    end += rest ? rest[0].length : 0;
  }
  return shifted(state, start, end, column - columnOf(text, start));
}

/** Inserts text as whole lines at a line start of the file (or at its end, adding the missing line break). */
function insertLines(state: MergeState, offset: number, lines: string): number {
  const atEndWithoutBreak = offset === state.file.length && state.file.length > 0 && !state.file.endsWith('\n');
  state.edits.push({ offset, length: 0, content: atEndWithoutBreak ? state.eol + lines : lines + state.eol });
  return state.edits.length - 1;
}

function mergeMapping(state: MergeState, fileMap: YAMLMap, snippetMap: YAMLMap, path: KeyPath, snippetPath: KeyPath): void {
  if (fileMap.flow) {
    rewriteFlow(state, fileMap, snippetMap, path, snippetPath);
    return;
  }
  const snippetPairs = snippetMap.items as AnyPair[];
  const shownKeys = new Set(snippetPairs.map(keyText));
  state.kept.push({ path, keys: (fileMap.items as AnyPair[]).map(keyText).filter((key) => !shownKeys.has(key)) });
  const filePairs = fileMap.items as AnyPair[];
  const column = columnOf(state.file, nodeRange(filePairs[0].key)[0]);
  const atEnd: AnyPair[] = [];
  let anchor: AnyPair | undefined;
  for (const pair of snippetPairs) {
    const key = keyText(pair);
    const filePair = findPair(fileMap, key);
    if (filePair) {
      mergePairValue(state, filePair, pair, [...path, key], [...snippetPath, key]);
      anchor = filePair;
    } else if (anchor) {
      addPair(state, lineEndAfter(state.file, pairEnd(state.file, anchor)), pair, column, [...path, key]);
    } else {
      atEnd.push(pair);
    }
  }
  // Keys with no preceding key go after the mapping's last pair, once everything nested in it is placed.
  const end = lineEndAfter(state.file, pairEnd(state.file, filePairs[filePairs.length - 1]));
  for (const pair of atEnd) {
    addPair(state, end, pair, column, [...path, keyText(pair)]);
  }
}

function addPair(state: MergeState, offset: number, pair: AnyPair, column: number, path: KeyPath): void {
  const indent = ' '.repeat(column);
  const comments = hashCommentsAbove(state.snippet.text, lineStartAt(state.snippet.text, nodeRange(pair.key)[0]));
  const lines = [...comments.map((comment) => indent + comment), indent + renderPair(state, pair, column, true)];
  const edit = insertLines(state, offset, lines.join(state.eol));
  const leadingBreak = state.edits[edit].content.startsWith(state.eol) && offset === state.file.length ? 1 : 0;
  state.changes.push({ path, action: 'added', at: { edit, lineInContent: leadingBreak + comments.length } });
}

const jsOf = (node: unknown, doc: YamlDoc): unknown =>
  node && typeof (node as Node).toJS === 'function' ? (node as Node).toJS(doc) : (node ?? null);

function mergePairValue(state: MergeState, filePair: AnyPair, snippetPair: AnyPair, path: KeyPath, snippetPath: KeyPath): void {
  const fileValue = filePair.value;
  const snippetValue = snippetPair.value;
  const keyOffset = nodeRange(filePair.key)[0];
  if (isMap(fileValue) && isMap(snippetValue)) {
    mergeMapping(state, fileValue, snippetValue, path, snippetPath);
    return;
  }
  if (isSeq(fileValue) && isSeq(snippetValue)) {
    mergeSequence(state, { file: filePair, snippet: snippetPair }, fileValue, snippetValue, path, snippetPath, false);
    return;
  }
  if (isAlias(fileValue) || isAlias(snippetValue)) {
    if (!sameValue(jsOf(fileValue, state.fileDoc), jsOf(snippetValue, state.snippetDoc))) {
      throw new ConfigRefusal('unsupported', `${pathText(path)} is a YAML alias (*name): change the anchor it refers to instead`);
    }
  }
  if (sameValue(jsOf(fileValue, state.fileDoc), jsOf(snippetValue, state.snippetDoc)) && sameTag(fileValue, snippetValue)) {
    state.changes.push({ path, action: 'unchanged', at: { fileOffset: keyOffset } });
    return;
  }
  if (isScalar(fileValue) && nodeRange(fileValue)[0] === nodeRange(fileValue)[1] && fillEmptyValue(state, filePair, snippetPair)) {
    state.changes.push({ path, action: 'set', at: { fileOffset: keyOffset } });
    return;
  }
  const scalarText = isScalar(fileValue) && isScalar(snippetValue) ? renderScalar(state, fileValue, snippetValue) : undefined;
  if (scalarText !== undefined && isScalar(fileValue)) {
    const [start, end] = nodeRange(fileValue);
    state.edits.push({ offset: start, length: end - start, content: scalarText });
  } else {
    const end = pairEnd(state.file, filePair);
    const column = columnOf(state.file, keyOffset);
    state.edits.push({ offset: keyOffset, length: end - keyOffset, content: renderPair(state, snippetPair, column, false) });
  }
  state.changes.push({ path, action: 'set', at: { fileOffset: keyOffset } });
}

/**
 * A key of the file with no value (`key:`, maybe with a comment after it) given one: a one-line value
 * after the colon, a block value on the lines after the key's line (its comment stays on the key's line).
 */
function fillEmptyValue(state: MergeState, filePair: AnyPair, snippetPair: AnyPair): boolean {
  const colon = state.file.indexOf(':', nodeRange(filePair.key)[1]);
  const value = snippetPair.value;
  if (colon < 0 || !value) {
    return false;
  }
  const text = state.snippet.text;
  const [start, end] = nodeRange(value);
  const written = text.slice(start, end).replace(/\n$/, '');
  const block = (isMap(value) || isSeq(value)) && !value.flow;
  if (!block && !written.includes('\n')) {
    const after = state.file[colon + 1];
    state.edits.push({ offset: colon + 1, length: 0, content: ` ${written}${after === undefined || /\s/.test(after) ? '' : ' '}` });
    return true;
  }
  if (!block) {
    return false;
  }
  const shift = columnOf(state.file, nodeRange(filePair.key)[0]) - columnOf(text, nodeRange(snippetPair.key)[0]);
  const lines = text
    .slice(lineStartAt(text, start), end)
    .replace(/\n$/, '')
    .split('\n')
    .map((line) =>
      line.trim() === '' ? '' : shift >= 0 ? ' '.repeat(shift) + line : line.slice(Math.min(-shift, line.length - line.trimStart().length)),
    );
  insertLines(state, lineEndAfter(state.file, colon), withEol(lines.join('\n'), state.eol));
  return true;
}

const sameTag = (a: unknown, b: unknown) => ((a as Node | null)?.tag ?? undefined) === ((b as Node | null)?.tag ?? undefined);

/**
 * A new scalar written where the file's was: in the file's quote style when both are strings (a plain
 * value stays as the snippet wrote it); undefined when the value must be written as a whole pair (an
 * empty value, a multi-line one).
 */
function renderScalar(state: MergeState, fileValue: Node, snippetValue: Node): string | undefined {
  const [start, end] = nodeRange(fileValue);
  const [snippetStart, snippetEnd] = nodeRange(snippetValue);
  const written = state.snippet.text.slice(snippetStart, snippetEnd);
  if (start === end || written.includes('\n') || state.file.slice(start, end).includes('\n')) {
    return undefined;
  }
  const value = isScalar(snippetValue) ? snippetValue.value : undefined;
  const fileType = isScalar(fileValue) ? fileValue.type : undefined;
  if (typeof value === 'string' && isScalar(snippetValue) && snippetValue.type !== fileType && !/[\n\r]/.test(value)) {
    if (fileType === 'QUOTE_DOUBLE') {
      return JSON.stringify(value);
    }
    if (fileType === 'QUOTE_SINGLE') {
      return `'${value.replace(/'/g, "''")}'`;
    }
  }
  return written;
}

/** A flow collection of the file changed: written again whole, in flow style, from the merged value. */
function rewriteFlow(
  state: MergeState,
  fileNode: YAMLMap | YAMLSeq,
  snippetNode: YAMLMap | YAMLSeq,
  path: KeyPath,
  snippetPath: KeyPath,
): void {
  const before = jsOf(fileNode, state.fileDoc);
  const merged = mergeValues(before, jsOf(snippetNode, state.snippetDoc), (p) =>
    placeholderGaps(state.snippet, state.snippetDoc, [...snippetPath, ...p]),
  );
  const [start, end] = nodeRange(fileNode);
  if (sameValue(before, merged)) {
    state.changes.push({ path, action: 'unchanged', at: { fileOffset: start } });
    return;
  }
  const [snippetStart, snippetEnd] = nodeRange(snippetNode);
  const written = state.snippet.text.slice(snippetStart, snippetEnd);
  const asWritten = snippetNode.flow && sameValue(merged, jsOf(snippetNode, state.snippetDoc)) && !written.includes('\n');
  const text = asWritten ? written : stringify(merged, { collectionStyle: 'flow', lineWidth: 0 }).replace(/\n$/, '');
  state.edits.push({ offset: start, length: end - start, content: text });
  state.changes.push({ path, action: 'set', at: { fileOffset: start } });
}

/** Where the snippet's list at a snippet path (from the snippet document's root) has placeholders. */
function placeholderGaps(snippet: PreparedSnippet, snippetDoc: YamlDoc, snippetPath: KeyPath): Set<number> | undefined {
  const node = snippetPath.length === 0 ? snippetDoc.contents : snippetDoc.getIn(snippetPath, true);
  if (!isSeq(node) || node.flow) {
    return undefined;
  }
  return snippet.listPlaceholderGaps(
    nodeRange(node),
    node.items.map((item) => dashOf(snippet.text, item)),
  );
}

function mergeSequence(
  state: MergeState,
  pairs: { file: AnyPair; snippet: AnyPair } | undefined,
  fileSeq: YAMLSeq,
  snippetSeq: YAMLSeq,
  path: KeyPath,
  snippetPath: KeyPath,
  bare: boolean,
): void {
  const fileItems = fileSeq.items.map((item) => jsOf(item, state.fileDoc));
  const snippetItems = snippetSeq.items.map((item) => jsOf(item, state.snippetDoc));
  const start = nodeRange(fileSeq)[0];
  if (fileSeq.flow || snippetSeq.flow || fileSeq.items.length === 0) {
    if (sameValue(fileItems, snippetItems) || (fileSeq.flow && snippetSeq.flow)) {
      rewriteFlow(state, fileSeq, snippetSeq, path, snippetPath);
    } else if (pairs) {
      const keyOffset = nodeRange(pairs.file.key)[0];
      const rendered = renderPair(state, pairs.snippet, columnOf(state.file, keyOffset), false);
      state.edits.push({ offset: keyOffset, length: pairEnd(state.file, pairs.file) - keyOffset, content: rendered });
      state.changes.push({ path, action: 'set', at: { fileOffset: keyOffset } });
    } else {
      throw new ConfigRefusal('unsupported', 'a list written in flow style ([a, b]) cannot take block items here');
    }
    return;
  }
  const plan = planSequence(fileItems, snippetItems, bare ? new Set([0]) : placeholderGaps(state.snippet, state.snippetDoc, snippetPath));
  if (plan.mode === 'whole' && plan.removed.size === 0 && plan.insertAfter.size === 0) {
    state.changes.push({ path, action: 'unchanged', at: { fileOffset: start } });
    return;
  }
  for (const [j, i] of plan.matches) {
    const fileItem = fileSeq.items[i];
    const snippetItem = snippetSeq.items[j];
    if (plan.mode !== 'whole' && isMap(fileItem) && isMap(snippetItem)) {
      mergeMapping(state, fileItem, snippetItem, [...path, i], [...snippetPath, j]);
    }
  }
  for (const i of plan.removed) {
    const [from, to] = itemLines(state.file, fileSeq.items[i]);
    state.edits.push({ offset: from, length: to - from, content: '' });
    state.changes.push({ path: [...path, i], action: 'removed', at: { fileOffset: from } });
  }
  const column = columnOf(state.file, dashOf(state.file, fileSeq.items[0]));
  for (const [j, after] of plan.insertAfter) {
    const offset = after < 0 ? itemLines(state.file, fileSeq.items[0])[0] : itemLines(state.file, fileSeq.items[after])[1];
    const item = snippetSeq.items[j];
    const dash = dashOf(state.snippet.text, item);
    const end = nodeRange(item)[1];
    const edit = insertLines(state, offset, ' '.repeat(column) + shifted(state, dash, end, column - columnOf(state.snippet.text, dash)));
    state.changes.push({ path: [...path, j], action: 'added', at: { edit, lineInContent: 0 } });
  }
}

/** The `-` of a block list item (refused when the item shares its line with another list's dash). */
function dashOf(text: string, item: unknown): number {
  let at = nodeRange(item)[0] - 1;
  while (at >= 0 && /\s/.test(text[at])) {
    at--;
  }
  if (text[at] !== '-' || text.slice(lineStartAt(text, at), at).trim() !== '') {
    throw new ConfigRefusal(
      'unsupported',
      `a list item at line ${lineOfOffset(text, at)} is not on a line of its own ("- item"), so it cannot be edited as lines`,
    );
  }
  return at;
}

/** The whole lines of a block list item: from its dash's line start to after its last line. */
function itemLines(text: string, item: unknown): [number, number] {
  return [lineStartAt(text, dashOf(text, item)), lineEndAfter(text, nodeRange(item)[1])];
}

/** The re-parse check: the merged text parses, and its value is the rules' value of the file's and the snippet's. */
function auditYaml(
  fileDocs: YamlDoc[],
  targets: Array<{ docIndex: number; path: KeyPath; snippetDoc: YamlDoc }>,
  snippet: PreparedSnippet,
  merged: string,
): void {
  const parsed = parseAllDocuments(merged);
  const mergedDocs = Array.isArray(parsed) ? parsed : [];
  const error = mergedDocs.map((doc) => parseErrorText(doc)).find((e) => e !== undefined);
  if (error || mergedDocs.length !== fileDocs.length) {
    throw new ConfigRefusal('audit', `the merged YAML does not parse (${error ?? 'its documents changed'}); nothing was written`);
  }
  fileDocs.forEach((fileDoc, i) => {
    let expected = fileDoc.toJS() as unknown;
    for (const target of targets.filter((t) => t.docIndex === i)) {
      const bare = isSeq(target.snippetDoc.contents);
      expected = replaceAt(expected, target.path, (value) =>
        mergeValues(value, target.snippetDoc.toJS(), (p) =>
          bare && p.length === 0 ? new Set([0]) : placeholderGaps(snippet, target.snippetDoc, p),
        ),
      );
    }
    const difference = firstDifference(expected, mergedDocs[i].toJS());
    if (difference) {
      throw new ConfigRefusal(
        'audit',
        `the merged YAML would change ${pathText(difference)} other than the rules say; nothing was written`,
      );
    }
  });
}

function replaceAt(value: unknown, path: KeyPath, change: (value: unknown) => unknown): unknown {
  if (path.length === 0) {
    return change(value);
  }
  const [head, ...rest] = path;
  if (Array.isArray(value) && typeof head === 'number') {
    return value.map((item, i) => (i === head ? replaceAt(item, rest, change) : item));
  }
  if (isPlainMap(value)) {
    return { ...value, [head]: replaceAt(value[head], rest, change) };
  }
  return value;
}
