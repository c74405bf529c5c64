// The `resilient-apply` executable (dist/cli.js): runs the CLI bundle, dist/cli-main.js (src/cli.ts),
// through a V8 code cache in the user's temp folder, which saves a cold run the compilation of the code
// it runs (src/node/codeCache.ts), and so the code-block placer, dist/cli-code-blocks.js, when the bundle
// requires it (for a plain code block only: esbuild.mjs CLI_CODE_BLOCK_MODULES). esbuild.mjs
// builds this file after the bundles and defines CLI_BUNDLE_KEY: the package version and a hash of both
// bundles' bytes, so a cache never outlives them.
// NODE_DISABLE_COMPILE_CACHE (Node's own switch for its compile cache) turns the cache off.
import path = require('node:path');
import { cachePath } from './node/codeCache';
import { runWithCodeCache } from './node/cliCodeCache';
import { setV8Flags, SHORT_RUN_V8_FLAGS } from './node/runLength';

declare const CLI_BUNDLE_KEY: string;

const bundle = path.join(__dirname, 'cli-main.js');
if (process.env.NODE_DISABLE_COMPILE_CACHE) {
  setV8Flags(SHORT_RUN_V8_FLAGS);
  require(bundle);
} else {
  const cache = cachePath(CLI_BUNDLE_KEY);
  const onDemand = new Map([['./cli-code-blocks.js', `${cache}-code-blocks.cache`]]);
  runWithCodeCache(bundle, `${cache}.cache`, require, module, SHORT_RUN_V8_FLAGS, onDemand);
}
