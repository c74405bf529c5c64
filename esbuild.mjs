// @ts-check
// Builds the three bundles: the desktop/remote extension (node), the web extension (browser worker)
// and the CLI. `--watch` rebuilds on change; `--production` minifies and drops source maps.
import * as esbuild from 'esbuild';
import * as fs from 'node:fs';

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

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  external: ['vscode'],
  logLevel: 'info',
  logOverride: { 'import-is-undefined': 'error' },
};

/** @type {import('esbuild').BuildOptions[]} */
const targets = [
  {
    ...common,
    entryPoints: ['src/extension/desktop.ts'],
    plugins: [vscodeApiBindings],
    outfile: `${outdir}/extension.js`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },

  {
    ...common,
    entryPoints: ['src/extension/web.ts'],
    plugins: [vscodeApiBindings],
    outfile: `${outdir}/web/extension.js`,
    platform: 'browser',
    format: 'cjs',
    target: 'es2022',
    // The web worker has no Node built-ins; the core never needs them.
    define: { 'process.env.NODE_ENV': production ? '"production"' : '"development"' },
  },
  {
    ...common,
    entryPoints: ['src/cli.ts'],
    outfile: `${outdir}/cli.js`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    banner: { js: '#!/usr/bin/env node' },
  },
];

if (watch) {
  const contexts = await Promise.all(targets.map((t) => esbuild.context(t)));
  await Promise.all(contexts.map((c) => c.watch()));
} else {
  await Promise.all(targets.map((t) => esbuild.build(t)));
}
