// Entry point of the integration suite inside a real extension host. VS Code loads this file (compiled to
// out/test/integration/index.js) because it is the `extensionTestsPath`, then calls run() and reports the
// outcome: in the web workbench through `codeAutomationExit(code)` (test/runVsCode.mjs listens for it), in
// desktop VS Code through @vscode/test-electron's exit code (test/runDesktop.mjs). Both routes run this file
// unchanged.
//
// Every *.test.js next to this file is loaded, so a new suite only needs a test/integration/<name>.test.ts.
// Suites use mocha's TDD interface, imported explicitly: `import { suite, test } from 'mocha'`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { format } from 'node:util';
import Mocha from 'mocha';

/** Printed by run() with the counts; test/runVsCode.mjs reads it from the extension host's console. */
export const RESULT_PREFIX = 'RESILIENT_APPLY_INTEGRATION_RESULT ';

/**
 * test/runVsCode.mjs sets this in the server's environment (the extension host inherits it): the web
 * workbench mixes the extension host's console into its own log, so our lines carry a prefix to be found.
 */
const LINE_PREFIX = process.env.RESILIENT_APPLY_LINE_PREFIX ?? '';

export function run(): Promise<void> {
  // Reporters print through Base.consoleLog with printf-style arguments; the web workbench forwards only
  // the raw format string and arguments, so format each line here, whole.
  Mocha.reporters.Base.consoleLog = (...args: unknown[]) => {
    console.log(LINE_PREFIX + format(...args));
  };
  const mocha = new Mocha({
    ui: 'tdd',
    // The extension host's console has no TTY; escape codes would only clutter the logs.
    color: false,
    // Generous per-test limit: a cold extension host can be slow on a loaded 2-core machine, and the
    // outer runner enforces the real bound on the whole run.
    timeout: 30_000,
    grep: process.env.RESILIENT_APPLY_GREP || undefined,
  });

  const files = fs
    .readdirSync(__dirname)
    .filter((name) => name.endsWith('.test.js'))
    .sort();
  for (const name of files) {
    mocha.addFile(path.join(__dirname, name));
  }

  return new Promise((resolve, reject) => {
    try {
      // The runner repeats these at the very end of its output, where a truncated CI log still shows them.
      const failedTests: string[] = [];
      const runner = mocha.run((failures) => {
        const stats = runner.stats ?? { passes: 0, failures, pending: 0 };
        console.log(
          LINE_PREFIX +
            RESULT_PREFIX +
            JSON.stringify({ passed: stats.passes, failed: stats.failures, pending: stats.pending, files, failedTests }),
        );
        if (failures > 0) {
          reject(new Error(`${failures} integration test(s) failed`));
        } else if (files.length === 0) {
          reject(new Error(`no *.test.js files found in ${__dirname}`));
        } else {
          resolve();
        }
      });
      runner.on('fail', (test: Mocha.Runnable, err: unknown) => {
        const message = err instanceof Error ? err.message : String(err);
        failedTests.push(`${test.fullTitle()}: ${message.split('\n')[0]}`);
      });
    } catch (err) {
      reject(err);
    }
  });
}
