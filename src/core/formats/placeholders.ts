// Placeholder lines: the lines models write instead of unchanged code ("// ... existing code ...",
// "# rest of the function unchanged", a bare "..."). This file is the one table of them: the comment
// syntaxes, which languages use which, and the words that say code is left out. The matcher and the
// expansion ask only recognisePlaceholder; a new syntax, language or phrase is a new row here.

export interface PlaceholderContext {
  /** The VS Code language id of the file (e.g. 'python', 'typescriptreact'); preferred over fileName. */
  languageId?: string;
  /** The file's name or path; its extension picks the language when languageId is not given. */
  fileName?: string;
}

export interface Placeholder {
  kind: 'comment' | 'ellipsis';
  /** The comment syntax, e.g. '//', '#', '<!-- -->', '{/* *\/}'; '' for a bare ellipsis. */
  syntax: string;
}

/** A comment syntax a placeholder can be written in: an opening marker and, for block comments, a closing one. */
export interface CommentSyntax {
  /** The name used in Placeholder.syntax: the markers as written, e.g. '//' or '<!-- -->'. */
  readonly name: string;
  readonly open: string;
  readonly close?: string;
}

/** Every comment syntax a placeholder comment may use (a line is read against the longest openers first). */
export const COMMENT_SYNTAXES: readonly CommentSyntax[] = [
  { name: '{/* */}', open: '{/*', close: '*/}' },
  { name: '<!-- -->', open: '<!--', close: '-->' },
  { name: '/* */', open: '/*', close: '*/' },
  { name: '//', open: '//' },
  { name: '#', open: '#' },
  { name: '--', open: '--' },
  { name: ';', open: ';' },
  { name: '%', open: '%' },
  { name: "'", open: "'" },
];

/** A language: the ids and file extensions that name it and the comment syntaxes it has. */
export interface LanguageComments {
  readonly ids: readonly string[];
  readonly extensions: readonly string[];
  readonly comments: readonly string[];
}

const C_LIKE = ['//', '/* */'];
const JSX = ['//', '/* */', '{/* */}'];
const HASH = ['#'];
const MARKUP = ['<!-- -->', '//', '/* */'];

/** Which comment syntaxes each language has; a file of a language not listed may use any of them. */
export const LANGUAGE_COMMENTS: readonly LanguageComments[] = [
  { ids: ['javascript', 'typescript'], extensions: ['js', 'mjs', 'cjs', 'ts', 'mts', 'cts'], comments: C_LIKE },
  { ids: ['javascriptreact', 'typescriptreact'], extensions: ['jsx', 'tsx'], comments: JSX },
  {
    ids: [
      'c',
      'cpp',
      'csharp',
      'java',
      'go',
      'rust',
      'swift',
      'kotlin',
      'scala',
      'dart',
      'groovy',
      'objective-c',
      'objective-cpp',
      'jsonc',
      'json',
      'zig',
      'proto',
      'glsl',
      'hlsl',
      'solidity',
    ],
    extensions: [
      'c',
      'h',
      'cc',
      'cpp',
      'cxx',
      'hpp',
      'hh',
      'cs',
      'java',
      'go',
      'rs',
      'swift',
      'kt',
      'kts',
      'scala',
      'dart',
      'groovy',
      'gradle',
      'm',
      'mm',
      'jsonc',
      'json',
      'json5',
      'zig',
      'proto',
      'glsl',
      'hlsl',
      'sol',
    ],
    comments: C_LIKE,
  },
  { ids: ['css'], extensions: ['css'], comments: ['/* */'] },
  { ids: ['scss', 'less', 'stylus'], extensions: ['scss', 'less', 'styl'], comments: C_LIKE },
  { ids: ['php'], extensions: ['php'], comments: ['//', '#', '/* */', '<!-- -->'] },
  {
    ids: [
      'python',
      'ruby',
      'shellscript',
      'perl',
      'r',
      'yaml',
      'toml',
      'makefile',
      'dockerfile',
      'powershell',
      'elixir',
      'julia',
      'nim',
      'coffeescript',
      'properties',
      'cmake',
      'crystal',
      'tcl',
      'terraform',
      'graphql',
      'gitignore',
      'dotenv',
    ],
    extensions: [
      'py',
      'pyi',
      'pyw',
      'rb',
      'sh',
      'bash',
      'zsh',
      'fish',
      'pl',
      'pm',
      'r',
      'yml',
      'yaml',
      'toml',
      'mk',
      'dockerfile',
      'ps1',
      'psm1',
      'ex',
      'exs',
      'jl',
      'nim',
      'coffee',
      'properties',
      'cmake',
      'cr',
      'tcl',
      'tf',
      'graphql',
      'gql',
      'gitignore',
      'env',
    ],
    comments: HASH,
  },
  {
    ids: ['sql', 'lua', 'haskell', 'ada', 'elm', 'vhdl', 'applescript', 'purescript'],
    extensions: ['sql', 'lua', 'hs', 'adb', 'ads', 'elm', 'vhd', 'vhdl', 'applescript', 'purs'],
    comments: ['--', '/* */'],
  },
  {
    ids: ['clojure', 'lisp', 'scheme', 'racket', 'asm', 'ini', 'fennel'],
    extensions: ['clj', 'cljs', 'edn', 'lisp', 'el', 'scm', 'rkt', 'asm', 's', 'ini', 'fnl'],
    comments: [';', '#'],
  },
  {
    ids: ['latex', 'tex', 'bibtex', 'matlab', 'erlang', 'prolog', 'octave'],
    extensions: ['tex', 'sty', 'cls', 'bib', 'erl', 'hrl', 'pro'],
    comments: ['%'],
  },
  { ids: ['vb', 'vba', 'vbscript'], extensions: ['vb', 'bas', 'vbs', 'cls_vb'], comments: ["'"] },
  {
    ids: ['html', 'xml', 'markdown', 'vue', 'svelte', 'astro', 'xsl', 'svg'],
    extensions: ['html', 'htm', 'xml', 'md', 'markdown', 'vue', 'svelte', 'astro', 'xsl', 'svg', 'xaml', 'csproj'],
    comments: MARKUP,
  },
];

/** Files in which a bare `...` is always code (Python stubs: the body of every declaration). */
export const ELLIPSIS_IS_CODE_EXTENSIONS: readonly string[] = ['pyi'];

/** Nouns for what was left out: "existing code", "previous implementation", "other methods". */
const CODE_NOUNS =
  'code|implementations?|logic|contents?|lines|methods|functions|fields|properties|imports|members|body|bodies|cases|tests|handlers|routes|definitions|declarations|statements|styles|rules|config|configuration|setup|functionality|exports|components|props|attributes|elements|entries|items|options|settings|helpers|steps|checks|markup|html|css|sections?|blocks?|parts?|stuff|things';

/** What "rest of the ..." must name to say code is left out: a unit of code, not the data it handles. */
const WHOLE_NOUNS =
  "code|file's contents|file|functions?|func|methods?|class|classes|implementation|impl|body|logic|modules?|components?|contents|struct|interface|enum|constructor|namespace|script|program|definitions?|object|members|fields|properties|imports|exports|helpers|tests|routes|styles";

/**
 * The words that say code is left out, any case. A comment whose text (at most MAX_PHRASE_WORDS words)
 * holds one of these is a placeholder.
 */
export const PLACEHOLDER_PHRASES: readonly RegExp[] = [
  new RegExp(`\\bexisting (${CODE_NOUNS})\\b`, 'i'),
  /\b(keep|keeps|kept|keeping|leave|leaves|preserve|preserves|preserved|retain|retains)( the| all| any)? existing\b/i,
  /\bexisting\s*$/i,
  // "rest of" names code ("rest of the function"), or the comment has an ellipsis ("... rest of it ...");
  // "# handle the rest of the items" is a comment about what the code does.
  new RegExp(`\\brest of (the |this |that |my |your |its |his )?(${WHOLE_NOUNS})\\b`, 'i'),
  /(\.{3}|\u2026).*\brest of\b|\brest of\b.*(\.{3}|\u2026)/i,
  // "the rest" alone ("// and the rest") or with an ellipsis; not "process the rest of the queue".
  /^(and |plus )?the rest\s*\.?$/i,
  /(\.{3}|\u2026).*\bthe rest\b|\bthe rest\b.*(\.{3}|\u2026)/i,
  /\bunchanged\b/i,
  /\bnot changed\b/i,
  /\bno changes?\b/i,
  /\b(remains?|remained|stays?|stayed|is|are) (the )?same\b/i,
  /\bsame as (before|above|original|previous|existing)\b/i,
  new RegExp(`\\bprevious (${CODE_NOUNS})\\b`, 'i'),
  new RegExp(`\\b(original|old) (${CODE_NOUNS})\\b`, 'i'),
  new RegExp(`\\bother (${CODE_NOUNS})\\b`, 'i'),
  new RegExp(`\\bmore (${CODE_NOUNS})\\b`, 'i'),
  /\bomitted\b/i,
  /\bfor brevity\b/i,
  /\bsnip(ped)?\b/i,
  /\bas (it )?(is|was)\b/i,
  /\betc\b\.?/i,
];

/**
 * Words one of which every PLACEHOLDER_PHRASES pattern needs (lower case; a space stands for the pattern's
 * own space): a comment holding none of them is no placeholder phrase, known without running the patterns,
 * which a cold process compiles on first use (6-13 ms for the lot, paid by any SEARCH with a short comment).
 * The patterns match letters case-insensitively without the u flag, so only ASCII letters match theirs,
 * and toLowerCase keeps those where they are.
 */
const PHRASE_WORDS = [
  'existing',
  'rest',
  'change',
  'same',
  'previous',
  'original',
  'old ',
  'other ',
  'more ',
  'omitted',
  'brevity',
  'snip',
  'as is',
  'as was',
  'as it',
  'etc',
];

/** Whether `plain` holds one of PHRASE_WORDS, as every text a PLACEHOLDER_PHRASES pattern matches does. */
export function mayHoldPhrase(plain: string): boolean {
  const lower = plain.toLowerCase();
  return PHRASE_WORDS.some((word) => lower.includes(word));
}

/** Longer comments are sentences about the code, not placeholders for it. */
const MAX_PHRASE_WORDS = 12;
/** "// ... validation ..." (ellipses around a few words) is a placeholder; a longer one is prose. */
const MAX_FRAMED_WORDS = 6;

/** The first character of every placeholder line: a comment opener's (see COMMENT_SYNTAXES) or an ellipsis's. */
const PLACEHOLDER_START = /^[{<\/#;%'.\u2026-]/;
const ELLIPSIS = /\.{3,}|\u2026/g;
const ONLY_ELLIPSIS = /^(\.{3,}|\u2026)$/;
const FRAMED = /^(\.{3,}|\u2026)[\s\S]*(\.{3,}|\u2026)$/;

/** The placeholder `line` is, or undefined: a comment whose words say code is left out, or only `...`/`…`. */
export function recognisePlaceholder(line: string, context?: PlaceholderContext): Placeholder | undefined {
  const text = line.trim();
  // Most lines start with neither a comment opener nor a dot: answered without the table.
  if (text === '' || !PLACEHOLDER_START.test(text)) {
    return undefined;
  }
  if (ONLY_ELLIPSIS.test(text)) {
    return ellipsisIsCode(context) ? undefined : { kind: 'ellipsis', syntax: '' };
  }
  for (const syntax of commentSyntaxesFor(context)) {
    const body = commentBody(text, syntax);
    if (body !== undefined && saysCodeIsLeftOut(body)) {
      return { kind: 'comment', syntax: syntax.name };
    }
  }
  return undefined;
}

export function isPlaceholderLine(line: string, context?: PlaceholderContext): boolean {
  return recognisePlaceholder(line, context) !== undefined;
}

/** The comment syntaxes of the file's language (longest openers first), or all of them when it is unknown. */
export function commentSyntaxesFor(context?: PlaceholderContext): readonly CommentSyntax[] {
  const language = languageOf(context);
  return language === undefined ? COMMENT_SYNTAXES : COMMENT_SYNTAXES.filter((s) => language.comments.includes(s.name));
}

function languageOf(context?: PlaceholderContext): LanguageComments | undefined {
  const id = context?.languageId?.toLowerCase();
  if (id !== undefined && id !== '' && id !== 'plaintext') {
    const byId = LANGUAGE_COMMENTS.find((l) => l.ids.includes(id));
    if (byId !== undefined) {
      return byId;
    }
  }
  const extension = extensionOf(context?.fileName);
  return extension === undefined ? undefined : LANGUAGE_COMMENTS.find((l) => l.extensions.includes(extension));
}

function extensionOf(fileName: string | undefined): string | undefined {
  if (fileName === undefined) {
    return undefined;
  }
  const base = fileName.split(/[\\/]/).pop() ?? '';
  const lower = base.toLowerCase();
  if (lower === 'dockerfile' || lower === 'makefile') {
    return lower === 'makefile' ? 'mk' : 'dockerfile';
  }
  const dot = lower.lastIndexOf('.');
  return dot < 0 ? undefined : lower.slice(dot + 1);
}

function ellipsisIsCode(context?: PlaceholderContext): boolean {
  const extension = extensionOf(context?.fileName);
  return extension !== undefined && ELLIPSIS_IS_CODE_EXTENSIONS.includes(extension);
}

/** The text inside a comment that is the whole (trimmed) line, or undefined when the line is not one. */
function commentBody(text: string, syntax: CommentSyntax): string | undefined {
  if (!text.startsWith(syntax.open)) {
    return undefined;
  }
  if (syntax.close === undefined) {
    return text.slice(syntax.open.length).trim();
  }
  if (text.length < syntax.open.length + syntax.close.length || !text.endsWith(syntax.close)) {
    return undefined;
  }
  return text.slice(syntax.open.length, text.length - syntax.close.length).trim();
}

/** True when a comment's text says code is left out: only an ellipsis, a few words framed by them, or a phrase. */
function saysCodeIsLeftOut(body: string): boolean {
  // Brackets and trailing punctuation do not change what a comment says: "(omitted)", "[...]", "etc.".
  const plain = body.replace(/^[\s([{<*:-]+|[\s)\]}>*:]+$/g, '').trim();
  if (plain === '') {
    return false;
  }
  if (ONLY_ELLIPSIS.test(plain) || plain.replace(ELLIPSIS, '').replace(/[\s.\u2026,;:!-]/g, '') === '') {
    return /\.{3,}|\u2026/.test(plain);
  }
  const words = plain
    .replace(ELLIPSIS, ' ')
    .split(/[\s,;:]+/)
    .filter(hasLetterOrDigit).length;
  if (FRAMED.test(plain) && words <= MAX_FRAMED_WORDS) {
    return true;
  }
  if (words > MAX_PHRASE_WORDS || !mayHoldPhrase(plain) || !PLACEHOLDER_PHRASES.some((phrase) => phrase.test(plain))) {
    return false;
  }
  // With an ellipsis the comment marks a gap; without one it is a placeholder only when it says nothing
  // else: "# rest unchanged", not "# entries that are unchanged since the last poll are skipped".
  return /\.{3,}|\u2026/.test(plain) || !isSentence(plain);
}

/** Words a placeholder comment is made of, besides the nouns for code (CODE_NOUNS, WHOLE_NOUNS). */
const PLACEHOLDER_WORDS = new Set(
  (
    'a an the this that these those its all any each every other others rest remaining remainder of and or plus ' +
    'here below above before after as is are was were be been remains remain remained stays stay stayed same ' +
    'unchanged untouched identical changed change changes not no nothing existing previous original old keep keeps ' +
    'kept keeping leave leaves left preserve preserves preserved retain retains omitted omit brevity for snip ' +
    'snipped etc more everything else in from to file class classes function functions method methods constructor ' +
    'constructors getter getters setter setters hook hooks component test tests type types interface interfaces ' +
    'module script template'
  ).split(' '),
);
const NOUN_WORDS = new RegExp(`^(${CODE_NOUNS}|${WHOLE_NOUNS})$`, 'i');

/**
 * A comment that says more than that code is left out: a word that is neither a placeholder's, a noun for
 * code, nor a name from the code (`handleClick`, `render()`, `MAX_SIZE`). A short one ("# keys unchanged",
 * "// render method unchanged") may name one thing in plain words.
 */
function isSentence(plain: string): boolean {
  const words = plain
    .replace(ELLIPSIS, ' ')
    .split(/[\s,;:!?()[\]{}"]+/)
    .map((w) => w.replace(/'s$/i, '').replace(/^['`]+|['`.]+$/g, ''))
    .filter(hasLetterOrDigit);
  const known = (word: string) =>
    PLACEHOLDER_WORDS.has(word.toLowerCase()) || NOUN_WORDS.test(word) || /[A-Z_$.()\d]/.test(word.slice(1)) || /^[_$]/.test(word);
  const unknown = words.filter((w) => !known(w)).length;
  return unknown > (words.length <= 5 ? 1 : 0);
}

/**
 * Whether a word has a letter or a digit (\p{L}, \p{N}). ASCII ones are looked for first: a Unicode
 * property class costs a cold process a compile, and in ASCII the letters and digits are [A-Za-z0-9].
 */
export function hasLetterOrDigit(word: string): boolean {
  return /[A-Za-z0-9]/.test(word) || (/[^\x00-\x7f]/.test(word) && /[\p{L}\p{N}]/u.test(word));
}

/** "REPLACE line 3 `# ...`" or "REPLACE lines 3-4 `# ...`": how messages name a placeholder. */
export function placeholderName(run: { first: number; last: number; text: string }): string {
  const lines = run.first === run.last ? `line ${run.first + 1}` : `lines ${run.first + 1}-${run.last + 1}`;
  return `REPLACE ${lines} \`${run.text}\``;
}

/** How the outcome tells one expanded placeholder: "REPLACE line 2 `# ...` kept file lines 14-19". */
export function elisionNote(elision: {
  replaceStartLine: number;
  replaceEndLine: number;
  text: string;
  kept?: { startLine: number; endLine: number };
}): string {
  const name = placeholderName({ first: elision.replaceStartLine - 1, last: elision.replaceEndLine - 1, text: elision.text });
  const kept = elision.kept;
  if (kept === undefined) {
    return `${name} stood for no lines`;
  }
  return `${name} kept file ${kept.startLine === kept.endLine ? `line ${kept.startLine}` : `lines ${kept.startLine}-${kept.endLine}`}`;
}
