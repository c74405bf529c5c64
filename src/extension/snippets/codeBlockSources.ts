// Plain code blocks in the editor: a CodeLens "Apply code block to <file>" above each fenced block of a
// Markdown document that names a file, and the clipboard command's second half (a clipboard holding a
// code block rather than an edit format). Each opens the review diff (snippetReview.ts) when the code
// block places, and otherwise says why, with the same message a model gets.
import * as vscode from 'vscode';
import { type CodeBlock, codeBlockAt, findCodeBlocks, isPlaceholderLine, outcomeLine } from '../../core';
import type { ApplyService } from '../applyService';
import { afterEngine } from '../engineGate';
import { normalizeBlockPath, resolveBlockTarget } from '../targets';
import type { AnswerApplier } from './answerApplier';
import type { SnippetApplier } from './snippetApplier';
import type { CodeBlockOutcome, SnippetReviews } from './snippetReview';

export const CodeBlockCommands = {
  /** Applies the code block whose opening fence is on `fenceLine` (1-based) of document `uri`. Internal (CodeLens). */
  applyInDocument: 'resilientApply.applyCodeBlockInDocument',
} as const;

/** What the code block ways in share. */
export interface CodeBlockDeps {
  applier: SnippetApplier;
  reviews: SnippetReviews;
  /** Applies a code block put at a chosen place (an ordinary block, see core's codeBlockAt). */
  applyService: ApplyService;
  /** A whole answer's code blocks over several files, as one edit (issue 28). */
  answers: AnswerApplier;
}

/** A code block to apply: its code and the file it names, if any. */
export type CodeBlockInput = Pick<CodeBlock, 'code' | 'filePath'>;

/** Where the lens goes: the path line before the fence (aider), else the fence. */
function lensLine(block: CodeBlock): number {
  return (block.pathLine ?? block.fenceLine) - 1;
}

class CodeBlockLensProvider implements vscode.CodeLensProvider {
  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    return findCodeBlocks(document.getText())
      .filter((block) => block.filePath !== undefined)
      .map((block) => {
        const line = lensLine(block);
        return new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
          title: `$(play) Apply code block to ${normalizeBlockPath(block.filePath ?? '')}`,
          command: CodeBlockCommands.applyInDocument,
          arguments: [document.uri.toString(), block.fenceLine],
          tooltip: 'Place the code block by its declarations (placeholders keep the code between them); review the diff, then Apply',
        });
      });
  }
}

/** A missing file the code block names: created from it after asking, when it has no placeholder (nothing to keep). */
async function createFromCodeBlock(uri: vscode.Uri, label: string, code: string): Promise<CodeBlockOutcome> {
  if (code.split('\n').some((line) => isPlaceholderLine(line, { fileName: label }))) {
    return refuse(`Nothing was applied: ${label} does not exist, and the code block has placeholders for code it does not show.`);
  }
  const answer = await vscode.window.showInformationMessage(`${label} does not exist. Create it from the code block?`, 'Create');
  if (answer !== 'Create') {
    return { status: 'refused', summary: `Nothing was applied: ${label} does not exist.` };
  }
  const edit = new vscode.WorkspaceEdit();
  edit.createFile(uri, { contents: new TextEncoder().encode(code.endsWith('\n') ? code : `${code}\n`), ignoreIfExists: false });
  if (!(await vscode.workspace.applyEdit(edit))) {
    return refuse(`Nothing was applied: ${label} could not be created.`);
  }
  await vscode.window.showTextDocument(uri, { preview: false });
  return { status: 'applied', summary: `Created ${label} from the code block.` };
}

function refuse(summary: string): CodeBlockOutcome {
  void vscode.window.showErrorMessage(summary);
  return { status: 'refused', summary };
}

/**
 * Matches a code block against its target (the file it names, else `fallback`) and opens the review;
 * a code block that does not place is refused with the outcome of each part and the model's message.
 */
export async function reviewCodeBlock(
  deps: CodeBlockDeps,
  block: CodeBlockInput,
  fallback: vscode.Uri | undefined,
  source: string,
): Promise<CodeBlockOutcome> {
  const target = await resolveBlockTarget(block.filePath, fallback);
  if (target.kind === 'missing') {
    return target.uri ? createFromCodeBlock(target.uri, target.filePath, block.code) : refuse(target.message);
  }
  if (target.kind !== 'document') {
    return refuse(target.message);
  }
  const match = await deps.applier.match(target.document, target.label, block.code, source);
  if (match.result.status === 'applied') {
    return deps.reviews.open(match, source);
  }
  const outcome = match.result.blocks.find((b) => b.status !== 'held_back') ?? match.result.blocks[0];
  const summary = `The code block does not apply to ${match.label}: ${outcome ? outcomeLine(outcome) : match.result.status}. Nothing was applied.`;
  const place = outcome?.alreadyApplied ?? outcome?.candidates[0];
  // Code without placeholders can go where the user points: each candidate is a choice.
  const choices = (outcome?.candidates ?? []).flatMap((candidate, i) => {
    const chosen = codeBlockAt(block.code, candidate, { languageId: match.document.languageId, fileName: match.label });
    const lines = `lines ${candidate.startLine}-${candidate.endLine}`;
    const title =
      outcome?.status === 'ambiguous' ? `Apply here (${i + 1} of ${outcome.candidates.length}, ${lines})` : `Apply here (${lines})`;
    return chosen ? [{ title, block: chosen }] : [];
  });
  const actions = [...choices.map((c) => c.title), ...(place && choices.length === 0 ? ['Reveal'] : []), 'Copy message for the model'];
  void vscode.window.showErrorMessage(summary, ...actions).then(async (answer) => {
    const chosen = choices.find((c) => c.title === answer);
    if (chosen) {
      await deps.applyService.applyBlocks([chosen.block], { fallback: match.uri, source });
    } else if (answer === 'Copy message for the model') {
      await vscode.env.clipboard.writeText(match.result.message);
    } else if (answer === 'Reveal' && place) {
      const editor = await vscode.window.showTextDocument(match.document, { preview: false });
      const range = new vscode.Range(place.startLine - 1, 0, place.endLine - 1, 0);
      editor.selection = new vscode.Selection(range.start, range.end);
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
  });
  return { status: match.result.status === 'invalid' ? 'invalid' : 'refused', summary, plan: undefined };
}

/** The clipboard command for a clipboard holding fenced code blocks: the one chosen goes to review. */
export async function applyCodeFromClipboard(
  deps: CodeBlockDeps,
  text: string,
  fallback: vscode.Uri | undefined,
): Promise<CodeBlockOutcome> {
  const found: CodeBlockInput[] = findCodeBlocks(text);
  if (found.length === 0) {
    return refuse('The clipboard holds no SEARCH/REPLACE blocks, diff or complete code block.');
  }
  let block = found[0];
  if (found.length > 1) {
    const picked = await vscode.window.showQuickPick(
      found.map((b, i) => ({
        label: `Code block ${i + 1}${b.filePath ? ` → ${normalizeBlockPath(b.filePath)}` : ''}`,
        description: b.code
          .split('\n')
          .find((l) => l.trim() !== '')
          ?.trim(),
        block: b,
      })),
      { title: 'The clipboard holds several code blocks: apply which?' },
    );
    if (!picked) {
      return { status: 'refused', summary: 'No code block was chosen; nothing was applied.' };
    }
    block = picked.block;
  }
  return reviewCodeBlock(deps, block, fallback, 'clipboard');
}

async function applyInDocument(deps: CodeBlockDeps, uri: string, fenceLine: number): Promise<CodeBlockOutcome> {
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  const block = document && findCodeBlocks(document.getText()).find((b) => b.fenceLine === fenceLine);
  if (!document || !block) {
    return refuse('That code block is no longer in the document.');
  }
  return reviewCodeBlock(deps, block, undefined, 'codelens');
}

/** The Markdown CodeLens above code blocks that name a file, and its command. */
export function registerCodeBlockLenses(context: vscode.ExtensionContext, deps: CodeBlockDeps): void {
  context.subscriptions.push(
    vscode.languages.registerCodeLensProvider({ language: 'markdown' }, new CodeBlockLensProvider()),
    vscode.commands.registerCommand(
      CodeBlockCommands.applyInDocument,
      afterEngine((uri: string, fenceLine: number) => applyInDocument(deps, uri, fenceLine)),
    ),
  );
}
