// Entry point of the web worker extension host bundle (dist/web/extension.js): no Node built-ins, so
// symbolic links are detected through the file system API but not followed (see workspaceBoundary.ts).
import type * as vscode from 'vscode';
import { activateWith, type ResilientApplyApi } from './extension';
import { statWalkResolver } from './workspaceBoundary';

export { deactivate } from './extension';

export function activate(context: vscode.ExtensionContext): ResilientApplyApi {
  return activateWith(context, { resolveRealPath: statWalkResolver() });
}
