// One of our `when` clause context keys. Each setContext is a call into the workbench, which then evaluates
// the menus and keybindings that read the key again; the stores set theirs on every change and every switch
// of editor, mostly to the value the key already has.
import * as vscode from 'vscode';

export class ContextKey {
  /** The value last sent; none at first, so the first value is always sent (a key outlives a reloaded extension). */
  private sent: { value: boolean } | undefined;

  constructor(private readonly key: string) {}

  set(value: boolean): void {
    if (this.sent?.value === value) {
      return;
    }
    this.sent = { value };
    void vscode.commands.executeCommand('setContext', this.key, value);
  }
}
