// The tree-sitter runtime and grammars for the CLI: esbuild.mjs copies them to dist/grammars/, next to the
// bundle (dist/cli-main.js), and core reads them through this GrammarSource on the first code block.
import type { GrammarSource } from '../core';
import fs = require('node:fs');
import path = require('node:path');

/** A GrammarSource reading `<dir>/<file>`; a file that is not there is undefined (core then reads by outline). */
export function grammarFiles(dir: string = path.join(__dirname, 'grammars')): GrammarSource {
  return {
    load(file: string): Promise<Uint8Array | undefined> {
      // Only plain names: a grammar file is never looked for outside the folder.
      if (file !== path.basename(file)) {
        return Promise.resolve(undefined);
      }
      try {
        return Promise.resolve(fs.readFileSync(path.join(dir, file)));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
          return Promise.resolve(undefined);
        }
        return Promise.reject(error instanceof Error ? error : new Error(String(error)));
      }
    },
  };
}
