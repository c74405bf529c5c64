// Entry point of the web worker extension host bundle (dist/web/extension.js): no Node built-ins, so
// symbolic links are detected through the file system API but not followed (see workspaceBoundary.ts).
// The matching engine is a second file, dist/web/engine.js (esbuild.mjs, lazyEngine): this host's
// `require` serves only 'vscode' and it blocks importScripts, so the file is read through the file system
// API and evaluated the way the host evaluates the extension's main file. activate() only starts that;
// every entry point that can reach the engine waits for it (engineGate.ts).
import * as vscode from 'vscode';
import { type EngineExports, startEngineLoad } from './engineGate';
import { activateWith, type ResilientApplyApi } from './extension';
import { statWalkResolver } from './workspaceBoundary';

export { deactivate } from './extension';

/** Reads and evaluates dist/web/engine.js (a CommonJS bundle that requires nothing). */
async function loadEngine(extensionUri: vscode.Uri): Promise<EngineExports> {
  const file = vscode.Uri.joinPath(extensionUri, 'dist', 'web', 'engine.js');
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
  } catch (error) {
    throw new Error(`cannot read ${file.toString(true)} (${error instanceof Error ? error.message : String(error)})`);
  }
  const module = { exports: {} as EngineExports };
  // sourceURL names the file in stack traces and the worker's debugger.
  new Function('module', 'exports', `${text}\n//# sourceURL=${file.toString(true)}`)(module, module.exports);
  if (typeof module.exports.applyBlocks !== 'function') {
    throw new Error(`${file.toString(true)} is not the matching engine (it exports no applyBlocks)`);
  }
  return module.exports;
}

export function activate(context: vscode.ExtensionContext): ResilientApplyApi {
  void startEngineLoad(() => loadEngine(context.extensionUri));
  return activateWith(context, { resolveRealPath: statWalkResolver() });
}
