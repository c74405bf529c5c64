// The `resilient-apply` executable (dist/cli.js): runs the CLI bundle, dist/cli-main.js (src/cli.ts),
// through a V8 code cache in the user's temp folder, which saves a cold run the compilation of the code
// it runs (src/node/codeCache.ts). esbuild.mjs builds this file after the bundle and defines
// CLI_BUNDLE_KEY: the package version and a hash of the bundle's bytes, so a cache never outlives them.
// NODE_DISABLE_COMPILE_CACHE (Node's own switch for its compile cache) turns the cache off.
import path = require('node:path');
import { cacheDirectory, runWithCodeCache } from './node/codeCache';
import { setV8Flags, SHORT_RUN_V8_FLAGS } from './node/runLength';

declare const CLI_BUNDLE_KEY: string;

const bundle = path.join(__dirname, 'cli-main.js');
if (process.env.NODE_DISABLE_COMPILE_CACHE) {
  setV8Flags(SHORT_RUN_V8_FLAGS);
  require(bundle);
} else {
  runWithCodeCache(bundle, path.join(cacheDirectory(), `${CLI_BUNDLE_KEY}.cache`), require, module, SHORT_RUN_V8_FLAGS);
}
