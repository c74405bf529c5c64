#!/usr/bin/env node
// @ts-check
// Checks what `npm run package` wrote: the .vsix holds exactly what an installed extension uses (the
// production bundles: the Node extension, the engine it requires on first use, the web extension and the
// engine it loads at activation; the media that README.md or package.json show, README, LICENSE, CHANGELOG,
// package.json and the two files every .vsix has), nothing else: no source maps, sources, tests, CLI or
// test-only stand-ins. Reads the zip's central directory itself (no unzip tool needed).
//   node test/package/checkVsix.mjs [file.vsix]      default: resilient-apply-<version>.vsix
// Prints the file list with sizes; exits 1 naming every unexpected or missing file.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const vsix = path.resolve(process.argv[2] ?? path.join(root, `${manifest.name}-${manifest.version}.vsix`));

/** Names and uncompressed sizes of a zip's entries, from its central directory. */
function zipEntries(file) {
  const buf = fs.readFileSync(file);
  // The end-of-central-directory record sits in the last 64 KiB + 22 bytes.
  let eocd = -1;
  for (let i = buf.length - 22; i >= Math.max(0, buf.length - 65_557); i--) {
    if (buf.readUInt32LE(i) === 0x06054b50) {
      eocd = i;
      break;
    }
  }
  if (eocd < 0) throw new Error(`${file} is not a zip file (no end of central directory)`);
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  const entries = [];
  for (let n = 0; n < count; n++) {
    if (buf.readUInt32LE(at) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${n}`);
    const size = buf.readUInt32LE(at + 24);
    const nameLength = buf.readUInt16LE(at + 28);
    const extra = buf.readUInt16LE(at + 30);
    const comment = buf.readUInt16LE(at + 32);
    entries.push({ name: buf.toString('utf8', at + 46, at + 46 + nameLength), size });
    at += 46 + nameLength + extra + comment;
  }
  return entries;
}

const shown = fs.readFileSync(path.join(root, 'README.md'), 'utf8') + JSON.stringify(manifest);
const required = [
  '[Content_Types].xml',
  'extension.vsixmanifest',
  'extension/package.json',
  'extension/readme.md',
  'extension/LICENSE.txt',
  'extension/changelog.md',
  'extension/dist/extension.js',
  'extension/dist/extension-main.js',
  'extension/dist/engine.js',
  'extension/dist/web/extension.js',
  'extension/dist/web/engine.js',
  `extension/${manifest.icon}`,
  // The tree-sitter runtime and grammars plain code blocks are read with (esbuild.mjs GRAMMAR_FILES).
  ...[...fs.readFileSync(path.join(root, 'esbuild.mjs'), 'utf8').matchAll(/^  '(tree-sitter[\w-]*\.wasm)',$/gm)].map(
    (m) => `extension/dist/grammars/${m[1]}`,
  ),
];
/** Why a packaged file should not be there, or undefined when it belongs. */
function unexpected(name) {
  if (required.some((r) => r.toLowerCase() === name.toLowerCase())) return undefined;
  const media = /^extension\/(media\/[^/]+\.(png|gif|svg|jpg))$/.exec(name);
  if (media) return shown.includes(media[1]) ? undefined : `${media[1]} is shown neither by README.md nor by package.json`;
  return 'not part of an installed extension';
}

let entries;
try {
  entries = zipEntries(vsix);
} catch (error) {
  console.error(`checkVsix: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
const problems = [];
for (const e of entries) {
  const why = unexpected(e.name);
  if (why) problems.push(`unexpected ${e.name}: ${why}`);
}
for (const r of required) {
  if (!entries.some((e) => e.name.toLowerCase() === r.toLowerCase())) problems.push(`missing ${r}`);
}
const total = entries.reduce((n, e) => n + e.size, 0);
const packed = fs.statSync(vsix).size;
console.log(
  `${path.basename(vsix)}: ${entries.length} files, ${(total / 1024).toFixed(0)} KiB unpacked, ${(packed / 1024).toFixed(0)} KiB packed`,
);
// Issue 20: the grammars weigh 0.2-1.5 MB each; the package stays under 8 MB.
if (packed > 8 * 1024 * 1024) problems.push(`the .vsix is ${(packed / 1024 / 1024).toFixed(1)} MB, over the 8 MB budget`);
for (const e of entries) console.log(`  ${e.name} (${(e.size / 1024).toFixed(1)} KiB)`);
if (problems.length > 0) {
  for (const p of problems) console.error(`checkVsix: ${p}`);
  process.exit(1);
}
