// A text editor decoration type made the first time it marks something. Made at activation, each type is a
// call into the workbench (which makes CSS rules for it) for marks most sessions never show; clearing a
// type that was never made has nothing to clear. Likewise an editor this type has no marks in is not sent
// an empty list again: each setDecorations is a call into the workbench, made while the user waits (a
// near miss sets three types, of which one or two have nothing to mark).
import * as vscode from 'vscode';

export class LazyDecorationType implements vscode.Disposable {
  private type: vscode.TextEditorDecorationType | undefined;
  private disposed = false;
  /** Editors this type last marked something in (an editor not here has none of its marks). */
  private readonly marking = new WeakSet<vscode.TextEditor>();

  constructor(private readonly options: () => vscode.DecorationRenderOptions) {}

  /** editor.setDecorations for this type; nothing when `ranges` is empty and the editor has none of its marks. */
  set(editor: vscode.TextEditor, ranges: readonly vscode.Range[] | readonly vscode.DecorationOptions[]): void {
    // After dispose (an update racing deactivation), a type made now would never be disposed.
    // An editor it marks implies the type was made; one it does not mark has nothing to clear.
    if (this.disposed || (ranges.length === 0 && !this.marking.has(editor))) {
      return;
    }
    this.type ??= vscode.window.createTextEditorDecorationType(this.options());
    editor.setDecorations(this.type, ranges);
    if (ranges.length > 0) {
      this.marking.add(editor);
    } else {
      this.marking.delete(editor);
    }
  }

  dispose(): void {
    this.disposed = true;
    this.type?.dispose();
    this.type = undefined;
  }
}
