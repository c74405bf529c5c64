// The commands behind the @apply participant's buttons. A chat reply outlives the extension host (chat
// history is restored after a reload), so a button carries everything needed to decide again: the
// document URI, the blocks themselves, the chosen candidate's range AND text, and the version it saw.
// On click the blocks are matched against the live buffer once more through the shared ApplyService;
// a choice is kept only if its text is still on those lines (or found again nearby by the re-match),
// and the batch is settled exactly as the editor mode settles one: applied as ONE WorkspaceEdit when
// every block places, otherwise handed to the pending store (CodeLens rows in the document), so the
// user sees the new situation instead of an edit at a stale place.
import * as vscode from 'vscode';
import { type HunkInfo, newFileResult, type SearchReplaceBlock } from '../../core';
import type { ApplyOutcome, ApplyService, BatchPlan, BlockChoice, MatchedPart, NewFilePart } from '../applyService';
import { afterEngine } from '../engineGate';
import { PreviewContentProvider, previewTitle } from '../previewContent';
import { entryAt, labelFor, openTarget } from '../targets';

export const ChatCommands = {
  /** Apply (a block, a candidate, or a whole batch) from a chat button. Args: ChatApplyArgs. */
  apply: 'resilientApply.chat.apply',
  /** Diff of the live document against the result of a chat button's blocks. Args: ChatApplyArgs. */
  preview: 'resilientApply.chat.preview',
  /** Copies the engine's LLM-facing message, to paste back to the model that wrote the blocks. */
  copyMessage: 'resilientApply.chat.copyMessage',
  /** Apply a whole patch (it deletes or moves files) from a chat button. Args: ChatPatchArgs. */
  applyPatch: 'resilientApply.chat.applyPatch',
} as const;

/** A whole patch as its button carries it: the text itself, parsed and matched again on click. */
export interface ChatPatchArgs {
  text: string;
  /** Deletions and overwrites: ask first (default, a modal), go ahead, or refuse. */
  fileChanges?: 'ask' | 'always' | 'never';
}

/** Scheme of the read-only "after" side of a chat Preview. */
export const CHAT_PREVIEW_SCHEME = 'resilient-apply-chat-preview';

/** A block as a button carries it (plain JSON: chat history stores it). */
export interface ChatBlockArg {
  index: number;
  search: string;
  replace: string;
  startLine?: number;
  filePath?: string;
  /** A diff hunk's header line and @@ anchors (they steer where it goes). */
  hunk?: HunkInfo;
}

/** The place a user picked for a block, with the text that was there when the reply was rendered. */
export interface ChatChoiceArg {
  startLine: number;
  endLine: number;
  text: string;
}

export interface ChatTargetArg {
  /** Document URI (uri.toString()). */
  uri: string;
  /** document.version when the reply was rendered (logged; the text check below is what decides). */
  version: number;
  blocks: ChatBlockArg[];
  /** Block index -> chosen candidate. */
  choices?: Record<string, ChatChoiceArg>;
  /** The file did not exist when the reply was rendered; the blocks (empty SEARCH) create it. */
  create?: boolean;
}

export interface ChatApplyArgs {
  targets: ChatTargetArg[];
}

export function toBlockArg(block: SearchReplaceBlock): ChatBlockArg {
  const arg: ChatBlockArg = { index: block.index, search: block.search, replace: block.replace };
  if (block.startLine !== undefined) {
    arg.startLine = block.startLine;
  }
  if (block.filePath !== undefined) {
    arg.filePath = block.filePath;
  }
  if (block.hunk !== undefined) {
    arg.hunk = block.hunk;
  }
  return arg;
}

function fromBlockArg(arg: ChatBlockArg): SearchReplaceBlock {
  const block: SearchReplaceBlock = { index: arg.index, search: arg.search, replace: arg.replace, sourceLine: 0 };
  if (arg.startLine !== undefined) {
    block.startLine = arg.startLine;
  }
  if (arg.filePath !== undefined) {
    block.filePath = arg.filePath;
  }
  if (arg.hunk !== undefined && typeof arg.hunk === 'object' && arg.hunk !== null) {
    block.hunk = arg.hunk;
  }
  return block;
}

/** Checks the shape of button arguments (they may come from a chat reply rendered by an older version). */
function checkArgs(args: unknown): ChatApplyArgs | undefined {
  const a = args as ChatApplyArgs | undefined;
  if (!a || !Array.isArray(a.targets) || a.targets.length === 0) {
    return undefined;
  }
  for (const t of a.targets) {
    if (typeof t?.uri !== 'string' || !Array.isArray(t.blocks) || t.blocks.length === 0) {
      return undefined;
    }
    for (const b of t.blocks) {
      if (typeof b?.index !== 'number' || typeof b.search !== 'string' || typeof b.replace !== 'string') {
        return undefined;
      }
    }
  }
  return a;
}

/** The document's text on lines start..end (1-based, inclusive), or undefined when out of range. */
function linesAt(document: vscode.TextDocument, startLine: number, endLine: number): string | undefined {
  if (startLine < 1 || endLine < startLine || endLine > document.lineCount) {
    return undefined;
  }
  const lines: string[] = [];
  for (let i = startLine - 1; i < endLine; i++) {
    lines.push(document.lineAt(i).text);
  }
  return lines.join('\n');
}

interface RebuiltTarget {
  part?: MatchedPart;
  newFile?: NewFilePart;
  /** Blocks whose chosen place is gone. */
  lost: number[];
  problem?: string;
}

/** Matches a button's blocks against the live document again and re-validates its choices. */
async function rebuild(applyService: ApplyService, target: ChatTargetArg): Promise<RebuiltTarget> {
  const uri = vscode.Uri.parse(target.uri);
  const blocks = target.blocks.map(fromBlockArg);
  // Created only where nothing is yet (a file made since the reply is edited, never replaced).
  if (target.create && (await entryAt(uri)) === 'nothing') {
    const label = labelFor(uri);
    const result = newFileResult(label, blocks);
    if (result.status !== 'applied') {
      return { lost: [], problem: result.message };
    }
    return { newFile: { uri, label, blocks, result }, lost: [] };
  }
  const opened = await openTarget(uri);
  if (opened.kind !== 'document') {
    return { lost: [], problem: opened.message };
  }
  const document = opened.document;
  const base = applyService.matchDocument(document, opened.label, blocks, {}, 'chat');
  const choiceArgs = Object.entries(target.choices ?? {});
  if (choiceArgs.length === 0) {
    return { part: base, lost: [] };
  }
  const choices: Record<number, BlockChoice> = {};
  for (const [key, c] of choiceArgs) {
    // The reply's version number means nothing after a reload (versions restart), so the text decides:
    // the choice stands if the same text is still on those lines; otherwise the re-match looks for it.
    const still = linesAt(document, c.startLine, c.endLine) === c.text;
    choices[Number(key)] = { range: { startLine: c.startLine, endLine: c.endLine }, text: c.text, version: still ? document.version : -1 };
  }
  const { part, lost } = applyService.rematch({ ...base, choices }, document, 'chat');
  return { part, lost };
}

async function rebuildAll(applyService: ApplyService, args: ChatApplyArgs): Promise<{ plan: BatchPlan; lost: string[] }> {
  const parts: MatchedPart[] = [];
  const newFiles: NewFilePart[] = [];
  const problems: string[] = [];
  const lost: string[] = [];
  let blockCount = 0;
  for (const target of args.targets) {
    blockCount += target.blocks.length;
    const rebuilt = await rebuild(applyService, target);
    if (rebuilt.problem) {
      problems.push(rebuilt.problem);
    }
    if (rebuilt.part) {
      parts.push(rebuilt.part);
    }
    if (rebuilt.newFile) {
      newFiles.push(rebuilt.newFile);
    }
    if (rebuilt.lost.length > 0 && rebuilt.part) {
      lost.push(
        `${rebuilt.part.label} changed since the chat reply: the place chosen for block ${rebuilt.lost.join(', ')} is no longer there.`,
      );
    }
  }
  return { plan: { parts, newFiles, problems, blockCount }, lost };
}

/**
 * A chat button's Apply: re-match on the live buffer, then settle like the editor mode (one WorkspaceEdit
 * when every block places; otherwise the batch waits in the editor with its current candidates).
 */
export async function applyFromChat(applyService: ApplyService, rawArgs: unknown): Promise<ApplyOutcome> {
  const args = checkArgs(rawArgs);
  if (!args) {
    const summary = 'This chat button is from an incompatible version of Resilient Apply; ask @apply again.';
    void vscode.window.showErrorMessage(summary);
    return { status: 'invalid', summary };
  }
  const { plan, lost } = await rebuildAll(applyService, args);
  const outcome = await applyService.settle(plan, { source: 'chat', keepPending: true, createMissing: 'always', notify: false });
  if (lost.length > 0 && outcome.status !== 'applied') {
    // The new situation is in the editor (CodeLens rows at the current candidates); say why.
    const summary = `${lost.join(' ')} ${outcome.status === 'pending' ? 'Its current candidates are shown in the editor.' : outcome.summary}`;
    void vscode.window.showWarningMessage(summary);
    return { ...outcome, summary };
  }
  applyService.notify(outcome);
  if (outcome.status === 'applied' && outcome.plan) {
    // The user clicked in the Chat view, maybe with the file closed or scrolled elsewhere: show the change.
    await applyService.revealApplied(outcome.plan);
  }
  return outcome;
}

/** A chat button's Preview: the live document against what it would become. Returns the preview URI. */
async function previewFromChat(
  applyService: ApplyService,
  provider: PreviewContentProvider,
  rawArgs: unknown,
): Promise<vscode.Uri | undefined> {
  const args = checkArgs(rawArgs);
  if (!args) {
    void vscode.window.showErrorMessage('This chat button is from an incompatible version of Resilient Apply; ask @apply again.');
    return undefined;
  }
  const target = args.targets[0];
  const rebuilt = await rebuild(applyService, target);
  if (rebuilt.problem || !rebuilt.part) {
    if (rebuilt.newFile) {
      const uri = provider.put(rebuilt.newFile.uri, rebuilt.newFile.result.content ?? '');
      await vscode.commands.executeCommand('vscode.open', uri, { preview: true });
      return uri;
    }
    void vscode.window.showWarningMessage(rebuilt.problem ?? 'Nothing to preview.');
    return undefined;
  }
  const part = rebuilt.part;
  if (rebuilt.lost.length > 0) {
    void vscode.window.showWarningMessage(
      `${part.label} changed since the chat reply: the place chosen for block ${rebuilt.lost.join(', ')} is no longer there. Ask @apply again to see the current candidates.`,
    );
    return undefined;
  }
  const preview = applyService.preview(part, {});
  if (preview === undefined || preview.content === part.text) {
    void vscode.window.showWarningMessage(`The block no longer places in ${part.label}: ${part.result.message}`);
    return undefined;
  }
  const uri = provider.put(part.uri, preview);
  const which = target.blocks.length === 1 ? `block ${target.blocks[0].index}` : `${target.blocks.length} blocks`;
  await vscode.commands.executeCommand('vscode.diff', part.uri, uri, previewTitle(`${part.label} ↔ ${which} (preview)`, preview), {
    preview: true,
  });
  return uri;
}

/** A whole patch's Apply button: parsed and matched again on the live files, then every file or none. */
async function applyPatchFromChat(applyService: ApplyService, rawArgs: unknown): Promise<ApplyOutcome> {
  const args = rawArgs as ChatPatchArgs | undefined;
  const edits = typeof args?.text === 'string' ? applyService.wholePatchIn(args.text) : undefined;
  if (!edits) {
    const summary = 'This chat button holds no patch that Resilient Apply can read; ask @apply again.';
    void vscode.window.showErrorMessage(summary);
    return { status: 'invalid', summary };
  }
  const policy = args?.fileChanges === 'always' || args?.fileChanges === 'never' ? args.fileChanges : 'ask';
  return applyService.applyWholePatch(edits, { source: 'chat', fileChanges: policy });
}

/** Registers the button commands and the preview scheme. */
export function registerChatCommands(context: vscode.ExtensionContext, applyService: ApplyService): void {
  const provider = new PreviewContentProvider(CHAT_PREVIEW_SCHEME);
  context.subscriptions.push(
    provider.register(),
    vscode.commands.registerCommand(
      ChatCommands.apply,
      afterEngine((args: unknown) => applyFromChat(applyService, args)),
    ),
    vscode.commands.registerCommand(
      ChatCommands.preview,
      afterEngine((args: unknown) => previewFromChat(applyService, provider, args)),
    ),
    vscode.commands.registerCommand(
      ChatCommands.applyPatch,
      afterEngine((args: unknown) => applyPatchFromChat(applyService, args)),
    ),
    vscode.commands.registerCommand(ChatCommands.copyMessage, async (message: unknown) => {
      if (typeof message !== 'string') {
        return;
      }
      await vscode.env.clipboard.writeText(message);
      void vscode.window.setStatusBarMessage('$(check) Copied the message for the model', 3000);
    }),
  );
}

/** A chat anchor's location: whole lines of a 1-based line range. */
export function location(uri: vscode.Uri, range: { startLine: number; endLine: number }): vscode.Location {
  return new vscode.Location(uri, new vscode.Range(range.startLine - 1, 0, range.endLine - 1, Number.MAX_SAFE_INTEGER));
}
