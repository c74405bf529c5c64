// A whole chat answer with plain code blocks (issue 28): which file each code block is for, the steps of
// each such file in the answer's order (SEARCH/REPLACE blocks and hunks beside them, code blocks one by
// one), and those steps run against the file's evolving text. The CLI (`resilient-apply patch`), the MCP
// server and the editor (`@apply`, the language model tool) share this; each adds its own reading and
// writing (node:fs, or one WorkspaceEdit) around it. A file whose changes are only blocks and hunks stays
// on the whole-patch path (wholePatch.ts) exactly as before.
import type { AnswerCodeBlock, ParsedAnswer } from '../formats/answer';
import type { FileChange } from '../formats/patchParser';
import { isPlaceholderLine } from '../formats/placeholders';
import type { EditFormat } from '../formats/edits';
import type { ApplyResult, BlockOutcome, BatchStatus, SearchReplaceBlock } from '../types';
import { applyEdits } from './hunkPlacement';
import { applySnippet, type SnippetOptions } from './snippet';
import { mergeSections } from './wholePatch';

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
      return { status: 'invalid', blocks: [], created, message: `${file.path} does not exist, and ${why}; nothing was changed` };
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
      return { status: result.status, blocks, created, message: `${where}${result.message}` };
    }
    messages.push(result.message);
    current = result.content ?? current;
  }
  return { status: 'applied', content: current, blocks, created, message: messages.join('\n') };
}

function capitalised(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

/** The formats an answer holds, for its messages: the edit formats, then code blocks when it has any. */
export function answerFormats(parsed: ParsedAnswer): Array<EditFormat | 'code-block'> {
  return parsed.codeBlocks.some((b) => b.filePath !== undefined) ? [...parsed.formats, 'code-block'] : [...parsed.formats];
}
