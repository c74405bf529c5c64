// The gate in front of the matching engine (core/engine.ts, core/batch/hunkPlacement.ts, core/report/lineDiff.ts). In the Node
// extension host and the CLI the engine is called synchronously (bundled in, or required on first use), so
// engineReady() resolves at once. The web worker host cannot load a second file synchronously (its
// `require` serves only 'vscode', importScripts is blocked): web.ts starts reading dist/web/engine.js in
// activate() without waiting for it, and the web bundle's stand-ins for the engine's functions
// (esbuild.mjs, lazyEngine) call loadedEngine(). Every asynchronous entry point that can reach the engine
// (commands, paste, chat, the language model tool) runs after whenEngineReady(); synchronous paths that
// only run once something was matched (re-matching pending batches, their hovers and previews) need no
// gate, since a match means the engine was loaded.
import * as vscode from 'vscode';

/** The engine bundle's exports: functions and primitive constants (esbuild.mjs checks). */
export type EngineExports = Record<string, unknown>;

let engine: EngineExports | undefined;
let loading: Promise<void> = Promise.resolve();
let failure: string | undefined;
let reported = false;

/** Resolves when the engine can be called; rejects with a message naming the problem when it cannot be loaded. */
export function engineReady(): Promise<void> {
  return loading;
}

/** Starts loading the engine (the web host); the first use reports a failure. Returns engineReady(). */
export function startEngineLoad(load: () => Promise<EngineExports>): Promise<void> {
  engine = undefined;
  failure = undefined;
  reported = false;
  loading = (async () => {
    try {
      engine = await load();
    } catch (error) {
      failure = `Resilient Apply could not load its matching engine, so nothing can be applied: ${error instanceof Error ? error.message : String(error)}`;
      throw new Error(failure);
    }
  })();
  // Reported on first use (whenEngineReady), not as an unhandled rejection at activation.
  loading.catch(() => undefined);
  return loading;
}

/** The loaded engine, for the web bundle's stand-ins; throws when an entry point did not wait for it. */
export function loadedEngine(): EngineExports {
  if (engine === undefined) {
    throw new Error(failure ?? 'Resilient Apply: the matching engine is still loading (an entry point did not wait for engineReady()).');
  }
  return engine;
}

/** engineReady(), showing a load failure to the user once (then rejecting with it). */
export async function whenEngineReady(): Promise<void> {
  try {
    await loading;
  } catch (error) {
    if (!reported) {
      reported = true;
      void vscode.window.showErrorMessage(error instanceof Error ? error.message : String(error));
    }
    throw error;
  }
}

/** `run` after whenEngineReady(): for command handlers that can reach the engine. */
export function afterEngine<A extends unknown[], R>(run: (...args: A) => R): (...args: A) => Promise<Awaited<R>> {
  return async (...args: A): Promise<Awaited<R>> => {
    await whenEngineReady();
    const result: Awaited<R> = await run(...args);
    return result;
  };
}
