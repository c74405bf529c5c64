// A text editor decoration type made the first time it marks something. Made at activation, each type is a
// call into the workbench (which makes CSS rules for it) for marks most sessions never show; clearing a
// type that was never made has nothing to clear. (An empty list for an editor without marks of a made type
// is not sent either: the extension host's setDecorations already skips it.)
import * as vscode from 'vscode';

export class LazyDecorationType implements vscode.Disposable {
  private type: vscode.TextEditorDecorationType | undefined;
  private disposed = false;

  constructor(private readonly options: () => vscode.DecorationRenderOptions) {}

  /** editor.setDecorations for this type; nothing when `ranges` is empty and the type was never made. */
  set(editor: vscode.TextEditor, ranges: readonly vscode.Range[] | readonly vscode.DecorationOptions[]): void {
    // After dispose (an update racing deactivation), a type made now would never be disposed.
    if (this.disposed || (this.type === undefined && ranges.length === 0)) {
      return;
    }
    this.type ??= vscode.window.createTextEditorDecorationType(this.options());
    editor.setDecorations(this.type, ranges);
  }

  dispose(): void {
    this.disposed = true;
    this.type?.dispose();
    this.type = undefined;
  }
}
