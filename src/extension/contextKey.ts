// One of our `when` clause context keys. Each setContext is a call into the workbench, which then evaluates
// the menus and keybindings that read the key again; the stores set theirs on every change and every switch
// of editor, mostly to the value the key already has. A key that says more than yes or no (where pending
// blocks are) holds a string, so one call carries what two yes/no keys would.
import * as vscode from 'vscode';

export class ContextKey<T extends boolean | string = boolean> {
  /** The value last sent; none at first, so the first value is always sent (a key outlives a reloaded extension). */
  private sent: { value: T } | undefined;

  constructor(private readonly key: string) {}

  set(value: T): void {
    if (this.sent?.value === value) {
      return;
    }
    this.sent = { value };
    void vscode.commands.executeCommand('setContext', this.key, value);
  }
}
