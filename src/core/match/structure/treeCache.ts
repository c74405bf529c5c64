// The last parse tree of a few documents, so that a code block applied to a large file does not parse
// the whole file again (a full tree-sitter parse of 10,000 lines takes 50-90 ms; an edited tree reparses
// in a few). A caller that names its document (applySnippet's `documentKey`: the document's URI in the
// editor, the absolute path in the MCP server) gets the tree of its previous text, told where the text
// changed (Tree.edit) and reparsed incrementally; a text it holds (the last two read) reuses the outline. Bounded, least
// recently used first out, and each tree dropped is deleted (it lives in the WASM heap, not the JS one).

import type * as TreeSitter from 'web-tree-sitter';
import type { TextEdit } from '../../types';
import { copyDecls, type Decl, type Outline } from './outline';

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

/** A tree reparsed from an older one: what its reader kept from that one, the edit, and the ranges whose syntax changed (Tree.getChangedRanges). */
export interface Reparsed<M> {
  memo: M;
  edit: TreeSitter.Edit;
  changed: readonly TreeSitter.Range[];
}

interface CachedTree {
  grammar: string;
  text: string;
  tree: TreeSitter.Tree;
  outline: Outline;
  /** What the reader kept from reading this tree, handed to the read of the tree reparsed from it. */
  memo: unknown;
}

/**
 * How many documents keep a tree, and how much text in all: a tree takes about 25 times its text's size
 * in the WASM heap (a 400 KB file's ~10 MB), and that heap never shrinks, so about 50 MB at most.
 */
export const TREE_CACHE_LIMITS = { documents: 6, chars: 2_000_000 };

/**
 * Each key's trees, the text read last first: that one, and the version read before it. A code block's
 * audit reads the planned result under the document's key, and the document itself is often read again
 * (a Preview, then Apply; a refusal, then another block): both are kept, so neither is parsed twice.
 */
const cache = new Map<string, CachedTree[]>();

/** Versions a key keeps: the text read last and the one before it. */
const VERSIONS = 2;

/**
 * How each keyed read was served since the process started (the bench prints them, the tests check them):
 * the same text's outline reused, an edited tree reparsed, a reparse that met a syntax error and was
 * parsed again from scratch, a parse from scratch (first read, other grammar, or the previous text had errors).
 */
export const treeCacheStats = { reused: 0, reparsed: 0, reparsedWithErrors: 0, parsed: 0 };

/**
 * A copy of the outline: what a caller does with the declarations never reaches the cached ones (copyDecls
 * copies every field, overload groups included, and keeps what is shared within them shared).
 */
const copyOf = (outline: Outline): Outline => ({ ...outline, decls: copyDecls(outline.decls) });

/** How a keyed read is asked for, beyond its text. */
export interface KeyedRead {
  /**
   * The text as an older text and the edits that make it (sorted, apart, in the older text's offsets). A
   * version the key holds is compared with it piece by piece: a text made by concatenation (the engine's
   * result) is then not copied whole to be compared (a new flat string of 400 KB costs V8 over a
   * millisecond: it is allocated in the large-object space), only when it must be parsed.
   */
  editOf?: { base: string; edits: readonly TextEdit[] };
  /** The caller only reads the outline: the kept one is returned as it is (frozen), not a copy. */
  readOnly?: boolean;
  /** The text's lines (split at \n) when the caller has them: a parse reads them instead of splitting the text again. */
  lines?: readonly string[];
}

/** Whether a kept version's text is `text`, made from `editOf.base` by `editOf.edits` when those are given. */
function sameText(kept: string, text: string, editOf: KeyedRead['editOf']): boolean {
  if (kept.length !== text.length) {
    return false;
  }
  if (!editOf) {
    return kept === text;
  }
  // Slices of flat strings are compared in place (the engine's memcmp); `text` itself is never read.
  const { base, edits } = editOf;
  let from = 0;
  let shift = 0;
  for (const edit of edits) {
    const at = edit.start + shift;
    if (kept.slice(from + shift, at) !== base.slice(from, edit.start) || kept.slice(at, at + edit.newText.length) !== edit.newText) {
      return false;
    }
    shift += edit.newText.length - (edit.end - edit.start);
    from = edit.end;
  }
  return kept.slice(from + shift) === base.slice(from);
}

/** Freezes an outline kept for read-only callers, so that a change to it fails where it is made. */
function freezeOutline(outline: Outline): void {
  const freezeDecls = (decls: readonly Decl[]): void => {
    if (Object.isFrozen(decls)) {
      return;
    }
    for (const decl of decls) {
      freezeDecls(decl.children);
      if (decl.overloads) {
        freezeDecls(decl.overloads.signatures);
        freezeDecls([decl.overloads.implementation]);
        Object.freeze(decl.overloads);
      }
      if (decl.interior) {
        Object.freeze(decl.interior);
      }
      Object.freeze(decl);
    }
    Object.freeze(decls);
  };
  freezeDecls(outline.decls);
  Object.freeze(outline);
}

/**
 * The outline of `text` under `key`, read by `read` from a tree that `parse` makes: from scratch, or from
 * a copy of the key's last tree edited to this text (that tree stays, as the key's older version). A text
 * the key holds under the same grammar reuses its outline. When the tree is the last tree reparsed, `read`
 * gets what it kept from reading that tree (its memo), the edit, and the ranges whose syntax changed.
 */
export function cachedOutline<M>(
  key: string,
  grammar: string,
  text: string,
  parse: (text: string, oldTree?: TreeSitter.Tree) => TreeSitter.Tree,
  read: (tree: TreeSitter.Tree, previous: Reparsed<M> | undefined) => { outline: Outline; memo: M },
  how: KeyedRead = {},
): Outline {
  const versions = cache.get(key) ?? [];
  cache.delete(key);
  const same = versions.findIndex((v) => v.grammar === grammar && sameText(v.text, text, how.editOf));
  if (same >= 0) {
    const [found] = versions.splice(same, 1);
    cache.set(key, [found, ...versions]);
    treeCacheStats.reused++;
    return how.readOnly ? found.outline : copyOf(found.outline);
  }
  const previous = versions[0];
  let tree: TreeSitter.Tree | undefined;
  let made: { outline: Outline; memo: M };
  try {
    // A tree with errors is not reused: its text's next version most likely has them too (see below).
    const reusable = previous && previous.grammar === grammar && previous.outline.errors === 0;
    const edit = reusable ? editBetween(previous.text, text) : undefined;
    let from: Reparsed<M> | undefined;
    let changed: TreeSitter.Range[] = [];
    if (previous && edit) {
      // Edited as a copy (which shares the subtrees), so that the previous tree stays as it was.
      const edited = previous.tree.copy();
      try {
        edited.edit(edit);
        tree = parse(text, edited);
        changed = edited.getChangedRanges(tree);
      } finally {
        edited.delete();
      }
      // Error recovery depends on which subtrees were reused: a reparse that meets a syntax error may
      // read the broken part differently from a fresh parse (seen in test/unit/treeCache.test.ts), so
      // such a text is parsed from scratch. An error-free reparse is the fresh parse's tree.
      if (tree.rootNode.hasError) {
        tree.delete();
        tree = undefined;
        tree = parse(text);
        treeCacheStats.reparsedWithErrors++;
      } else {
        from = { memo: previous.memo as M, edit, changed };
        treeCacheStats.reparsed++;
      }
    } else {
      tree = parse(text);
      treeCacheStats.parsed++;
    }
    made = read(tree, from);
  } catch (error) {
    tree?.delete();
    cache.set(key, versions);
    evictBeyondLimits();
    throw error;
  }
  const kept = [{ grammar, text, tree, outline: made.outline, memo: made.memo }, ...versions];
  for (const old of kept.splice(VERSIONS)) {
    old.tree.delete();
  }
  cache.set(key, kept);
  evictBeyondLimits();
  freezeOutline(made.outline);
  return how.readOnly ? made.outline : copyOf(made.outline);
}

function evictBeyondLimits(): void {
  let chars = 0;
  for (const versions of cache.values()) {
    for (const v of versions) {
      chars += v.text.length;
    }
  }
  // Map order is insertion order: the first key is the least recently used.
  for (const [key, versions] of cache) {
    if (cache.size <= TREE_CACHE_LIMITS.documents && chars <= TREE_CACHE_LIMITS.chars) {
      break;
    }
    // The entry just used is last and always stays, however large; its older version goes first.
    if (cache.size === 1) {
      while (versions.length > 1 && chars > TREE_CACHE_LIMITS.chars) {
        const old = versions.pop()!;
        chars -= old.text.length;
        old.tree.delete();
      }
      break;
    }
    cache.delete(key);
    for (const v of versions) {
      chars -= v.text.length;
      v.tree.delete();
    }
  }
}

/** Drops every cached tree (tests; a document known to be gone). */
export function clearTreeCache(): void {
  for (const versions of cache.values()) {
    for (const v of versions) {
      v.tree.delete();
    }
  }
  cache.clear();
}

/** The keys that hold a tree, least recently used first (tests). */
export function cachedTreeKeys(): string[] {
  return [...cache.keys()];
}
