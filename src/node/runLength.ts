// How the CLI asks V8 to compile it. A run on an ordinary file lasts a few tens of milliseconds: the
// optimising compiles (TurboFan) V8 starts meanwhile finish too late to pay for themselves, and they
// take the other core, several megabytes, and the exit waits for any still running. Measured on a
// 10,000-line content miss, they cost about as much CPU as the search itself. So the CLI starts
// without the optimising compiler, and a run with a long job ahead (a large document, many blocks)
// turns it back on as soon as it knows. V8's faster tiers (its interpreter and baseline compiler, and
// Maglev where the Node version has it) work as always.
// `import x = require()` as in the other CLI files: a namespace import is copied at every start (cli.ts).
import v8 = require('node:v8');

/**
 * The V8 flags the CLI bundle is compiled and started under. The code cache (codeCache.ts) is made
 * under them as well: V8 rejects a cache made under other flags.
 */
export const SHORT_RUN_V8_FLAGS = '--no-turbofan';

/**
 * Characters of document times blocks from which a run lasts long enough for optimised code to pay:
 * a 10,000-line document (about 400,000 characters) with one or two blocks runs faster without it,
 * a 100,000-line one faster with it.
 */
const LONG_RUN_WORK = 1_500_000;

export function setV8Flags(flags: string): void {
  v8.setFlagsFromString(flags);
}

/** Turns the optimising compiler back on when `documentChars` characters and `blocks` blocks make a long run. */
export function prepareForRun(documentChars: number, blocks: number): void {
  if (documentChars * Math.max(1, blocks) >= LONG_RUN_WORK) {
    setV8Flags('--turbofan');
  }
}
