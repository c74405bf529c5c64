// The tree-sitter runtime and grammars for tests, read where npm installed them (the product reads the
// copies esbuild.mjs puts in dist/grammars/).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GrammarSource } from '../../src/core';

const ROOT = path.resolve(__dirname, '..', '..', '..');

/** Where a shipped file comes from in node_modules. */
export function grammarPath(file: string): string {
  return file === 'tree-sitter.wasm'
    ? path.join(ROOT, 'node_modules', 'web-tree-sitter', file)
    : path.join(ROOT, 'node_modules', '@vscode', 'tree-sitter-wasm', 'wasm', file);
}

export const testGrammars: GrammarSource = {
  load(file: string): Promise<Uint8Array | undefined> {
    const where = grammarPath(file);
    return Promise.resolve(fs.existsSync(where) ? fs.readFileSync(where) : undefined);
  },
};
