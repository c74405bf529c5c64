// The last parse tree of a few documents, so that a code block applied to a large file does not parse
// the whole file again (a full tree-sitter parse of 10,000 lines takes 50-90 ms; an edited tree reparses
// in a few). A caller that names its document (applySnippet's `documentKey`: the document's URI in the
// editor, the absolute path in the MCP server) gets the tree of its previous text, told where the text
// changed (Tree.edit) and reparsed incrementally; the same text reuses the outline. Bounded, least
// recently used first out, and each tree dropped is deleted (it lives in the WASM heap, not the JS one).

import type * as TreeSitter from 'web-tree-sitter';
import type { Outline } from './outline';

/** Where two texts differ, as Tree.edit takes it: indexes and columns in UTF-16 code units (web-tree-sitter's for JS strings). */
export function editBetween(oldText: string, newText: string): TreeSitter.Edit | undefined {
  if (oldText === newText) {
    return undefined;
  }
  const shorter = Math.min(oldText.length, newText.length);
  // Whole chunks first (a string comparison runs in the engine's native code), then character by character.
  let prefix = 0;
  while (prefix + CHUNK <= shorter && oldText.slice(prefix, prefix + CHUNK) === newText.slice(prefix, prefix + CHUNK)) {
    prefix += CHUNK;
  }
  while (prefix < shorter && oldText.charCodeAt(prefix) === newText.charCodeAt(prefix)) {
    prefix++;
  }
  // Never split a surrogate pair: the changed range starts before a high surrogate it would cut.
  if (prefix > 0 && isHighSurrogate(oldText.charCodeAt(prefix - 1))) {
    prefix--;
  }
  const room = shorter - prefix;
  let suffix = 0;
  while (
    suffix + CHUNK <= room &&
    oldText.slice(oldText.length - suffix - CHUNK, oldText.length - suffix) ===
      newText.slice(newText.length - suffix - CHUNK, newText.length - suffix)
  ) {
    suffix += CHUNK;
  }
  while (suffix < room && oldText.charCodeAt(oldText.length - 1 - suffix) === newText.charCodeAt(newText.length - 1 - suffix)) {
    suffix++;
  }
  if (suffix > 0 && isLowSurrogate(oldText.charCodeAt(oldText.length - suffix))) {
    suffix--;
  }
  const start = pointAt(oldText, prefix, { row: 0, column: 0 }, 0);
  return {
    startIndex: prefix,
    oldEndIndex: oldText.length - suffix,
    newEndIndex: newText.length - suffix,
    startPosition: start,
    oldEndPosition: pointAt(oldText, oldText.length - suffix, start, prefix),
    newEndPosition: pointAt(newText, newText.length - suffix, start, prefix),
  };
}

const CHUNK = 2_048;

const isHighSurrogate = (code: number): boolean => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number): boolean => code >= 0xdc00 && code <= 0xdfff;

/** Row and column of `index` in `text`, counting on from a known point `from` at index `fromIndex`. */
function pointAt(text: string, index: number, from: TreeSitter.Point, fromIndex: number): TreeSitter.Point {
  let row = from.row;
  let lineStart = fromIndex - from.column;
  for (let i = text.indexOf('\n', fromIndex); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) {
    row++;
    lineStart = i + 1;
  }
  return { row, column: index - lineStart };
}

interface CachedTree {
  grammar: string;
  text: string;
  tree: TreeSitter.Tree;
  outline: Outline;
}

/**
 * How many documents keep a tree, and how much text in all: a tree takes about 25 times its text's size
 * in the WASM heap (a 400 KB file's ~10 MB), and that heap never shrinks, so about 50 MB at most.
 */
export const TREE_CACHE_LIMITS = { documents: 6, chars: 2_000_000 };

const cache = new Map<string, CachedTree>();

/**
 * How each keyed read was served since the process started (the bench prints them, the tests check them):
 * the same text's outline reused, an edited tree reparsed, a reparse that met a syntax error and was
 * parsed again from scratch, a parse from scratch (first read, other grammar, or the previous text had errors).
 */
export const treeCacheStats = { reused: 0, reparsed: 0, reparsedWithErrors: 0, parsed: 0 };

/**
 * A copy of the outline: what a caller does with the declarations never reaches the cached ones. A
 * structured clone copies every field (overload groups included) and keeps objects shared within it shared.
 */
const copyOf = (outline: Outline): Outline => structuredClone(outline);

/**
 * The outline of `text` under `key`, read by `read` from a tree that `parse` makes: from scratch, or from
 * the key's previous tree edited to this text. The same text under the same key and grammar reuses the outline.
 */
export function cachedOutline(
  key: string,
  grammar: string,
  text: string,
  parse: (text: string, oldTree?: TreeSitter.Tree) => TreeSitter.Tree,
  read: (tree: TreeSitter.Tree) => Outline,
): Outline {
  const previous = cache.get(key);
  cache.delete(key);
  if (previous && previous.grammar === grammar && previous.text === text) {
    cache.set(key, previous);
    treeCacheStats.reused++;
    return copyOf(previous.outline);
  }
  let tree: TreeSitter.Tree;
  try {
    // A tree with errors is not reused: its text's next version most likely has them too (see below).
    const reusable = previous && previous.grammar === grammar && previous.outline.errors === 0;
    const edit = reusable ? editBetween(previous.text, text) : undefined;
    if (previous && edit) {
      previous.tree.edit(edit);
      tree = parse(text, previous.tree);
      // Error recovery depends on which subtrees were reused: a reparse that meets a syntax error may
      // read the broken part differently from a fresh parse (seen in test/unit/treeCache.test.ts), so
      // such a text is parsed from scratch. An error-free reparse is the fresh parse's tree.
      if (tree.rootNode.hasError) {
        tree.delete();
        tree = parse(text);
        treeCacheStats.reparsedWithErrors++;
      } else {
        treeCacheStats.reparsed++;
      }
    } else {
      tree = parse(text);
      treeCacheStats.parsed++;
    }
  } finally {
    previous?.tree.delete();
  }
  let outline: Outline;
  try {
    outline = read(tree);
  } catch (error) {
    tree.delete();
    throw error;
  }
  cache.set(key, { grammar, text, tree, outline });
  evictBeyondLimits();
  return copyOf(outline);
}

function evictBeyondLimits(): void {
  let chars = 0;
  for (const entry of cache.values()) {
    chars += entry.text.length;
  }
  // Map order is insertion order: the first key is the least recently used.
  for (const [key, entry] of cache) {
    if (cache.size <= TREE_CACHE_LIMITS.documents && chars <= TREE_CACHE_LIMITS.chars) {
      break;
    }
    // The entry just used is last and always stays, however large.
    if (cache.size === 1) {
      break;
    }
    cache.delete(key);
    chars -= entry.text.length;
    entry.tree.delete();
  }
}

/** Drops every cached tree (tests; a document known to be gone). */
export function clearTreeCache(): void {
  for (const entry of cache.values()) {
    entry.tree.delete();
  }
  cache.clear();
}

/** The keys that hold a tree, least recently used first (tests). */
export function cachedTreeKeys(): string[] {
  return [...cache.keys()];
}
