// The @apply chat participant. It needs no language model: it reads SEARCH/REPLACE blocks from the
// prompt, from attached files or selections, or from the clipboard (/clipboard), dry-runs them against
// the live buffers through the shared ApplyService, and answers with one outcome line per block, a link
// to the place, and buttons that apply through the chat commands (which re-validate on click).
import * as vscode from 'vscode';
import {
  type BlockOutcome,
  BlockParseError,
  type Candidate,
  containsEdits,
  editBlocks,
  fileChangeLine,
  formatName,
  isChoosable,
  isReady,
  judgePatch,
  parseEdits,
  type SearchReplaceBlock,
} from '../../core';
import type { ApplyService, BatchPlan, MatchedPart } from '../applyService';
import { whenEngineReady } from '../engineGate';
import { changesLine } from '../review/registerReview';
import { labelFor, refusalFor } from '../targets';
import { type WholePatchPlan, wholePatchOf } from '../wholePatch';
import { type ChatApplyArgs, ChatCommands, type ChatTargetArg, location, registerChatCommands, toBlockArg } from './chatCommands';
import type { CodeBlockDeps } from '../snippets/codeBlockSources';
import { codeBlocksOf, registerCodeBlockChatCommands, replyWithAnswer, replyWithCodeBlocks } from './codeBlockReply';
import { isCodeBlockAnswer } from '../snippets/answerApplier';
import {
  batchLine,
  candidateButtonLabel,
  escapeMarkdown,
  fence,
  HELP_MARKDOWN,
  isUnique,
  linesLabel,
  outcomeLine,
  percent,
} from './outcomeText';

export const PARTICIPANT_ID = 'resilient-apply.apply';

/** Lines of a candidate quoted in the reply; the anchor opens the rest. */

/** Text that may hold blocks, and where it came from. */
interface BlockSource {
  name: string;
  text: string;
  uri?: vscode.Uri;
}

/** What the request gives us: texts holding blocks, and files attached without blocks (targets). */
interface GatheredInput {
  sources: BlockSource[];
  targets: vscode.Uri[];
  notes: string[];
  /** Texts without an edit format that may hold plain code blocks (the prompt, text attachments, the clipboard). */
  plainTexts: string[];
}

/** Metadata of the ChatResult (JSON; kept in chat history). */
export interface ApplyChatMetadata {
  command?: string;
  blocks: number;
  /** Blocks that found exactly one place in the dry run. */
  unique: number;
  ready: boolean;
  error?: string;
}

/** The prompt without the `#file:...` reference markers (a marker before a block is not a file path line). */
function promptWithoutReferences(request: vscode.ChatRequest): string {
  let prompt = request.prompt;
  const ranged = request.references.filter((r) => r.range !== undefined).sort((a, b) => b.range![0] - a.range![0]);
  for (const ref of ranged) {
    const [start, end] = ref.range!;
    prompt = prompt.slice(0, start) + prompt.slice(end);
  }
  return prompt;
}

async function documentText(uri: vscode.Uri): Promise<vscode.TextDocument | undefined> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  if (open) {
    return open;
  }
  try {
    return await vscode.workspace.openTextDocument(uri);
  } catch {
    return undefined;
  }
}

async function gather(request: vscode.ChatRequest, token: vscode.CancellationToken): Promise<GatheredInput> {
  const input: GatheredInput = { sources: [], targets: [], notes: [], plainTexts: [] };
  if (request.command === 'clipboard') {
    const text = await vscode.env.clipboard.readText();
    if (containsEdits(text)) {
      input.sources.push({ name: 'the clipboard', text });
    } else if (codeBlocksOf([text]).length > 0) {
      input.plainTexts.push(text);
    } else {
      input.notes.push(text.trim() === '' ? 'The clipboard is empty.' : 'The clipboard holds no SEARCH/REPLACE blocks or code block.');
    }
  }
  const prompt = promptWithoutReferences(request);
  if (containsEdits(prompt)) {
    input.sources.push({ name: 'your message', text: prompt });
  } else {
    input.plainTexts.push(prompt);
  }
  // References come last-in-prompt first; read them in prompt order.
  for (const ref of [...request.references].reverse()) {
    if (token.isCancellationRequested) {
      break;
    }
    const value = ref.value;
    if (typeof value === 'string') {
      if (containsEdits(value)) {
        input.sources.push({ name: 'an attachment', text: value });
      } else {
        input.plainTexts.push(value);
      }
      continue;
    }
    const uri = value instanceof vscode.Uri ? value : value instanceof vscode.Location ? value.uri : undefined;
    if (!uri) {
      continue;
    }
    const document = await documentText(uri);
    if (!document) {
      input.notes.push(`${labelFor(uri)} is not a text file; ignored.`);
      continue;
    }
    const text = value instanceof vscode.Location ? document.getText(value.range) : document.getText();
    const name = value instanceof vscode.Location ? `the selection in ${labelFor(uri)}` : labelFor(uri);
    if (containsEdits(text)) {
      input.sources.push({ name, text, uri });
    } else {
      input.targets.push(uri);
    }
  }
  return input;
}

/**
 * The document for blocks that name no file: an attached file without blocks (the user pointed at it),
 * else the active editor, else a visible editor, never a document the blocks were read from.
 */
function fallbackTarget(input: GatheredInput): vscode.Uri | undefined {
  const sourceUris = new Set(input.sources.map((s) => s.uri?.toString()).filter((u): u is string => u !== undefined));
  const usable = (uri: vscode.Uri | undefined) => uri !== undefined && !sourceUris.has(uri.toString()) && refusalFor(uri) === undefined;
  const attached = input.targets.find((uri) => usable(uri));
  if (attached) {
    return attached;
  }
  const active = vscode.window.activeTextEditor?.document.uri;
  if (usable(active)) {
    return active;
  }
  return vscode.window.visibleTextEditors.map((e) => e.document.uri).find((uri) => usable(uri));
}

/** A source holding a whole patch (it deletes or moves files): applied as one, every file or none. */
interface PatchSource {
  source: BlockSource;
  edits: WholePatchPlan['edits'];
}

/** Parses every source; a malformed one stops everything (nothing half-understood is offered). */
function parseSources(sources: BlockSource[]): { blocks: SearchReplaceBlock[]; patches: PatchSource[]; errors: string[] } {
  const blocks: SearchReplaceBlock[] = [];
  const patches: PatchSource[] = [];
  const errors: string[] = [];
  for (const source of sources) {
    try {
      const edits = parseEdits(source.text);
      const whole = wholePatchOf(edits);
      if (whole) {
        patches.push({ source, edits: whole });
        continue;
      }
      for (const block of editBlocks(edits)) {
        // Renumber across sources so "block 3" means the same thing everywhere in the reply.
        blocks.push({ ...block, index: blocks.length + 1 });
      }
    } catch (error) {
      if (!(error instanceof BlockParseError)) {
        throw error;
      }
      errors.push(`In ${source.name}: ${error.info.message}`);
    }
  }
  return { blocks, patches, errors };
}

/** Streams a whole patch's dry run: each file's change and outcome, then Apply (it asks before deleting or overwriting). */
function renderWholePatch(stream: vscode.ChatResponseStream, patch: PatchSource, plan: WholePatchPlan): boolean {
  const format = plan.edits.format;
  const n = plan.changes.length;
  stream.markdown(
    `\n---\n\n**${formatName(format)}** in ${escapeMarkdown(patch.source.name)}: ${n} file${n === 1 ? '' : 's'}, applied together (every file or none, one undo)\n\n`,
  );
  for (const change of plan.changes) {
    const outcome = change.result ? `: ${change.result.blocks.map((b) => outcomeLine(b)).join('; ')}` : '';
    stream.markdown(`- ${escapeMarkdown(fileChangeLine(change))}${escapeMarkdown(outcome)}\n`);
  }
  const verdict = judgePatch(format, plan.changes, plan.problems);
  if (verdict.kind === 'refused') {
    stream.markdown(`\n**Nothing can be applied:**\n\n${fence(verdict.message)}`);
    stream.button({
      title: 'Copy message for the model',
      command: ChatCommands.copyMessage,
      arguments: [verdict.message],
      tooltip: 'The same feedback the applyBlocks tool gives an agent',
    });
    return false;
  }
  if (verdict.question) {
    stream.markdown(`\n_${escapeMarkdown(verdict.question.what)}: Apply asks first._\n\n`);
  }
  stream.button({
    title: `Apply ${formatName(format)} (${n} file${n === 1 ? '' : 's'})`,
    command: ChatCommands.applyPatch,
    arguments: [{ text: patch.source.text }],
    tooltip: 'Every file or none, as one undoable edit',
  });
  return true;
}

function targetArg(part: MatchedPart, blocks: SearchReplaceBlock[], choice?: { index: number; candidate: Candidate }): ChatTargetArg {
  const arg: ChatTargetArg = { uri: part.uri.toString(), version: part.version, blocks: blocks.map(toBlockArg) };
  if (choice) {
    arg.choices = {
      [choice.index]: { startLine: choice.candidate.startLine, endLine: choice.candidate.endLine, text: choice.candidate.text },
    };
  }
  return arg;
}

function applyButton(title: string, args: ChatApplyArgs, tooltip?: string): vscode.Command {
  return { title, command: ChatCommands.apply, arguments: [args], tooltip };
}

function previewButton(title: string, args: ChatApplyArgs): vscode.Command {
  return { title, command: ChatCommands.preview, arguments: [args], tooltip: 'Show a diff of the file with this change' };
}

/** Streams one block's outcome: the line, the anchor, quoted candidates, and its buttons. */
function renderBlock(stream: vscode.ChatResponseStream, part: MatchedPart, outcome: BlockOutcome): void {
  const block = part.blocks.find((b) => b.index === outcome.index);
  if (!block) {
    return;
  }
  stream.markdown(`\n**Block ${outcome.index}**: ${outcomeLine(outcome)} `);
  const place = outcome.range ?? outcome.candidates[0];
  if (place) {
    stream.anchor(location(part.uri, place), `${part.label}:${place.startLine}`);
  }
  stream.markdown('\n\n');
  for (const note of outcome.notes) {
    const shown = noteBeyondOutcome(outcome, note);
    if (shown) {
      stream.markdown(`- _${escapeMarkdown(shown)}_\n`);
    }
  }
  if (isUnique(outcome)) {
    stream.button(applyButton('Apply', { targets: [targetArg(part, [block])] }, `Apply block ${outcome.index} to ${part.label}`));
    stream.button(previewButton('Preview', { targets: [targetArg(part, [block])] }));
    return;
  }
  if (outcome.status !== 'not_found' && outcome.status !== 'ambiguous') {
    return;
  }
  outcome.candidates.forEach((candidate, i) => {
    const label = outcome.status === 'ambiguous' ? `${i + 1} of ${outcome.candidates.length}` : percent(candidate.score);
    stream.markdown(`\n${label}: `);
    stream.anchor(
      location(part.uri, candidate),
      `${part.label}:${candidate.startLine}${candidate.endLine !== candidate.startLine ? `-${candidate.endLine}` : ''}`,
    );
    if (candidate.note) {
      stream.markdown(` _${escapeMarkdown(candidate.note)}_`);
    }
    stream.markdown('\n');
    if (outcome.status === 'not_found') {
      stream.markdown(fence(candidate.text));
    }
    const args: ChatApplyArgs = { targets: [targetArg(part, [block], { index: outcome.index, candidate })] };
    stream.button(
      applyButton(
        candidateButtonLabel(outcome, candidate, i),
        args,
        `Put block ${outcome.index}'s REPLACE at ${linesLabel(candidate)} of ${part.label}`,
      ),
    );
    if (i === 0) {
      stream.button(previewButton(`Preview (${linesLabel(candidate)})`, args));
    }
  });
}

/** What a note adds to the outcome line: "matched after normalising indentation (the file indents ...)" keeps only the parenthesis. */
function noteBeyondOutcome(outcome: BlockOutcome, note: string): string | undefined {
  if (outcome.status === 'invalid' && note === outcome.notes[0]) {
    return undefined;
  } // It is the outcome line.
  const line = outcomeLine(outcome);
  const lead = note.match(/^matched [^(]*/)?.[0].trim();
  if (lead && line.startsWith(lead)) {
    const rest = note
      .slice(note.indexOf(lead) + lead.length)
      .trim()
      .replace(/^\((.*)\)\.?$/, '$1');
    return rest === '' ? undefined : rest;
  }
  return note;
}

/** Streams the whole reply for a dry-run plan. */
function renderPlan(stream: vscode.ChatResponseStream, plan: BatchPlan, ready: boolean): void {
  const outcomes = plan.parts.flatMap((p) => p.result.blocks);
  for (const problem of plan.problems) {
    stream.markdown(`- ${escapeMarkdown(problem)}\n`);
  }
  for (const part of plan.parts) {
    stream.markdown('\n---\n\n');
    stream.anchor(part.uri, part.label);
    stream.markdown(` (${part.blocks.length} block${part.blocks.length === 1 ? '' : 's'})\n`);
    // The review line comes before the blocks' buttons: markdown streamed after them folds the reply into
    // "Completed N steps" in VS Code 1.139, hiding the Apply buttons.
    const changes = part.result.content === undefined ? '' : changesLine(part.text, part.result.content, part.uri);
    if (changes) {
      stream.markdown(`\n_${escapeMarkdown(changes)}_\n`);
    }
    for (const outcome of part.result.blocks) {
      renderBlock(stream, part, outcome);
    }
    if (part.result.status !== 'applied') {
      stream.button({
        title: 'Copy message for the model',
        command: ChatCommands.copyMessage,
        arguments: [part.result.message],
        tooltip: 'The same feedback the applyBlocks tool gives an agent: closest real text, scores and line ranges',
      });
    }
  }
  for (const file of plan.newFiles) {
    stream.markdown(
      `\n---\n\n**${escapeMarkdown(file.label)}** does not exist yet; ${file.blocks.length === 1 ? 'its block has' : 'its blocks have'} an empty SEARCH and would create it.\n\n`,
    );
    const args: ChatApplyArgs = { targets: [{ uri: file.uri.toString(), version: 0, blocks: file.blocks.map(toBlockArg), create: true }] };
    stream.button(applyButton(`Create ${file.label}`, args));
    stream.button(previewButton('Preview', args));
  }
  if (plan.blockCount > 1 && plan.problems.length === 0) {
    stream.markdown(`\n---\n\n${batchLine(outcomes)}\n\n`);
    const all: ChatApplyArgs = {
      targets: [
        ...plan.parts.map((p) => targetArg(p, p.blocks)),
        ...plan.newFiles.map((f) => ({ uri: f.uri.toString(), version: 0, blocks: f.blocks.map(toBlockArg), create: true })),
      ],
    };
    if (ready) {
      stream.button(applyButton('Apply all', all, `Apply all ${plan.blockCount} blocks as one undoable edit`));
    } else if (isChoosable(plan)) {
      stream.button(
        applyButton(
          'Choose in editor',
          all,
          'Show the candidates in the file (CodeLens); the batch applies as one edit once every block has a place',
        ),
      );
    }
  }
}

/** The request handler, exported so integration tests can drive it with a recording response stream. */
export function createApplyParticipantHandler(applyService: ApplyService, codeBlocks?: CodeBlockDeps): vscode.ChatRequestHandler {
  return async (request, _context, stream, token): Promise<vscode.ChatResult> => {
    if (request.command === 'help') {
      stream.markdown(HELP_MARKDOWN);
      return { metadata: { command: 'help', blocks: 0, unique: 0, ready: false } satisfies ApplyChatMetadata };
    }
    await whenEngineReady();
    const input = await gather(request, token);
    for (const note of input.notes) {
      stream.markdown(`${escapeMarkdown(note)}\n\n`);
    }
    const { blocks, patches, errors } = parseSources(input.sources);
    if (errors.length > 0) {
      stream.markdown(
        `**Nothing can be applied: the blocks are malformed.**\n\n${errors.map((e) => `- ${escapeMarkdown(e)}`).join('\n')}\n`,
      );
      return {
        metadata: { command: request.command, blocks: 0, unique: 0, ready: false, error: errors.join(' ') } satisfies ApplyChatMetadata,
      };
    }
    let patchesReady = patches.length > 0;
    for (const patch of patches) {
      try {
        const plan = await applyService.planWholePatch(patch.edits, 'chat');
        patchesReady = renderWholePatch(stream, patch, plan) && patchesReady;
      } catch (error) {
        if (!(error instanceof BlockParseError)) {
          throw error;
        }
        stream.markdown(`\n**Nothing can be applied from ${escapeMarkdown(patch.source.name)}:** ${escapeMarkdown(error.info.message)}\n`);
        patchesReady = false;
      }
    }
    const hunks = patches.reduce((sum, p) => sum + p.edits.blocks.length, 0);
    if (blocks.length === 0 && patches.length > 0) {
      return { metadata: { command: request.command, blocks: hunks, unique: 0, ready: patchesReady } satisfies ApplyChatMetadata };
    }
    const plainCode = blocks.length === 0 && codeBlocks ? codeBlocksOf(input.plainTexts) : [];
    if (plainCode.length > 0 && codeBlocks) {
      stream.progress(`Placing ${plainCode.length} code block${plainCode.length === 1 ? '' : 's'} in the open files…`);
      const unique = await replyWithCodeBlocks(stream, plainCode, fallbackTarget(input), codeBlocks);
      // Code blocks for several files: the whole answer as one batch too ("Apply all to N files").
      await replyWithAnswer(stream, input.plainTexts.join('\n\n'), fallbackTarget(input), codeBlocks, 2);
      return {
        metadata: {
          command: request.command,
          blocks: plainCode.length,
          unique,
          ready: unique === plainCode.length,
        } satisfies ApplyChatMetadata,
      };
    }
    if (blocks.length === 0) {
      const where = request.command === 'clipboard' ? 'on the clipboard' : 'in your message or its attachments';
      stream.markdown(
        `No SEARCH/REPLACE blocks or code blocks ${where}. Paste blocks or a fenced code block after \`@apply\`, attach a file that holds blocks, or use \`/clipboard\`; \`/help\` shows the format.`,
      );
      return { metadata: { command: request.command, blocks: 0, unique: 0, ready: false } satisfies ApplyChatMetadata };
    }
    stream.progress(`Matching ${blocks.length} block${blocks.length === 1 ? '' : 's'} against the open files…`);
    const plan = await applyService.plan(blocks, fallbackTarget(input), 'chat', token);
    if (token.isCancellationRequested) {
      return {};
    }
    const ready = isReady(plan);
    renderPlan(stream, plan, ready);
    // Blocks beside code blocks naming files (one answer in two formats): the code blocks apply only with the whole answer.
    const mixed = input.sources.filter((source) => isCodeBlockAnswer(source.text));
    if (codeBlocks && mixed.length > 0) {
      await replyWithAnswer(stream, mixed.map((source) => source.text).join('\n\n'), fallbackTarget(input), codeBlocks, 1);
    }
    const unique = plan.parts.flatMap((p) => p.result.blocks).filter(isUnique).length;
    return { metadata: { command: request.command, blocks: blocks.length, unique, ready } satisfies ApplyChatMetadata };
  };
}

/** What the participant and its buttons need from activate(). */
export interface ChatParticipantDeps {
  applyService: ApplyService;
  codeBlocks: CodeBlockDeps;
}

/** Creates the @apply participant and its button commands. */
export function registerChatParticipant(context: vscode.ExtensionContext, deps: ChatParticipantDeps): void {
  registerChatCommands(context, deps.applyService);
  registerCodeBlockChatCommands(context, deps.codeBlocks);
  // Older hosts or hosts with chat disabled have no chat API; the tool and commands still work.
  if (typeof vscode.chat?.createChatParticipant !== 'function') {
    return;
  }
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, createApplyParticipantHandler(deps.applyService, deps.codeBlocks));
  participant.iconPath = new vscode.ThemeIcon('replace-all');
  context.subscriptions.push(participant);
}
