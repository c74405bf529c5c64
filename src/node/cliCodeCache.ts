// The CLI's way of running a bundle through its code cache (codeCache.ts): under the V8 flags of a short
// run (runLength.ts), with the bundles it loads only for some commands cached the same way. Apart from
// codeCache.ts because the Node extension host loads that one at activation and never sets V8 flags:
// node:v8, which the flags need, is not loaded by the host itself, and loading it cost about 1 ms of
// the activation under the host's Node 24.
// `import x = require()` as in the other CLI files: a namespace import is copied at every start (cli.ts).
import path = require('node:path');
import { type CachedRun, compileWithCodeCache } from './codeCache';
import { setV8Flags } from './runLength';

/**
 * Compiles and runs the CommonJS bundle `file` (with the caller's `require` and `module`, so the caller
 * must sit in the same folder) using the cache file `cacheFile`, and when there was no usable cache
 * writes one as the process exits: by then it also holds the functions compiled lazily during the run.
 * `cacheFile` must name this exact bundle text (e.g. by a hash of it): V8 itself only checks the length.
 * `v8Flags` (setV8Flags) are set before the bundle is compiled and again before the cache is made, so a
 * run that changed them meanwhile (runLength.ts) still writes a cache the next run accepts.
 * `onDemand` maps the relative path by which the bundle requires another one beside it, only for some
 * commands (e.g. './cli-code-blocks.js'), to that one's cache file: that `require` compiles and runs it
 * the same way, once.
 */
export function runWithCodeCache(
  file: string,
  cacheFile: string,
  require: NodeJS.Require,
  module: NodeJS.Module,
  v8Flags: string,
  onDemand: ReadonlyMap<string, string> = new Map(),
): CachedRun {
  setV8Flags(v8Flags);
  const bundle = compileWithCodeCache(file, cacheFile);
  if (!bundle.usedCache) {
    process.once('exit', () => bundle.saveCache(() => setV8Flags(v8Flags)));
  }
  bundle.run(onDemand.size === 0 ? require : requireOnDemand(require, path.dirname(file), onDemand, v8Flags), module);
  return { usedCache: bundle.usedCache };
}

/** `require` that runs each bundle of `onDemand` (path relative to `dir`, to cache file) through its cache, once. */
function requireOnDemand(require: NodeJS.Require, dir: string, onDemand: ReadonlyMap<string, string>, v8Flags: string): NodeJS.Require {
  const loaded = new Map<string, unknown>();
  const requireBundle = (id: string): unknown => {
    const cacheFile = onDemand.get(id);
    if (cacheFile === undefined) {
      return require(id);
    }
    if (!loaded.has(id)) {
      const bundle = compileWithCodeCache(path.join(dir, id), cacheFile);
      if (!bundle.usedCache) {
        process.once('exit', () => bundle.saveCache(() => setV8Flags(v8Flags)));
      }
      const module = { exports: {} } as NodeJS.Module;
      bundle.run(require, module);
      loaded.set(id, module.exports);
    }
    return loaded.get(id);
  };
  return Object.assign(requireBundle, require);
}
