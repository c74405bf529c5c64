// Ways in besides paste: the clipboard command, blocks sitting in a document (a Markdown chat transcript,
// an untitled scratch buffer) with a CodeLens above each, "Apply Selected Blocks", and the internal
// applyText command the chat participant and tests call.
import * as vscode from 'vscode';
import {
  BlockParseError,
  containsEdits,
  editBlocks,
  fileAction,
  findCodeBlocks,
  formatName,
  parseEdits,
  type SearchReplaceBlock,
} from '../core';
import type { ApplyOutcome, ApplyService } from './applyService';
import { Commands } from './constants';
import { afterEngine } from './engineGate';
import type { EditorHistory } from './editorHistory';
import { normalizeBlockPath } from './targets';
import { wholePatchOf } from './wholePatch';
import { applyCodeFromClipboard, type CodeBlockDeps } from './snippets/codeBlockSources';

/** Arguments of the internal applyText command. */
export interface ApplyTextArgs {
  text: string;
  /** Document for blocks that name no file (uri string); default: the active editor. */
  target?: string;
  createMissing?: 'ask' | 'always' | 'never';
  /** A whole patch that deletes or overwrites files: ask first (default), go ahead, or refuse. */
  fileChanges?: 'ask' | 'always' | 'never';
  notify?: boolean;
  source?: string;
}

/**
 * "Resilient Apply: Apply Blocks from Clipboard": the active editor, or the files the blocks name. A
 * clipboard without an edit format but with a fenced code block goes to the code block review instead
 * (plain text without fences stays refused: it may be anything).
 */
export async function applyFromClipboard(service: ApplyService, history: EditorHistory, codeBlocks?: CodeBlockDeps): Promise<ApplyOutcome> {
  const text = await vscode.env.clipboard.readText();
  if (!containsEdits(text) && codeBlocks && findCodeBlocks(text).length > 0) {
    return applyCodeFromClipboard(codeBlocks, text, vscode.window.activeTextEditor?.document.uri ?? history.target());
  }
  if (!containsEdits(text)) {
    const summary =
      text.trim() === ''
        ? 'The clipboard is empty.'
        : 'The clipboard holds no SEARCH/REPLACE blocks (<<<<<<< SEARCH ... ======= ... >>>>>>> REPLACE), unified diff, apply_patch patch or fenced code block.';
    void vscode.window.showWarningMessage(summary);
    return { status: 'invalid', summary };
  }
  const fallback = vscode.window.activeTextEditor?.document.uri ?? history.target();
  return service.applyText(text, { fallback, source: 'clipboard', sourceName: 'the clipboard' });
}

/** Where a block's CodeLens goes: the file path or opening fence just above the SEARCH marker, if any. */
function lensLine(document: vscode.TextDocument, block: SearchReplaceBlock): number {
  let line = Math.max(0, block.sourceLine - 1);
  for (let up = 0; up < 2 && line > 0; up++) {
    const above = document.lineAt(line - 1).text.trim();
    const isFence = /^(`{3,}|~{3,})/.test(above);
    const isPath = block.filePath !== undefined && above !== '' && above.includes(normalizeBlockPath(block.filePath));
    if (!isFence && !isPath) {
      break;
    }
    line--;
  }
  return line;
}

/** Languages/schemes whose documents get "Apply to ..." lenses above the blocks (or diff hunks) they hold. */
const BLOCK_DOCUMENT_SELECTOR: vscode.DocumentSelector = [
  { language: 'markdown' },
  { language: 'plaintext' },
  { language: 'diff' },
  { pattern: '**/*.{diff,patch}' },
  { scheme: 'untitled' },
];

/** "Apply apply_patch patch: 3 files (adds 1, updates 1, deletes 1)" above a patch that deletes or moves files. */
function wholePatchLens(document: vscode.TextDocument, edits: NonNullable<ReturnType<typeof wholePatchOf>>): vscode.CodeLens {
  const files = edits.files ?? [];
  const counts = new Map<string, number>();
  for (const file of files) {
    const verb = { add: 'adds', update: 'updates', delete: 'deletes', move: 'moves' }[fileAction(file)];
    counts.set(verb, (counts.get(verb) ?? 0) + 1);
  }
  const what = [...counts].map(([verb, n]) => `${verb} ${n}`).join(', ');
  const first = Math.max(0, Math.min(document.lineCount - 1, (files[0]?.sourceLine ?? 1) - 1));
  // Above the patch's opening line (`*** Begin Patch`, or git's `diff --git` and its extended header lines).
  let line = first;
  for (let up = 1; up <= 6 && first - up >= 0; up++) {
    if (/^\s*(\*\*\* Begin Patch|diff --git )/.test(document.lineAt(first - up).text)) {
      line = first - up;
      break;
    }
  }
  return new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
    title: `$(run-all) Apply ${formatName(edits.format)}: ${files.length} file${files.length === 1 ? '' : 's'} (${what})`,
    command: Commands.applyBlocksInDocument,
    arguments: [document.uri.toString()],
    tooltip: 'Every file or none, as one undoable edit; deletions and overwrites ask first',
  });
}

class BlockLensProvider implements vscode.CodeLensProvider {
  /**
   * The lenses last given for each document and the version they were read from. The workbench asks every
   * lens provider again whenever any one says its lenses changed (a near miss, a review): a document that
   * did not change since is not read and scanned again (a 10,000-line one costs milliseconds).
   */
  private readonly given = new WeakMap<vscode.TextDocument, { version: number; lenses: vscode.CodeLens[] }>();

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    const given = this.given.get(document);
    if (given?.version === document.version) {
      return given.lenses;
    }
    const lenses = this.lensesOf(document);
    this.given.set(document, { version: document.version, lenses });
    return lenses;
  }

  private lensesOf(document: vscode.TextDocument): vscode.CodeLens[] {
    const text = document.getText();
    if (!containsEdits(text)) {
      return [];
    }
    let blocks: SearchReplaceBlock[];
    try {
      const edits = parseEdits(text);
      const whole = wholePatchOf(edits);
      if (whole) {
        return [wholePatchLens(document, whole)];
      }
      blocks = editBlocks(edits);
    } catch (error) {
      if (error instanceof BlockParseError) {
        const line = Math.min(Math.max(0, error.info.line - 1), document.lineCount - 1);
        return [
          new vscode.CodeLens(new vscode.Range(line, 0, line, 0), {
            title:
              error.message.startsWith('Patch ') || error.message.startsWith('Hunk ')
                ? `$(error) ${error.message.length > 160 ? `${error.message.slice(0, 159)}…` : error.message}`
                : `$(error) Block ${error.info.block} is malformed at line ${error.info.line}: expected ${error.info.expected}`,
            command: '',
          }),
        ];
      }
      throw error;
    }
    const lenses: vscode.CodeLens[] = [];
    const uri = document.uri.toString();
    blocks.forEach((block, i) => {
      const line = lensLine(document, block);
      const range = new vscode.Range(line, 0, line, 0);
      const title = block.filePath ? `$(play) Apply to ${normalizeBlockPath(block.filePath)}` : '$(play) Apply to active editor';
      const what = block.hunk ? 'hunk' : 'block';
      lenses.push(
        new vscode.CodeLens(range, {
          title,
          command: Commands.applyBlocksInDocument,
          arguments: [uri, [block.index]],
          tooltip: `Apply ${what} ${block.index}`,
        }),
      );
      if (i === 0 && blocks.length > 1) {
        lenses.push(
          new vscode.CodeLens(range, {
            title: `$(run-all) Apply all ${blocks.length} ${block.hunk ? 'hunks' : 'blocks'}`,
            command: Commands.applyBlocksInDocument,
            arguments: [uri],
          }),
        );
      }
    });
    return lenses;
  }
}

/** Applies blocks held in a document (all, or those with the given indexes) to their targets. */
async function applyBlocksInDocument(
  service: ApplyService,
  history: EditorHistory,
  uri: string,
  indexes?: number[],
): Promise<ApplyOutcome> {
  const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
  if (!document) {
    return { status: 'refused', summary: 'The document holding the blocks was closed.' };
  }
  const fallback = history.target(document.uri);
  if (!indexes && service.wholePatchIn(document.getText())) {
    return service.applyText(document.getText(), { fallback, source: 'codelens' });
  }
  const parsed = service.parse(
    document.getText(),
    document.uri.scheme === 'untitled' ? document.uri.path : vscode.workspace.asRelativePath(document.uri),
  );
  if (parsed.error !== undefined) {
    void vscode.window.showErrorMessage(parsed.error);
    return { status: 'invalid', summary: parsed.error };
  }
  const blocks = indexes ? parsed.blocks.filter((b) => indexes.includes(b.index)) : parsed.blocks;
  if (blocks.length === 0) {
    const summary = 'Those blocks are no longer in the document.';
    void vscode.window.showWarningMessage(summary);
    return { status: 'refused', summary };
  }
  return service.applyBlocks(blocks, { fallback, source: 'codelens' });
}

/** "Apply Selected Blocks": the blocks inside the selection(s) of the active editor. */
async function applySelectedBlocks(service: ApplyService, history: EditorHistory): Promise<ApplyOutcome> {
  const editor = vscode.window.activeTextEditor;
  const text = editor ? editor.selections.map((s) => editor.document.getText(s)).join('\n') : '';
  if (!editor || text.trim() === '') {
    const summary = 'Select the SEARCH/REPLACE blocks to apply first.';
    void vscode.window.showWarningMessage(summary);
    return { status: 'invalid', summary };
  }
  return service.applyText(text, { fallback: history.target(editor.document.uri), source: 'selection', sourceName: 'the selection' });
}

/** Clipboard command, block-document CodeLens, Apply Selected Blocks and the internal applyText command. */
export function registerBlockSources(
  context: vscode.ExtensionContext,
  service: ApplyService,
  history: EditorHistory,
  codeBlocks?: CodeBlockDeps,
): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(
      Commands.applyFromClipboard,
      afterEngine(() => applyFromClipboard(service, history, codeBlocks)),
    ),
    vscode.commands.registerCommand(
      Commands.applySelectedBlocks,
      afterEngine(() => applySelectedBlocks(service, history)),
    ),
    vscode.commands.registerCommand(
      Commands.applyBlocksInDocument,
      afterEngine((uri: string, indexes?: number[]) => applyBlocksInDocument(service, history, uri, indexes)),
    ),
    vscode.commands.registerCommand(
      Commands.applyText,
      afterEngine((args: ApplyTextArgs) =>
        service.applyText(args.text, {
          fallback: args.target ? vscode.Uri.parse(args.target) : vscode.window.activeTextEditor?.document.uri,
          source: args.source ?? 'command',
          createMissing: args.createMissing,
          fileChanges: args.fileChanges,
          notify: args.notify,
        }),
      ),
    ),
    vscode.languages.registerCodeLensProvider(BLOCK_DOCUMENT_SELECTOR, new BlockLensProvider()),
  );
}
