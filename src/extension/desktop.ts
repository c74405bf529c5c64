// Entry point of the Node extension host bundle (dist/extension-main.js, run by dist/extension.js through a
// V8 code cache: src/extensionLoader.ts): desktop, remote and server hosts.
import type * as vscode from 'vscode';
import { activateWith, type ResilientApplyApi } from './extension';
import { nodeRealPathResolver } from './node/realPath';

export { deactivate } from './extension';

export function activate(context: vscode.ExtensionContext): ResilientApplyApi {
  return activateWith(context, { resolveRealPath: nodeRealPathResolver() });
}
