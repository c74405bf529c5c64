// A whole patch over several files, as plain data: which files it updates, adds, deletes and moves, the
// rules each file must meet before anything is written, what needs the user's consent (a deletion, an
// overwrite), and the words for all of it. The CLI (`resilient-apply patch`) and the editor (`@apply`,
// CodeLens, the language model tool) share these; each adds its own file system (node:fs, or a
// WorkspaceEdit with its file operations) around them.
import type { AnswerCodeBlock, ParsedAnswer } from '../formats/answer';
import { isPlaceholderLine } from '../formats/placeholders';
import { BlockParseError } from '../formats/parser';
import { type EditFormat, formatName, hasFileOperations, type ParsedEdits, parseEdits } from '../formats/edits';
import { APPLY_TOOL_NAME } from '../formats/toolInput';
import { type FileAction, type FileChange, fileAction, type PatchFormat } from '../formats/patchParser';
import type { ApplyResult, BatchStatus, BlockOutcome, SearchReplaceBlock, TextEdit } from '../types';
import { dryRunMessage } from '../report/message';
import { applyEdits } from './hunkPlacement';
import { applySnippet, type SnippetOptions } from './snippet';

/**
 * Merges several sections for the same file into one batch: models repeat a header, and an answer gives
 * one SEARCH/REPLACE block per change, maybe beside a diff of the same file. `key` says which spellings
 * of a path are one file (the CLI normalises `./src/a.ts` and `src//a.ts`).
 */
export function mergeSections(files: readonly FileChange[], key: (path: string) => string = (p) => p): FileChange[] {
  const out: FileChange[] = [];
  for (const change of files) {
    const same = out.find(
      (c) =>
        c.kind === 'update' &&
        change.kind === 'update' &&
        c.moveTo === undefined &&
        change.moveTo === undefined &&
        c.path !== undefined &&
        change.path !== undefined &&
        key(c.path) === key(change.path),
    );
    if (same) {
      same.blocks.push(...change.blocks);
    } else {
      out.push({ ...change, blocks: [...change.blocks] });
    }
  }
  return out;
}

/** Content of an added file from its single block (the patch's lines, '\n'-joined). */
export function addedContent(change: FileChange): string {
  const text = change.blocks.map((b) => b.replace).join('\n');
  if (text === '' && change.blocks.every((b) => b.replace === '')) {
    return '';
  }
  return change.noFinalNewline ? text : `${text}\n`;
}

/** The error for hunks that name no file: a whole patch must say which file each hunk is for. */
export function headerlessHunkError(change: FileChange, fix: string): BlockParseError {
  const hunk = change.blocks[0]?.index ?? 1;
  return new BlockParseError({
    block: hunk,
    line: change.sourceLine,
    expected: '--- a/<path> / +++ b/<path>',
    message: `Patch (line ${change.sourceLine}): hunk ${hunk} has no file header (--- a/<path> / +++ b/<path>), so there is no file to apply it to; ${fix}`,
  });
}

/** One file of a whole patch, ready to be checked against the files that exist. */
export interface PatchFile {
  action: FileAction;
  /** The file as the patch names it. */
  path: string;
  /** move: the new name. */
  to?: string;
  /** A plain diff's two spellings of one file (old first); the adapter picks the one that exists. */
  names?: [string, string];
  /** update and move: one block per hunk (a move may have none). */
  blocks: SearchReplaceBlock[];
  /** add: the new file's text. */
  content?: string;
  /** 1-based line of the file's header in the patch. */
  sourceLine: number;
}

/** The files of a parsed patch (sections for the same file merged); throws for hunks without a file. */
export function patchFiles(files: readonly FileChange[], fix: string): PatchFile[] {
  return mergeSections(files).map((change) => {
    if (change.path === undefined) {
      throw headerlessHunkError(change, fix);
    }
    const file: PatchFile = { action: fileAction(change), path: change.path, blocks: change.blocks, sourceLine: change.sourceLine };
    if (change.moveTo !== undefined) {
      file.to = change.moveTo;
    }
    if (change.names) {
      file.names = change.names;
    }
    if (change.kind === 'add') {
      file.content = addedContent(change);
      file.blocks = [];
    }
    return file;
  });
}

/** What is at a path when the patch is checked. */
export type PathState = 'file' | 'folder' | 'nothing';

/** Whether a patch may replace a file that is already there (the editor asks; the CLI refuses). */
export type OverwritePolicy = 'ask' | 'refuse';

/**
 * The rules a file of a patch must meet, given what is at its path and (for a move) its new path:
 * the problem ("nothing was changed") or, when the change replaces an existing file and the policy
 * allows asking, `overwrites`.
 */
export function checkPatchFile(
  file: Pick<PatchFile, 'action' | 'path' | 'to' | 'sourceLine'>,
  at: PathState,
  to: PathState | undefined,
  overwrite: OverwritePolicy,
): { problem?: string; overwrites?: boolean } {
  const line = `(line ${file.sourceLine})`;
  switch (file.action) {
    case 'delete':
      if (at === 'nothing') {
        return { problem: `the patch deletes ${file.path} ${line}, which does not exist; nothing was changed` };
      }
      return at === 'folder' ? { problem: `the patch deletes ${file.path} ${line}, which is a folder; nothing was changed` } : {};
    case 'add':
      if (at === 'nothing') {
        return {};
      }
      if (at === 'folder') {
        return { problem: `the patch adds ${file.path} ${line}, which is a folder; nothing was changed` };
      }
      return overwrite === 'ask'
        ? { overwrites: true }
        : { problem: `the patch adds ${file.path} ${line}, which already exists; nothing was changed` };
    case 'update':
    case 'move': {
      if (at !== 'file') {
        return {
          problem: `the patch changes ${file.path} ${line}, which ${at === 'folder' ? 'is a folder' : 'does not exist'}; nothing was changed`,
        };
      }
      if (file.action === 'update' || to === 'nothing') {
        return {};
      }
      if (to === 'folder' || overwrite === 'refuse') {
        return {
          problem: `the patch moves ${file.path} to ${file.to}, which ${to === 'folder' ? 'is a folder' : 'already exists'}; nothing was changed`,
        };
      }
      return { overwrites: true };
    }
  }
}

/** Two changes of one patch land on the same file (by the caller's key: a real path, a URI). */
export function claimedTwice(label: string, previous: string, current: string): string {
  return `the patch changes ${label} twice (${previous} and ${current}); nothing was changed`;
}

/** A file of a checked patch as the outcome names it. */
export interface PatchFileChange {
  action: FileAction;
  /** How messages name the file (the patch's path, or the workspace-relative path). */
  path: string;
  to?: string;
  /** The change replaces a file that exists (an added file, or a move's new name). */
  overwrites?: boolean;
  /** update and move with hunks: the engine's result for the file. */
  result?: ApplyResult;
}

/** "updated x", "added x", "deleted x", "moved x -> y"; on a dry run "would update x" and so on. */
export function fileChangeLine(file: Pick<PatchFileChange, 'action' | 'path' | 'to' | 'overwrites'>, dryRun = false): string {
  const over = file.overwrites ? ' (overwriting the file there)' : '';
  const done = (past: string, verb: string) => (dryRun ? `would ${verb}` : past);
  switch (file.action) {
    case 'update':
      return `${done('updated', 'update')} ${file.path}`;
    case 'add':
      return `${done('added', 'add')} ${file.path}${over}`;
    case 'delete':
      return `${done('deleted', 'delete')} ${file.path}`;
    case 'move':
      return `${done('moved', 'move')} ${file.path} -> ${file.to}${over}`;
  }
}

function files(n: number): string {
  return `${n} file${n === 1 ? '' : 's'}`;
}

function summaryLines(changes: readonly PatchFileChange[], dryRun = false): string {
  return changes
    .map((c) => {
      const result = c.result ? `: ${dryRun ? c.result.message.split('\n').map(dryRunMessage).join('\n') : c.result.message}` : '';
      return `- ${fileChangeLine(c, dryRun)}${result}`;
    })
    .join('\n');
}

/** What an answer holds: an edit format, or plain code blocks that name their files (answerTargets below). */
export type AnswerFormat = EditFormat | 'code-block';

/** "the unified diff", or for an answer that mixes formats "the edits (SEARCH/REPLACE blocks, unified diff)". */
export function editsName(formats: readonly AnswerFormat[]): { kind: string; does: string } {
  const names = formats.map((f) => (f === 'code-block' ? 'code blocks' : formatName(f)));
  if (names.length === 1) {
    return { kind: names[0], does: formats[0] === 'code-block' ? 'do' : 'does' };
  }
  return { kind: `edits (${names.join(', ')})`, does: 'do' };
}

/** The message for edits that applied (or, on a dry run, would apply) to every file. */
export function patchAppliedMessage(formats: readonly AnswerFormat[], changes: readonly PatchFileChange[], dryRun = false): string {
  const { kind } = editsName(formats);
  return dryRun
    ? `Would apply the ${kind} to ${files(changes.length)} (dry run, nothing written):\n${summaryLines(changes, true)}`
    : `Applied the ${kind} to ${files(changes.length)}:\n${summaryLines(changes)}`;
}

/** The message for edits refused because some hunk or block did not place: every failing file's reason. */
export function patchRefusedMessage(formats: readonly AnswerFormat[], reasons: readonly string[]): string {
  const { kind, does } = editsName(formats);
  return [`Nothing was changed: the ${kind} ${does} not apply to every file.`, ...reasons].join('\n\n');
}

/** What happens to a checked patch: refused (the problems, or hunks that did not place), or ready. */
export type PatchVerdict =
  { kind: 'refused'; status: Exclude<BatchStatus, 'applied'>; message: string } | { kind: 'ready'; question?: PatchQuestion };

/**
 * Judges a checked patch: every problem refuses it ("nothing was changed", the problems in patch order);
 * else every file's hunks must have placed; else it is ready, with the question to ask first when it
 * deletes or overwrites files.
 */
export function judgePatch(format: PatchFormat, changes: readonly PatchFileChange[], problems: readonly string[]): PatchVerdict {
  if (problems.length > 0) {
    const first = problems[0].charAt(0).toUpperCase() + problems[0].slice(1);
    return { kind: 'refused', status: 'invalid', message: [first, ...problems.slice(1)].join('\n') };
  }
  const failed = changes.filter((c) => c.result && c.result.status !== 'applied');
  if (failed.length > 0) {
    return {
      kind: 'refused',
      status: failed[0].result!.status as Exclude<BatchStatus, 'applied'>,
      message: patchRefusedMessage(
        [format],
        failed.map((c) => c.result!.message),
      ),
    };
  }
  return { kind: 'ready', question: patchQuestion(format, changes) };
}

/** The consent a patch needs before it is applied: a one-line question and the whole list of changes. */
export interface PatchQuestion {
  /** What needs consent: "The apply_patch patch deletes src/old.ts". */
  what: string;
  title: string;
  detail: string;
  /** The button that applies. */
  confirm: string;
}

function joinNames(names: readonly string[]): string {
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** The question to ask before a patch that deletes or overwrites files; undefined when it does neither. */
export function patchQuestion(format: PatchFormat, changes: readonly PatchFileChange[]): PatchQuestion | undefined {
  const deleted = changes.filter((c) => c.action === 'delete').map((c) => c.path);
  const overwritten = changes.filter((c) => c.overwrites).map((c) => (c.action === 'move' ? c.to! : c.path));
  if (deleted.length === 0 && overwritten.length === 0) {
    return undefined;
  }
  const what = [
    deleted.length > 0 ? `deletes ${joinNames(deleted)}` : '',
    overwritten.length > 0 ? `overwrites ${joinNames(overwritten)}` : '',
  ].filter((s) => s !== '');
  const sentence = `The ${formatName(format)} ${what.join(' and ')}`;
  return {
    what: sentence,
    title: `${sentence}. Apply it?`,
    detail: `It changes ${files(changes.length)}:\n${changes.map((c) => `- ${fileChangeLine(c)}`).join('\n')}\n\nOne undo restores every file.`,
    confirm: deleted.length > 0 ? 'Apply and Delete' : 'Apply and Overwrite',
  };
}

/** The language model tool's input when it is a whole patch: the patch names its files. */
export type WholePatchInputCheck = { ok: true; edits: ParsedEdits & { format: PatchFormat } } | { ok: false; message: string };

function samePath(a: string, b: string): boolean {
  const key = (p: string) =>
    p
      .trim()
      .replace(/\\/g, '/')
      .replace(/^(\.\/)+/, '');
  return key(a) === key(b);
}

/**
 * Reads the tool's input as a whole patch: `{patch}` without "filePath" (the patch names its files), or
 * a patch that deletes or moves files. Undefined when the input is anything else (then checkToolInput
 * reads it, and names what is wrong); a "filePath" given beside a whole patch must be one of its files.
 */
export function checkWholePatchInput(input: unknown): WholePatchInputCheck | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return undefined;
  }
  const record = input as Record<string, unknown>;
  const { patch, filePath } = record;
  if (typeof patch !== 'string' || Object.keys(record).some((k) => k !== 'patch' && k !== 'filePath')) {
    return undefined;
  }
  if (filePath !== undefined && (typeof filePath !== 'string' || filePath.trim() === '' || filePath.includes('\0'))) {
    return undefined;
  }
  let edits: ParsedEdits;
  try {
    edits = parseEdits(patch);
  } catch {
    return undefined; // checkToolInput names the malformed hunk.
  }
  if (edits.format === 'search-replace' || (filePath !== undefined && !hasFileOperations(edits))) {
    return undefined;
  }
  const problems: string[] = [];
  try {
    const files = patchFiles(edits.files ?? [], 'name each file, or give "filePath" for a patch of one file');
    if (files.length === 0) {
      problems.push(
        '"patch" holds no unified diff (--- a/<path>, +++ b/<path>, @@ hunks) or apply_patch patch (*** Begin Patch ... *** End Patch)',
      );
    }
    const named = files.flatMap((f) => [f.path, ...(f.to !== undefined ? [f.to] : []), ...(f.names ?? [])]);
    if (typeof filePath === 'string' && !named.some((p) => samePath(p, filePath))) {
      problems.push(
        `"filePath" ${JSON.stringify(filePath)} is not one of the files the patch changes (${[...new Set(named)].join(', ')}); leave "filePath" out: the patch names its files`,
      );
    }
  } catch (error) {
    if (!(error instanceof BlockParseError)) {
      throw error;
    }
    problems.push(`"patch" is malformed: ${error.message}`);
  }
  if (problems.length > 0) {
    return {
      ok: false,
      message: [`Invalid input for ${APPLY_TOOL_NAME}; nothing was applied.`, ...problems.map((p) => `- ${p}`)].join('\n'),
    };
  }
  return { ok: true, edits: edits as ParsedEdits & { format: PatchFormat } };
}

/** The outcome when the user did not agree to a patch's deletions or overwrites. */
export function patchNotAgreed(question: PatchQuestion): string {
  return `Nothing was changed: ${question.what.charAt(0).toLowerCase()}${question.what.slice(1)}, and that was not agreed to.`;
}

// ---- a whole answer with code blocks (issue 28) ------------------------------------------------------
// A whole chat answer with plain code blocks (issue 28): which file each code block is for, the steps of
// each such file in the answer's order (SEARCH/REPLACE blocks and hunks beside them, code blocks one by
// one), and those steps run against the file's evolving text. The CLI (`resilient-apply patch`), the MCP
// server and the editor (`@apply`, the language model tool) share this; each adds its own reading and
// writing (node:fs, or one WorkspaceEdit) around it. A file whose changes are only blocks and hunks stays
// on the whole-patch path (wholePatch.ts) exactly as before.

/** One step on a file: a run of blocks and hunks (one engine batch), or one code block. */
export type FileStep = { kind: 'edits'; blocks: SearchReplaceBlock[]; sourceLine: number } | { kind: 'code'; block: AnswerCodeBlock };

/** A file that code blocks of the answer change: every change to it, in the answer's order. */
export interface CodeFile {
  /** The path as the answer first names it. */
  path: string;
  /** 1-based line of its first change in the answer. */
  sourceLine: number;
  steps: FileStep[];
}

/** An answer split by file: changes without code blocks (merged as whole patches are), files with code blocks. */
export type AnswerTarget = { kind: 'change'; change: FileChange } | { kind: 'code'; file: CodeFile };

export interface AnswerTargets {
  /** In the order each file is first named. */
  targets: AnswerTarget[];
  /** Code blocks naming no file (the CLI refuses them; the editor sends them to the active file). */
  unnamed: AnswerCodeBlock[];
  /** Shell commands shown to run (```bash without a file): no edit, named in the message. */
  commands: AnswerCodeBlock[];
  /** Problems that refuse the whole answer (a file that code blocks change and the patch also adds, deletes or moves). */
  problems: string[];
}

// A fence in one of these languages naming no file holds commands to run (`npm install x`), not a file's code.
const COMMAND_LANGUAGES = new Set([
  'bash',
  'sh',
  'shell',
  'zsh',
  'fish',
  'console',
  'shell-session',
  'shellsession',
  'terminal',
  'powershell',
  'ps1',
  'pwsh',
  'cmd',
  'bat',
  'batch',
]);

/** "code block 2 (line 14)": how messages name a code block of the answer. */
export function codeBlockLabel(block: Pick<AnswerCodeBlock, 'index' | 'fenceLine'>): string {
  return `code block ${block.index} (line ${block.fenceLine})`;
}

/** The refusal for a code block that names no file, where no active file can take it (the CLI, MCP). */
export function unnamedCodeBlockMessage(block: AnswerCodeBlock): string {
  return (
    `Code block ${block.index} (line ${block.fenceLine}) names no file: put its path on the line before the fence (src/app.ts or **src/app.ts**), ` +
    'in its info string (```ts src/app.ts) or as its first line (// filepath: src/app.ts); nothing was changed'
  );
}

/**
 * Splits a parsed answer by file. `key` says which spellings of a path are one file. Files only blocks
 * and hunks change are merged sections (as before); a file any code block names gets its steps in order.
 */
export function answerTargets(parsed: ParsedAnswer, key: (path: string) => string = (p) => p): AnswerTargets {
  const unnamed: AnswerCodeBlock[] = [];
  const commands: AnswerCodeBlock[] = [];
  const codeByKey = new Map<string, AnswerCodeBlock[]>();
  for (const block of parsed.codeBlocks) {
    if (block.filePath === undefined) {
      (COMMAND_LANGUAGES.has(block.language ?? '') ? commands : unnamed).push(block);
      continue;
    }
    const k = key(block.filePath);
    codeByKey.set(k, [...(codeByKey.get(k) ?? []), block]);
  }
  const problems: string[] = [];
  const plain: FileChange[] = [];
  const sectionsByKey = new Map<string, FileChange[]>();
  for (const change of parsed.files) {
    const k = change.path === undefined ? undefined : key(change.path);
    if (k === undefined || !codeByKey.has(k)) {
      plain.push(change);
    } else if (change.kind !== 'update' || change.moveTo !== undefined) {
      const what = change.kind === 'update' ? 'moves' : change.kind === 'add' ? 'adds' : 'deletes';
      problems.push(
        `the answer ${what} ${change.path} (line ${change.sourceLine}) and its ${codeBlockLabel(codeByKey.get(k)![0])} changes it too; give that file's changes one way; nothing was changed`,
      );
    } else {
      sectionsByKey.set(k, [...(sectionsByKey.get(k) ?? []), change]);
    }
  }
  const targets: Array<AnswerTarget & { line: number }> = mergeSections(plain, key).map((change) => ({
    kind: 'change',
    change,
    line: change.sourceLine,
  }));
  for (const [k, blocks] of codeByKey) {
    const file = codeFile(blocks, sectionsByKey.get(k) ?? []);
    targets.push({ kind: 'code', file, line: file.sourceLine });
  }
  targets.sort((a, b) => a.line - b.line);
  return { targets: targets.map(({ line: _line, ...t }) => t as AnswerTarget), unnamed, commands, problems };
}

/** The steps of one file: sections and code blocks in the answer's order, neighbouring sections as one batch. */
function codeFile(blocks: readonly AnswerCodeBlock[], sections: readonly FileChange[]): CodeFile {
  const entries: Array<{ line: number; step: FileStep }> = [
    ...blocks.map((block) => ({ line: block.fenceLine, step: { kind: 'code', block } as FileStep })),
    ...sections.map((s) => ({ line: s.sourceLine, step: { kind: 'edits', blocks: [...s.blocks], sourceLine: s.sourceLine } as FileStep })),
  ].sort((a, b) => a.line - b.line);
  const steps: FileStep[] = [];
  for (const { step } of entries) {
    const last = steps[steps.length - 1];
    if (step.kind === 'edits' && last?.kind === 'edits') {
      last.blocks.push(...step.blocks);
    } else {
      steps.push(step);
    }
  }
  const first = entries[0].step;
  return { path: first.kind === 'code' ? first.block.filePath! : sections[0].path!, sourceLine: entries[0].line, steps };
}

/**
 * Whether a code block is clearly a whole new file, the only code block that creates a missing file: no
 * placeholder line (`// ... existing code ...`), and its first line at the left margin (a method shown
 * at its class's depth is a part of some file, not a file).
 */
export function isWholeNewFile(code: string, context: { languageId?: string; fileName?: string }): boolean {
  const lines = code.split('\n');
  const first = lines.find((l) => l.trim() !== '');
  return first !== undefined && !/^[ \t]/.test(first) && !lines.some((line) => isPlaceholderLine(line, context));
}

/** What the steps of one file did: the blocks' result shape, with `created` when the file did not exist. */
export interface CodeFileResult {
  status: BatchStatus;
  /** The file's new text, when every step applied. */
  content?: string;
  /** When applied to an existing text: the one edit turning it into `content` (the changed stretch). */
  edits: TextEdit[];
  /** Every step's block outcomes, in order. */
  blocks: BlockOutcome[];
  /** Each step's message ("Applied ..."); on a refusal the failing step's, naming it by its line in the answer. */
  message: string;
  created: boolean;
}

/** The SEARCH/REPLACE block that creates a file from a whole new file's code. */
function creatingBlock(block: AnswerCodeBlock): SearchReplaceBlock {
  return { index: block.index, search: '', replace: block.code.replace(/\n+$/, ''), sourceLine: block.fenceLine };
}

/**
 * Runs a file's steps against its evolving text (`text` undefined: the file does not exist). The first
 * failing step stops the run and is the result; nothing is written by this function.
 */
export async function applyCodeFile(text: string | undefined, file: CodeFile, options: SnippetOptions): Promise<CodeFileResult> {
  const context = { languageId: options.languageId, fileName: options.fileName ?? file.path };
  const steps = [...file.steps];
  let current = text;
  const created = text === undefined;
  if (current === undefined) {
    const first = steps[0];
    if (first.kind === 'code' && isWholeNewFile(first.block.code, context)) {
      steps[0] = { kind: 'edits', blocks: [creatingBlock(first.block)], sourceLine: first.block.fenceLine };
    } else if (!(first.kind === 'edits' && first.blocks[0]?.hunk === undefined && first.blocks[0]?.search === '')) {
      const why =
        first.kind === 'code'
          ? `its ${codeBlockLabel(first.block)} is not a whole new file (it has placeholder lines or starts indented), so there is no file to place it in`
          : `its first change (line ${first.sourceLine}) edits lines that are not there`;
      return { status: 'invalid', blocks: [], edits: [], created, message: `${file.path} does not exist, and ${why}; nothing was changed` };
    }
    current = '';
  }
  const blocks: BlockOutcome[] = [];
  const messages: string[] = [];
  for (const step of steps) {
    const result: ApplyResult =
      step.kind === 'edits'
        ? applyEdits(current, step.blocks, options)
        : await applySnippet(current, { code: step.block.code, languageId: options.languageId, fileName: context.fileName }, options);
    blocks.push(...result.blocks);
    if (result.status !== 'applied') {
      const where = step.kind === 'code' ? `${capitalised(codeBlockLabel(step.block))}: ` : '';
      return { status: result.status, blocks, edits: [], created, message: `${where}${result.message}` };
    }
    messages.push(result.message);
    current = result.content ?? current;
  }
  const edits = text === undefined ? [] : changedStretch(text, current);
  return { status: 'applied', content: current, edits, blocks, created, message: messages.join('\n') };
}

/**
 * The one edit from `before` to `after`: the stretch between their common start and common end. Steps
 * run one after the other give no edits of the original text, but this one always is.
 */
export function changedStretch(before: string, after: string): TextEdit[] {
  if (before === after) {
    return [];
  }
  let start = 0;
  const most = Math.min(before.length, after.length);
  while (start < most && before.charCodeAt(start) === after.charCodeAt(start)) {
    start++;
  }
  let end = 0;
  while (end < most - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) {
    end++;
  }
  // Never split a CRLF pair or a surrogate pair: the edit starts and ends on whole characters of a line.
  while (start > 0 && (before[start - 1] === '\r' || isHighSurrogate(before.charCodeAt(start - 1)))) {
    start--;
  }
  while (end > 0 && (before[before.length - end] === '\n' || isLowSurrogate(before.charCodeAt(before.length - end)))) {
    end--;
  }
  return [{ start, end: before.length - end, newText: after.slice(start, after.length - end) }];
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The formats an answer holds, for its messages: the edit formats, then code blocks when it has any. */
export function answerFormats(parsed: ParsedAnswer): AnswerFormat[] {
  return parsed.codeBlocks.some((b) => b.filePath !== undefined) ? [...parsed.formats, 'code-block'] : [...parsed.formats];
}
