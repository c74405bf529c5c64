// Batches that wait for the user: near misses and ambiguous blocks (and the blocks of the same batch that
// did match, which wait with them because a batch is atomic). The store keeps each batch matched against
// the live documents: edits move chosen ranges with the text and trigger a debounced re-match; an undo
// of an apply that came from a choice brings the choices back.
import * as vscode from 'vscode';
import {
  type AppliedBatch,
  AppliedHistory,
  type BlockOutcome,
  type Candidate,
  containsEdits,
  isReady,
  moveChoices,
  unresolved,
  withChoice,
} from '../core';
import type { PendingSink } from './applyService';
import { ContextKeys, REMATCH_DEBOUNCE_MS } from './constants';
import { ContextKey } from './contextKey';
import type { ApplyOutcome, BatchPlan, DocumentApplier, MatchedPart } from './documentApplier';
import type { Log } from './log';

export interface PendingBatch {
  id: string;
  source: string;
  plan: BatchPlan;
}

/** What a CodeLens row, Quick Pick item or chat button asks for: put a block at a candidate (or apply a ready batch). */
export interface CandidateChoice {
  batchId: string;
  /** Document the candidate is in (uri.toString()). */
  uri: string;
  blockIndex?: number;
  startLine?: number;
  endLine?: number;
  /** The document version the candidate was shown for. */
  version?: number;
  /** The candidate's text when shown, to find it again if the document changed. */
  text?: string;
}

let nextBatch = 1;

export class PendingStore implements PendingSink, vscode.Disposable {
  private readonly batches = new Map<string, PendingBatch>();
  /** Applied batches that came from a choice, so an undo brings the choice back. */
  private readonly history = new AppliedHistory();
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  private readonly pendingKey = new ContextKey<'editor' | 'elsewhere' | false>(ContextKeys.pending);
  /** Fired whenever batches are added, re-matched, resolved or dismissed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly documents: DocumentApplier,
    private readonly log: Log,
  ) {
    this.disposables.push(
      this.changed,
      vscode.workspace.onDidChangeTextDocument((e) => this.onDocumentChanged(e)),
      vscode.workspace.onDidCloseTextDocument((d) => this.onDocumentClosed(d)),
      vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()),
    );
    this.updateContext();
  }

  /** Adds a batch that needs choices; reveals its best candidate. Returns the batch id. */
  add(plan: BatchPlan, source: string, reveal = true): string {
    const id = `b${nextBatch++}`;
    this.batches.set(id, { id, source, plan });
    this.log.info(
      `[${source}] pending batch ${id}: ${unresolved(plan)
        .map(({ part, outcome }) => `block ${outcome.index} ${outcome.status} in ${part.label}`)
        .join('; ')}`,
    );
    this.fire();
    if (reveal) {
      void this.reveal(id);
    }
    return id;
  }

  /** All pending batches, oldest first. */
  list(): PendingBatch[] {
    return [...this.batches.values()];
  }

  get(batchId: string): PendingBatch | undefined {
    return this.batches.get(batchId);
  }

  /** Number of blocks waiting for a choice across all batches. */
  pendingBlockCount(): number {
    let n = 0;
    for (const batch of this.batches.values()) {
      n += Math.max(1, unresolved(batch.plan).length);
    }
    return n;
  }

  /** The pending parts for a document, re-matched first if the document changed since. */
  partsFor(uri: vscode.Uri): { batch: PendingBatch; part: MatchedPart }[] {
    const key = uri.toString();
    const out: { batch: PendingBatch; part: MatchedPart }[] = [];
    for (const batch of this.batches.values()) {
      const part = batch.plan.parts.find((p) => p.uri.toString() === key);
      if (part) {
        out.push({ batch, part: this.fresh(batch, part) });
      }
    }
    return out;
  }

  /**
   * Re-matches a part whose document moved on (synchronously: a CodeLens must never point at old lines).
   * No engine gate (engineGate.ts): a pending part exists only after a match, so the engine is loaded.
   */
  private fresh(batch: PendingBatch, part: MatchedPart): MatchedPart {
    if (part.document.isClosed || part.document.version === part.version) {
      return part;
    }
    const { part: matched } = this.documents.rematch(part, part.document, `${batch.source}:rematch`);
    batch.plan = { ...batch.plan, parts: batch.plan.parts.map((p) => (p === part ? matched : p)) };
    return matched;
  }

  /**
   * Puts a block at a candidate and, once every block of the batch is placed, applies the batch as one
   * WorkspaceEdit. A choice shown for an older document version is found again (same text, or the moved
   * range) or refused. Without blockIndex, applies a batch that is ready as it is.
   */
  async choose(choice: CandidateChoice): Promise<ApplyOutcome> {
    const batch = this.batches.get(choice.batchId);
    if (!batch) {
      return { status: 'refused', summary: 'That choice is no longer pending (it was applied or dismissed).' };
    }
    const partIndex = batch.plan.parts.findIndex((p) => p.uri.toString() === choice.uri);
    if (partIndex < 0) {
      return { status: 'refused', summary: 'That document is not part of the pending batch.' };
    }
    const plan = withCandidate(batch.plan, partIndex, choice);
    // commit() re-matches changed documents (recovering or refusing stale choices) before applying.
    const outcome = await this.documents.commit(isReady(plan) ? plan : this.rematchAll(plan, batch.source), batch.source);
    return this.afterChoice(batch, outcome);
  }

  private rematchAll(plan: BatchPlan, source: string): BatchPlan {
    const parts = plan.parts.map((p) => (p.document.isClosed ? p : this.documents.rematch(p, p.document, `${source}:choose`).part));
    return { ...plan, parts };
  }

  /** An applied batch leaves the store (and can come back on undo); otherwise it waits with its new plan. */
  private afterChoice(batch: PendingBatch, outcome: ApplyOutcome): ApplyOutcome {
    if (outcome.status === 'applied') {
      this.batches.delete(batch.id);
      this.rememberForUndo(batch.source, outcome);
    } else if (outcome.plan) {
      batch.plan = outcome.plan;
    }
    this.fire();
    return outcome;
  }

  /** The first block still waiting for a choice in `uri` (or anywhere), with its best candidate. */
  firstUnresolved(uri?: vscode.Uri): { batch: PendingBatch; part: MatchedPart; outcome: BlockOutcome } | undefined {
    for (const batch of this.batches.values()) {
      for (const part of batch.plan.parts) {
        if (uri && part.uri.toString() !== uri.toString()) {
          continue;
        }
        const fresh = this.fresh(batch, part);
        const outcome = fresh.result.blocks.find((b) => b.status === 'not_found' || b.status === 'ambiguous');
        if (outcome) {
          return { batch, part: fresh, outcome };
        }
      }
    }
    return undefined;
  }

  /** Drops a batch (nothing is applied). */
  dismiss(batchId: string): boolean {
    const had = this.batches.delete(batchId);
    if (had) {
      this.log.info(`pending batch ${batchId} dismissed`);
      this.fire();
    }
    return had;
  }

  /** Drops every batch touching `uri`, or all batches. Returns how many were dropped. */
  dismissAll(uri?: vscode.Uri): number {
    let n = 0;
    for (const batch of [...this.batches.values()]) {
      if (!uri || batch.plan.parts.some((p) => p.uri.toString() === uri.toString())) {
        this.batches.delete(batch.id);
        n++;
      }
    }
    if (n > 0) {
      this.log.info(`${n} pending batch(es) dismissed`);
      this.fire();
    }
    return n;
  }

  private async reveal(batchId: string): Promise<void> {
    const batch = this.batches.get(batchId);
    const first = batch && unresolved(batch.plan)[0];
    if (!first) {
      return;
    }
    const best = first.outcome.candidates[0];
    const key = first.part.uri.toString();
    let editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === key);
    if (!editor) {
      try {
        editor = await vscode.window.showTextDocument(first.part.document, { preview: false });
      } catch {
        return;
      }
    }
    if (best) {
      const range = new vscode.Range(best.startLine - 1, 0, best.endLine - 1, 0);
      // Already in view, the reveal would not move the editor: no call into the workbench for it.
      if (!editor.visibleRanges.some((visible) => visible.contains(range))) {
        editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
      }
    }
  }

  private onDocumentChanged(e: vscode.TextDocumentChangeEvent): void {
    if (e.contentChanges.length === 0) {
      return;
    }
    if (e.reason === vscode.TextDocumentChangeReason.Undo) {
      this.restoreAfterUndo(e.document);
    } else if (e.reason === vscode.TextDocumentChangeReason.Redo) {
      this.dropAfterRedo(e.document);
    }
    const key = e.document.uri.toString();
    const insertedBlocks = e.contentChanges.some((c) => containsEdits(c.text));
    for (const batch of [...this.batches.values()]) {
      const part = batch.plan.parts.find((p) => p.uri.toString() === key);
      if (!part) {
        continue;
      }
      if (insertedBlocks && batch.source === 'paste') {
        this.dropPastedAsText(batch);
        continue;
      }
      // Move choices with the text right away; the full re-match waits for typing to pause.
      moveChoices(part.choices, e.contentChanges, e.document.version);
      this.schedule(batch.id);
    }
  }

  /**
   * The user switched the paste to plain text (paste widget): the markers are in the file now and their
   * SEARCH lines would match themselves. The paste batch no longer stands.
   */
  private dropPastedAsText(batch: PendingBatch): void {
    this.batches.delete(batch.id);
    this.log.info(`pending batch ${batch.id} dropped: the pasted blocks were inserted as text`);
    this.fire();
  }

  private schedule(batchId: string): void {
    const old = this.timers.get(batchId);
    if (old) {
      clearTimeout(old);
    }
    this.timers.set(
      batchId,
      setTimeout(() => {
        this.timers.delete(batchId);
        const batch = this.batches.get(batchId);
        if (!batch) {
          return;
        }
        for (const part of batch.plan.parts) {
          this.fresh(batch, part);
        }
        this.fire();
      }, REMATCH_DEBOUNCE_MS),
    );
  }

  private onDocumentClosed(document: vscode.TextDocument): void {
    // An untitled buffer that closes is gone for good; a file can be re-opened when the user chooses.
    if (document.uri.scheme !== 'untitled') {
      return;
    }
    const dropped = this.dismissAll(document.uri);
    if (dropped > 0) {
      this.log.info(`${document.uri.path} closed: its pending blocks were dropped`);
    }
  }

  private rememberForUndo(source: string, outcome: ApplyOutcome): void {
    if (!outcome.plan || !outcome.before) {
      return;
    }
    const documents = outcome.plan.parts.map((p) => ({
      uri: p.uri.toString(),
      label: p.label,
      blocks: p.blocks,
      before: outcome.before?.get(p.uri.toString()) ?? p.text,
      after: p.document.getText(),
    }));
    this.history.remember({ source, documents });
  }

  /** An undo that took every document of an applied batch back: the batch waits for its choices again. */
  private restoreAfterUndo(document: vscode.TextDocument): void {
    const batch = this.history.takeUndone(document.uri.toString(), (uri) => openDocument(uri)?.getText());
    if (batch) {
      const id = this.add(this.rematchUndone(batch), `${batch.source}:undo`, false);
      this.history.markPending(id, batch);
    }
  }

  private rematchUndone(batch: AppliedBatch): BatchPlan {
    const parts = batch.documents.map((d) =>
      // takeUndone found every document open with its text from before the apply.
      this.documents.matchDocument(openDocument(d.uri) as vscode.TextDocument, d.label, d.blocks, {}, `${batch.source}:undo`),
    );
    return { parts, newFiles: [], problems: [], blockCount: parts.reduce((n, p) => n + p.blocks.length, 0) };
  }

  /** A redo re-applied a batch that an undo had made pending: it is applied, no longer pending. */
  private dropAfterRedo(document: vscode.TextDocument): void {
    for (const id of this.history.takeRedone(document.uri.toString(), document.getText())) {
      this.batches.delete(id);
      this.fire();
    }
  }

  private fire(): void {
    this.history.forgetUndone((id) => this.batches.has(id));
    this.updateContext();
    this.changed.fire();
  }

  private updateContext(): void {
    const active = vscode.window.activeTextEditor?.document.uri.toString();
    const inEditor = active !== undefined && [...this.batches.values()].some((b) => b.plan.parts.some((p) => p.uri.toString() === active));
    this.pendingKey.set(inEditor ? 'editor' : this.batches.size > 0 ? 'elsewhere' : false);
  }

  dispose(): void {
    for (const timer of this.timers.values()) {
      clearTimeout(timer);
    }
    for (const d of this.disposables) {
      d.dispose();
    }
  }
}

function openDocument(uri: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri);
}

/**
 * The batch's plan with a CodeLens / Quick Pick / chat choice recorded on one of its parts. Without a
 * block and lines (a ready batch's Apply) the plan is unchanged.
 */
function withCandidate(plan: BatchPlan, partIndex: number, choice: CandidateChoice): BatchPlan {
  if (choice.blockIndex === undefined || choice.startLine === undefined || choice.endLine === undefined) {
    return plan;
  }
  const part = plan.parts[partIndex];
  const chosen = withChoice(part, choice.blockIndex, {
    range: { startLine: choice.startLine, endLine: choice.endLine },
    version: choice.version ?? part.version,
    text: choice.text ?? '',
  });
  return { ...plan, parts: plan.parts.map((p, i) => (i === partIndex ? chosen : p)) };
}

/** The candidates a block offers: ranked near-miss candidates, or every occurrence of an ambiguous match. */
export function candidatesOf(outcome: BlockOutcome): Candidate[] {
  return outcome.status === 'not_found' || outcome.status === 'ambiguous' ? outcome.candidates : [];
}
