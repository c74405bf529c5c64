// Declarations read by tree-sitter (web-tree-sitter's runtime, VS Code's WASM grammars). Core does no I/O:
// the bytes of the runtime and of each grammar come from a GrammarSource the way in provides (the CLI reads
// dist/grammars/, the extension hosts read them through vscode.workspace.fs). The runtime is loaded on
// first use and each grammar once; a tree is turned into plain Decl data at once and freed, unless the
// caller names its document (then treeCache.ts keeps it for an incremental reparse of the next version).

import type * as TreeSitter from 'web-tree-sitter';
import { copyDecls, type Decl, groupOverloads, type Outline, outlineRange } from './outline';
import { type DeclRule, type GrammarSpec, TREE_SITTER_RUNTIME } from './languages';
import { functionDeclarator, nameByRule } from './declNames';
import { cachedOutline, editBetween, type KeyedRead, type Reparsed } from './treeCache';

/** Bytes of a file shipped with the product (the tree-sitter runtime .wasm, a grammar .wasm), by file name; undefined when not shipped. */
export interface GrammarSource {
  load(file: string): Promise<Uint8Array | undefined>;
}

type TreeSitterModule = typeof TreeSitter;
type SyntaxNode = TreeSitter.Node;

let runtime: Promise<TreeSitterModule> | undefined;
const languages = new Map<string, Promise<TreeSitter.Language>>();
const parsers = new Map<string, TreeSitter.Parser>();

async function loadRuntime(source: GrammarSource): Promise<TreeSitterModule> {
  const wasmBinary = await source.load(TREE_SITTER_RUNTIME);
  if (!wasmBinary) {
    throw new Error(`the tree-sitter runtime (${TREE_SITTER_RUNTIME}) is not shipped`);
  }
  // Required here, not imported: its emscripten glue is evaluated on the first code block, not when the
  // engine loads. The bytes are handed over, so it never looks for a file (no fetch, no node:fs).
  const module = require('web-tree-sitter') as TreeSitterModule;
  await module.Parser.init({ wasmBinary } as unknown as Parameters<TreeSitterModule['Parser']['init']>[0]);
  return module;
}

/** A parser for the grammar, loading the runtime and the grammar on first use. Rejects naming what is missing. */
async function parserFor(grammar: GrammarSpec, source: GrammarSource): Promise<TreeSitter.Parser> {
  const cached = parsers.get(grammar.id);
  if (cached) {
    return cached;
  }
  if (!runtime) {
    runtime = loadRuntime(source);
    runtime.catch(() => (runtime = undefined));
  }
  const module = await runtime;
  let language = languages.get(grammar.id);
  if (!language) {
    language = (async () => {
      const bytes = await source.load(grammar.file);
      if (!bytes) {
        throw new Error(`the ${grammar.id} grammar (${grammar.file}) is not shipped`);
      }
      return module.Language.load(bytes);
    })();
    languages.set(grammar.id, language);
    language.catch(() => languages.delete(grammar.id));
  }
  const parser = new module.Parser();
  parser.setLanguage(await language);
  parsers.set(grammar.id, parser);
  return parser;
}

/** Loads what reading `grammar` needs (runtime and grammar), so that parseOutline can run synchronously. */
export async function prepareGrammar(grammar: GrammarSpec, source: GrammarSource): Promise<void> {
  await parserFor(grammar, source);
}

/** Whether prepareGrammar has finished for this grammar. */
export function grammarReady(grammar: GrammarSpec): boolean {
  return parsers.has(grammar.id);
}

/**
 * The declarations of `text` as the grammar reads them; prepareGrammar must have finished. With a
 * `documentKey` the tree is kept (treeCache.ts): the next text under that key reparses only what changed
 * (`how`: the text as an edit of another, an outline only read).
 */
export function parseOutline(grammar: GrammarSpec, text: string, documentKey?: string, how?: KeyedRead): Outline {
  const parser = parsers.get(grammar.id);
  if (!parser) {
    throw new Error(`the ${grammar.id} grammar is not loaded`);
  }
  const parse = (source: string, oldTree?: TreeSitter.Tree): TreeSitter.Tree => {
    const tree = parser.parse(source, oldTree);
    if (!tree) {
      throw new Error(`tree-sitter could not parse the text as ${grammar.id}`);
    }
    return tree;
  };
  if (documentKey !== undefined) {
    return cachedOutline<TopReads>(
      documentKey,
      grammar.id,
      text,
      parse,
      (tree, previous) => {
        const reads: TopReads = new Map();
        return { outline: outlineOfTree(grammar, tree, text, { previous, next: reads }, how?.lines), memo: reads };
      },
      how,
    );
  }
  const tree = parse(text);
  try {
    return outlineOfTree(grammar, tree, text);
  } finally {
    tree.delete();
  }
}

/** A text's outline with its tree kept for one incremental reparse of an edited version (the code-block audit's result). */
export interface KeptParse {
  outline: Outline;
  /** The outline of `next`, reparsed from the kept tree (from scratch when the reparse meets a syntax error); frees the tree. */
  reparse(next: string): Outline;
  /** Frees the tree without a reparse. */
  release(): void;
}

/** parseOutline that keeps the tree for KeptParse.reparse, for a caller without a documentKey. */
export function parseOutlineKept(grammar: GrammarSpec, text: string): KeptParse {
  const parser = parsers.get(grammar.id);
  if (!parser) {
    throw new Error(`the ${grammar.id} grammar is not loaded`);
  }
  let tree: TreeSitter.Tree | undefined = parser.parse(text) ?? undefined;
  if (!tree) {
    throw new Error(`tree-sitter could not parse the text as ${grammar.id}`);
  }
  const release = (): void => {
    tree?.delete();
    tree = undefined;
  };
  const reads: TopReads = new Map();
  const outline = outlineOfTree(grammar, tree, text, { next: reads });
  return {
    outline,
    release,
    reparse(next: string): Outline {
      if (next === text) {
        release();
        return outline;
      }
      let fresh: TreeSitter.Tree | undefined;
      try {
        const edit = tree && outline.errors === 0 ? editBetween(text, next) : undefined;
        if (tree && edit) {
          tree.edit(edit);
        }
        fresh = parser.parse(next, edit ? tree : undefined) ?? undefined;
        let previous: Reparsed<TopReads> | undefined =
          tree && edit && fresh ? { memo: reads, edit, changed: tree.getChangedRanges(fresh) } : undefined;
        // As in treeCache.ts: a reparse that meets a syntax error may read it differently from a fresh parse.
        if (edit && fresh?.rootNode.hasError) {
          fresh.delete();
          fresh = parser.parse(next) ?? undefined;
          previous = undefined;
        }
        if (!fresh) {
          throw new Error(`tree-sitter could not parse the text as ${grammar.id}`);
        }
        return outlineOfTree(grammar, fresh, next, { previous });
      } finally {
        fresh?.delete();
        release();
      }
    },
  };
}

/**
 * What one top-level node added to an outline (its declaration, or those of a conditional or preprocessor
 * block), with where it stood: the read of a tree reparsed from this one reuses it for a node with the same
 * text and syntax there (outside the edit and the ranges whose syntax changed, at the same place once
 * moved by the edit), moved to the node's new row, instead of reading the node again.
 */
interface TopRead {
  type: string;
  row: number;
  endRow: number;
  /** The node's first and last lines as they were (the reader also reads the text beside the node on them). */
  firstLine: string;
  lastLine: string;
  added: Added;
}

/** What a top-level node adds: a declaration, or the declarations it holds (spread into its scope). */
interface Added {
  decl?: Decl;
  spread?: Decl[];
}

/** TopRead by the node's text range ("start:end", string indexes). */
type TopReads = Map<string, TopRead>;

/** The reads of the tree this one was reparsed from, with the edit and the changed ranges; and a map to record this read's into. */
interface ReadMemo {
  previous?: Reparsed<TopReads>;
  next?: TopReads;
}

/** Top-level nodes read since the process started, and those whose read was reused from the tree reparsed (tests). */
export const topReadStats = { read: 0, reused: 0 };

function outlineOfTree(grammar: GrammarSpec, tree: TreeSitter.Tree, text: string, memo?: ReadMemo, lines?: readonly string[]): Outline {
  const reader = new DeclReader(grammar, lines ?? text.split('\n'), memo);
  const root = tree.rootNode;
  const outline: Outline = { decls: reader.declsIn(root, false, true), reader: grammar.id, errors: root.hasError ? countErrors(root) : 0 };
  if (outline.errors > 0) {
    outline.firstError = firstErrorRow(root);
  }
  return outline;
}

function countErrors(node: SyntaxNode): number {
  if (node.isError || node.isMissing) {
    return 1;
  }
  if (!node.hasError) {
    return 0;
  }
  let count = 0;
  for (const child of node.children) {
    if (child) {
      count += countErrors(child);
    }
  }
  return count;
}

function firstErrorRow(node: SyntaxNode): number | undefined {
  if (node.isError || node.isMissing) {
    return node.startPosition.row;
  }
  for (const child of node.children) {
    if (child?.hasError || child?.isMissing) {
      const row = firstErrorRow(child);
      if (row !== undefined) {
        return row;
      }
    }
  }
  return undefined;
}

/**
 * Where a node of the reparsed tree at [start, end) stood in the older tree ("start:end"), when its text
 * and syntax are that node's: it lies wholly before or after the edit (not touching it) and outside every
 * range whose syntax changed (tree-sitter: outside those, every character has the same ancestors in both
 * trees). Undefined otherwise.
 */
function placeBefore(previous: Reparsed<TopReads>, start: number, end: number): string | undefined {
  const { edit, changed } = previous;
  if (changed.some((r) => start <= r.endIndex && r.startIndex <= end)) {
    return undefined;
  }
  if (end < edit.startIndex) {
    return `${start}:${end}`;
  }
  if (start > edit.newEndIndex) {
    const moved = edit.oldEndIndex - edit.newEndIndex;
    return `${start + moved}:${end + moved}`;
  }
  return undefined;
}

/** A copy of what a top-level node added, its rows moved by `rows`. */
function copyAdded(added: Added, rows: number): Added {
  if (added.decl) {
    return { decl: copyDecls([added.decl], rows)[0] };
  }
  return added.spread ? { spread: copyDecls(added.spread, rows) } : {};
}

const stripSpace = (text: string): string => text.replace(/\s+/g, '');
/** Statements whose blocks may hold declarations of the scope they stand in. */
const CONDITIONAL = /^(if|try|with)_statement$/;
/** C and C++ conditional compilation (an include guard around a whole header): its declarations are the scope's. */
const PREPROCESSOR = /^preproc_(ifdef|if|else|elif|elifdef)$/;

class DeclReader {
  constructor(
    private readonly grammar: GrammarSpec,
    private readonly lines: readonly string[],
    private readonly memo: ReadMemo = {},
  ) {}

  /**
   * The declarations among the named children of `container`, with the comments and decorators above each.
   * Outside functions, those in the blocks of an `if`, `try` or `with` count too (a class defined only
   * `if sys.platform == "win32":`), at the depth they are written.
   */
  declsIn(container: SyntaxNode, inFunction = false, top = false): Decl[] {
    const decls: Decl[] = [];
    /** Declarations read from a node with a syntax error in it, and the lines of other such nodes. */
    const erred = new Set<Decl>();
    const broken: Array<{ start: number; end: number }> = [];
    const children = container.namedChildren.filter((c): c is SyntaxNode => c !== null);
    let leadStart: number | undefined;
    let previousEnd = -1;
    for (let i = 0; i < children.length; i++) {
      const child = children[i];
      const row = child.startPosition.row;
      if (this.grammar.leads.has(child.type)) {
        // A comment on the line where something else ends belongs to that, not to what follows.
        if (row === previousEnd) {
          previousEnd = child.endPosition.row;
          continue;
        }
        if (leadStart === undefined || row > previousEnd + 1) {
          leadStart = row;
        }
        previousEnd = child.endPosition.row;
        continue;
      }
      const lead = leadStart !== undefined && row <= previousEnd + 1 ? leadStart : row;
      leadStart = undefined;
      previousEnd = child.endPosition.row;
      const faulty = child.hasError || child.isMissing;
      const { decl, spread } = top && !faulty ? this.addedAtTop(child) : this.added(child, inFunction);
      if (decl && faulty) {
        erred.add(decl);
      } else if (!decl && faulty) {
        broken.push({ start: row, end: child.endPosition.row });
      }
      if (decl) {
        decl.lead = Math.min(lead, decl.lead);
        decls.push(decl);
      } else if (spread) {
        decls.push(...spread);
      }
    }
    const read = erred.size > 0 || broken.length > 0 ? this.withOutline(container, decls, erred, broken) : decls;
    return this.grammar.overloads ? groupOverloads(read, this.lines) : read;
  }

  /** What `child` adds to its scope: its declaration, or the declarations in its preprocessor or conditional blocks. */
  private added(child: SyntaxNode, inFunction: boolean): Added {
    const decl = this.declOf(child, child);
    if (decl) {
      return { decl };
    }
    if (PREPROCESSOR.test(child.type)) {
      return { spread: this.declsIn(child, inFunction) };
    }
    if (!inFunction && CONDITIONAL.test(child.type)) {
      return { spread: this.declsInBlocks(child).filter((d) => d.family !== 'value') };
    }
    return {};
  }

  /**
   * added() for a top-level node without syntax errors, reused from the read of the tree this one was
   * reparsed from when the node is the same subtree there (same id, same length, the same text on its first
   * and last lines), and recorded for the read of the next.
   */
  private addedAtTop(child: SyntaxNode): Added {
    const row = child.startPosition.row;
    const endRow = child.endPosition.row;
    const start = child.startIndex;
    const end = child.endIndex;
    const old = this.memo.previous && placeBefore(this.memo.previous, start, end);
    const seen = old === undefined ? undefined : this.memo.previous?.memo.get(old);
    if (
      seen &&
      seen.type === child.type &&
      seen.endRow - seen.row === endRow - row &&
      seen.firstLine === this.lines[row] &&
      seen.lastLine === this.lines[endRow]
    ) {
      // Recorded as it was (its rows are those of its own row), for a next reparse that keeps the node again.
      this.memo.next?.set(`${start}:${end}`, seen);
      topReadStats.reused++;
      return copyAdded(seen.added, row - seen.row);
    }
    topReadStats.read++;
    const added = this.added(child, false);
    // Recorded as a copy: the caller moves the lead of what it returns, and the outline's user may change it.
    this.memo.next?.set(`${start}:${end}`, {
      type: child.type,
      row,
      endRow,
      firstLine: this.lines[row],
      lastLine: this.lines[endRow],
      added: copyAdded(added, 0),
    });
    return added;
  }

  /**
   * Where the parse went wrong (an unterminated string or bracket, a file being edited), tree-sitter's
   * declarations there are guesses: a declaration with an error in it stays only when the indentation and
   * brace outline reads it with the same name and lines; elsewhere in those lines the outline's
   * declarations stand in.
   */
  private withOutline(
    container: SyntaxNode,
    decls: readonly Decl[],
    erred: ReadonlySet<Decl>,
    broken: Array<{ start: number; end: number }>,
  ): Decl[] {
    const top = container.parent === null;
    const opensMidLine = (this.lines[container.startPosition.row] ?? '').slice(0, container.startPosition.column).trim() !== '';
    const from = top ? 0 : container.startPosition.row + (opensMidLine ? 1 : 0);
    const to = top ? this.lines.length : container.endPosition.row + 1;
    const outline = outlineRange(this.lines, from, to);
    const kept = decls.filter((d) => {
      const same = !erred.has(d) || outline.some((o) => o.name === d.name && o.start === d.start && o.end === d.end);
      if (!same) {
        broken.push({ start: d.lead, end: d.end });
      }
      return same;
    });
    const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start <= b.end && b.start <= a.end;
    const standIns = outline.filter(
      (o) =>
        broken.some((b) => overlaps({ start: o.lead, end: o.end }, b)) &&
        !kept.some((d) => overlaps({ start: o.lead, end: o.end }, { start: d.lead, end: d.end })),
    );
    return [...kept, ...standIns].sort((a, b) => a.start - b.start);
  }

  /** The declarations in the blocks of a conditional statement and of its clauses (`elif`, `else`, `except`, `finally`). */
  private declsInBlocks(statement: SyntaxNode): Decl[] {
    const decls: Decl[] = [];
    for (const child of statement.namedChildren) {
      if (child?.type === 'block' || child?.type === 'statement_block') {
        decls.push(...this.declsIn(child));
      } else if (child && /_clause$/.test(child.type)) {
        decls.push(...this.declsInBlocks(child));
      }
    }
    return decls;
  }

  /** A bodiless overload signature (TypeScript), or a stub under the overload decorator (Python). */
  private isSignature(node: SyntaxNode, outer: SyntaxNode): boolean {
    const overloads = this.grammar.overloads;
    if (overloads?.signatures?.has(node.type)) {
      return true;
    }
    const decorator = overloads?.decorator;
    return decorator !== undefined && outer !== node && outer.namedChildren.some((c) => c?.type === 'decorator' && decorator.test(c.text));
  }

  /** The declaration `node` is (through wrappers such as `export`), spanning `outer`. */
  private declOf(node: SyntaxNode, outer: SyntaxNode): Decl | undefined {
    const wrapped = this.grammar.wrappers[node.type];
    if (wrapped !== undefined) {
      const inner = wrapped ? node.childForFieldName(wrapped) : node.namedChildren.find((c) => c !== null && this.isDecl(c));
      return inner ? this.declOf(inner, outer) : undefined;
    }
    const assigned = this.memberAssignment(node);
    const rule = this.grammar.decls[node.type] ?? this.variableRule(node) ?? assigned?.rule;
    if (!rule) {
      return undefined;
    }
    const name = assigned?.name ?? (rule.naming ? nameByRule(node, rule.naming, rule.bodyType) : this.nameOf(node));
    if (name === undefined) {
      return undefined;
    }
    const decl: Decl = {
      kind: rule.kind,
      family: rule.family,
      name,
      // Decorators a wrapper holds above the declaration (Python's decorated_definition) are its lead: a
      // block that shows the function without them replaces it from its own first line, and they stay.
      start: Math.max(outer.startPosition.row, node.startPosition.row),
      lead: outer.startPosition.row,
      end:
        outer.endPosition.column === 0 && outer.endPosition.row > outer.startPosition.row
          ? outer.endPosition.row - 1
          : outer.endPosition.row,
      children: [],
    };
    const params =
      node.childForFieldName('parameters') ??
      (assigned?.value ?? this.variableValue(node))?.childForFieldName('parameters') ??
      (rule.naming === 'declarator' || rule.naming === 'field' ? functionDeclarator(node)?.childForFieldName('parameters') : undefined);
    if (params) {
      decl.params = stripSpace(params.text);
    }
    if (rule.family === 'callable' && this.isSignature(node, outer)) {
      decl.signature = true;
    }
    const body = rule.bodyType
      ? node.namedChildren.find((c) => c?.type === rule.bodyType)
      : (assigned?.value.childForFieldName('body') ?? this.bodyOf(node));
    if (body) {
      decl.interior = this.interiorOf(body, decl);
      // Members are read in classes, interfaces, impls and modules. In a function only the functions and
      // classes among its statements are (`function tick()` inside `makeTicker`): its locals are its body.
      if (decl.interior && rule.family !== 'value') {
        decl.children = rule.family === 'callable' ? this.declsIn(body, true).filter((d) => d.family !== 'value') : this.declsIn(body);
        this.leadBeforeBody(body, decl.children[0]);
      }
    }
    return decl;
  }

  /** Comments between a header and its body (Ruby's `module M` then `# doc` then `class C`) lead the body's first declaration. */
  private leadBeforeBody(body: SyntaxNode, first: Decl | undefined): void {
    if (!first || first.lead !== body.startPosition.row) {
      return;
    }
    for (
      let at = body.previousNamedSibling;
      at && this.grammar.leads.has(at.type) && at.endPosition.row === first.lead - 1;
      at = at.previousNamedSibling
    ) {
      first.lead = at.startPosition.row;
    }
  }

  private isDecl(node: SyntaxNode): boolean {
    return (
      node.type in this.grammar.decls ||
      node.type in this.grammar.wrappers ||
      this.variableRule(node) !== undefined ||
      this.memberAssignment(node) !== undefined
    );
  }

  /**
   * A function or class assigned to a member (`res.cookie = function (...) {...}`, `Foo.prototype.bar =
   * () => ...`): a method declared the way CommonJS code declares them, named by the whole target.
   */
  private memberAssignment(node: SyntaxNode): { rule: DeclRule; name: string; value: SyntaxNode } | undefined {
    if (!this.grammar.memberAssignments || node.type !== 'expression_statement') {
      return undefined;
    }
    const assignment = node.namedChildren[0];
    if (node.namedChildCount !== 1 || assignment?.type !== 'assignment_expression') {
      return undefined;
    }
    const left = assignment.childForFieldName('left');
    const value = assignment.childForFieldName('right');
    if (left?.type !== 'member_expression' || !value) {
      return undefined;
    }
    if (/^(arrow_function|function_expression|function|generator_function)$/.test(value.type)) {
      return { rule: { kind: 'method', family: 'callable' }, name: stripSpace(left.text), value };
    }
    return value.type === 'class' ? { rule: { kind: 'class', family: 'type' }, name: stripSpace(left.text), value } : undefined;
  }

  /** `const f = () => ...` is a function; `const X = ...`, Python's `X = ...` a constant: one name, or none. */
  private variableRule(node: SyntaxNode): DeclRule | undefined {
    if (!this.grammar.variables.has(node.type)) {
      return undefined;
    }
    const value = this.variableValue(node);
    if (this.variableName(node) === undefined) {
      return undefined;
    }
    const fn = value !== undefined && /^(arrow_function|function_expression|function|generator_function)$/.test(value.type);
    return fn ? { kind: 'function', family: 'callable' } : { kind: 'const', family: 'value' };
  }

  private variableDeclarator(node: SyntaxNode): SyntaxNode | undefined {
    if (node.type === 'expression_statement') {
      const assignment = node.namedChildren[0];
      return node.namedChildCount === 1 && assignment?.type === 'assignment' ? assignment : undefined;
    }
    const declarators = node.namedChildren.filter((c) => c?.type === 'variable_declarator');
    return declarators.length === 1 && declarators[0] ? declarators[0] : undefined;
  }

  private variableName(node: SyntaxNode): string | undefined {
    const declarator = this.variableDeclarator(node);
    const name = declarator?.childForFieldName(declarator.type === 'assignment' ? 'left' : 'name');
    return name && /^(identifier)$/.test(name.type) ? name.text : undefined;
  }

  private variableValue(node: SyntaxNode): SyntaxNode | undefined {
    if (!this.grammar.variables.has(node.type)) {
      return undefined;
    }
    const declarator = this.variableDeclarator(node);
    return declarator?.childForFieldName(declarator.type === 'assignment' ? 'right' : 'value') ?? undefined;
  }

  private nameOf(node: SyntaxNode): string | undefined {
    if (this.grammar.variables.has(node.type)) {
      return this.variableName(node);
    }
    switch (node.type) {
      case 'impl_item': {
        const trait = node.childForFieldName('trait');
        const type = node.childForFieldName('type');
        return type ? `${trait ? `${stripSpace(trait.text)} for ` : ''}${stripSpace(type.text)}` : undefined;
      }
      case 'method_declaration':
        if (this.grammar.id === 'go') {
          const receiver = node.childForFieldName('receiver')?.namedChildren[0]?.childForFieldName('type')?.text ?? '';
          const owner = receiver.replace(/^\*/, '').replace(/\[.*$/, '');
          return `${owner}.${node.childForFieldName('name')?.text ?? ''}`;
        }
        break;
      case 'type_declaration':
      case 'const_declaration':
      case 'var_declaration': {
        const specs = node.namedChildren.filter((c) => c !== null && /_spec$|^type_alias$/.test(c.type));
        return specs.length === 1 ? specs[0]?.childForFieldName('name')?.text : undefined;
      }
      case 'field_declaration':
      case 'constant_declaration': {
        const declarator = node.namedChildren.find((c) => c?.type === 'variable_declarator');
        const name = declarator?.childForFieldName('name') ?? node.childForFieldName('name');
        return name?.text;
      }
      case 'class':
        return node.childForFieldName('name')?.text;
    }
    return node.childForFieldName('name')?.text;
  }

  /** Where a declaration's members or statements live. */
  private bodyOf(node: SyntaxNode): SyntaxNode | undefined {
    const direct = node.childForFieldName('body') ?? this.variableValue(node)?.childForFieldName('body');
    if (direct) {
      return direct;
    }
    if (node.type === 'type_declaration') {
      const spec = node.namedChildren.find((c) => c?.type === 'type_spec');
      const type = spec?.childForFieldName('type');
      if (type?.type === 'struct_type') {
        return type.namedChildren.find((c) => c?.type === 'field_declaration_list') ?? undefined;
      }
      return type?.type === 'interface_type' ? type : undefined;
    }
    return undefined;
  }

  /** The body's lines that stand on their own: after a `{` that ends its line, before a `}` that starts one; a Python block. */
  private interiorOf(body: SyntaxNode, decl: Decl): Decl['interior'] {
    const open = body.startPosition.row;
    const close = body.endPosition.row;
    const braced = /^[{(]/.test(body.text) || body.type === 'interface_type';
    if (!braced) {
      if (body.endPosition.row < decl.end && /^\s*end\s*$/.test(this.lines[decl.end] ?? '')) {
        // Closed by `end` (Ruby): the lines between the header and the `end` line, comments above the first statement included.
        const header = body.previousNamedSibling;
        const start = (header && header.type !== 'comment' ? header.endPosition.row : decl.start) + 1;
        return start <= decl.end ? { start: Math.min(start, open), end: decl.end } : undefined;
      }
      // An indented block (Python): from the line after the header's `:` (blank and comment lines above the
      // first statement are the body's, not the header's), to the declaration's end.
      let colon = body.previousSibling;
      while (colon && colon.type !== ':') {
        colon = colon.previousSibling;
      }
      const start = colon ? Math.min(open, colon.endPosition.row + 1) : open;
      return open > decl.start ? { start: Math.max(start, decl.start + 1), end: decl.end + 1 } : undefined;
    }
    const openLine = this.lines[open] ?? '';
    const braceColumn = body.type === 'interface_type' ? openLine.indexOf('{', body.startPosition.column) : body.startPosition.column;
    if (braceColumn < 0 || openLine.slice(braceColumn + 1).trim() !== '' || close <= open) {
      return undefined;
    }
    if (!/^\s*[})]/.test(this.lines[close] ?? '')) {
      return undefined;
    }
    return { start: open + 1, end: close };
  }
}
