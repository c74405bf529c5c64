// The read-only "after" side of a Preview diff: texts served by URI under one scheme. The editor's
// candidate Preview and the chat buttons' Preview each register one (their own scheme).
import * as vscode from 'vscode';

/** Serves preview texts by URI; keeps the last few so re-opened diff tabs still show something. */
export class PreviewContentProvider implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private next = 1;

  constructor(readonly scheme: string) {}

  /** Stores `text` and returns a URI that shows it; the path keeps the file's name for syntax colouring. */
  put(source: vscode.Uri, text: string): vscode.Uri {
    const uri = vscode.Uri.from({
      scheme: this.scheme,
      path: source.path.startsWith('/') ? source.path : `/${source.path}`,
      query: `v${this.next++}`,
    });
    this.texts.set(uri.toString(), text);
    while (this.texts.size > 20) {
      const oldest = this.texts.keys().next().value as string;
      this.texts.delete(oldest);
    }
    return uri;
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.toString()) ?? '(This preview has expired. Choose Preview again.)';
  }

  /** Registers the provider for its scheme. */
  register(): vscode.Disposable {
    return vscode.workspace.registerTextDocumentContentProvider(this.scheme, this);
  }
}
