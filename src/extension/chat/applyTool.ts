// The language model tool `resilient-apply_applyBlocks`: agent mode (or any extension through
// vscode.lm.invokeTool) hands it SEARCH/REPLACE blocks for one workspace file. It applies them atomically
// to the live buffer through the shared ApplyService and answers with the engine's LLM-facing message:
// which normalisation was needed, or the closest real text with scores and line ranges, or every
// ambiguous occurrence. Bad input is answered, never thrown: a thrown error loses the message the
// model needs to correct itself.
import * as vscode from 'vscode';
import {
  APPLY_TOOL_NAME,
  checkToolInput,
  checkWholePatchInput,
  editNeedsConfirmation,
  newFileResult,
  type PatchFileChange,
  patchFiles,
  patchQuestion,
  type PathResolution,
  resolveWorkspacePath,
  type SearchReplaceBlock,
} from '../../core';
import type { ApplyService, BatchPlan } from '../applyService';
import { engineReady, whenEngineReady } from '../engineGate';
import { entryAt, labelFor, normalizeBlockPath, openTarget } from '../targets';
import type { WholePatchPlan } from '../wholePatch';
import { outsideWorkspaceReason, realPlace, type RealPathResolver } from '../workspaceBoundary';
import type { CodeBlockDeps } from '../snippets/codeBlockSources';
import { answerPaths, isCodeBlockAnswer } from '../snippets/answerApplier';
import { applyCodeForTool, saveAfterToolEdit } from './codeTool';

/** What the tool needs from activate(). */
export interface ApplyToolDeps {
  /** Resolves symbolic links: a file is edited only when its real path is inside the workspace. */
  resolveRealPath: RealPathResolver;
  /** The one apply service the editor, chat and tool share. */
  applyService: ApplyService;
  /** The code block applier, for the `code` input. */
  codeBlocks: CodeBlockDeps;
}

export { APPLY_TOOL_NAME };

function textResult(text: string): vscode.LanguageModelToolResult {
  return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(text)]);
}

function workspacePath(filePath: string): PathResolution {
  const folders = vscode.workspace.workspaceFolders ?? [];
  return resolveWorkspacePath(
    filePath,
    folders.map((f) => ({ path: f.uri.path, name: f.name })),
  );
}

function folderUri(index: number): vscode.Uri {
  return (vscode.workspace.workspaceFolders ?? [])[index].uri;
}

/** A block in `text` that names another file than filePath: this tool edits exactly one file per call. */
function foreignBlock(blocks: readonly SearchReplaceBlock[], relativePath: string): string | undefined {
  for (const block of blocks) {
    if (block.filePath === undefined) {
      continue;
    }
    const named = normalizeBlockPath(block.filePath);
    const resolved = workspacePath(named);
    const same = named === relativePath || relativePath.endsWith('/' + named) || (resolved.ok && resolved.relativePath === relativePath);
    if (!same) {
      return `Block ${block.index} names the file "${named}" but "filePath" is "${relativePath}"; nothing was applied. This tool edits one file per call: call it once per file.`;
    }
  }
  return undefined;
}

/** The code names another file than filePath (its fence or a `// filepath:` first line). */
function foreignCode(namedFile: string | undefined, relativePath: string): string | undefined {
  if (namedFile === undefined) {
    return undefined;
  }
  const named = normalizeBlockPath(namedFile);
  const resolved = workspacePath(named);
  const same =
    named === relativePath ||
    relativePath.endsWith('/' + named) ||
    named.endsWith('/' + relativePath) ||
    (resolved.ok && resolved.relativePath === relativePath);
  return same
    ? undefined
    : `The code names the file "${named}" but "filePath" is "${relativePath}"; nothing was applied. This tool edits one file per call: call it once per file.`;
}

/** "line 12: `const a = 1;` (3 lines) → `const a = 2;` (3 lines)" for the confirmation. */
function firstLine(text: string): string {
  const line =
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

function lineCount(text: string): string {
  const n = text === '' ? 0 : text.split('\n').length;
  return `${n} line${n === 1 ? '' : 's'}`;
}

/** Inline code that survives backticks in the text (a longer fence than any run inside it). */
function code(text: string): string {
  const longest = Math.max(0, ...(text.match(/`+/g) ?? []).map((run) => run.length));
  const ticks = '`'.repeat(longest + 1);
  return `${ticks} ${text} ${ticks}`;
}

function describeBlocks(blocks: readonly SearchReplaceBlock[], relativePath: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  const n = blocks.length;
  md.appendMarkdown(`${code(relativePath)}: ${n} SEARCH/REPLACE block${n === 1 ? '' : 's'}, applied together as one undoable edit.\n\n`);
  for (const block of blocks.slice(0, 10)) {
    const at = block.startLine !== undefined ? ` near line ${block.startLine}` : '';
    const search =
      block.search === ''
        ? 'an empty SEARCH (fills an empty or new file)'
        : `${code(firstLine(block.search))} (${lineCount(block.search)})`;
    const replace = block.replace === '' ? 'nothing (deletes)' : `${code(firstLine(block.replace))} (${lineCount(block.replace)})`;
    md.appendMarkdown(`${block.index}. Replace${at} ${search} with ${replace}\n`);
  }
  if (n > 10) {
    md.appendMarkdown(`\n…and ${n - 10} more\n`);
  }
  return md;
}

function describeSnippet(snippet: string, relativePath: string): vscode.MarkdownString {
  const md = new vscode.MarkdownString();
  md.appendMarkdown(
    `${code(relativePath)}: a code snippet (${lineCount(snippet)}) starting ${code(firstLine(snippet))}, placed by its declarations as one undoable edit.\n`,
  );
  return md;
}

/** True when the guarded-files rule (chat.tools.edits.autoApprove) asks for this path or its real path. */
async function guarded(uri: vscode.Uri, relativePath: string, resolveRealPath: RealPathResolver): Promise<boolean> {
  const rules = vscode.workspace.getConfiguration('chat.tools.edits').get<Record<string, unknown>>('autoApprove');
  const place = await realPlace(uri, resolveRealPath);
  return editNeedsConfirmation(relativePath, rules) || (place.kind === 'inside' && editNeedsConfirmation(place.relativePath, rules));
}

/**
 * What the tool says before a whole patch: the confirmation when it deletes or overwrites a file, or
 * touches a guarded one (only stat reads: nothing is opened or matched here). Paths that do not resolve
 * ask nothing; invoke refuses them.
 */
async function prepareWholePatch(edits: WholePatchPlan['edits'], deps: ApplyToolDeps): Promise<vscode.PreparedToolInvocation> {
  let files;
  try {
    files = patchFiles(edits.files ?? [], '');
  } catch {
    return { invocationMessage: 'Checking the patch' };
  }
  const changes: PatchFileChange[] = [];
  let guardedFiles = false;
  for (const file of files) {
    const change: PatchFileChange = { action: file.action, path: file.path, to: file.to };
    for (const [name, isTarget] of [[file.path, file.action === 'add'] as const, ...(file.to ? [[file.to, true] as const] : [])]) {
      const where = workspacePath(name);
      if (!where.ok) {
        continue;
      }
      const uri = vscode.Uri.joinPath(folderUri(where.folderIndex), where.relativePath);
      if (isTarget && (await entryAt(uri)) !== 'nothing') {
        change.overwrites = true;
      }
      guardedFiles = guardedFiles || (await guarded(uri, where.relativePath, deps.resolveRealPath));
    }
    changes.push(change);
  }
  const n = changes.length;
  const prepared: vscode.PreparedToolInvocation = { invocationMessage: `Applying a patch to ${n} file${n === 1 ? '' : 's'}` };
  const question = patchQuestion(edits.format, changes);
  if (question || guardedFiles) {
    const md = new vscode.MarkdownString();
    md.appendText(question?.detail ?? changes.map((c) => `- ${c.action} ${c.path}`).join('\n'));
    prepared.confirmationMessages = { title: question?.title ?? `Apply the patch to ${n} file${n === 1 ? '' : 's'}?`, message: md };
  }
  return prepared;
}

/** `{patch}` without "filePath" whose text has code blocks naming their files: a whole answer (issue 28), else undefined. */
function codeBlockAnswerOf(input: unknown): string | undefined {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    return undefined;
  }
  const record = input as Record<string, unknown>;
  const only = Object.keys(record).every((k) => k === 'patch');
  return only && typeof record.patch === 'string' && isCodeBlockAnswer(record.patch) ? record.patch : undefined;
}

/** The confirmation for an answer: asked when it touches a file VS Code guards (package.json, .vscode/*.json...). */
async function prepareAnswer(text: string, deps: ApplyToolDeps): Promise<vscode.PreparedToolInvocation> {
  const paths = answerPaths(text);
  const prepared: vscode.PreparedToolInvocation = {
    invocationMessage: `Applying an answer's code blocks to ${paths.length} file${paths.length === 1 ? '' : 's'}`,
  };
  const guardedPaths: string[] = [];
  for (const name of paths) {
    const where = workspacePath(name);
    if (
      where.ok &&
      (await guarded(vscode.Uri.joinPath(folderUri(where.folderIndex), where.relativePath), where.relativePath, deps.resolveRealPath))
    ) {
      guardedPaths.push(where.relativePath);
    }
  }
  if (guardedPaths.length > 0) {
    prepared.confirmationMessages = {
      title: `Apply the answer's code blocks (${guardedPaths.join(', ')})?`,
      message: new vscode.MarkdownString().appendText(`It changes ${paths.join(', ')}, every file or none, as one undoable edit.`),
    };
  }
  return prepared;
}

/** The tool object; exported so tests can call prepareInvocation directly (it must be side-effect free). */
export function createApplyTool(deps: ApplyToolDeps): vscode.LanguageModelTool<unknown> {
  return {
    async prepareInvocation(options) {
      // The input's checks live in the engine bundle (the web bundle stays small); it is loaded by now,
      // since activation started it. A load failure is the model's answer in invoke.
      try {
        await engineReady();
      } catch {
        return { invocationMessage: 'Applying the edit' };
      }
      const answer = codeBlockAnswerOf(options.input);
      if (answer !== undefined) {
        return prepareAnswer(answer, deps);
      }
      const whole = checkWholePatchInput(options.input);
      if (whole) {
        return whole.ok ? prepareWholePatch(whole.edits, deps) : { invocationMessage: 'Checking the patch' };
      }
      const check = checkToolInput(options.input);
      if (!check.ok) {
        return { invocationMessage: 'Checking the SEARCH/REPLACE input' };
      }
      const where = workspacePath(check.filePath);
      if (!where.ok) {
        return { invocationMessage: `Checking ${check.filePath}` };
      }
      const n = check.blocks?.length ?? 0;
      const what = check.blocks ? `${n} SEARCH/REPLACE block${n === 1 ? '' : 's'}` : 'a code snippet';
      const prepared: vscode.PreparedToolInvocation = { invocationMessage: `Applying ${what} to ${where.relativePath}` };
      // Ask exactly where VS Code's own agent edit tools ask (sensitive files such as .vscode/*.json,
      // .env, package.json, lock files): the edit is undoable, so ordinary files need no prompt.
      // The real path counts too: a link named notes.md may lead to .vscode/tasks.json.
      if (await guarded(vscode.Uri.joinPath(folderUri(where.folderIndex), where.relativePath), where.relativePath, deps.resolveRealPath)) {
        prepared.confirmationMessages = {
          title: `Apply ${what} to ${where.relativePath}?`,
          message: check.blocks
            ? describeBlocks(check.blocks, where.relativePath)
            : describeSnippet(check.snippet.code, where.relativePath),
        };
      }
      return prepared;
    },

    async invoke(options, token) {
      try {
        // A load failure comes back to the model as the reason.
        await whenEngineReady();
        return textResult(await applyToolInput(options.input, token, deps));
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        return textResult(`${APPLY_TOOL_NAME} failed unexpectedly (${reason}). Check the file in the editor before retrying.`);
      }
    },
  };
}

/** Validates, resolves, matches and applies; returns the text for the model. */
export async function applyToolInput(input: unknown, token: vscode.CancellationToken, deps: ApplyToolDeps): Promise<string> {
  const answer = codeBlockAnswerOf(input);
  if (answer !== undefined) {
    // Code blocks naming their files (with blocks or hunks beside them): every file or none, one edit, saved.
    const outcome = await deps.codeBlocks.answers.apply(answer, 'strict', undefined, { source: 'tool', save: true });
    return outcome.summary;
  }
  const whole = checkWholePatchInput(input);
  if (whole) {
    if (!whole.ok) {
      return whole.message;
    }
    // Deletions and overwrites were confirmed before invoke (prepareInvocation's confirmation).
    const outcome = await deps.applyService.applyWholePatch(whole.edits, {
      source: 'tool',
      fileChanges: 'always',
      notify: false,
      save: true,
    });
    return outcome.summary;
  }
  const check = checkToolInput(input);
  if (!check.ok) {
    return check.message;
  }
  const where = workspacePath(check.filePath);
  if (!where.ok) {
    return `${where.message} Nothing was applied.`;
  }
  const uri = vscode.Uri.joinPath(folderUri(where.folderIndex), where.relativePath);
  const foreign = check.snippet ? foreignCode(check.snippet.namedFile, where.relativePath) : foreignBlock(check.blocks, where.relativePath);
  if (foreign) {
    return foreign;
  }
  // The path reads as inside the workspace; a link on the way may still lead outside (an agent steered
  // by text it read must not reach files the user never opened to it). Decided before any read or open.
  const outside = await outsideWorkspaceReason(uri, where.relativePath, deps.resolveRealPath);
  if (outside) {
    return outside;
  }
  if (check.snippet) {
    return applyCodeForTool(uri, check.filePath, check.snippet.code, token, deps);
  }
  const blocks = check.blocks.map(({ filePath: _ignored, ...rest }) => rest);
  const { applyService } = deps;

  const entry = await entryAt(uri);
  if (entry === 'nothing') {
    if (blocks.some((b) => b.search !== '')) {
      return `"filePath" "${check.filePath}" does not exist (resolved to ${where.relativePath} in the workspace folder ${folderUri(where.folderIndex).path}); nothing was applied. Check the path, or to create a new file give one block with an empty search and the whole content as replace.`;
    }
    const label = labelFor(uri);
    const result = newFileResult(label, blocks);
    if (result.status !== 'applied') {
      return result.message;
    }
    if (token.isCancellationRequested) {
      return 'Cancelled; nothing was applied.';
    }
    const plan: BatchPlan = { parts: [], newFiles: [{ uri, label, blocks, result }], problems: [], blockCount: blocks.length };
    const outcome = await applyService.commit(plan, 'tool');
    return outcome.status === 'applied' ? `Created ${label}. ${result.message}` : `Nothing was applied: ${outcome.summary}`;
  }
  if (entry === 'folder') {
    return `"filePath" "${check.filePath}" is a folder, not a file; nothing was applied.`;
  }

  const opened = await openTarget(uri);
  if (opened.kind !== 'document') {
    return `${opened.message}`;
  }
  const document = opened.document;
  if (token.isCancellationRequested) {
    return 'Cancelled; nothing was applied.';
  }
  const wasDirty = document.isDirty;
  const part = applyService.matchDocument(document, opened.label, blocks, {}, 'tool');
  if (part.result.status !== 'applied') {
    // Near miss, ambiguity or an invalid block: the document is untouched and the message says why.
    return part.result.message;
  }
  const outcome = await applyService.commit({ parts: [part], newFiles: [], problems: [], blockCount: blocks.length }, 'tool');
  const final = outcome.plan?.parts[0];
  if (outcome.status !== 'applied') {
    // The document changed between matching and applying and the blocks no longer place.
    return final && final.result.status !== 'applied' ? final.result.message : `Nothing was applied to ${opened.label}: ${outcome.summary}`;
  }
  const message = (final ?? part).result.message;
  return saveAfterToolEdit(document, wasDirty, message);
}

/** Registers the tool implementation for the `languageModelTools` contribution. */
export function registerApplyTool(context: vscode.ExtensionContext, deps: ApplyToolDeps): void {
  if (typeof vscode.lm?.registerTool !== 'function') {
    return;
  }
  context.subscriptions.push(vscode.lm.registerTool(APPLY_TOOL_NAME, createApplyTool(deps)));
}
