// The read-only "after" side of a Preview diff: texts served by URI under one scheme. The editor's
// candidate Preview and the chat buttons' Preview each register one (their own scheme). A hover on the
// lines a preview changes says what each placeholder of the blocks' REPLACE kept (issue 19), in the
// words of the message.
import * as vscode from 'vscode';
import { lastStartAtOrBefore, type PreviewResult, type TextEdit } from '../core';

/** What a preview text says about itself: placeholder notes and the 0-based lines [start, end] the blocks wrote. */
interface PreviewNotes {
  elisions: readonly string[];
  changed: ReadonlyArray<readonly [number, number]>;
}

/** Serves preview texts by URI; keeps the last few so re-opened diff tabs still show something. */
export class PreviewContentProvider implements vscode.TextDocumentContentProvider, vscode.HoverProvider {
  private readonly texts = new Map<string, { text: string; notes?: PreviewNotes }>();
  private next = 1;

  constructor(readonly scheme: string) {}

  /**
   * Stores `text` (or a preview result: its text, and for the hover what its placeholders kept) and
   * returns a URI that shows it; the path keeps the file's name for syntax colouring.
   */
  put(source: vscode.Uri, preview: string | PreviewResult): vscode.Uri {
    const uri = vscode.Uri.from({
      scheme: this.scheme,
      path: source.path.startsWith('/') ? source.path : `/${source.path}`,
      query: `v${this.next++}`,
    });
    if (typeof preview === 'string') {
      this.texts.set(uri.toString(), { text: preview });
    } else {
      this.texts.set(uri.toString(), {
        text: preview.content,
        notes: { elisions: preview.elisions, changed: changedLines(preview.content, preview.edits) },
      });
    }
    while (this.texts.size > 20) {
      const oldest = this.texts.keys().next().value as string;
      this.texts.delete(oldest);
    }
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString())?.text ?? '(This preview has expired. Choose Preview again.)';
  }

  /** On a line the blocks wrote: what each placeholder kept ("Block 1: REPLACE line 2 `...` kept file lines 5-7"). */
  provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
    const notes = this.texts.get(document.uri.toString())?.notes;
    if (!notes || notes.elisions.length === 0) {
      return undefined;
    }
    const at = notes.changed.find(([a, b]) => position.line >= a && position.line <= b);
    if (!at) {
      return undefined;
    }
    const md = new vscode.MarkdownString('**Resilient Apply** · placeholders expanded from the file:\n\n');
    for (const note of notes.elisions) {
      // The note as the message words it; its placeholder is already a code span.
      md.appendMarkdown(`- ${note}\n`);
    }
    return new vscode.Hover(md, new vscode.Range(at[0], 0, at[1], 0));
  }

  /** Registers the provider for its scheme, and its hover. */
  register(): vscode.Disposable {
    return vscode.Disposable.from(
      vscode.workspace.registerTextDocumentContentProvider(this.scheme, this),
      vscode.languages.registerHoverProvider({ scheme: this.scheme }, this),
    );
  }
}

/** A preview diff's title: `base`, then what each placeholder kept, so the tab says it too. */
export function previewTitle(base: string, preview: PreviewResult): string {
  return preview.elisions.length === 0 ? base : `${base} · ${preview.elisions.join('; ')}`;
}

/** The 0-based lines of `after` that `edits` (against the text before, sorted) wrote, first and last of each. */
function changedLines(after: string, edits: readonly TextEdit[]): Array<[number, number]> {
  const lineStarts = [0];
  for (let i = after.indexOf('\n'); i >= 0; i = after.indexOf('\n', i + 1)) {
    lineStarts.push(i + 1);
  }
  const lineAt = (offset: number): number => lastStartAtOrBefore(lineStarts, lineStarts.length - 1, offset);
  let delta = 0;
  const changed: Array<[number, number]> = [];
  for (const edit of [...edits].sort((x, y) => x.start - y.start)) {
    const start = edit.start + delta;
    const end = start + edit.newText.length;
    delta += edit.newText.length - (edit.end - edit.start);
    changed.push([lineAt(start), lineAt(Math.max(start, end - 1))]);
  }
  return changed;
}
