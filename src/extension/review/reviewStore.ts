// The reviews of applied changes (issue 27): per document, the hunks of its applies not yet kept or
// undone, followed through every change (core/report/review.ts does the reckoning). Editor history stays
// the truth: an apply is one undo step, a hunk's Undo one more; after an editor undo or redo each hunk is
// read again from the text, so an undone apply ends its review. The marks are reviewView.ts.
import * as vscode from 'vscode';
import { followReview, markUndone, planUndo, refusalMessage, reopenReview, startReview, type TrackedHunk } from '../../core';
import { readSettings } from '../settings';
import { labelFor } from '../targets';
import { type AppliedChange, onDidApplyChanges } from './appliedEdits';

export class ReviewStore implements vscode.Disposable {
  private readonly reviews = new Map<string, TrackedHunk[]>();
  private readonly changed = new vscode.EventEmitter<boolean>();
  /** A review started, changed or ended; true unless it only followed typing (the marks may follow a moment later). */
  readonly onDidChange = this.changed.event;
  private nextId = 1;
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      this.changed,
      onDidApplyChanges((applied) => applied.forEach((a) => this.start(a))),
      vscode.workspace.onDidChangeTextDocument((e) => this.follow(e)),
      // A file opened again: its hunks found by their text (it may have changed on disk).
      // Only a document with a review: in the web worker host the engine may still be loading at start-up.
      vscode.workspace.onDidOpenTextDocument(
        (d) => this.reviews.has(d.uri.toString()) && this.update(d.uri, (hunks) => reopenReview(hunks, d.getText())),
      ),
      // An untitled document's text is gone once closed; a file's review waits for it to be opened again.
      vscode.workspace.onDidCloseTextDocument((d) => d.uri.scheme === 'untitled' && this.end(d.uri)),
    ];
  }

  /** The hunks still to review in a document, top to bottom. */
  pending(uri: vscode.Uri): TrackedHunk[] {
    return this.reviews.get(uri.toString())?.filter((h) => h.state === 'pending') ?? [];
  }

  /** Every document with hunks to review. */
  files(): vscode.Uri[] {
    return [...this.reviews.keys()].map((key) => vscode.Uri.parse(key));
  }

  private start({ document, region }: AppliedChange): void {
    const key = document.uri.toString();
    const hunks = startReview(region, this.reviews.get(key) ?? [], readSettings(document.uri).review, this.nextId);
    this.nextId += hunks?.length ?? 0;
    this.update(document.uri, () => hunks ?? []);
  }

  private follow(e: vscode.TextDocumentChangeEvent): void {
    const hunks = this.reviews.get(e.document.uri.toString());
    if (hunks && e.contentChanges.length > 0) {
      const history = e.reason !== undefined;
      const changes = e.contentChanges.map(
        (c) => [c.range.start.line, c.range.start.character, c.range.end.line, c.range.end.character, c.text] as const,
      );
      followReview(hunks, changes as Array<[number, number, number, number, string]>, history ? e.document.getText() : undefined);
      this.update(e.document.uri, (h) => h, history);
    }
  }

  /** Replaces a document's hunks; a review with none left to review ends. */
  private update(uri: vscode.Uri, next: (hunks: TrackedHunk[]) => TrackedHunk[], now = true): void {
    const key = uri.toString();
    const hunks = this.reviews.get(key);
    const after = next(hunks ?? []);
    if (after.some((h) => h.state === 'pending')) {
      this.reviews.set(key, after);
    } else if (!this.reviews.delete(key) && !hunks) {
      return;
    }
    this.changed.fire(now);
  }

  end(uri: vscode.Uri): void {
    this.update(uri, () => []);
  }

  /** Keep: the hunk stays as applied and leaves the review. */
  keep(uri: vscode.Uri, id: number): void {
    this.update(uri, (hunks) => hunks.filter((h) => h.id !== id));
  }

  /**
   * Undo of hunks (one, or all): ONE WorkspaceEdit restoring exactly their original lines where they are
   * now. A hunk typed in since the apply is not restored (never over the user's typing); a message says
   * which. Returns how many were restored.
   */
  async undo(uri: vscode.Uri, ids: readonly number[]): Promise<number> {
    const hunks = this.reviews.get(uri.toString());
    if (!hunks) {
      return 0;
    }
    const document = await vscode.workspace.openTextDocument(uri);
    const plan = planUndo(hunks, ids, document.getText());
    if (plan.refused.length > 0) {
      void vscode.window.showWarningMessage(refusalMessage(plan.refused, this.pending(uri).length, labelFor(uri)));
    }
    const edit = new vscode.WorkspaceEdit();
    for (const e of plan.edits) {
      edit.replace(uri, new vscode.Range(document.positionAt(e.start), document.positionAt(e.end)), e.newText);
    }
    if (plan.edits.length === 0 || !(await vscode.workspace.applyEdit(edit))) {
      return 0;
    }
    markUndone(hunks, plan);
    this.update(uri, (h) => h);
    return plan.edits.length;
  }

  dispose(): void {
    this.subscriptions.forEach((s) => s.dispose());
  }
}
