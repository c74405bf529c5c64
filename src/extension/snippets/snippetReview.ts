// The review before a code block is applied from the clipboard, a document's CodeLens or a chat button:
// one code block can replace, insert or rewrite many places, so the user first sees a diff of the live
// document against the result, with Apply and Discard in the diff's title bar (and in a notification).
// Apply commits through SnippetApplier.commit: one WorkspaceEdit, one undo step, matched again if the
// document changed while the diff was open.
import * as vscode from 'vscode';
import type { ApplyOutcome } from '../applyService';
import { PreviewContentProvider } from '../previewContent';
import { partsPhrase, type SnippetApplier, type SnippetMatch } from './snippetApplier';

/** Scheme of the "after" side of a code block's review diff (package.json menus name it). */
export const CODE_BLOCK_REVIEW_SCHEME = 'resilient-apply-code-block';

export const ReviewCommands = {
  /** Applies the reviewed code block. Args: the review URI (the diff's right side), or none for the active one. */
  apply: 'resilientApply.applyReviewedCodeBlock',
  /** Drops the review. Same args. */
  discard: 'resilientApply.discardReviewedCodeBlock',
} as const;

/** An outcome that may be waiting in a review: `review` is the diff's right-side URI. */
export type CodeBlockOutcome = ApplyOutcome & { review?: string };

interface Review {
  matches: SnippetMatch[];
  source: string;
}

export class SnippetReviews implements vscode.Disposable {
  private readonly provider = new PreviewContentProvider(CODE_BLOCK_REVIEW_SCHEME);
  private readonly reviews = new Map<string, Review>();
  private readonly registration = this.provider.register();

  constructor(private readonly applier: SnippetApplier) {}

  /** Opens the diff of an applied-in-dry-run code block and keeps it waiting for Apply or Discard. */
  async open(match: SnippetMatch, source: string): Promise<CodeBlockOutcome> {
    const uri = this.provider.put(match.uri, match.result.content ?? match.text);
    const key = uri.toString();
    this.reviews.set(key, { matches: [match], source });
    const parts = partsPhrase(match.result);
    const title = `${match.label} ↔ code block (review, then Apply)`;
    await vscode.commands.executeCommand('vscode.diff', match.uri, uri, title, { preview: false });
    const summary = `Review the code block's changes to ${match.label}${parts ? ` (${parts})` : ''}, then Apply or Discard.`;
    void vscode.window.showInformationMessage(summary, 'Apply', 'Discard').then((answer) => {
      if (answer === 'Apply' && this.reviews.has(key)) {
        void this.apply(key);
      } else if (answer === 'Discard') {
        void this.discard(key);
      }
    });
    return { status: 'pending', summary, review: key };
  }

  /** The review a command means: its argument (a URI or its string), else the active diff's right side. */
  private keyOf(arg: unknown): string | undefined {
    if (arg instanceof vscode.Uri) {
      return arg.toString();
    }
    if (typeof arg === 'string') {
      return arg;
    }
    const active = vscode.window.activeTextEditor?.document.uri;
    return active?.scheme === CODE_BLOCK_REVIEW_SCHEME ? active.toString() : undefined;
  }

  /** Applies a reviewed code block as one WorkspaceEdit and closes its diff. */
  async apply(arg?: unknown): Promise<CodeBlockOutcome> {
    const key = this.keyOf(arg);
    const review = key === undefined ? undefined : this.reviews.get(key);
    if (key === undefined || !review) {
      const summary = 'That code block is no longer waiting for review (it was applied or discarded).';
      void vscode.window.showWarningMessage(summary);
      return { status: 'refused', summary };
    }
    this.reviews.delete(key);
    const outcome = await this.applier.commit(review.matches, review.source);
    await closeDiffOf(key);
    if (outcome.status !== 'applied') {
      void vscode.window.showErrorMessage(outcome.summary);
    }
    return outcome;
  }

  /** Drops a review without applying anything. */
  async discard(arg?: unknown): Promise<CodeBlockOutcome> {
    const key = this.keyOf(arg);
    const had = key !== undefined && this.reviews.delete(key);
    if (key !== undefined) {
      await closeDiffOf(key);
    }
    return { status: 'refused', summary: had ? 'The code block was discarded; nothing was applied.' : 'Nothing to discard.' };
  }

  /** Whether a review is open (tests, and the menus' context). */
  has(key: string): boolean {
    return this.reviews.has(key);
  }

  dispose(): void {
    this.registration.dispose();
    this.reviews.clear();
  }
}

/** Closes the diff tabs whose right side is the review `key`. */
async function closeDiffOf(key: string): Promise<void> {
  const tabs = vscode.window.tabGroups.all
    .flatMap((g) => g.tabs)
    .filter((t) => t.input instanceof vscode.TabInputTextDiff && t.input.modified.toString() === key);
  if (tabs.length > 0) {
    await vscode.window.tabGroups.close(tabs);
  }
}

/** The review's commands (its diff's title bar buttons and the notification's). */
export function registerReviewCommands(context: vscode.ExtensionContext, reviews: SnippetReviews): void {
  context.subscriptions.push(
    reviews,
    vscode.commands.registerCommand(ReviewCommands.apply, (arg?: unknown) => reviews.apply(arg)),
    vscode.commands.registerCommand(ReviewCommands.discard, (arg?: unknown) => reviews.discard(arg)),
  );
}
