// The reviews of applied changes (issue 27): per document, the hunks (runs of changed lines) of its
// applies that are neither kept nor undone yet, followed through every change of the document so a hunk
// is always restored where it is now. Editor history stays the truth: an apply is one undo step, a
// hunk's Undo one more; after an editor undo or redo each hunk is read again from the text (applied,
// undone or typed in), so an undone apply ends its review. The marks are reviewView.ts.
import * as vscode from 'vscode';
import {
  type ChangeHunk,
  changeHunks,
  followChanges,
  hunkStateAt,
  lineChange,
  linesWithEnds,
  locateHunk,
  type RestoreEdit,
  restoreEdit,
} from '../../core';
import { readSettings } from '../settings';
import { labelFor } from '../targets';
import { type AppliedChange, onDidApplyChanges } from './appliedEdits';

export interface ReviewHunk {
  readonly id: number;
  readonly hunk: ChangeHunk;
  /** Its first line now (0-based), followed through every change since the apply. */
  line: number;
  /** A change reached into it: it is only restored if its lines are still exactly where it is. */
  touched: boolean;
  /** Undone hunks stay (unmarked) so an editor undo of the Undo brings the hunk back to review. */
  state: 'pending' | 'undone';
}

export interface DocumentReview {
  readonly uri: vscode.Uri;
  /** Top to bottom. */
  hunks: ReviewHunk[];
}

/** The lines a hunk takes now. */
export function hunkLength(h: ReviewHunk): number {
  return h.state === 'pending' ? h.hunk.newLines.length : h.hunk.oldLines.length;
}

/** Whether an apply with `hunks` changed places is reviewed under `resilientApply.review`. */
export function reviewsApply(mode: string, hunks: number): boolean {
  return mode === 'always' ? hunks > 0 : mode === 'multiple' ? hunks > 1 : false;
}

export class ReviewStore implements vscode.Disposable {
  private readonly reviews = new Map<string, DocumentReview>();
  private readonly changed = new vscode.EventEmitter<{ uri: vscode.Uri; now: boolean }>();
  /** A document's review started, changed or ended; `now` unless it only followed the user's typing. */
  readonly onDidChange = this.changed.event;
  private nextId = 1;
  private readonly subscriptions: vscode.Disposable[];

  constructor() {
    this.subscriptions = [
      this.changed,
      onDidApplyChanges((applied) => this.startReviews(applied)),
      vscode.workspace.onDidChangeTextDocument((e) => this.follow(e)),
      vscode.workspace.onDidOpenTextDocument((d) => this.reopened(d)),
      vscode.workspace.onDidCloseTextDocument((d) => {
        // An untitled document's text is gone once closed; a file's review waits for it to be opened again.
        if (d.uri.scheme === 'untitled') {
          this.end(d.uri);
        }
      }),
    ];
  }

  /** The review of a document, if it has hunks to review. */
  get(uri: vscode.Uri): DocumentReview | undefined {
    return this.reviews.get(uri.toString());
  }

  /** Every document with hunks to review. */
  all(): DocumentReview[] {
    return [...this.reviews.values()];
  }

  pending(review: DocumentReview | undefined): ReviewHunk[] {
    return review?.hunks.filter((h) => h.state === 'pending') ?? [];
  }

  private startReviews(applied: readonly AppliedChange[]): void {
    for (const { document, before } of applied) {
      const hunks = changeHunks(before, document.getText());
      const existing = this.reviews.get(document.uri.toString());
      // Hunks of an earlier apply that this one did not reach stay in review with the new ones.
      const kept = existing?.hunks.filter((h) => h.state === 'pending' && !h.touched) ?? [];
      if (!reviewsApply(readSettings(document.uri).review, hunks.length + kept.length)) {
        this.end(document.uri);
        continue;
      }
      const fresh = hunks.map((hunk): ReviewHunk => ({ id: this.nextId++, hunk, line: hunk.newStart, touched: false, state: 'pending' }));
      this.reviews.set(document.uri.toString(), { uri: document.uri, hunks: [...kept, ...fresh].sort((a, b) => a.line - b.line) });
      this.changed.fire({ uri: document.uri, now: true });
    }
  }

  private follow(e: vscode.TextDocumentChangeEvent): void {
    const review = this.reviews.get(e.document.uri.toString());
    if (!review || e.contentChanges.length === 0) {
      return;
    }
    const changes = e.contentChanges.map((c) =>
      lineChange(c.range.start.line, c.range.start.character, c.range.end.line, c.range.end.character, c.text),
    );
    for (const h of review.hunks) {
      const moved = followChanges(h.line, hunkLength(h), changes);
      h.line = moved.line;
      h.touched ||= moved.touched;
    }
    if (e.reason === vscode.TextDocumentChangeReason.Undo || e.reason === vscode.TextDocumentChangeReason.Redo) {
      // The history walked through an apply or a hunk's Undo: read each hunk's state from the text.
      const lines = linesWithEnds(e.document.getText());
      for (const h of review.hunks) {
        const state = hunkStateAt(h.hunk, lines, h.line);
        if (state) {
          h.state = state === 'applied' ? 'pending' : 'undone';
          h.touched = false;
        }
      }
    }
    this.settle(review, false);
  }

  /** A reviewed file opened again: its hunks are found again by their text (it may have changed on disk). */
  private reopened(document: vscode.TextDocument): void {
    const review = this.reviews.get(document.uri.toString());
    if (!review) {
      return;
    }
    const lines = linesWithEnds(document.getText());
    review.hunks = review.hunks.filter((h) => {
      const line = h.state === 'pending' ? locateHunk(h.hunk, lines, h.line, true) : undefined;
      h.line = line ?? h.line;
      return line !== undefined;
    });
    this.settle(review);
  }

  /** Ends a review with nothing left to review; tells the view. */
  private settle(review: DocumentReview, now = true): void {
    if (this.pending(review).length === 0) {
      this.reviews.delete(review.uri.toString());
    }
    this.changed.fire({ uri: review.uri, now });
  }

  end(uri: vscode.Uri): void {
    if (this.reviews.delete(uri.toString())) {
      this.changed.fire({ uri, now: true });
    }
  }

  /** Keep: the hunk stays as applied and leaves the review. */
  keep(uri: vscode.Uri, id: number): void {
    const review = this.get(uri);
    if (review) {
      review.hunks = review.hunks.filter((h) => h.id !== id);
      this.settle(review);
    }
  }

  /** "change 2 of 3" among the hunks still to review. */
  numberOf(review: DocumentReview, id: number): string {
    const pending = this.pending(review);
    return `change ${pending.findIndex((h) => h.id === id) + 1} of ${pending.length}`;
  }

  /**
   * Undo of hunks (one, or all still to review): ONE WorkspaceEdit restoring exactly their original lines
   * where they are now. A hunk typed in since the apply is not restored (never over the user's typing);
   * the message says which. Returns how many were restored.
   */
  async undo(uri: vscode.Uri, ids: readonly number[]): Promise<number> {
    const review = this.get(uri);
    const document = await vscode.workspace.openTextDocument(uri);
    const chosen = this.pending(review).filter((h) => ids.includes(h.id));
    if (!review || chosen.length === 0) {
      return 0;
    }
    const text = document.getText();
    const restorable: Array<{ h: ReviewHunk; edit: RestoreEdit }> = [];
    const edited: string[] = [];
    for (const h of chosen) {
      const edit = restoreEdit(h.hunk, text, h.line, !h.touched);
      if (edit) {
        restorable.push({ h, edit });
      } else {
        edited.push(this.numberOf(review, h.id));
      }
    }
    if (edited.length > 0) {
      const what =
        edited.length === 1
          ? `${edited[0].replace(/^c/, 'C')} was`
          : `Changes ${edited.map((e) => e.replace(/^change /, '').replace(/ of \d+$/, '')).join(', ')} were`;
      void vscode.window.showWarningMessage(
        `${what} edited since the apply in ${labelFor(uri)}; Undo would overwrite your typing, so ${edited.length === 1 ? 'it was' : 'they were'} left as they are. Edit by hand, or Keep.`,
      );
    }
    if (restorable.length === 0) {
      return 0;
    }
    const workspaceEdit = new vscode.WorkspaceEdit();
    for (const { edit } of restorable) {
      workspaceEdit.replace(uri, new vscode.Range(document.positionAt(edit.start), document.positionAt(edit.end)), edit.newText);
    }
    if (!(await vscode.workspace.applyEdit(workspaceEdit))) {
      void vscode.window.showWarningMessage(`Nothing was undone: ${labelFor(uri)} changed meanwhile. Try again.`);
      return 0;
    }
    // Each restored hunk starts where its edit put it, moved by the restored hunks above it.
    let shift = 0;
    for (const { h, edit } of restorable.sort((a, b) => a.edit.start - b.edit.start)) {
      h.line = edit.line + shift;
      h.touched = false;
      h.state = 'undone';
      shift += h.hunk.oldLines.length - h.hunk.newLines.length;
    }
    this.settle(review);
    return restorable.length;
  }

  dispose(): void {
    for (const s of this.subscriptions) {
      s.dispose();
    }
  }
}
