// @ts-check
// Builds the three bundles: the desktop/remote extension (node), the web extension (browser worker)
// and the CLI. `--watch` rebuilds on change; `--production` minifies and drops source maps.
import * as esbuild from 'esbuild';

const production = process.argv.includes('--production');
const watch = process.argv.includes('--watch');
// `--outdir <dir>` writes the bundles there instead of dist/ (npm run bench:editor measures a production
// build without touching the development one).
const outdirArg = process.argv.indexOf('--outdir');
const outdir = outdirArg > 0 ? process.argv[outdirArg + 1] : 'dist';

/** @type {import('esbuild').BuildOptions} */
const common = {
  bundle: true,
  minify: production,
  sourcemap: !production,
  sourcesContent: false,
  external: ['vscode'],
  logLevel: 'info',
};

/** @type {import('esbuild').BuildOptions[]} */
const targets = [
  {
    ...common,
    entryPoints: ['src/extension/desktop.ts'],
    outfile: `${outdir}/extension.js`,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
  },
  {
    ...common,
    entryPoints: ['src/extension/web.ts'],
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
