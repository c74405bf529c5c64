// @ts-check
// Builds the bundles: the desktop/remote extension (node) and the engine it loads on first use, the web
// extension (browser worker) and the CLI. `--watch` rebuilds on change; `--production` minifies and drops
// source maps.
import * as esbuild from 'esbuild';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// `--outdir <dir>` writes the bundles there instead of dist/ (npm run bench:editor measures a production
// build without touching the development one).
const outdirArg = process.argv.indexOf('--outdir');
const outdir = outdirArg > 0 ? process.argv[outdirArg + 1] : 'dist';

/**
 * `import * as vscode from 'vscode'` in a CommonJS bundle becomes `__toESM(require('vscode'))` in every
 * importing module, and each of those copies every property of the API object (about 250) as a getter:
 * 17 modules made that most of the time spent loading the bundle, inside VS Code's activation figure.
 * This plugin serves 'vscode' as a module with one binding per API name instead (`vscode.window` then
 * compiles to a plain variable). The names come from @types/vscode, the API we compile against; each is a
 * pure call, so esbuild drops the ones no module uses, and a name missing from the list fails the build
 * (import-is-undefined is an error below) rather than being undefined at run time.
 * @type {import('esbuild').Plugin}
 */
const vscodeApiBindings = {
  name: 'vscode-api-bindings',
  setup(build) {
    // The bindings module's own require('vscode') is the host's module.
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === 'vscode-api' ? { path: 'vscode', external: true } : { path: 'vscode', namespace: 'vscode-api' },
    );
    build.onLoad({ filter: /.*/, namespace: 'vscode-api' }, () => {
      const types = fs.readFileSync(new URL('node_modules/@types/vscode/index.d.ts', import.meta.url), 'utf8');
      const names = new Set([...types.matchAll(/^\texport (?:const|let|namespace|class|enum|function) (\w+)/gm)].map((m) => m[1]));
      const bindings = [...names].map((name) => `export const ${name} = /* @__PURE__ */ api(${JSON.stringify(name)});`);
      return {
        contents: `const vscode = require('vscode');\nconst api = (name) => vscode[name];\n${bindings.join('\n')}\n`,
        loader: 'js',
        resolveDir: process.cwd(),
      };
    });
  },
};

/**
 * The matching engine proper (the tiers, fuzzy search, hunk placement, the LLM-facing message: about two
 * thirds of the core) is its own bundle in the Node extension host, dist/engine.js, required on first use:
 * activation then loads and compiles only the adapters and the parsers. Only functions and primitive
 * constants cross this boundary (checked below), so nothing can depend on class identity or on state shared
 * with a copy of the same module in dist/extension-main.js. The web worker host cannot load a second file
 * synchronously (its `require` serves only 'vscode' and it blocks importScripts): there the web bundle's
 * activate() starts reading dist/web/engine.js and evaluating it, and every entry point that can reach the
 * engine waits for that (src/extension/engineGate.ts). The CLI keeps the engine inside: it needs it at once
 * (but not the code-block placer: CLI_CODE_BLOCK_MODULES).
 */
const LAZY_ENGINE_MODULES = [
  'src/core/engine.ts',
  'src/core/batch/hunkPlacement.ts',
  'src/core/report/lineDiff.ts',
  'src/core/batch/snippet.ts',
  // A whole answer's parser (issue 28): read only by entry points that wait for the engine.
  'src/core/formats/answer.ts',
  // Whole patches and answers judged, applied and reported (issues 21, 28): only after an entry point waited.
  // What a CodeLens or prepareInvocation asks before that (fileAction, hasFileOperations) lives in formats/.
  'src/core/batch/wholePatch.ts',
  // Choices among candidates re-matched: only once a block was matched, so the engine is loaded by then.
  'src/core/batch/rematch.ts',
  // The tool input's checks: only in the tool's prepareInvocation and invoke, which wait for the engine.
  'src/core/formats/toolInput.ts',
  // The review's hunks (issue 27): used only once an apply has run, so the engine is loaded by then.
  'src/core/report/hunks.ts',
  'src/core/report/review.ts',
];

/**
 * The CLI's code-block placer (`apply --snippet`, and the code blocks of an answer given to `patch`):
 * tree-sitter's runtime, the declaration planner and the config files' parsers (yaml, jsonc-parser,
 * smol-toml) are about 370 kB of the 540 kB the CLI bundle held, and `apply --blocks`, an agent loop's
 * command, never runs them (issue 28). dist/cli-code-blocks.js, required on first use as dist/engine.js is
 * in the Node extension host, under the same rules; dist/cli.js runs it through a code cache of its own.
 */
const CLI_CODE_BLOCK_MODULES = ['src/core/batch/snippet.ts'];

/**
 * The entry of a bundle that re-exports `modules`.
 * @param {string[]} modules
 * @param {string} name
 */
const lazyEntry = (modules, name) => ({
  contents: modules.map((file) => `export * from './${file}';`).join('\n'),
  resolveDir: process.cwd(),
  sourcefile: `${name}-entry.ts`,
  loader: /** @type {const} */ ('ts'),
});
const engineEntry = lazyEntry(LAZY_ENGINE_MODULES, 'engine');
const cliCodeBlocksEntry = lazyEntry(CLI_CODE_BLOCK_MODULES, 'cli-code-blocks');

/**
 * What a lazily loaded bundle exports, by evaluating an in-memory build of it (it is pure: no imports).
 * @param {esbuild.StdinOptions} entry
 */
async function lazyExports(entry) {
  const result = await esbuild.build({
    stdin: entry,
    bundle: true,
    write: false,
    platform: 'node',
    format: 'cjs',
    logLevel: 'silent',
  });
  const module = { exports: /** @type {Record<string, unknown>} */ ({}) };
  const noRequire = (/** @type {string} */ name) => {
    throw new Error(`a lazily loaded bundle must not require anything as it loads (${entry.sourcefile} requires ${name})`);
  };
  new Function('module', 'exports', 'require', result.outputFiles[0].text)(module, module.exports, noRequire);
  return module.exports;
}

/**
 * In the extension bundles, imports of LAZY_ENGINE_MODULES resolve to a stand-in whose functions forward to
 * the engine bundle: in the Node bundle (`load: 'require'`) they require dist/engine.js the first time one
 * is called; in the web bundle (`load: 'gate'`) they call the engine that web.ts loaded asynchronously
 * (engineGate.ts loadedEngine(), which throws when an entry point did not wait for it). A class or an
 * object among the engine's exports fails the build: it could not be forwarded faithfully. The CLI's
 * bundle forwards CLI_CODE_BLOCK_MODULES to dist/cli-code-blocks.js the same way.
 * @param {'require' | 'gate'} load
 * @param {{ modules: string[], entry: esbuild.StdinOptions, file: string }} lazyBundle
 * @returns {import('esbuild').Plugin}
 */
const lazyEngine = (load, { modules, entry, file } = { modules: LAZY_ENGINE_MODULES, entry: engineEntry, file: './engine.js' }) => ({
  name: 'lazy-engine',
  setup(build) {
    const lazy = new Set(modules.map((module) => path.resolve(module)));
    build.onResolve({ filter: /.*/, namespace: 'lazy-engine' }, (args) =>
      args.path === file ? { path: file, external: true } : undefined,
    );
    const names = modules.map((module) => path.basename(module, '.ts')).join('|');
    build.onResolve({ filter: new RegExp(`/(${names})$`) }, (args) =>
      lazy.has(path.resolve(args.resolveDir, `${args.path}.ts`)) ? { path: 'engine', namespace: 'lazy-engine' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'lazy-engine' }, async () => {
      const lines =
        load === 'require'
          ? ['let engine;', `const load = () => (engine ??= require(${JSON.stringify(file)}));`]
          : ["import { loadedEngine as load } from './src/extension/engineGate';"];
      for (const [name, value] of Object.entries(await lazyExports(entry))) {
        if (typeof value === 'function' && !/^class\b/.test(Function.prototype.toString.call(value))) {
          lines.push(`export function ${name}(...args) { return load().${name}(...args); }`);
        } else if (value === null || ['string', 'number', 'boolean', 'undefined'].includes(typeof value)) {
          lines.push(`export const ${name} = ${JSON.stringify(value) ?? 'undefined'};`);
        } else {
          return {
            errors: [
              {
                text: `the lazily loaded engine exports ${name}, a ${typeof value === 'function' ? 'class' : typeof value}: only functions and primitive constants can be forwarded`,
              },
            ],
          };
        }
      }
      return { contents: `${lines.join('\n')}\n`, loader: 'js', resolveDir: process.cwd() };
    });
  },
});

/**
 * Plain code blocks are read by tree-sitter (src/core/match/structure/): web-tree-sitter's runtime and the
 * grammars VS Code uses (@vscode/tree-sitter-wasm) are copied to dist/grammars/, where the CLI
 * (src/node/grammarFiles.ts) and the extension hosts (src/extension/grammarSource.ts) read them on first
 * use. The list is core's SHIPPED_GRAMMAR_FILES (test/unit/snippetBuild.test.ts holds the two together).
 */
const GRAMMAR_FILES = [
  'tree-sitter.wasm',
  'tree-sitter-typescript.wasm',
  'tree-sitter-tsx.wasm',
  'tree-sitter-javascript.wasm',
  'tree-sitter-python.wasm',
  'tree-sitter-go.wasm',
  'tree-sitter-rust.wasm',
  'tree-sitter-java.wasm',
  'tree-sitter-c-sharp.wasm',
  'tree-sitter-php.wasm',
  'tree-sitter-css.wasm',
  'tree-sitter-ruby.wasm',
  'tree-sitter-cpp.wasm',
  'tree-sitter-bash.wasm',
];

function copyGrammars() {
  fs.mkdirSync(`${outdir}/grammars`, { recursive: true });
  for (const file of GRAMMAR_FILES) {
    const from =
      file === 'tree-sitter.wasm' ? 'node_modules/web-tree-sitter/tree-sitter.wasm' : `node_modules/@vscode/tree-sitter-wasm/wasm/${file}`;
    fs.copyFileSync(from, `${outdir}/grammars/${file}`);
  }
}

/**
 * web-tree-sitter's emscripten glue requires Node built-ins only when it runs in Node (never in the web
 * worker, where the bytes are handed to it); in the browser bundles they resolve to an empty module.
 * @type {import('esbuild').Plugin}
 */
const noNodeBuiltins = {
  name: 'no-node-builtins',
  setup(build) {
    build.onResolve({ filter: /^(fs|fs\/promises|path|url|module)$/ }, (args) => ({ path: args.path, namespace: 'no-node-builtins' }));
    build.onLoad({ filter: /.*/, namespace: 'no-node-builtins' }, () => ({ contents: 'module.exports = {};', loader: 'js' }));
  },
};

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  external: ['vscode'],
  logLevel: 'info',
  logOverride: { 'import-is-undefined': 'error' },
  // jsonc-parser's `main` is a UMD build whose inner requires esbuild cannot follow; its ES modules bundle.
  alias: { 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
};

/**
 * A plugin that, after each build of a bundle, builds the small entry that runs it through a V8 code cache
 * (src/cliLoader.ts for dist/cli.js, src/extensionLoader.ts for the Node host's dist/extension.js). The
 * cache is named after the package version and a hash of the bundles' bytes (the CLI's two: the loader
 * runs the second one through a cache of its own when the first requires it), given to the loader as
 * `keyName`: V8 itself checks only the length of the source a cache was made from.
 * @param {{ bundles: string[], entry: string, outfile: string, keyName: string, asciiOnly?: boolean, banner?: string }} loader
 * @returns {import('esbuild').Plugin}
 */
function codeCacheLoader({ bundles, entry, outfile, keyName, asciiOnly = false, banner }) {
  return {
    name: `code-cache-loader:${outfile}`,
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length > 0) return;
        const sha = crypto.createHash('sha256');
        for (const bundle of bundles) {
          const bytes = fs.readFileSync(`${outdir}/${bundle}`);
          // A shipped bundle read without UTF-8 decoding (src/node/codeCache.ts) must be ASCII: esbuild
          // escapes strings; write a non-ASCII character in a regular expression as \uXXXX. A development
          // build keeps the comments, and is read as UTF-8.
          const nonAscii = asciiOnly && production ? bytes.findIndex((byte) => byte >= 0x80) : -1;
          if (nonAscii >= 0) {
            const at = bytes.subarray(Math.max(0, nonAscii - 40), nonAscii + 40).toString('utf8');
            throw new Error(`${outdir}/${bundle} has a non-ASCII character near: ${at}`);
          }
          sha.update(bytes);
        }
        const { version } = JSON.parse(fs.readFileSync('package.json', 'utf8'));
        const hash = sha.digest('hex').slice(0, 16);
        await esbuild.build({
          ...common,
          entryPoints: [entry],
          outfile: `${outdir}/${outfile}`,
          platform: 'node',
          format: 'cjs',
          target: 'node20',
          ...(banner ? { banner: { js: banner } } : {}),
          define: { [keyName]: JSON.stringify(`${version}-${hash}`) },
        });
      });
    },
  };
}

const cliLoader = codeCacheLoader({
  bundles: ['cli-main.js', 'cli-code-blocks.js'],
  entry: 'src/cliLoader.ts',
  outfile: 'cli.js',
  keyName: 'CLI_BUNDLE_KEY',
  asciiOnly: true,
  banner: '#!/usr/bin/env node',
});

const extensionLoader = codeCacheLoader({
  bundles: ['extension-main.js'],
  entry: 'src/extensionLoader.ts',
  outfile: 'extension.js',
  keyName: 'EXTENSION_BUNDLE_KEY',
});

/** @type {import('esbuild').BuildOptions[]} */
const targets = [
  {
    ...common,
    entryPoints: ['src/extension/desktop.ts'],
    plugins: [vscodeApiBindings, lazyEngine('require'), extensionLoader],
    outfile: `${outdir}/extension-main.js`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    ...common,
    stdin: engineEntry,
    outfile: `${outdir}/engine.js`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    ...common,
    entryPoints: ['src/extension/web.ts'],
    plugins: [vscodeApiBindings, lazyEngine('gate'), noNodeBuiltins],
    outfile: `${outdir}/web/extension.js`,
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    // The web worker has no Node built-ins; the core never needs them.
    define: { 'process.env.NODE_ENV': production ? '"production"' : '"development"' },
  },
  {
    ...common,
    stdin: engineEntry,
    plugins: [noNodeBuiltins],
    outfile: `${outdir}/web/engine.js`,
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
  },
  {
    // The MCP server (`resilient-apply mcp`) with the MCP SDK inside: its own file, required only by that
    // subcommand, so the other commands' cold start never loads the SDK (src/cli.ts runMcp).
    ...common,
    entryPoints: ['src/mcp.ts'],
    outfile: `${outdir}/mcp.js`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
];

/** @type {import('esbuild').BuildOptions} */
const cliCodeBlocksTarget = {
  ...common,
  stdin: cliCodeBlocksEntry,
  outfile: `${outdir}/cli-code-blocks.js`,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
};

/** @type {import('esbuild').BuildOptions} */
const cliTarget = {
  ...common,
  entryPoints: ['src/cli.ts'],
  plugins: [lazyEngine('require', { modules: CLI_CODE_BLOCK_MODULES, entry: cliCodeBlocksEntry, file: './cli-code-blocks.js' }), cliLoader],
  outfile: `${outdir}/cli-main.js`,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
};

copyGrammars();
// The CLI's loader is named after both CLI bundles (cliLoader): the main one, whose build ends by building
// the loader, is built after the code blocks' one, and again whenever that one is.
if (watch) {
  const contexts = await Promise.all(targets.map((t) => esbuild.context(t)));
  const cli = await esbuild.context(cliTarget);
  /** @type {import('esbuild').Plugin} */
  const rebuildCli = {
    name: 'rebuild-cli',
    setup(build) {
      build.onEnd((result) => {
        if (result.errors.length === 0) cli.rebuild().catch(() => undefined);
      });
    },
  };
  const cliCodeBlocks = await esbuild.context({ ...cliCodeBlocksTarget, plugins: [rebuildCli] });
  await Promise.all([...contexts, cli, cliCodeBlocks].map((c) => c.watch()));
} else {
  await Promise.all([...targets.map((t) => esbuild.build(t)), esbuild.build(cliCodeBlocksTarget).then(() => esbuild.build(cliTarget))]);
}
