// The Node extension host's entry (dist/extension.js, package.json "main"): runs the extension bundle,
// dist/extension-main.js (src/extension/desktop.ts), through a V8 code cache in the user's temp folder, as
// the CLI does (src/node/codeCache.ts). Parsing and compiling the 140 KB bundle, and compiling each
// function activate() runs, was the larger part of what activation costs in this host; from the second
// start of a build on, V8 deserializes that bytecode instead. esbuild.mjs builds this file after the bundle
// and defines EXTENSION_BUNDLE_KEY: the package version and a hash of the bundle's bytes, so a cache never
// outlives them. NODE_DISABLE_COMPILE_CACHE (Node's own switch for its compile cache) turns it off. The
// web worker host loads dist/web/extension.js itself.
import path = require('node:path');
import type * as vscode from 'vscode';
import { cachePath, compileWithCodeCache } from './node/codeCache';

declare const EXTENSION_BUNDLE_KEY: string;

/**
 * The cache is written this long after activation: off the busy start-up of the window, and it then holds
 * every function activation compiled.
 */
const SAVE_CACHE_AFTER_MS = 5_000;

interface ExtensionModule {
  activate(context: vscode.ExtensionContext): unknown;
  deactivate(): void;
}

const bundle = path.join(__dirname, 'extension-main.js');
if (process.env.NODE_DISABLE_COMPILE_CACHE) {
  module.exports = require(bundle);
} else {
  // Named after V8's version too: two editors on one machine (e.g. Stable and Insiders) run this build on
  // different V8s, each of which rejects the other's cache.
  const compiled = compileWithCodeCache(bundle, `${cachePath(`extension-${EXTENSION_BUNDLE_KEY}`)}.cache`);
  compiled.run(require, module);
  const main = module.exports as ExtensionModule;
  module.exports = {
    activate(context: vscode.ExtensionContext): unknown {
      const api = main.activate(context);
      if (!compiled.usedCache) {
        setTimeout(() => compiled.saveCache(), SAVE_CACHE_AFTER_MS).unref();
      }
      return api;
    },
    deactivate: () => main.deactivate(),
  } satisfies ExtensionModule;
}
