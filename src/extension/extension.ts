// Activation reads as a table of contents: one registerX(context) per feature.
import * as vscode from 'vscode';

export function activate(context: vscode.ExtensionContext): void {
  void context;
}

export function deactivate(): void {
  // Every disposable lives in context.subscriptions; nothing else to release.
}
