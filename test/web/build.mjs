// @ts-check
// Bundles test/web/index.ts for the web worker extension host, which can `require` only 'vscode':
// out/test-web/index.js is the extensionTestsPath of `node test/runVsCode.mjs --web`.
import * as esbuild from 'esbuild';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
await esbuild.build({
  entryPoints: [path.join(root, 'test', 'web', 'index.ts')],
  outfile: path.join(root, 'out', 'test-web', 'index.js'),
  bundle: true,
  platform: 'browser',
  format: 'cjs',
  target: 'es2022',
  external: ['vscode'],
  sourcemap: 'inline',
  logLevel: 'warning',
});
