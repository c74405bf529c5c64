// The tree-sitter runtime and grammars in the extension hosts: read from the installed extension's
// dist/grammars/ through the file system API, which works in the Node host and in the web worker host
// alike. Nothing is read until a plain code block is applied.
import * as vscode from 'vscode';
import type { GrammarSource } from '../core';

export function extensionGrammars(extensionUri: vscode.Uri): GrammarSource {
  return {
    async load(file: string): Promise<Uint8Array | undefined> {
      if (!/^[\w.-]+\.wasm$/.test(file)) {
        return undefined;
      }
      try {
        return await vscode.workspace.fs.readFile(vscode.Uri.joinPath(extensionUri, 'dist', 'grammars', file));
      } catch (error) {
        if (error instanceof vscode.FileSystemError && error.code === 'FileNotFound') {
          return undefined;
        }
        throw error;
      }
    },
  };
}
