// Which tree-sitter grammar reads a document, and which of its nodes are declarations. The grammars are
// the WASM builds VS Code itself uses (@vscode/tree-sitter-wasm), shipped in dist/grammars/.

import type { DeclFamily } from './outline';
import type { Naming } from './declNames';

export interface DeclRule {
  kind: string;
  family: DeclFamily;
  /** How the name is read when the node has no `name` field (declNames.ts). */
  naming?: Naming;
  /** The body's node type when the grammar gives it no `body` field (CSS's `block`). */
  bodyType?: string;
}

export interface GrammarSpec {
  /** Short name used in messages and as the cache key. */
  id: string;
  /** File name of the grammar in dist/grammars/. */
  file: string;
  /** Node types that declare something, and what they declare. */
  decls: Record<string, DeclRule>;
  /** Node types that wrap a declaration and belong to its range (`export`, decorators): the field holding it, or '' for its first named child that is a declaration. */
  wrappers: Record<string, string>;
  /** Node types that attach to the declaration below them: comments, decorators, attributes. */
  leads: ReadonlySet<string>;
  /** Variable declarations (`const f = () =>`, `X = 1`): read by nameOfVariable in treeSitter.ts. */
  variables: ReadonlySet<string>;
  /** Whether `obj.name = function () {...}` declares a method (JavaScript and TypeScript). */
  memberAssignments?: boolean;
  /** How a snippet of members alone (methods without their class) is wrapped to parse, if the language needs it. */
  memberWrapper?: { open: string; close: string };
  /** The comment a placeholder line is read as, so it parses wherever it stands (Python needs a statement). */
  placeholderStandIn: string;
  /** Overloads: node types that are bodiless signatures (TypeScript), or the decorator that makes a stub one (Python's `@overload`). */
  overloads?: { signatures?: ReadonlySet<string>; decorator?: RegExp };
  /** A line a snippet is read after when it lacks it (PHP code is HTML text until `<?php`). */
  snippetPrelude?: { line: string; present: RegExp };
}

// Marked free of side effects so bundles that never read the table (the web activation bundle) drop it.
const callable = /* @__NO_SIDE_EFFECTS__ */ (kind: string): DeclRule => ({ kind, family: 'callable' });
const type = /* @__NO_SIDE_EFFECTS__ */ (kind: string): DeclRule => ({ kind, family: 'type' });
const value = /* @__NO_SIDE_EFFECTS__ */ (kind: string): DeclRule => ({ kind, family: 'value' });

const JS_DECLS: Record<string, DeclRule> = {
  function_declaration: callable('function'),
  generator_function_declaration: callable('function'),
  class_declaration: type('class'),
  class: type('class'),
  method_definition: callable('method'),
  field_definition: value('field'),
};

const TS_DECLS: Record<string, DeclRule> = {
  ...JS_DECLS,
  abstract_class_declaration: type('class'),
  interface_declaration: type('interface'),
  type_alias_declaration: type('type'),
  enum_declaration: type('enum'),
  function_signature: callable('function'),
  method_signature: callable('method'),
  abstract_method_signature: callable('method'),
  public_field_definition: value('field'),
  property_signature: value('field'),
  internal_module: { kind: 'namespace', family: 'module' },
  module: { kind: 'module', family: 'module' },
};

const JS_WRAPPERS = { export_statement: 'declaration' };
const TS_WRAPPERS = { export_statement: 'declaration', ambient_declaration: '' };
const C_LIKE_MEMBERS = { open: 'class __SnippetMembers__ {', close: '}' };
const TS_OVERLOADS = { signatures: new Set(['function_signature', 'method_signature']) };

const BASE_GRAMMARS: Record<string, GrammarSpec> = {
  typescript: {
    id: 'typescript',
    file: 'tree-sitter-typescript.wasm',
    decls: TS_DECLS,
    overloads: TS_OVERLOADS,
    wrappers: TS_WRAPPERS,
    leads: new Set(['comment', 'decorator']),
    variables: new Set(['lexical_declaration', 'variable_declaration']),
    memberAssignments: true,
    memberWrapper: C_LIKE_MEMBERS,
    placeholderStandIn: '//',
  },
  tsx: {
    id: 'tsx',
    file: 'tree-sitter-tsx.wasm',
    decls: TS_DECLS,
    overloads: TS_OVERLOADS,
    wrappers: TS_WRAPPERS,
    leads: new Set(['comment', 'decorator']),
    variables: new Set(['lexical_declaration', 'variable_declaration']),
    memberAssignments: true,
    memberWrapper: C_LIKE_MEMBERS,
    placeholderStandIn: '//',
  },
  javascript: {
    id: 'javascript',
    file: 'tree-sitter-javascript.wasm',
    decls: JS_DECLS,
    wrappers: JS_WRAPPERS,
    leads: new Set(['comment', 'decorator']),
    variables: new Set(['lexical_declaration', 'variable_declaration']),
    memberAssignments: true,
    memberWrapper: C_LIKE_MEMBERS,
    placeholderStandIn: '//',
  },
  python: {
    id: 'python',
    file: 'tree-sitter-python.wasm',
    decls: { function_definition: callable('def'), class_definition: type('class') },
    wrappers: { decorated_definition: 'definition' },
    overloads: { decorator: /^@(?:typing\.|t\.)?overload\b/ },
    leads: new Set(['comment']),
    variables: new Set(['expression_statement']),
    placeholderStandIn: 'pass',
  },
  go: {
    id: 'go',
    file: 'tree-sitter-go.wasm',
    decls: {
      function_declaration: callable('func'),
      method_declaration: callable('method'),
      type_declaration: type('type'),
      const_declaration: value('const'),
      var_declaration: value('var'),
      method_elem: callable('method'),
      method_spec: callable('method'),
      field_declaration: value('field'),
    },
    wrappers: {},
    leads: new Set(['comment']),
    variables: new Set(),
    placeholderStandIn: '//',
  },
  rust: {
    id: 'rust',
    file: 'tree-sitter-rust.wasm',
    decls: {
      function_item: callable('fn'),
      function_signature_item: callable('fn'),
      struct_item: type('struct'),
      enum_item: type('enum'),
      union_item: type('union'),
      trait_item: type('trait'),
      type_item: type('type'),
      mod_item: { kind: 'mod', family: 'module' },
      impl_item: { kind: 'impl', family: 'impl' },
      const_item: value('const'),
      static_item: value('static'),
      macro_definition: callable('macro'),
      field_declaration: value('field'),
    },
    wrappers: {},
    leads: new Set(['line_comment', 'block_comment', 'attribute_item', 'inner_attribute_item']),
    variables: new Set(),
    memberWrapper: { open: 'impl __SnippetMembers__ {', close: '}' },
    placeholderStandIn: '//',
  },
  java: {
    id: 'java',
    file: 'tree-sitter-java.wasm',
    decls: {
      class_declaration: type('class'),
      interface_declaration: type('interface'),
      enum_declaration: type('enum'),
      record_declaration: type('record'),
      annotation_type_declaration: type('annotation'),
      method_declaration: callable('method'),
      constructor_declaration: callable('constructor'),
      compact_constructor_declaration: callable('constructor'),
      field_declaration: value('field'),
      constant_declaration: value('field'),
    },
    wrappers: {},
    leads: new Set(['line_comment', 'block_comment']),
    variables: new Set(),
    memberWrapper: C_LIKE_MEMBERS,
    placeholderStandIn: '//',
  },
};

const C_SHARP_DECLS: Record<string, DeclRule> = {
  namespace_declaration: { kind: 'namespace', family: 'module' },
  file_scoped_namespace_declaration: { kind: 'namespace', family: 'module' },
  class_declaration: type('class'),
  struct_declaration: type('struct'),
  interface_declaration: type('interface'),
  record_declaration: type('record'),
  record_struct_declaration: type('record'),
  enum_declaration: type('enum'),
  delegate_declaration: type('delegate'),
  method_declaration: callable('method'),
  // A method shown alone parses as a top-level statement's local function.
  local_function_statement: callable('method'),
  constructor_declaration: callable('constructor'),
  destructor_declaration: callable('destructor'),
  property_declaration: value('property'),
  field_declaration: { kind: 'field', family: 'value', naming: 'field' },
  event_field_declaration: { kind: 'event', family: 'value', naming: 'field' },
};

const PHP_DECLS: Record<string, DeclRule> = {
  namespace_definition: { kind: 'namespace', family: 'module' },
  class_declaration: type('class'),
  interface_declaration: type('interface'),
  trait_declaration: type('trait'),
  enum_declaration: type('enum'),
  function_definition: callable('function'),
  method_declaration: callable('method'),
  property_declaration: { kind: 'property', family: 'value', naming: 'field' },
  const_declaration: { kind: 'const', family: 'value', naming: 'field' },
};

/** CSS: a rule set named by its selectors, an at-rule by its prelude (`@media (max-width: 600px)`). */
const CSS_DECLS: Record<string, DeclRule> = {
  rule_set: { kind: 'rule', family: 'type', naming: 'header', bodyType: 'block' },
  media_statement: { kind: 'at-rule', family: 'module', naming: 'header', bodyType: 'block' },
  supports_statement: { kind: 'at-rule', family: 'module', naming: 'header', bodyType: 'block' },
  at_rule: { kind: 'at-rule', family: 'module', naming: 'header', bodyType: 'block' },
  keyframes_statement: { kind: 'at-rule', family: 'value', naming: 'header', bodyType: 'keyframe_block_list' },
};

const CPP_DECLS: Record<string, DeclRule> = {
  function_definition: { kind: 'function', family: 'callable', naming: 'declarator' },
  class_specifier: type('class'),
  struct_specifier: type('struct'),
  union_specifier: type('union'),
  enum_specifier: type('enum'),
  namespace_definition: { kind: 'namespace', family: 'module' },
  field_declaration: { kind: 'field', family: 'value', naming: 'field' },
};

const EXTRA_GRAMMARS: Record<string, GrammarSpec> = {
  csharp: {
    id: 'csharp',
    file: 'tree-sitter-c-sharp.wasm',
    decls: C_SHARP_DECLS,
    wrappers: { global_statement: '' },
    leads: new Set(['comment']),
    variables: new Set(),
    memberWrapper: C_LIKE_MEMBERS,
    placeholderStandIn: '//',
  },
  php: {
    id: 'php',
    file: 'tree-sitter-php.wasm',
    decls: PHP_DECLS,
    wrappers: {},
    leads: new Set(['comment']),
    variables: new Set(),
    memberWrapper: C_LIKE_MEMBERS,
    placeholderStandIn: '//',
    snippetPrelude: { line: '<?php', present: /<\?php/ },
  },
  css: {
    id: 'css',
    file: 'tree-sitter-css.wasm',
    decls: CSS_DECLS,
    wrappers: {},
    leads: new Set(['comment']),
    variables: new Set(),
    placeholderStandIn: '/**/',
  },
  ruby: {
    id: 'ruby',
    file: 'tree-sitter-ruby.wasm',
    decls: {
      module: { kind: 'module', family: 'module' },
      class: type('class'),
      method: callable('def'),
      singleton_method: { kind: 'def', family: 'callable', naming: 'receiver' },
    },
    wrappers: {},
    leads: new Set(['comment']),
    variables: new Set(),
    placeholderStandIn: '#',
  },
  cpp: {
    id: 'cpp',
    file: 'tree-sitter-cpp.wasm',
    decls: CPP_DECLS,
    wrappers: { template_declaration: '' },
    leads: new Set(['comment']),
    variables: new Set(),
    memberWrapper: { open: 'struct __SnippetMembers__ {', close: '};' },
    placeholderStandIn: '//',
  },
  bash: {
    id: 'bash',
    file: 'tree-sitter-bash.wasm',
    decls: { function_definition: callable('function') },
    wrappers: {},
    leads: new Set(['comment']),
    variables: new Set(),
    placeholderStandIn: '#',
  },
};
export const GRAMMARS: Record<string, GrammarSpec> = /* @__PURE__ */ Object.assign({}, BASE_GRAMMARS, EXTRA_GRAMMARS);

const BY_LANGUAGE_ID: Record<string, string> = {
  typescript: 'typescript',
  typescriptreact: 'tsx',
  javascript: 'javascript',
  javascriptreact: 'javascript',
  python: 'python',
  go: 'go',
  rust: 'rust',
  java: 'java',
  csharp: 'csharp',
  php: 'php',
  css: 'css',
  ruby: 'ruby',
  cpp: 'cpp',
  // No C grammar ships: C reads as C++ (where a file does not parse, the outline reads those lines).
  c: 'cpp',
  cuda: 'cpp',
  shellscript: 'bash',
};

const BY_EXTENSION: Record<string, string> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  tsx: 'tsx',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  py: 'python',
  pyi: 'python',
  go: 'go',
  rs: 'rust',
  java: 'java',
  cs: 'csharp',
  php: 'php',
  css: 'css',
  rb: 'ruby',
  rake: 'ruby',
  gemspec: 'ruby',
  c: 'cpp',
  h: 'cpp',
  cpp: 'cpp',
  cc: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  hh: 'cpp',
  hxx: 'cpp',
  sh: 'bash',
  bash: 'bash',
};

/** The grammar for a document, by its language id, else its file name's extension; undefined when none fits. */
export function grammarFor(languageId: string | undefined, fileName: string | undefined): GrammarSpec | undefined {
  const byId = languageId ? BY_LANGUAGE_ID[languageId.toLowerCase()] : undefined;
  if (byId) {
    return GRAMMARS[byId];
  }
  const extension = /\.([A-Za-z0-9]+)$/.exec(fileName ?? '')?.[1]?.toLowerCase();
  const byExtension = extension ? BY_EXTENSION[extension] : undefined;
  return byExtension ? GRAMMARS[byExtension] : undefined;
}

/** The file names the product ships for tree-sitter: the runtime first, then every grammar. */
export const TREE_SITTER_RUNTIME = 'tree-sitter.wasm';
// Pure, so esbuild can drop the grammar table from bundles that never read it (the web activation bundle).
export const SHIPPED_GRAMMAR_FILES: readonly string[] = /* @__PURE__ */ shippedGrammarFiles();

function shippedGrammarFiles(): string[] {
  return [TREE_SITTER_RUNTIME, ...Object.values(GRAMMARS).map((g) => g.file)];
}
