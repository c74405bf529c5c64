#!/usr/bin/env node
// @ts-check
// Replaces <dest> with a fresh copy of demo/ (used by .vscode/tasks.json so debugging in desktop VS Code
// never edits the committed demo files).   node scripts/copyDemo.mjs <dest>
import * as fs from 'node:fs';
import * as path from 'node:path';
import { repoRoot } from './vscodeServer.mjs';

const dest = process.argv[2];
if (!dest) {
  console.error('usage: node scripts/copyDemo.mjs <destination directory>');
  process.exit(2);
}
const target = path.resolve(dest);
if (target === repoRoot || target === path.join(repoRoot, 'demo')) {
  console.error(`refusing to replace ${target}`);
  process.exit(2);
}
fs.rmSync(target, { recursive: true, force: true });
fs.cpSync(path.join(repoRoot, 'demo'), target, { recursive: true });
console.log(`copied demo/ to ${target}`);
