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
  editNeedsConfirmation,
  newFileResult,
  type PathResolution,
  resolveWorkspacePath,
  type SearchReplaceBlock,
} from '../../core';
import type { ApplyService, BatchPlan } from '../applyService';
import { whenEngineReady } from '../engineGate';
import { entryAt, labelFor, normalizeBlockPath, openTarget } from '../targets';
import { outsideWorkspaceReason, realPlace, type RealPathResolver } from '../workspaceBoundary';

/** What the tool needs from activate(). */
export interface ApplyToolDeps {
  /** Resolves symbolic links: a file is edited only when its real path is inside the workspace. */
  resolveRealPath: RealPathResolver;
  /** The one apply service the editor, chat and tool share. */
  applyService: ApplyService;
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

/** The tool object; exported so tests can call prepareInvocation directly (it must be side-effect free). */
export function createApplyTool(deps: ApplyToolDeps): vscode.LanguageModelTool<unknown> {
  return {
    async prepareInvocation(options) {
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
      const rules = vscode.workspace.getConfiguration('chat.tools.edits').get<Record<string, unknown>>('autoApprove');
      const place = await realPlace(vscode.Uri.joinPath(folderUri(where.folderIndex), where.relativePath), deps.resolveRealPath);
      const realPath = place.kind === 'inside' ? place.relativePath : undefined;
      if (editNeedsConfirmation(where.relativePath, rules) || (realPath !== undefined && editNeedsConfirmation(realPath, rules))) {
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
        // A load failure comes back to the model as the reason (prepareInvocation never reaches the engine).
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
  const check = checkToolInput(input);
  if (!check.ok) {
    return check.message;
  }
  if (check.snippet) {
    return `Nothing was applied: this version of ${APPLY_TOOL_NAME} cannot apply "code" yet; give "blocks", "text" or "patch".`;
  }
  const where = workspacePath(check.filePath);
  if (!where.ok) {
    return `${where.message} Nothing was applied.`;
  }
  const uri = vscode.Uri.joinPath(folderUri(where.folderIndex), where.relativePath);
  const foreign = foreignBlock(check.blocks, where.relativePath);
  if (foreign) {
    return foreign;
  }
  // The path reads as inside the workspace; a link on the way may still lead outside (an agent steered
  // by text it read must not reach files the user never opened to it). Decided before any read or open.
  const outside = await outsideWorkspaceReason(uri, where.relativePath, deps.resolveRealPath);
  if (outside) {
    return outside;
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
  // Keep disk and buffer in step for what the agent runs next (tests, builds), unless the user had
  // unsaved changes of their own in that file: those stay unsaved, as the user left them.
  if (!wasDirty && document.uri.scheme !== 'untitled') {
    try {
      await document.save();
    } catch (error) {
      return `${message}\n(The edit is in the editor but saving failed: ${error instanceof Error ? error.message : String(error)}.)`;
    }
  }
  return message;
}

/** Registers the tool implementation for the `languageModelTools` contribution. */
export function registerApplyTool(context: vscode.ExtensionContext, deps: ApplyToolDeps): void {
  if (typeof vscode.lm?.registerTool !== 'function') {
    return;
  }
  context.subscriptions.push(vscode.lm.registerTool(APPLY_TOOL_NAME, createApplyTool(deps)));
}
