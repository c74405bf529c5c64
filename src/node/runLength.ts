// How the CLI asks V8 to compile it. A run on an ordinary file lasts a few tens of milliseconds: the
// optimising compiles (TurboFan) V8 starts meanwhile finish too late to pay for themselves, and they
// take the other core, several megabytes, and the exit waits for any still running. Measured on a
// 10,000-line content miss, they cost about as much CPU as the search itself. So the CLI starts
// without the optimising compiler, and turns it back on as soon as it knows of a long job: a large
// document, many blocks, or a near miss whose fuzzy search has to read the whole document (there it
// saves a third of the time). V8's faster tiers (its interpreter and baseline compiler, and Maglev
// where the Node version has it) work as always.
// `import x = require()` as in the other CLI files: a namespace import is copied at every start (cli.ts).
import v8 = require('node:v8');

/**
 * The V8 flags the CLI bundle is compiled and started under. The code cache (codeCache.ts) is made
 * under them as well: V8 rejects a cache made under other flags.
 */
export const SHORT_RUN_V8_FLAGS = '--no-turbofan';

/**
 * Characters of document times blocks from which a run lasts long enough for optimised code to pay
 * whatever the blocks find. Measured on slices of typescript.js (40 characters a line), a 50-line
 * content miss ran faster without it up to 35,000 lines and as fast from 50,000 lines; ten blocks on
 * 10,000 lines ran twice as fast with it.
 */
const LONG_RUN_WORK = 2_000_000;

/**
 * Options of node's own command line or NODE_OPTIONS that choose how V8 compiles: the user's choice
 * stands, and the CLI sets no flag of its own. (Turning the optimising compiler on in a --jitless
 * process crashes Node 24.)
 */
const USER_COMPILER_CHOICE = /^--(?:no-)?(?:jitless|turbofan|opt|maglev|sparkplug|max-opt|always-opt|always-sparkplug)(?:=|$)/;

let userChoseCompilers: boolean | undefined;

/** Sets V8 flags for this process, unless node was started with options of its own about compiling. */
export function setV8Flags(flags: string): void {
  userChoseCompilers ??= [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].some((option) =>
    USER_COMPILER_CHOICE.test(option.replace(/_/g, '-')),
  );
  if (!userChoseCompilers) {
    v8.setFlagsFromString(flags);
  }
}

let longRun = false;

/** Turns the optimising compiler back on, once: the run has a long job ahead (every near miss of a batch may say so). */
function expectLongRun(): void {
  if (!longRun) {
    longRun = true;
    setV8Flags('--turbofan');
  }
}

/**
 * Turns the optimising compiler back on when `documentChars` characters and `blocks` blocks make a long
 * run; otherwise it comes on only if a near miss has to scan the whole document (pass the options
 * returned to applyEdits).
 */
export function prepareForRun(documentChars: number, blocks: number): { onDocumentScan: () => void } {
  if (documentChars * Math.max(1, blocks) >= LONG_RUN_WORK) {
    expectLongRun();
  }
  return { onDocumentScan: expectLongRun };
}
