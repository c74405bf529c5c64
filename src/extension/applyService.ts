// The one place that turns SEARCH/REPLACE blocks into edits of live documents. Paste, the clipboard
// command, CodeLens rows, Quick Pick and the chat participant / LM tool all go through here:
//   plan()   dry-runs the engine against the live documents (DocumentApplier);
//   settle() decides what happens to the dry run (core/batch/plan.ts judgePlan): ask before creating files,
//            commit it as ONE WorkspaceEdit, keep it waiting for a choice in the pending store, or refuse;
//   applyBlocks() / applyText() are parse + plan + settle + notify.
import * as vscode from 'vscode';
import {
  type BlockChoices,
  BlockParseError,
  editBlocks,
  judgePlan,
  type LineRange,
  type ParsedEdits,
  parseEdits,
  type PreviewResult,
  type SearchReplaceBlock,
} from '../core';
import type { ApplyOutcome, BatchPlan, DocumentApplier, MatchedPart } from './documentApplier';
import type { Log } from './log';
import { type ConsentPolicy, type WholePatchApplier, type WholePatchPlan, wholePatchOf } from './wholePatch';

export type { ApplyOutcome, ApplyStatus, BatchPlan, BlockChoice, MatchedPart, NewFilePart } from './documentApplier';

export interface ApplyRequestOptions {
  /** Document for blocks that name no file: the pasted-into document, the active editor, a chat target. */
  fallback?: vscode.Uri;
  /** Short tag for the log: 'paste', 'clipboard', 'codelens', 'chat', 'tool'... */
  source: string;
  /** Named files that do not exist and whose blocks have an empty SEARCH: ask (default), create, or refuse. */
  createMissing?: 'ask' | 'always' | 'never';
  /**
   * A whole patch (one that deletes or moves files) that deletes or overwrites files: ask (default, a
   * modal), go ahead (the caller asked already: the tool's confirmation), or refuse.
   */
  fileChanges?: ConsentPolicy;
  /** Hand near misses / ambiguities to the pending store (CodeLens, Quick Pick). Default true. */
  keepPending?: boolean;
  /** Show error/info notifications (default true). Callers with their own UI (chat, tool) pass false. */
  notify?: boolean;
  /** Stops matching a long batch (nothing is applied then); the progress notification's Cancel does too. */
  token?: vscode.CancellationToken;
}

/** Where batches that need a choice wait (the pending store). */
export interface PendingSink {
  add(plan: BatchPlan, source: string): string;
}

/** Result of parsing block text: the blocks, or an error naming the block and line. */
export type ParseOutcome = { blocks: SearchReplaceBlock[]; error?: undefined } | { blocks?: undefined; error: string };

/** Opens `uri` and selects and reveals `range` (1-based lines). */
async function revealLines(uri: vscode.Uri, range: LineRange): Promise<void> {
  const editor = await vscode.window.showTextDocument(uri, { preview: false });
  const last = Math.min(range.endLine - 1, editor.document.lineCount - 1);
  const selection = new vscode.Selection(range.startLine - 1, 0, last, editor.document.lineAt(last).text.length);
  editor.selection = selection;
  editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

export class ApplyService {
  constructor(
    private readonly documents: DocumentApplier,
    private readonly pending: PendingSink,
    private readonly log: Log,
    private readonly wholePatch: WholePatchApplier,
  ) {}

  /** The edits of `text` when they are a whole patch (they delete or move files); undefined otherwise or when malformed. */
  wholePatchIn(text: string): WholePatchPlan['edits'] | undefined {
    let edits: ParsedEdits;
    try {
      edits = parseEdits(text);
    } catch {
      return undefined; // parse() reports it.
    }
    return wholePatchOf(edits);
  }

  /** Dry run of a whole patch (nothing changes); see WholePatchApplier.plan. Throws BlockParseError for hunks without a file. */
  planWholePatch(edits: WholePatchPlan['edits'], source: string): Promise<WholePatchPlan> {
    return this.wholePatch.plan(edits, source);
  }

  /** Applies a whole patch as ONE WorkspaceEdit, every file or none, asking before deletions and overwrites. */
  async applyWholePatch(
    edits: WholePatchPlan['edits'],
    options: { source: string; fileChanges?: ConsentPolicy; notify?: boolean; save?: boolean },
  ): Promise<ApplyOutcome> {
    let outcome: ApplyOutcome;
    try {
      outcome = await this.wholePatch.apply(edits, { source: options.source, consent: options.fileChanges ?? 'ask', save: options.save });
    } catch (error) {
      if (!(error instanceof BlockParseError)) {
        throw error;
      }
      outcome = { status: 'invalid', summary: `Nothing was applied: ${error.info.message}` };
    }
    if (options.notify ?? true) {
      this.notify(outcome);
    }
    return outcome;
  }

  /**
   * Parses text holding SEARCH/REPLACE blocks, a unified diff or an apply_patch patch (hunks become
   * blocks). Malformed input gives an error naming the block or hunk and the line.
   */
  parse(text: string, sourceName = 'the input'): ParseOutcome {
    try {
      const blocks = editBlocks(parseEdits(text));
      if (blocks.length === 0) {
        return { error: `No SEARCH/REPLACE blocks found in ${sourceName}.` };
      }
      return { blocks };
    } catch (error) {
      if (error instanceof BlockParseError) {
        return { error: `Nothing was applied: ${error.info.message}` };
      }
      throw error;
    }
  }

  // The document steps, for callers that drive a batch themselves (paste, chat, the tool).

  /** See DocumentApplier.matchDocument. */
  matchDocument(
    document: vscode.TextDocument,
    label: string,
    blocks: SearchReplaceBlock[],
    choices: BlockChoices = {},
    source = 'match',
  ): MatchedPart {
    return this.documents.matchDocument(document, label, blocks, choices, source);
  }

  /** See DocumentApplier.rematch. */
  rematch(part: MatchedPart, document: vscode.TextDocument, source = 'rematch'): { part: MatchedPart; lost: number[] } {
    return this.documents.rematch(part, document, source);
  }

  /** See DocumentApplier.plan. */
  plan(
    blocks: readonly SearchReplaceBlock[],
    fallback: vscode.Uri | undefined,
    source = 'plan',
    token?: vscode.CancellationToken,
  ): Promise<BatchPlan> {
    return this.documents.plan(blocks, fallback, source, token);
  }

  /** See DocumentApplier.commit. */
  commit(plan: BatchPlan, source: string): Promise<ApplyOutcome> {
    return this.documents.commit(plan, source);
  }

  /** See DocumentApplier.buildEdit. */
  buildEdit(plan: BatchPlan): vscode.WorkspaceEdit {
    return this.documents.buildEdit(plan);
  }

  /** See DocumentApplier.reportApplied. */
  reportApplied(plan: BatchPlan, source: string): string {
    return this.documents.reportApplied(plan, source);
  }

  /** See DocumentApplier.revealApplied. */
  revealApplied(plan: BatchPlan): Promise<void> {
    return this.documents.revealApplied(plan);
  }

  /** See DocumentApplier.previewContent. */
  previewContent(part: MatchedPart, extraChoices: BlockChoices): string | undefined {
    return this.documents.previewContent(part, extraChoices);
  }

  /** See DocumentApplier.preview. */
  preview(part: MatchedPart, extraChoices: BlockChoices): PreviewResult | undefined {
    return this.documents.preview(part, extraChoices);
  }

  /**
   * Applies blocks to the workspace: dry run, then one WorkspaceEdit if every block places itself.
   * Near misses and ambiguities go to the pending store (CodeLens, Quick Pick) unless keepPending is
   * false; problems are refused with a message. Notifications are shown unless notify is false.
   */
  async applyBlocks(blocks: readonly SearchReplaceBlock[], options: ApplyRequestOptions): Promise<ApplyOutcome> {
    const notify = options.notify ?? true;
    const plan = await this.plan(blocks, options.fallback, options.source, options.token);
    const outcome = await this.settle(plan, options);
    if (notify) {
      this.notify(outcome);
    }
    return outcome;
  }

  /** Parses `text` and applies its blocks (see applyBlocks). Malformed input: 'invalid', nothing applied. */
  async applyText(text: string, options: ApplyRequestOptions & { sourceName?: string }): Promise<ApplyOutcome> {
    const whole = this.wholePatchIn(text);
    if (whole) {
      return this.applyWholePatch(whole, options);
    }
    const parsed = this.parse(text, options.sourceName);
    if (parsed.error !== undefined) {
      this.log.warn(`[${options.source}] ${parsed.error}`);
      const outcome: ApplyOutcome = { status: 'invalid', summary: parsed.error };
      if (options.notify ?? true) {
        this.notify(outcome);
      }
      return outcome;
    }
    return this.applyBlocks(parsed.blocks, options);
  }

  /** Asks (or follows the policy) whether to create the plan's new files; the refusal when not. */
  private async refuseNewFiles(plan: BatchPlan, policy: 'ask' | 'always' | 'never'): Promise<string | undefined> {
    if (plan.newFiles.length === 0 || policy === 'always') {
      return undefined;
    }
    const names = plan.newFiles.map((f) => f.label).join(', ');
    if (policy === 'ask') {
      const answer = await vscode.window.showInformationMessage(
        `${names} does not exist. Create it from the block's REPLACE text?`,
        'Create',
      );
      if (answer === 'Create') {
        return undefined;
      }
    }
    return `Nothing was applied: ${names} does not exist${policy === 'never' ? ' (its blocks have an empty SEARCH section and would create it)' : ''}.`;
  }

  /** Decides what happens to a dry-run plan (core/batch/plan.ts judgePlan): create files, commit, keep pending, or refuse. */
  async settle(plan: BatchPlan, options: ApplyRequestOptions): Promise<ApplyOutcome> {
    const verdict = judgePlan(plan);
    if (verdict.kind === 'problems') {
      this.log.warn(`[${options.source}] ${verdict.summary}`);
      return { status: 'refused', summary: verdict.summary, plan };
    }
    const noCreate = await this.refuseNewFiles(plan, options.createMissing ?? 'ask');
    if (noCreate !== undefined) {
      return { status: 'refused', summary: noCreate, plan };
    }
    switch (verdict.kind) {
      case 'ready':
        return this.documents.commit(plan, options.source);
      case 'already-applied': {
        this.log.info(`[${options.source}] ${verdict.summary}`);
        const alreadyApplied = verdict.places.map(({ part, block, range }) => ({ uri: part.uri, label: part.label, block, range }));
        return { status: 'refused', summary: verdict.summary, plan, alreadyApplied };
      }
      case 'refused':
        this.log.warn(`[${options.source}] refused: ${verdict.summary}`);
        return { status: 'refused', summary: verdict.summary, plan };
      case 'choose':
        if (options.keepPending ?? true) {
          const batchId = this.pending.add(plan, options.source);
          return { status: 'pending', summary: verdict.summary, plan, batchId };
        }
        return { status: 'pending', summary: verdict.summary, plan };
    }
  }

  /** Shows the outcome the way a user expects it: status bar for success, a notification otherwise. */
  notify(outcome: ApplyOutcome): void {
    if (outcome.status === 'pending') {
      // The pending store's status item says it ("1 block pending", with what to do in its tooltip): a
      // second message in the status bar would repeat it and cost the workbench one more update before
      // the candidates' lenses are asked for.
      return;
    }
    if (outcome.alreadyApplied && outcome.alreadyApplied.length > 0) {
      const first = outcome.alreadyApplied[0];
      void vscode.window.showInformationMessage(outcome.summary, 'Reveal').then(async (answer) => {
        if (answer === 'Reveal') {
          await revealLines(first.uri, first.range);
        }
      });
      return;
    }
    if (outcome.status === 'refused' || outcome.status === 'invalid') {
      void vscode.window.showErrorMessage(outcome.summary);
    }
  }
}
