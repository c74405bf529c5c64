// Batches that wait for the user: near misses and ambiguous blocks (and the blocks of the same batch that
// did match, which wait with them because a batch is atomic). The store keeps each batch matched against
// the live documents: edits move chosen ranges with the text and trigger a debounced re-match; an undo
// of an apply that came from a choice brings the choices back.
import * as vscode from 'vscode';
import { containsEdits } from '../core/edits';
import type { BlockOutcome, Candidate, SearchReplaceBlock } from '../core/types';
import { isReady, unresolved } from '../core/plan';
import type { BlockChoice } from '../core/rematch';
import type { PendingSink } from './applyService';
import type { ApplyOutcome, BatchPlan, DocumentApplier, MatchedPart } from './documentApplier';
import { ContextKeys, REMATCH_DEBOUNCE_MS } from './constants';
import { mapLineRange } from './lineMap';
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

interface UndoRecord {
  source: string;
  parts: { uri: string; label: string; blocks: SearchReplaceBlock[]; before: string; after: string }[];
}

let nextBatch = 1;

export class PendingStore implements PendingSink, vscode.Disposable {
  private readonly batches = new Map<string, PendingBatch>();
  private readonly undoRecords: UndoRecord[] = [];
  private readonly timers = new Map<string, ReturnType<typeof setTimeout>>();
  private readonly changed = new vscode.EventEmitter<void>();
  private readonly disposables: vscode.Disposable[] = [];
  /** Fired whenever batches are added, re-matched, resolved or dismissed. */
  readonly onDidChange = this.changed.event;

  constructor(
    private readonly service: DocumentApplier,
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

  /** Re-matches a part whose document moved on (synchronously: a CodeLens must never point at old lines). */
  private fresh(batch: PendingBatch, part: MatchedPart): MatchedPart {
    if (part.document.isClosed || part.document.version === part.version) {
      return part;
    }
    const { part: matched } = this.service.rematch(part, part.document, `${batch.source}:rematch`);
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
    let part = batch.plan.parts[partIndex];
    if (choice.blockIndex !== undefined && choice.startLine !== undefined && choice.endLine !== undefined) {
      const record: BlockChoice = {
        range: { startLine: choice.startLine, endLine: choice.endLine },
        version: choice.version ?? part.version,
        text: choice.text ?? '',
      };
      // A choice shown for an older version is found again by its text when re-matching (never by offsets).
      part = { ...part, choices: { ...part.choices, [choice.blockIndex]: record } };
      if (record.version !== part.version) {
        part = { ...part, version: -1 }; // Forces commit() to re-match before trusting any offset.
      }
    }
    const plan: BatchPlan = { ...batch.plan, parts: batch.plan.parts.map((p, i) => (i === partIndex ? part : p)) };
    // commit() re-matches changed documents (recovering or refusing stale choices) before applying.
    const outcome = await this.service.commit(isReady(plan) ? plan : await this.rematchAll(plan, batch.source), batch.source);
    if (outcome.status === 'applied') {
      this.batches.delete(batch.id);
      this.rememberForUndo(batch.source, outcome);
      this.fire();
      return outcome;
    }
    if (outcome.plan) {
      batch.plan = outcome.plan;
    }
    this.fire();
    return outcome;
  }

  private async rematchAll(plan: BatchPlan, source: string): Promise<BatchPlan> {
    const parts = plan.parts.map((p) => (p.document.isClosed ? p : this.service.rematch(p, p.document, `${source}:choose`).part));
    return { ...plan, parts };
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
      editor.revealRange(range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
    }
  }

  private onDocumentChanged(e: vscode.TextDocumentChangeEvent): void {
    const key = e.document.uri.toString();
    if (e.contentChanges.length === 0) {
      return;
    }
    if (e.reason === vscode.TextDocumentChangeReason.Undo) {
      this.restoreAfterUndo(e.document);
    } else if (e.reason === vscode.TextDocumentChangeReason.Redo) {
      this.dropAfterRedo(e.document);
    }
    const insertedBlocks = e.contentChanges.some((c) => containsEdits(c.text));
    for (const batch of [...this.batches.values()]) {
      const part = batch.plan.parts.find((p) => p.uri.toString() === key);
      if (!part) {
        continue;
      }
      if (insertedBlocks && batch.source === 'paste') {
        // The user switched the paste to plain text (paste widget): the markers are in the file now and
        // their SEARCH lines would match themselves. The paste batch no longer stands.
        this.batches.delete(batch.id);
        this.log.info(`pending batch ${batch.id} dropped: the pasted blocks were inserted as text`);
        this.fire();
        continue;
      }
      // Move choices with the text right away; the full re-match waits for typing to pause.
      for (const choice of Object.values(part.choices)) {
        if (choice.version === e.document.version - 1) {
          const mapped = mapLineRange(choice.range, e.contentChanges);
          choice.range = mapped.range;
          choice.touched = choice.touched || mapped.touched;
          choice.version = e.document.version;
        }
      }
      this.schedule(batch.id);
    }
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
    const parts = outcome.plan.parts.map((p) => ({
      uri: p.uri.toString(),
      label: p.label,
      blocks: p.blocks,
      before: outcome.before?.get(p.uri.toString()) ?? p.text,
      after: p.document.getText(),
    }));
    this.undoRecords.push({ source, parts });
    if (this.undoRecords.length > 20) {
      this.undoRecords.shift();
    }
  }

  private restoreAfterUndo(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    if (!this.undoRecords.some((r) => r.parts.some((p) => p.uri === key))) {
      return;
    }
    const text = document.getText();
    const i = this.undoRecords.findIndex((r) => r.parts.some((p) => p.uri === key && p.before === text));
    if (i < 0) {
      return;
    }
    const record = this.undoRecords[i];
    // Only when every document of the batch is back where it was (a multi-file batch undoes per file).
    const documents = record.parts.map((p) => vscode.workspace.textDocuments.find((d) => d.uri.toString() === p.uri));
    if (documents.some((d, j) => !d || d.getText() !== record.parts[j].before)) {
      return;
    }
    this.undoRecords.splice(i, 1);
    const parts = record.parts.map((p, j) =>
      this.service.matchDocument(documents[j] as vscode.TextDocument, p.label, p.blocks, {}, `${record.source}:undo`),
    );
    const plan: BatchPlan = { parts, newFiles: [], problems: [], blockCount: parts.reduce((n, p) => n + p.blocks.length, 0) };
    const id = this.add(plan, `${record.source}:undo`, false);
    this.redoable.set(id, record);
  }

  private readonly redoable = new Map<string, UndoRecord>();

  private dropAfterRedo(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    const text = document.getText();
    for (const [id, record] of this.redoable) {
      if (record.parts.some((p) => p.uri === key && p.after === text)) {
        this.redoable.delete(id);
        this.batches.delete(id);
        this.undoRecords.push(record);
        this.fire();
      }
    }
  }

  private fire(): void {
    for (const id of [...this.redoable.keys()]) {
      if (!this.batches.has(id)) {
        this.redoable.delete(id);
      }
    }
    this.updateContext();
    this.changed.fire();
  }

  private updateContext(): void {
    void vscode.commands.executeCommand('setContext', ContextKeys.hasPending, this.batches.size > 0);
    const active = vscode.window.activeTextEditor?.document.uri.toString();
    const inEditor = active !== undefined && [...this.batches.values()].some((b) => b.plan.parts.some((p) => p.uri.toString() === active));
    void vscode.commands.executeCommand('setContext', ContextKeys.editorHasPending, inEditor);
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

/** The candidates a block offers: ranked near-miss candidates, or every occurrence of an ambiguous match. */
export function candidatesOf(outcome: BlockOutcome): Candidate[] {
  return outcome.status === 'not_found' || outcome.status === 'ambiguous' ? outcome.candidates : [];
}
