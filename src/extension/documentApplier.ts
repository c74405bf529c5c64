// Blocks against live documents: matches them on TextDocument.getText() (remembering document.version),
// re-matches after a document changed, and applies a batch as ONE WorkspaceEdit. The decisions (which
// block goes where, re-finding a choice, whether a batch is ready) are core/batch/plan.ts and core/batch/rematch.ts;
// this file reads documents, applies edits and shows what happened.
import * as vscode from 'vscode';
import {
  applyBlocksAsync,
  type ApplyResult,
  type BlockChoice,
  type BlockChoices,
  type BlockTarget,
  choiceRanges,
  describeUnapplied,
  groupByTarget,
  isChoosable,
  isReady,
  type LineRange,
  lostChoicesMessage,
  matchWithChoices,
  placements,
  type Plan,
  planMissingFile,
  elisionNote,
  type PreviewResult,
  previewResult,
  rematchChoices,
  type SearchReplaceBlock,
} from '../core';
import { appliedSummary, type Feedback, rangesAfterEdits } from './feedback';
import { describeDecision, type Log } from './log';
import { engineOptions } from './settings';
import { openTarget, resolveBlockTarget } from './targets';
import { applyEdit } from './review/appliedEdits';

export type { BlockChoice };

/** Blocks matched against one live document. Offsets in `result` are valid only for `version`. */
export interface MatchedPart {
  uri: vscode.Uri;
  /** Workspace-relative path (or untitled name) used in messages. */
  label: string;
  document: vscode.TextDocument;
  version: number;
  /** The document text the engine saw (document.getText() at `version`). */
  text: string;
  blocks: SearchReplaceBlock[];
  /** User choices by block index (SearchReplaceBlock.index). */
  choices: BlockChoices;
  result: ApplyResult;
  /** Engine time in milliseconds. */
  ms: number;
}

/** Blocks for a file that does not exist yet; all have an empty SEARCH, so they can create it. */
export interface NewFilePart {
  uri: vscode.Uri;
  label: string;
  blocks: SearchReplaceBlock[];
  result: ApplyResult;
}

/** A dry run of a batch of blocks over every document they touch. Nothing has been edited. */
export type BatchPlan = Plan<MatchedPart, NewFilePart>;

export type ApplyStatus = 'applied' | 'pending' | 'refused' | 'invalid';

/** What happened to a batch. `summary` is the one-line human message; `plan` the last dry run. */
export interface ApplyOutcome {
  status: ApplyStatus;
  summary: string;
  plan?: BatchPlan;
  /** Id of the pending batch when status is 'pending' and it was handed to the pending store. */
  batchId?: string;
  /** When applied: the document text before the apply, per document uri (what an undo returns to). */
  before?: Map<string, string>;
  /**
   * Set when every block that did not place itself is already applied (its REPLACE is in the file):
   * nothing applied, nothing pending, and the places to reveal.
   */
  alreadyApplied?: { uri: vscode.Uri; label: string; block: number; range: LineRange }[];
}

/** Batches this long are matched with a progress notification and can be cancelled. */
export const LONG_BATCH = 200;

export class DocumentApplier {
  constructor(
    private readonly log: Log,
    private readonly feedback: Feedback,
  ) {}

  /** Runs the engine on the document's current text with `choices`. Pure dry run; logs the decision. */
  matchDocument(
    document: vscode.TextDocument,
    label: string,
    blocks: SearchReplaceBlock[],
    choices: BlockChoices = {},
    source = 'match',
  ): MatchedPart {
    const text = document.getText();
    const version = document.version;
    const t0 = performance.now();
    const result = matchWithChoices(text, blocks, choices, engineOptions(document, label));
    return this.matched(document, version, label, text, blocks, choices, source, result, performance.now() - t0);
  }

  /**
   * matchDocument for a long batch (LONG_BATCH blocks or more): the engine yields to the event loop, a
   * notification shows how far it got and offers Cancel; a cancelled batch applies nothing. Batches of
   * patch hunks go through the hunk pre-step, which runs in one piece.
   */
  private async matchLongBatch(
    document: vscode.TextDocument,
    label: string,
    blocks: SearchReplaceBlock[],
    source: string,
    token?: vscode.CancellationToken,
  ): Promise<MatchedPart> {
    if (blocks.some((b) => b.hunk !== undefined)) {
      return this.matchDocument(document, label, blocks, {}, source);
    }
    const title = `Resilient Apply: matching ${blocks.length} blocks in ${label}`;
    return vscode.window.withProgress(
      { location: vscode.ProgressLocation.Notification, title, cancellable: true },
      async (progress, cancel) => {
        const text = document.getText();
        const version = document.version;
        const options = engineOptions(document, label);
        let shown = 0;
        options.onProgress = (done, total) => {
          const percent = Math.floor((done * 100) / total);
          progress.report({ increment: percent - shown, message: `${done} of ${total}` });
          shown = percent;
        };
        options.isCancelled = () => cancel.isCancellationRequested || token?.isCancellationRequested === true;
        const t0 = performance.now();
        const result = await applyBlocksAsync(text, blocks, options);
        return this.matched(document, version, label, text, blocks, {}, source, result, performance.now() - t0);
      },
    );
  }

  private matched(
    document: vscode.TextDocument,
    version: number,
    label: string,
    text: string,
    blocks: SearchReplaceBlock[],
    choices: BlockChoices,
    source: string,
    result: ApplyResult,
    ms: number,
  ): MatchedPart {
    const ranges = choiceRanges(choices);
    this.log.info(
      `[${source}] ${describeDecision(label, blocks, result, ms)}${ranges ? ` choices ${JSON.stringify(ranges)}` : ''} (v${version})`,
    );
    return { uri: document.uri, label, document, version, text, blocks, choices, result, ms };
  }

  /**
   * Re-matches a part against its document's current text. Choices made on an older version are found
   * again (core/batch/rematch.ts); a choice that cannot be found is dropped and reported in `lost`.
   */
  rematch(part: MatchedPart, document: vscode.TextDocument, source = 'rematch'): { part: MatchedPart; lost: number[] } {
    const { matched, lost } = rematchChoices(part.choices, document.version, (choices) =>
      this.matchDocument(document, part.label, part.blocks, choices, source),
    );
    return { part: matched, lost };
  }

  /**
   * Dry run of a batch: resolves each block's target (the file it names, else `fallback`), opens it if
   * needed, and matches each document's blocks against its live text. Nothing is edited.
   */
  async plan(
    blocks: readonly SearchReplaceBlock[],
    fallback: vscode.Uri | undefined,
    source = 'plan',
    token?: vscode.CancellationToken,
  ): Promise<BatchPlan> {
    const targets: BlockTarget<vscode.TextDocument, vscode.Uri>[] = [];
    for (const block of blocks) {
      const target = await resolveBlockTarget(block.filePath, fallback);
      targets.push(target.kind === 'document' ? { ...target, key: target.document.uri.toString() } : target);
    }
    const groups = groupByTarget(blocks, targets);
    const problems = groups.problems;
    const parts: MatchedPart[] = [];
    for (const g of groups.documents) {
      parts.push(
        g.blocks.length >= LONG_BATCH
          ? await this.matchLongBatch(g.document, g.label, g.blocks, source, token)
          : this.matchDocument(g.document, g.label, g.blocks, {}, source),
      );
    }
    const newFiles: NewFilePart[] = [];
    for (const group of groups.missing) {
      const planned = planMissingFile(group.filePath, group.blocks, group.uri !== undefined);
      if (planned.problem !== undefined) {
        problems.push(planned.problem);
      } else if (group.uri) {
        newFiles.push({ uri: group.uri, label: group.filePath, blocks: group.blocks, result: planned.result });
      }
    }
    return { parts, newFiles, problems, blockCount: blocks.length };
  }

  /** One WorkspaceEdit for the whole batch, from each part's edits on its matched version. */
  buildEdit(plan: BatchPlan): vscode.WorkspaceEdit {
    const edit = new vscode.WorkspaceEdit();
    const encoder = new TextEncoder();
    for (const file of plan.newFiles) {
      edit.createFile(file.uri, { contents: encoder.encode(file.result.content ?? ''), ignoreIfExists: false });
    }
    for (const part of plan.parts) {
      for (const e of part.result.edits) {
        const range = new vscode.Range(part.document.positionAt(e.start), part.document.positionAt(e.end));
        edit.replace(part.uri, range, e.newText);
      }
    }
    return edit;
  }

  /** Brings every part up to the live document: re-opens closed ones, re-matches changed ones. */
  private async refresh(plan: BatchPlan, source: string): Promise<{ plan: BatchPlan; refusal?: string }> {
    const parts: MatchedPart[] = [];
    const lostMessages: string[] = [];
    for (let part of plan.parts) {
      let document = part.document;
      if (document.isClosed) {
        const target = await openTarget(part.uri);
        if (target.kind !== 'document') {
          return { plan, refusal: target.kind === 'refused' ? target.message : `${part.label} is gone.` };
        }
        document = target.document;
        // A re-opened document is a new TextDocument whose versions start again (often at the same number):
        // no choice's range refers to it, so each choice must be found again by its text.
        const choices: BlockChoices = {};
        for (const [key, choice] of Object.entries(part.choices)) {
          choices[Number(key)] = { ...choice, version: -1 };
        }
        part = { ...part, choices };
      }
      if (document.version === part.version && document === part.document) {
        parts.push(part);
        continue;
      }
      const { part: matched, lost } = this.rematch(part, document, `${source}:rematch`);
      if (lost.length > 0) {
        lostMessages.push(lostChoicesMessage(part.label, lost));
      }
      parts.push(matched);
    }
    return { plan: { ...plan, parts }, refusal: lostMessages.length > 0 ? lostMessages.join(' ') : undefined };
  }

  /**
   * Applies a plan as ONE WorkspaceEdit. Documents that changed since the dry run are re-matched first
   * (offsets from an older version are never used); if VS Code rejects the edit because a document changed
   * in flight, re-matches and retries once, else refuses. Returns 'pending' if the re-match no longer places
   * every block.
   */
  async commit(plan: BatchPlan, source: string): Promise<ApplyOutcome> {
    let current = plan;
    for (let attempt = 0; attempt < 2; attempt++) {
      const refreshed = await this.refresh(current, source);
      current = refreshed.plan;
      if (refreshed.refusal) {
        return { status: 'refused', summary: refreshed.refusal, plan: current };
      }
      if (!isReady(current)) {
        return { status: isChoosable(current) ? 'pending' : 'refused', summary: describeUnapplied(current), plan: current };
      }
      // The last check is synchronous with building the edit: nothing can change the documents in between.
      if (current.parts.some((p) => p.document.isClosed || p.document.version !== p.version)) {
        continue;
      }
      const before = new Map(current.parts.map((p) => [p.uri.toString(), p.text]));
      const edit = this.buildEdit(current);
      const ok = await applyEdit(edit);
      if (ok) {
        const summary = this.reportApplied(current, source);
        return { status: 'applied', summary, plan: current, before };
      }
      this.log.warn(`[${source}] VS Code rejected the edit (a document changed in flight); re-matching (attempt ${attempt + 1})`);
      // Force a re-match even if the version looks unchanged.
      current = { ...current, parts: current.parts.map((p) => ({ ...p, version: -1 })) };
    }
    const summary = 'Nothing was applied: the document kept changing while applying. Try again.';
    this.log.warn(`[${source}] ${summary}`);
    return { status: 'refused', summary, plan: current };
  }

  /** Logs an applied batch, shows "Applied 3/3 blocks ..." in the status bar and flashes the changed lines. */
  reportApplied(plan: BatchPlan, source: string): string {
    const labels = [...plan.parts.map((p) => p.label), ...plan.newFiles.map((f) => `${f.label} (new)`)];
    const summary = appliedSummary(placements(plan), labels) + keptByPlaceholders(plan);
    this.log.info(`[${source}] ${summary}`);
    this.feedback.status(`$(check) ${summary}`);
    for (const part of plan.parts) {
      this.feedback.flashRanges(part.uri, rangesAfterEdits(part.document, part.result.edits));
    }
    return summary;
  }

  /** After an applied batch (its outcome's plan): reveals each document's changed lines and highlights them. */
  async revealApplied(plan: BatchPlan): Promise<void> {
    for (const part of plan.parts) {
      if (part.result.edits.length > 0 && !part.document.isClosed) {
        await this.feedback.reveal(part.document, rangesAfterEdits(part.document, part.result.edits));
      }
    }
  }

  /**
   * The text a document would have after the batch's blocks for it (plus `extraChoices`), for Preview.
   * Blocks still unresolved are left out, so the preview shows what choosing would do.
   */
  previewContent(part: MatchedPart, extraChoices: BlockChoices): string | undefined {
    return this.preview(part, extraChoices)?.content;
  }

  /** previewContent with what each placeholder of the blocks' REPLACE kept (for the preview's hover and title). */
  preview(part: MatchedPart, extraChoices: BlockChoices): PreviewResult | undefined {
    const choices = { ...part.choices, ...extraChoices };
    return previewResult(part.text, part.blocks, part.result.blocks, choices, engineOptions(part.document, part.label));
  }
}

/**
 * "; REPLACE line 2 `# ... existing code ...` kept file lines 5-7" for each placeholder the applied blocks
 * had (issue 19), in the words of the message; prefixed with its block when the batch has several.
 */
function keptByPlaceholders(plan: BatchPlan): string {
  const several = plan.blockCount > 1;
  return plan.parts
    .flatMap((part) =>
      part.result.blocks.flatMap((b) => (b.elisions ?? []).map((e) => `; ${several ? `block ${b.index}: ` : ''}${elisionNote(e)}`)),
    )
    .join('');
}
