// The declarations of a text as plain data: what a code block is matched against, whichever reader found
// them (tree-sitter for the languages it has a grammar for, treeSitter.ts; the indentation and brace
// outline below for every other text). Line numbers are 0-based indexes into the text's lines.

/** One declaration (function, method, class, interface, struct, impl, type, constant, field...). */
export interface Decl {
  /** What the reader called it: 'function', 'method', 'class', 'interface', 'impl', 'const', 'field'... */
  kind: string;
  /** Kinds that may stand for one another (a function rewritten as `const f = () =>` is still f). */
  family: DeclFamily;
  /** The name the code calls it by; methods of a Go receiver are `Type.name`, Rust impls `impl Trait for Type`. */
  name: string;
  /** The parameter list without white space, when it has one (tells overloads apart). */
  params?: string;
  /** First line of the declaration itself. */
  start: number;
  /** First line of the comments, decorators and attributes directly above it (no blank line between); <= start. */
  lead: number;
  /** Last line (inclusive). */
  end: number;
  /** Lines of its body that stand on their own, [start, end): between `{` and `}`, or a Python block. */
  interior?: { start: number; end: number };
  /** Declarations directly inside its body, in order. */
  children: Decl[];
  /** A callable's signature without a body: a TypeScript overload signature, a Python `@overload` stub. */
  signature?: boolean;
  /**
   * An overload group: signatures immediately followed by the implementation of the same name, read as ONE
   * declaration spanning all of them (start and lead are the first signature's; the rest is the implementation's).
   */
  overloads?: { signatures: Decl[]; implementation: Decl };
}

export type DeclFamily = 'callable' | 'type' | 'impl' | 'value' | 'module';

export interface Outline {
  /** The top-level declarations, in order. */
  decls: Decl[];
  /** Who read it: a tree-sitter grammar ('typescript', 'python', ...) or 'outline' (indentation and braces). */
  reader: string;
  /** Syntax errors the reader met (tree-sitter ERROR and MISSING nodes); 0 for the outline. */
  errors: number;
  /** Line of the first syntax error, when there is one. */
  firstError?: number;
}

/** Every declaration of an outline, depth first, with its enclosing declarations (outermost first). */
export function* walkDecls(decls: readonly Decl[], parents: readonly Decl[] = []): Generator<{ decl: Decl; parents: readonly Decl[] }> {
  for (const decl of decls) {
    yield { decl, parents };
    yield* walkDecls(decl.children, [...parents, decl]);
  }
}

/**
 * Overload signatures immediately followed (blank lines between at most) by the implementation of the same
 * name become one declaration: a code block showing the group, or only its implementation, is about that one
 * function, not three of the same name.
 */
export function groupOverloads(decls: readonly Decl[], lines: readonly string[]): Decl[] {
  const grouped: Decl[] = [];
  let run: Decl[] = [];
  const adjacent = (a: Decl, b: Decl) => lines.slice(a.end + 1, b.lead).every((l) => l.trim() === '');
  for (const decl of decls) {
    const last = run[run.length - 1];
    const continues = last !== undefined && last.name === decl.name && decl.family === 'callable' && adjacent(last, decl);
    if (!continues) {
      grouped.push(...run);
      run = [];
    }
    if (decl.signature) {
      run.push(decl);
      continue;
    }
    if (continues) {
      grouped.push({ ...decl, start: run[0].start, lead: run[0].lead, overloads: { signatures: run, implementation: decl } });
    } else {
      grouped.push(decl);
    }
    run = [];
  }
  grouped.push(...run);
  return grouped;
}

/**
 * A copy of declarations, their rows moved by `rows` (0: the same lines): what a caller does with them never
 * reaches the originals. Only the fields a declaration has are written (an absent field stays absent), and
 * a declaration or list shared within them (an overload group's implementation and its children) stays
 * shared in the copy, as a structured clone would keep it, at a fraction of its cost.
 */
export function copyDecls(decls: readonly Decl[], rows = 0, seen = new Map<object, unknown>()): Decl[] {
  const known = seen.get(decls) as Decl[] | undefined;
  if (known) {
    return known;
  }
  const copy: Decl[] = [];
  seen.set(decls, copy);
  for (const decl of decls) {
    copy.push(copyDecl(decl, rows, seen));
  }
  return copy;
}

function copyDecl(decl: Decl, rows: number, seen: Map<object, unknown>): Decl {
  const known = seen.get(decl) as Decl | undefined;
  if (known) {
    return known;
  }
  const copy = {} as Decl;
  seen.set(decl, copy);
  for (const field of Object.keys(decl) as Array<keyof Decl>) {
    switch (field) {
      case 'start':
      case 'lead':
      case 'end':
        copy[field] = decl[field] + rows;
        break;
      case 'interior':
        copy.interior = decl.interior && { start: decl.interior.start + rows, end: decl.interior.end + rows };
        break;
      case 'children':
        copy.children = copyDecls(decl.children, rows, seen);
        break;
      case 'overloads':
        copy.overloads = decl.overloads && {
          signatures: copyDecls(decl.overloads.signatures, rows, seen),
          implementation: copyDecl(decl.overloads.implementation, rows, seen),
        };
        break;
      default:
        (copy as unknown as Record<string, unknown>)[field] = decl[field];
    }
  }
  return copy;
}

/** How a declaration is named in messages: "method addItem", "function total". */
export function describeDecl(decl: Pick<Decl, 'kind' | 'name'>): string {
  return `${decl.kind} ${decl.name}`;
}

// ---- the indentation and brace outline, for languages without a grammar ----------------------------

/** Words that open a declaration in many languages, and what kind each makes. */
const KEYWORD_KINDS: Record<string, { kind: string; family: DeclFamily }> = {
  function: { kind: 'function', family: 'callable' },
  func: { kind: 'function', family: 'callable' },
  fn: { kind: 'function', family: 'callable' },
  fun: { kind: 'function', family: 'callable' },
  def: { kind: 'function', family: 'callable' },
  sub: { kind: 'function', family: 'callable' },
  proc: { kind: 'function', family: 'callable' },
  method: { kind: 'method', family: 'callable' },
  class: { kind: 'class', family: 'type' },
  struct: { kind: 'struct', family: 'type' },
  interface: { kind: 'interface', family: 'type' },
  trait: { kind: 'trait', family: 'type' },
  enum: { kind: 'enum', family: 'type' },
  record: { kind: 'record', family: 'type' },
  object: { kind: 'object', family: 'type' },
  protocol: { kind: 'protocol', family: 'type' },
  extension: { kind: 'extension', family: 'impl' },
  impl: { kind: 'impl', family: 'impl' },
  module: { kind: 'module', family: 'module' },
  namespace: { kind: 'namespace', family: 'module' },
  package: { kind: 'package', family: 'module' },
};

/** Modifiers that may come before the keyword or the name. */
const MODIFIERS =
  /^(?:(?:export|default|public|private|protected|internal|static|final|abstract|async|override|virtual|sealed|open|inline|extern|unsafe|const|pub(?:\([^)]*\))?|data|case|suspend|operator|local|partial|readonly|synchronized|native|declare)\s+)*/;
const KEYWORD_HEADER = /^([A-Za-z]+)\*?\s+(?:(?:self|this)\.)?([A-Za-z_$][\w$]*(?:(?:\.|::?)[A-Za-z_$][\w$]*)*[!?]?)/;
/** A C-like function or method: a name and a parameter list, then `{` (return types and modifiers before). */
const CALL_HEADER =
  /^(?:[\w$<>[\],.*&:?]+\s+)*([A-Za-z_$][\w$]*)\s*\([^;]*\)\s*(?:(?:->|:)\s*[^{;=]+|const|throws\s+[\w.,\s]+|noexcept)?\s*\{\s*$/;
const CONTROL_WORDS = new Set([
  'if',
  'for',
  'while',
  'switch',
  'catch',
  'return',
  'else',
  'do',
  'try',
  'with',
  'foreach',
  'elif',
  'until',
  'unless',
  'match',
  'when',
  'using',
  'lock',
  'fixed',
  'elseif',
  'elsif',
  'guard',
  'new',
  'throw',
  'await',
  'yield',
]);

/**
 * Whether `next` holds only the `{` of `line` (Allman style: C#, PHP, much C and Java): a lone `{` (a comment
 * may follow) at the header's indentation or up to two columns deeper (GNU style), below a line that does not
 * end a statement or an item (`;`, `,`) or open its own block.
 */
function braceOpensBelow(line: string, next: string | undefined): boolean {
  if (next === undefined || !/^\s*\{\s*(?:(?:\/\/|#).*)?$/.test(next) || /[{;,]\s*$/.test(line) || line.trim() === '') {
    return false;
  }
  const deeper = indentWidth(next) - indentWidth(line);
  return deeper >= 0 && deeper <= 2;
}

/** A line that opens a declaration, read by its words alone (and the next line's `{` when it stands alone). */
function readHeader(line: string, next?: string): { kind: string; family: DeclFamily; name: string } | undefined {
  const text = line.trim().replace(MODIFIERS, '');
  if (CONTROL_WORDS.has(/^\w+/.exec(text)?.[0] ?? '')) {
    return undefined;
  }
  const keyword = KEYWORD_HEADER.exec(text);
  if (keyword) {
    const rule = KEYWORD_KINDS[keyword[1]];
    if (rule) {
      return { ...rule, name: keyword[2] };
    }
  }
  const call = CALL_HEADER.exec(text) ?? (braceOpensBelow(line, next) ? CALL_HEADER.exec(`${text} {`) : null);
  if (call && !CONTROL_WORDS.has(call[1])) {
    return { kind: 'function', family: 'callable', name: call[1] };
  }
  return undefined;
}

function indentWidth(line: string): number {
  let width = 0;
  for (const ch of line) {
    if (ch === ' ') {
      width++;
    } else if (ch === '\t') {
      width += 4 - (width % 4);
    } else {
      break;
    }
  }
  return width;
}

const isBlankLine = (line: string): boolean => line.trim() === '';

/** Brace depth change of a line, skipping string literals and line comments roughly (an outline, not a parser). */
function braceDelta(line: string): { delta: number; opened: boolean } {
  let delta = 0;
  let opened = false;
  let quote = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quote) {
      if (ch === '\\') {
        i++;
      } else if (ch === quote) {
        quote = '';
      }
    } else if (ch === '"' || ch === "'" || ch === '`') {
      quote = ch;
    } else if ((ch === '/' && line[i + 1] === '/') || (ch === '#' && (i === 0 || /\s/.test(line[i - 1])))) {
      // `#` opens a comment only as a word of its own: in `$#list`, `${#var}` or a regex `/^\s*#/` it is code.
      break;
    } else if (ch === '{') {
      delta++;
      opened = true;
    } else if (ch === '}') {
      delta--;
    }
  }
  return { delta, opened };
}

/** The last line of a declaration whose header is at `start`: by its braces, else by indentation (and an `end` line). */
function declarationEnd(lines: readonly string[], start: number, limit: number): { end: number; braced: boolean } {
  let depth = 0;
  for (let i = start; i < limit && i <= start + 3; i++) {
    const { delta, opened } = braceDelta(lines[i]);
    depth += delta;
    if (opened) {
      for (let j = i + 1; j < limit && depth > 0; j++) {
        depth += braceDelta(lines[j]).delta;
        if (depth <= 0) {
          return { end: closerAtHeaderDepth(lines, start, j, limit), braced: true };
        }
      }
      if (depth <= 0) {
        return { end: i, braced: true };
      }
      // Braces that never close (a file being edited): the indentation says where it ends.
      const end = indentationEnd(lines, start, limit);
      return { end, braced: /^\s*\}/.test(lines[end]) };
    }
    if (braceOpensBelow(lines[i], lines[i + 1])) {
      continue;
    }
    if (/[:=]\s*$|\bdo\s*$|\)\s*$/.test(lines[i].trimEnd()) || i === start) {
      if (!/[({[,]\s*$/.test(lines[i].trimEnd())) {
        break;
      }
    }
  }
  return { end: indentationEnd(lines, start, limit), braced: false };
}

/** The last line deeper than the header at `start`, or the `end`, `}`, `)` or `]` at its depth right after them. */
function indentationEnd(lines: readonly string[], start: number, limit: number): number {
  const base = indentWidth(lines[start]);
  let end = start;
  for (let j = start + 1; j < limit; j++) {
    if (isBlankLine(lines[j])) {
      continue;
    }
    if (indentWidth(lines[j]) <= base) {
      if (/^\s*(end\b|\}|\)|\])/.test(lines[j]) && indentWidth(lines[j]) === base) {
        end = j;
      }
      break;
    }
    end = j;
  }
  return end;
}

/**
 * Where braces and indentation disagree, the closing brace at the header's own indentation. Braces close at
 * `closed`; when that line is indented deeper than the header and the lines after it stay deeper up to a `}`
 * at the header's depth, that `}` ends the declaration: a brace counted wrong inside the body (in a string,
 * a regex, a stray `}` the block duplicates) must not cut the body in two.
 */
function closerAtHeaderDepth(lines: readonly string[], start: number, closed: number, limit: number): number {
  const base = indentWidth(lines[start]);
  if (indentWidth(lines[closed]) <= base) {
    return closed;
  }
  for (let k = closed + 1; k < limit; k++) {
    if (isBlankLine(lines[k])) {
      continue;
    }
    const width = indentWidth(lines[k]);
    if (width > base) {
      continue;
    }
    return width === base && /^\s*\}/.test(lines[k]) ? k : closed;
  }
  return closed;
}

/** Comment lines directly above a line (no blank line between). */
function leadOf(lines: readonly string[], start: number, floor: number): number {
  let lead = start;
  while (lead - 1 >= floor && /^\s*(\/\/|#|--|;|\*|\/\*|@|\[[A-Z])/.test(lines[lead - 1])) {
    lead--;
  }
  return lead;
}

/** The outline's declarations of lines [from, to): what a tree-sitter reader falls back to where a parse went wrong. */
export function outlineRange(lines: readonly string[], from: number, to: number): Decl[] {
  const decls: Decl[] = [];
  for (let i = from; i < to; i++) {
    const header = readHeader(lines[i], lines[i + 1]);
    if (!header) {
      continue;
    }
    const { end, braced } = declarationEnd(lines, i, to);
    const floor = decls.length > 0 ? decls[decls.length - 1].end + 1 : from;
    const interiorStart = braced ? firstLineAfterBrace(lines, i, end) : i + 1;
    const interiorEnd = braced ? end : end + 1 - (/^\s*end\b/.test(lines[end]) && end > i ? 1 : 0);
    const decl: Decl = { ...header, start: i, lead: leadOf(lines, i, floor), end, children: [] };
    if (interiorStart !== undefined && interiorStart <= interiorEnd && end > i) {
      decl.interior = { start: interiorStart, end: interiorEnd };
      decl.children = outlineRange(lines, interiorStart, interiorEnd);
    }
    decls.push(decl);
    i = end;
  }
  return decls;
}

/** The line after the one whose `{` opens the body, when that `{` ends its line. */
function firstLineAfterBrace(lines: readonly string[], start: number, end: number): number | undefined {
  for (let i = start; i <= end; i++) {
    if (braceDelta(lines[i]).opened) {
      return /\{\s*$/.test(lines[i]) ? i + 1 : undefined;
    }
  }
  return undefined;
}

/** The indentation and brace outline of a text: declarations found by their header words, ended by braces or indentation. */
export function outlineText(lines: readonly string[]): Outline {
  const outline: Outline = { decls: outlineRange(lines, 0, lines.length), reader: 'outline', errors: 0 };
  // Braces that do not balance make the outline's ends guesses: counted as a syntax error.
  let depth = 0;
  for (let i = 0; i < lines.length; i++) {
    depth += braceDelta(lines[i]).delta;
    if (depth < 0) {
      return { ...outline, errors: 1, firstError: i };
    }
  }
  return depth === 0 ? outline : { ...outline, errors: 1, firstError: lines.length - 1 };
}
