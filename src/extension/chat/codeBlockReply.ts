// @apply with plain code blocks (no SEARCH/REPLACE blocks, diff or patch in the request): each code block
// goes to the file it names (info string, a `// filepath:` first line, a path line before the fence) or
// to the fallback target, is placed in a dry run by the shared code block applier, and the reply gives
// what each part would do (replaced method total at lines 10-14, inserted function discount ...) or why
// it does not place, with the candidates and the model's message. Apply re-checks the live file and
// applies as one undoable edit; Preview opens the review diff (Apply / Discard in its title bar).
import * as vscode from 'vscode';
import {
  type BlockOutcome,
  type CodeBlock,
  codeBlockAt,
  fileChangeLine,
  findCodeBlocks,
  formatPercent,
  outcomeLine,
  parseAnswer,
} from '../../core';
import { afterEngine } from '../engineGate';
import { changesLine } from '../review/registerReview';
import type { CodeBlockDeps } from '../snippets/codeBlockSources';
import type { CodeBlockOutcome } from '../snippets/snippetReview';
import { overlappingMatches, type SnippetMatch } from '../snippets/snippetApplier';
import { labelFor, normalizeBlockPath, openTarget, resolveBlockTarget } from '../targets';
import { type ChatApplyArgs, ChatCommands, location, toBlockArg } from './chatCommands';
import { candidateButtonLabel, escapeMarkdown, fence, linesLabel } from './outcomeText';

export const CodeBlockChatCommands = {
  /** Applies a code block from a chat button: re-matched on the live file, one WorkspaceEdit. Args: CodeBlockButtonArgs. */
  apply: 'resilientApply.chat.applyCodeBlock',
  /** Opens the review diff of a code block from a chat button. Args: CodeBlockButtonArgs. */
  preview: 'resilientApply.chat.previewCodeBlock',
  /** Applies every code block of the reply for one file as ONE WorkspaceEdit. Args: CodeBlocksButtonArgs. */
  applyAll: 'resilientApply.chat.applyCodeBlocks',
  /** Applies a whole answer (code blocks and blocks over several files) as ONE WorkspaceEdit. Args: AnswerButtonArgs. */
  applyAnswer: 'resilientApply.chat.applyAnswer',
} as const;

/** What an "Apply all to N files" button carries: the answer's text and the file for code blocks naming none. */
export interface AnswerButtonArgs {
  text: string;
  fallback?: string;
}

/** What an "Apply all" button carries: one file and its code blocks, in the order of the reply. */
export interface CodeBlocksButtonArgs {
  uri: string;
  codes: string[];
  /** The blocks' numbers in the reply, for messages. */
  numbers: number[];
}

/** What a code block button carries (plain JSON: chat history keeps it across reloads). */
export interface CodeBlockButtonArgs {
  uri: string;
  code: string;
}

/** The code blocks of texts from the request, in order. */
export function codeBlocksOf(texts: readonly string[]): CodeBlock[] {
  return texts.flatMap((text) => findCodeBlocks(text));
}

/** The parts a placed code block changes, one line each, with a link to the place. */
function renderParts(stream: vscode.ChatResponseStream, match: SnippetMatch): void {
  const { snippet } = match.result;
  for (const part of snippet.parts) {
    const action = part.action === 'rewritten' ? 'rewrites the whole file' : `${part.action} ${part.what}`;
    stream.markdown(`- ${escapeMarkdown(action)}`);
    if (part.range) {
      stream.markdown(' ');
      stream.anchor(location(match.uri, part.range), `${match.label}:${part.range.startLine}`);
    }
    stream.markdown('\n');
  }
  for (const removed of snippet.removed) {
    stream.markdown(`- _removes ${escapeMarkdown(removed.what)} (lines ${removed.startLine}-${removed.endLine})_\n`);
  }
  const changes = match.result.content === undefined ? '' : changesLine(match.text, match.result.content, match.uri);
  if (changes) {
    stream.markdown(`\n_${escapeMarkdown(changes)}_\n\n`);
  }
}

/** Why a code block does not place: the outcome line, the candidates (quoted on a near miss), the model's message. */
function renderRefusal(stream: vscode.ChatResponseStream, match: SnippetMatch, outcome: BlockOutcome): void {
  stream.markdown(`${escapeMarkdown(outcomeLine(outcome))}\n\n`);
  for (const note of outcome.notes) {
    stream.markdown(`- _${escapeMarkdown(note)}_\n`);
  }
  outcome.candidates.forEach((candidate, i) => {
    const label = outcome.status === 'ambiguous' ? `${i + 1} of ${outcome.candidates.length}` : formatPercent(candidate.score);
    stream.markdown(`\n${label}: `);
    stream.anchor(location(match.uri, candidate), `${match.label}:${candidate.startLine}-${candidate.endLine}`);
    stream.markdown('\n');
    if (outcome.status === 'not_found') {
      stream.markdown(fence(candidate.text));
    }
    // Code without placeholders can go where the user points: the chosen lines become the code block,
    // applied like a block (re-checked on click, one undoable edit).
    const block = codeBlockAt(match.code, candidate, { languageId: match.document.languageId, fileName: match.label });
    if (block) {
      const args: ChatApplyArgs = { targets: [{ uri: match.uri.toString(), version: match.version, blocks: [toBlockArg(block)] }] };
      stream.button({
        title: candidateButtonLabel(outcome, candidate, i),
        command: ChatCommands.apply,
        arguments: [args],
        tooltip: `Replace ${linesLabel(candidate)} of ${match.label} with the code block`,
      });
    }
  });
  stream.button({
    title: 'Copy message for the model',
    command: ChatCommands.copyMessage,
    arguments: [match.result.message],
    tooltip: 'The same feedback the applyBlocks tool gives an agent',
  });
}

/** Streams the reply for code blocks (the request held no edit format). Returns how many would apply. */
export async function replyWithCodeBlocks(
  stream: vscode.ChatResponseStream,
  blocks: readonly CodeBlock[],
  fallback: vscode.Uri | undefined,
  deps: CodeBlockDeps,
): Promise<number> {
  let placed = 0;
  const placedByFile = new Map<string, Array<{ number: number; match: SnippetMatch }>>();
  for (const [i, block] of blocks.entries()) {
    stream.markdown(`\n---\n\n**Code block ${i + 1}**`);
    const target = await resolveBlockTarget(block.filePath, fallback);
    if (target.kind !== 'document') {
      stream.markdown(`: ${escapeMarkdown(target.message)}\n`);
      continue;
    }
    stream.markdown(' → ');
    stream.anchor(target.document.uri, target.label);
    stream.markdown(': ');
    const match = await deps.applier.match(target.document, target.label, block.code, 'chat');
    const args: CodeBlockButtonArgs = { uri: match.uri.toString(), code: block.code };
    if (match.result.status === 'applied') {
      placed++;
      const key = match.uri.toString();
      placedByFile.set(key, [...(placedByFile.get(key) ?? []), { number: i + 1, match }]);
      stream.markdown(`places by ${match.result.snippet.reader === 'outline' ? 'its outline' : 'its declarations'}\n\n`);
      renderParts(stream, match);
      stream.button({
        title: 'Apply',
        command: CodeBlockChatCommands.apply,
        arguments: [args],
        tooltip: `Apply to ${match.label} as one undoable edit`,
      });
      stream.button({
        title: 'Preview',
        command: CodeBlockChatCommands.preview,
        arguments: [args],
        tooltip: 'Review a diff, then Apply or Discard',
      });
      continue;
    }
    const outcome = match.result.blocks.find((b) => b.status !== 'held_back') ?? match.result.blocks[0];
    if (outcome) {
      renderRefusal(stream, match, outcome);
    }
  }
  for (const group of placedByFile.values()) {
    if (group.length > 1) {
      offerApplyAll(stream, group);
    }
  }
  return placed;
}

/**
 * Several code blocks that place in the same file (a model showing two changed functions in two fences):
 * one "Apply all" button applying them as ONE WorkspaceEdit, one undo step, when their edits touch
 * different lines; when two touch the same lines, composing them would write one over the other, so the
 * reply says which and leaves their own Apply buttons (each re-checks the file, one after the other).
 */
function offerApplyAll(stream: vscode.ChatResponseStream, group: ReadonlyArray<{ number: number; match: SnippetMatch }>): void {
  const { label } = group[0].match;
  const numbers = group.map((g) => g.number);
  const which = `Code blocks ${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
  stream.markdown(`\n---\n\n**${which}** → `);
  stream.anchor(group[0].match.uri, label);
  const overlap = overlappingMatches(group.map((g) => g.match));
  if (overlap) {
    stream.markdown(
      `: code blocks ${numbers[overlap[0]]} and ${numbers[overlap[1]]} change the same lines, so they cannot apply as one edit. Apply them one at a time with their own Apply buttons (each is placed again on the file as it is then).\n`,
    );
    return;
  }
  stream.markdown(': they change different lines and apply together as one edit (one undo).\n\n');
  const args: CodeBlocksButtonArgs = { uri: group[0].match.uri.toString(), codes: group.map((g) => g.match.code), numbers };
  stream.button({
    title: `Apply all ${group.length} to ${label}`,
    command: CodeBlockChatCommands.applyAll,
    arguments: [args],
    tooltip: `Apply code blocks ${numbers.join(', ')} to ${label} as one undoable edit`,
  });
}

/** How many files an answer names (its code blocks', blocks' and patches' paths, as written). */
function namedFiles(text: string): number {
  let parsed;
  try {
    parsed = parseAnswer(text);
  } catch {
    return 0; // Malformed edits are named by the blocks' reply.
  }
  const paths = [...(parsed?.codeBlocks ?? []).map((b) => b.filePath), ...(parsed?.files ?? []).map((f) => f.path)];
  return new Set(paths.filter((p): p is string => p !== undefined).map(normalizeBlockPath)).size;
}

/**
 * A whole answer over several files (issue 28): its dry run as one batch, every file or none, and an
 * "Apply all to N files" button applying it as ONE WorkspaceEdit. Shown when the answer changes at
 * least `minFiles` files. Returns whether it would apply.
 */
export async function replyWithAnswer(
  stream: vscode.ChatResponseStream,
  text: string,
  fallback: vscode.Uri | undefined,
  deps: CodeBlockDeps,
  minFiles: number,
): Promise<boolean> {
  if (namedFiles(text) < minFiles) {
    return false;
  }
  const plan = await deps.answers.plan(text, 'chat', fallback, 'chat');
  const n = plan.files.length;
  stream.markdown(`\n---\n\n**The whole answer**: ${n} file${n === 1 ? '' : 's'}, applied together (every file or none, one undo)\n\n`);
  for (const change of deps.answers.changes(plan)) {
    stream.markdown(`- ${escapeMarkdown(fileChangeLine(change, true))}\n`);
  }
  const refusal = deps.answers.refusal(plan);
  if (refusal !== undefined) {
    stream.markdown(`\n**Nothing can be applied together:**\n\n${fence(refusal)}`);
    return false;
  }
  const args: AnswerButtonArgs = { text };
  if (fallback) {
    args.fallback = fallback.toString();
  }
  stream.button({
    title: `Apply all to ${n} file${n === 1 ? '' : 's'}`,
    command: CodeBlockChatCommands.applyAnswer,
    arguments: [args],
    tooltip: 'Every file or none, as one undoable edit',
  });
  return true;
}

/** An "Apply all" button's code blocks placed again on the live file: every one must place, or none is applied. */
async function applyAll(deps: CodeBlockDeps, raw: unknown): Promise<CodeBlockOutcome> {
  const args = raw as CodeBlocksButtonArgs | undefined;
  if (typeof args?.uri !== 'string' || !Array.isArray(args.codes) || !args.codes.every((c) => typeof c === 'string')) {
    return { status: 'invalid', summary: 'This chat button is from an incompatible version of Resilient Apply; ask @apply again.' };
  }
  const placed = await placeOnLiveFile(deps, args.uri, args.codes);
  if (!Array.isArray(placed)) {
    return placed;
  }
  const unplaced = placed.findIndex((match) => match.result.status !== 'applied');
  if (unplaced >= 0) {
    const number = args.numbers?.[unplaced] ?? unplaced + 1;
    return {
      status: 'refused',
      summary: `Nothing was applied: code block ${number} no longer places in ${placed[unplaced].label}. ${placed[unplaced].result.message}`,
    };
  }
  return deps.applier.commit(placed, 'chat');
}

/** A button's code blocks matched again on the live file at `uriText`, in order; the refusal when it cannot be opened. */
async function placeOnLiveFile(deps: CodeBlockDeps, uriText: string, codes: readonly string[]): Promise<SnippetMatch[] | CodeBlockOutcome> {
  const opened = await openTarget(vscode.Uri.parse(uriText));
  if (opened.kind !== 'document') {
    return { status: 'refused', summary: opened.message };
  }
  const matches: SnippetMatch[] = [];
  for (const code of codes) {
    matches.push(await deps.applier.match(opened.document, opened.label, code, 'chat'));
  }
  return matches;
}

function checkArgs(raw: unknown): CodeBlockButtonArgs | undefined {
  const args = raw as CodeBlockButtonArgs | undefined;
  return typeof args?.uri === 'string' && typeof args.code === 'string' ? args : undefined;
}

/** A button's code block matched again on the live file; the refusal when it does not place now. */
async function matchAgain(deps: CodeBlockDeps, raw: unknown): Promise<SnippetMatch | CodeBlockOutcome> {
  const args = checkArgs(raw);
  if (!args) {
    return { status: 'invalid', summary: 'This chat button is from an incompatible version of Resilient Apply; ask @apply again.' };
  }
  const placed = await placeOnLiveFile(deps, args.uri, [args.code]);
  if (!Array.isArray(placed)) {
    return placed;
  }
  const [match] = placed;
  if (match.result.status !== 'applied') {
    return {
      status: 'refused',
      summary: `The code block no longer places in ${labelFor(vscode.Uri.parse(args.uri))}: ${match.result.message}`,
    };
  }
  return match;
}

/** The buttons' commands. */
export function registerCodeBlockChatCommands(context: vscode.ExtensionContext, deps: CodeBlockDeps): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      CodeBlockChatCommands.apply,
      afterEngine(async (raw: unknown): Promise<CodeBlockOutcome> => {
        const match = await matchAgain(deps, raw);
        if ('status' in match) {
          void vscode.window.showErrorMessage(match.summary);
          return match;
        }
        const outcome = await deps.applier.commit([match], 'chat');
        if (outcome.status === 'applied') {
          await deps.applier.reveal(outcome.plan);
        } else {
          void vscode.window.showErrorMessage(outcome.summary);
        }
        return outcome;
      }),
    ),
    vscode.commands.registerCommand(
      CodeBlockChatCommands.applyAll,
      afterEngine(async (raw: unknown): Promise<CodeBlockOutcome> => {
        const outcome = await applyAll(deps, raw);
        if (outcome.status === 'applied') {
          await deps.applier.reveal(outcome.plan);
        } else {
          void vscode.window.showErrorMessage(outcome.summary);
        }
        return outcome;
      }),
    ),
    vscode.commands.registerCommand(
      CodeBlockChatCommands.applyAnswer,
      afterEngine(async (raw: unknown) => {
        const args = raw as AnswerButtonArgs | undefined;
        if (typeof args?.text !== 'string') {
          return { status: 'invalid', summary: 'This chat button is from an incompatible version of Resilient Apply; ask @apply again.' };
        }
        const fallback = typeof args.fallback === 'string' ? vscode.Uri.parse(args.fallback) : undefined;
        const outcome = await deps.answers.apply(args.text, 'chat', fallback, { source: 'chat' });
        if (outcome.status !== 'applied') {
          void vscode.window.showErrorMessage(outcome.summary);
        }
        return outcome;
      }),
    ),
    vscode.commands.registerCommand(
      CodeBlockChatCommands.preview,
      afterEngine(async (raw: unknown): Promise<CodeBlockOutcome> => {
        const match = await matchAgain(deps, raw);
        if ('status' in match) {
          void vscode.window.showErrorMessage(match.summary);
          return match;
        }
        return deps.reviews.open(match, 'chat');
      }),
    ),
  );
}
