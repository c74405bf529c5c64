// Batches applied from a user's choice, kept so an undo brings their choices back: when every document
// of such a batch is back to its text from before the apply, the batch is pending again; a redo of it
// puts it back into the history. Documents are named by key (a URI string) and seen as plain text.
import type { SearchReplaceBlock } from '../types';

/** One document of an applied batch: its blocks and its text before and after the apply. */
export interface AppliedDocument {
  /** The document's key (uri.toString()). */
  uri: string;
  label: string;
  blocks: SearchReplaceBlock[];
  before: string;
  after: string;
}

export interface AppliedBatch {
  /** Where the batch came from ('paste', 'codelens'...). */
  source: string;
  documents: AppliedDocument[];
}

/** How many applied batches an undo can still bring back. */
export const APPLIED_HISTORY_LIMIT = 20;

export class AppliedHistory {
  private readonly applied: AppliedBatch[] = [];
  /** Batches an undo made pending again, by pending batch id: a redo re-applies them. */
  private readonly undone = new Map<string, AppliedBatch>();

  constructor(private readonly limit = APPLIED_HISTORY_LIMIT) {}

  /** Records an applied batch (the oldest is forgotten past the limit). */
  remember(batch: AppliedBatch): void {
    this.applied.push(batch);
    if (this.applied.length > this.limit) {
      this.applied.shift();
    }
  }

  /**
   * An undo changed document `uri`. Returns the batch this undid, and forgets it, once every one of its
   * documents is back to its text from before the apply (a multi-file batch is undone file by file).
   * `textOf` gives a document's current text (undefined when it is not open); it is asked only when a
   * remembered batch touched `uri`.
   */
  takeUndone(uri: string, textOf: (uri: string) => string | undefined): AppliedBatch | undefined {
    if (!this.applied.some((b) => b.documents.some((d) => d.uri === uri))) {
      return undefined;
    }
    const text = textOf(uri);
    const i = this.applied.findIndex((b) => b.documents.some((d) => d.uri === uri && d.before === text));
    if (i < 0) {
      return undefined;
    }
    const batch = this.applied[i];
    if (batch.documents.some((d) => textOf(d.uri) !== d.before)) {
      return undefined;
    }
    this.applied.splice(i, 1);
    return batch;
  }

  /** The undone batch now waits as pending batch `id`. */
  markPending(id: string, batch: AppliedBatch): void {
    this.undone.set(id, batch);
  }

  /**
   * A redo left document `uri` with `text`: the ids of the pending batches it re-applied. They are
   * applied again, so they return to the history.
   */
  takeRedone(uri: string, text: string): string[] {
    const ids: string[] = [];
    for (const [id, batch] of this.undone) {
      if (batch.documents.some((d) => d.uri === uri && d.after === text)) {
        this.undone.delete(id);
        this.applied.push(batch);
        ids.push(id);
      }
    }
    return ids;
  }

  /** Forgets undone batches whose pending batch was applied or dismissed since. */
  forgetUndone(isPending: (id: string) => boolean): void {
    for (const id of [...this.undone.keys()]) {
      if (!isPending(id)) {
        this.undone.delete(id);
      }
    }
  }
}
