// Validation of the language model tool's input. VS Code does not enforce a tool's inputSchema when
// another extension calls lm.invokeTool, and models get field names and types wrong, so every problem
// becomes a message that names the field, what was expected and what arrived: the model reads it and
// retries. Pure (no vscode, no Node): the extension adapter only resolves the path to a document.

import { readSnippetText } from './codeBlocks';
import { editBlocks, formatName, parseEdits } from './edits';
import { BlockParseError } from './parser';
import type { SearchReplaceBlock } from '../types';

export const APPLY_TOOL_NAME = 'resilient-apply_applyBlocks';

/** One block as the tool's JSON input carries it. */
export interface ToolBlockInput {
  search: string;
  replace: string;
  startLine?: number;
}

/**
 * The tool's input: blocks as JSON, `text` holding blocks in the marker format, a `patch` (unified diff
 * or apply_patch), or `code`: a snippet of the file (one declaration, a lazy snippet with
 * `// ... existing code ...` placeholders, or the whole file), Cursor's edit_file convention.
 */
export interface ApplyBlocksToolInput {
  filePath: string;
  blocks?: ToolBlockInput[];
  text?: string;
  patch?: string;
  code?: string;
}

/** The code of a `code` input, fences stripped: what the snippet applier takes (core's SnippetInput). */
export interface ToolSnippet {
  code: string;
  /** The language a fence's info string gave, if the code came fenced. */
  languageId?: string;
  /** The file a fence or a first-line `// filepath:` comment named, as written (the tool checks it is filePath). */
  namedFile?: string;
}

/** A checked input: blocks to apply (blocks, text, patch), or a snippet (code); exactly one of the two. */
export type ToolInputCheck =
  | { ok: true; filePath: string; blocks: SearchReplaceBlock[]; snippet?: undefined }
  | { ok: true; filePath: string; snippet: ToolSnippet; blocks?: undefined }
  | { ok: false; message: string };

const TOP_LEVEL_KEYS = ['filePath', 'blocks', 'text', 'patch', 'code'];
const INPUT_KEYS = ['blocks', 'text', 'patch', 'code'] as const;
const BLOCK_KEYS = ['search', 'replace', 'startLine'];
// Names models commonly use instead of ours; a hint turns "missing" into an obvious fix.
const FILE_PATH_ALIASES = ['path', 'file', 'filepath', 'file_path', 'fileName', 'filename', 'uri'];
const BLOCK_KEY_ALIASES: Record<string, string> = {
  old: 'search',
  oldText: 'search',
  old_string: 'search',
  oldString: 'search',
  find: 'search',
  original: 'search',
  new: 'replace',
  newText: 'replace',
  new_string: 'replace',
  newString: 'replace',
  replacement: 'replace',
  updated: 'replace',
  start_line: 'startLine',
  line: 'startLine',
  lineNumber: 'startLine',
  startline: 'startLine',
};
const MAX_REPORTED_PROBLEMS = 10;

export const EXPECTED_SHAPE =
  'Expected {"filePath": "src/app.ts", "blocks": [{"search": "<exact lines to find>", "replace": "<new lines>", "startLine": 12}]} ' +
  '(startLine optional) or {"filePath": "src/app.ts", "text": "<<<<<<< SEARCH\\n<exact lines to find>\\n=======\\n<new lines>\\n>>>>>>> REPLACE"} ' +
  'or {"filePath": "src/app.ts", "patch": "--- a/src/app.ts\\n+++ b/src/app.ts\\n@@ -12,2 +12,2 @@\\n context\\n-old\\n+new"} ' +
  'or {"filePath": "src/app.ts", "code": "// ... existing code ...\\nfunction changed() {\\n  return 2;\\n}\\n// ... existing code ..."}.';

/**
 * Checks the raw tool input and turns it into engine blocks, or into one message listing every problem.
 * `toolName` names the tool in that message (the MCP server's apply_edits takes the same input).
 */
export function checkToolInput(input: unknown, toolName: string = APPLY_TOOL_NAME): ToolInputCheck {
  const problems: string[] = [];
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return fail([`the input must be a JSON object, got ${describe(input)}`], toolName);
  }
  const record = input as Record<string, unknown>;

  for (const key of Object.keys(record)) {
    if (TOP_LEVEL_KEYS.includes(key)) {
      continue;
    }
    if (FILE_PATH_ALIASES.includes(key)) {
      problems.push(`unknown field "${key}": the file goes in "filePath"`);
    } else if (key === 'diff' || key === 'udiff' || key === 'unified_diff') {
      problems.push(`unknown field "${key}": put a unified diff or apply_patch patch in "patch"`);
    } else if (key === 'code_edit' || key === 'codeEdit' || key === 'snippet' || key === 'content' || key === 'contents') {
      problems.push(`unknown field "${key}": put a code snippet (or the whole file) in "code"`);
    } else if (key === 'blocks_text' || key === 'edits') {
      problems.push(`unknown field "${key}": put blocks in "blocks" (JSON), "text" (marker format) or "patch" (a diff)`);
    } else {
      problems.push(`unknown field "${key}" (allowed: filePath, blocks, text, patch, code)`);
    }
  }

  const filePath = record.filePath;
  let checkedPath: string | undefined;
  if (filePath === undefined) {
    problems.push('"filePath" is missing: expected a workspace-relative path such as "src/app.ts"');
  } else if (typeof filePath !== 'string') {
    problems.push(`"filePath" must be a string, got ${describe(filePath)}`);
  } else if (filePath.trim() === '') {
    problems.push('"filePath" is empty: expected a workspace-relative path such as "src/app.ts"');
  } else if (filePath.includes('\0')) {
    problems.push('"filePath" contains a NUL character');
  } else {
    checkedPath = filePath.trim();
  }

  const given = INPUT_KEYS.filter((k) => record[k] !== undefined);
  let blocks: SearchReplaceBlock[] | undefined;
  let snippet: ToolSnippet | undefined;
  if (given.length === 2) {
    problems.push(`give either "${given[0]}" or "${given[1]}", not both`);
  } else if (given.length > 2) {
    problems.push('give only one of "blocks", "text", "patch" and "code"');
  } else if (given.length === 0) {
    problems.push('neither "blocks" nor "text" nor "patch" nor "code" is present: give one of them');
  } else if (given[0] === 'code') {
    snippet = checkCode(record.code, problems);
  } else if (given[0] === 'blocks') {
    blocks = checkBlockArray(record.blocks, problems);
  } else if (given[0] === 'text') {
    blocks = checkText(record.text, problems);
  } else {
    blocks = checkPatch(record.patch, problems);
  }

  if (problems.length > 0 || checkedPath === undefined) {
    return fail(problems, toolName);
  }
  if (snippet !== undefined) {
    return { ok: true, filePath: checkedPath, snippet };
  }
  return blocks === undefined ? fail(problems, toolName) : { ok: true, filePath: checkedPath, blocks };
}

/** `code`: the snippet as a string; one fenced block loses its fences; an edit format belongs in text or patch. */
function checkCode(value: unknown, problems: string[]): ToolSnippet | undefined {
  if (typeof value !== 'string') {
    problems.push(
      `"code" must be a string holding the code (a declaration, a snippet with "// ... existing code ..." placeholders, or the whole file), got ${describe(value)}`,
    );
    return undefined;
  }
  const read = readSnippetText(value);
  if (!read.ok) {
    const where = read.format === undefined ? '' : read.format === 'search-replace' ? ': put it in "text"' : ': put it in "patch"';
    problems.push(`"code" is not usable: ${read.message}${where}`);
    return undefined;
  }
  const snippet: ToolSnippet = { code: read.code };
  if (read.language !== undefined) {
    snippet.languageId = read.language;
  }
  if (read.filePath !== undefined) {
    snippet.namedFile = read.filePath;
  }
  return snippet;
}

function checkBlockArray(value: unknown, problems: string[]): SearchReplaceBlock[] | undefined {
  if (!Array.isArray(value)) {
    problems.push(`"blocks" must be an array of {search, replace, startLine?} objects, got ${describe(value)}`);
    return undefined;
  }
  if (value.length === 0) {
    problems.push('"blocks" is empty: give at least one {search, replace} object');
    return undefined;
  }
  const blocks: SearchReplaceBlock[] = [];
  const before = problems.length;
  value.forEach((item, i) => {
    const where = `blocks[${i}]`;
    if (typeof item !== 'object' || item === null || Array.isArray(item)) {
      problems.push(`${where} must be an object {search, replace, startLine?}, got ${describe(item)}`);
      return;
    }
    const entry = item as Record<string, unknown>;
    for (const key of Object.keys(entry)) {
      if (BLOCK_KEYS.includes(key)) {
        continue;
      }
      const meant = BLOCK_KEY_ALIASES[key];
      problems.push(
        meant
          ? `${where} has unknown field "${key}": did you mean "${meant}"?`
          : `${where} has unknown field "${key}" (allowed: search, replace, startLine)`,
      );
    }
    const search = checkString(entry.search, `${where}.search`, problems);
    const replace = checkString(entry.replace, `${where}.replace`, problems);
    let startLine: number | undefined;
    if (entry.startLine !== undefined && entry.startLine !== null) {
      if (typeof entry.startLine !== 'number' || !Number.isInteger(entry.startLine) || entry.startLine < 1) {
        problems.push(
          `${where}.startLine must be a positive integer (the 1-based line where SEARCH starts), got ${describe(entry.startLine)}`,
        );
      } else {
        startLine = entry.startLine;
      }
    }
    if (search === undefined || replace === undefined) {
      return;
    }
    const block: SearchReplaceBlock = {
      index: i + 1,
      search: asBlockLines(search),
      replace: asBlockLines(replace),
      sourceLine: i + 1,
    };
    if (startLine !== undefined) {
      block.startLine = startLine;
    }
    blocks.push(block);
  });
  return problems.length === before ? blocks : undefined;
}

function checkString(value: unknown, where: string, problems: string[]): string | undefined {
  if (value === undefined) {
    problems.push(`${where} is missing: expected a string`);
    return undefined;
  }
  if (typeof value !== 'string') {
    problems.push(`${where} must be a string, got ${describe(value)}`);
    return undefined;
  }
  return value;
}

function checkText(value: unknown, problems: string[]): SearchReplaceBlock[] | undefined {
  if (typeof value !== 'string') {
    problems.push(`"text" must be a string holding SEARCH/REPLACE blocks, got ${describe(value)}`);
    return undefined;
  }
  let blocks: SearchReplaceBlock[];
  try {
    // A diff given as "text" is taken as what it is.
    blocks = editBlocks(parseEdits(value));
  } catch (err) {
    if (err instanceof BlockParseError) {
      problems.push(`"text" is malformed: ${err.message}`);
      return undefined;
    }
    throw err;
  }
  if (blocks.length === 0) {
    problems.push(
      '"text" holds no SEARCH/REPLACE blocks (each block is "<<<<<<< SEARCH", the lines to find, "=======", the new lines, ">>>>>>> REPLACE")',
    );
    return undefined;
  }
  return blocks;
}

function checkPatch(value: unknown, problems: string[]): SearchReplaceBlock[] | undefined {
  if (typeof value !== 'string') {
    problems.push(`"patch" must be a string holding a unified diff or an apply_patch patch, got ${describe(value)}`);
    return undefined;
  }
  let blocks: SearchReplaceBlock[];
  try {
    const edits = parseEdits(value);
    if (edits.format === 'search-replace' && edits.blocks.length > 0) {
      problems.push('"patch" holds SEARCH/REPLACE blocks: put those in "text", or give a unified diff or apply_patch patch');
      return undefined;
    }
    blocks = editBlocks(edits);
    if (edits.format !== 'search-replace' && blocks.length === 0) {
      problems.push(`"patch" (a ${formatName(edits.format)}) changes no file content`);
      return undefined;
    }
  } catch (err) {
    if (err instanceof BlockParseError) {
      problems.push(`"patch" is malformed: ${err.message}`);
      return undefined;
    }
    throw err;
  }
  if (blocks.length === 0) {
    problems.push(
      '"patch" holds no unified diff (--- a/<path>, +++ b/<path>, @@ hunks) or apply_patch patch (*** Begin Patch ... *** End Patch)',
    );
    return undefined;
  }
  return blocks;
}

/**
 * JSON strings carry whole lines: CRLF becomes LF and one final line break is dropped, which is what the
 * marker format's "lines between the markers" means (the engine restores the file's own line endings).
 */
export function asBlockLines(text: string): string {
  const lf = text.replace(/\r\n?/g, '\n');
  return lf.endsWith('\n') ? lf.slice(0, -1) : lf;
}

function fail(problems: string[], toolName: string): ToolInputCheck {
  const shown = problems.slice(0, MAX_REPORTED_PROBLEMS);
  const more = problems.length - shown.length;
  const lines = [`Invalid input for ${toolName}; nothing was applied.`, ...shown.map((p) => `- ${p}`)];
  if (more > 0) {
    lines.push(`- ...and ${more} more`);
  }
  lines.push(EXPECTED_SHAPE);
  return { ok: false, message: lines.join('\n') };
}

/** A short, model-readable description of a JSON value's type (and the value when it is small). */
export function describe(value: unknown): string {
  if (value === undefined) {
    return 'nothing';
  }
  if (value === null) {
    return 'null';
  }
  if (Array.isArray(value)) {
    return `an array of ${value.length}`;
  }
  switch (typeof value) {
    case 'string':
      return `a string (${JSON.stringify(value.length > 40 ? value.slice(0, 40) + '…' : value)})`;
    case 'number':
      return `a number (${value})`;
    case 'boolean':
      return `a boolean (${value})`;
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}
