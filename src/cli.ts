// `resilient-apply`: applies SEARCH/REPLACE blocks to one file from the command line, for people and
// for agent loops (--json). The engine decides everything; this file reads, writes and reports.
// `import x = require()`, not `import * as x`: the bundle would copy every export of a namespace import
// into a new object at start (esbuild's __toESM), a cost on every cold CLI run.
import fs = require('node:fs');
import path = require('node:path');
import { applyEdits, type ApplyOptions, BlockParseError, editBlocks, parseEdits, readSnippetText, type SearchReplaceBlock } from './core';
import { applyCodeToFile, CodeFileError } from './node/codeFile';
import { type ApplyArgs, type CliArgs, jsonRequested, MCP_USAGE, parseArgs, SYNOPSIS, USAGE, UsageError } from './node/args';
import { languageIdFor, namesFile } from './node/paths';
import { type ApplyReport, applyReport, EXIT_CODES, outputWritten, printReport, writeQuietly } from './node/output';
import { PATCH_USAGE, runPatchCommand } from './node/patchCommand';
import type { runMcpServer } from './mcp';
import { prepareForRun, setV8Flags } from './node/runLength';
import {
  createTextFile,
  InputSourceError,
  readInputText,
  readTextFile,
  type ReadOnlyPolicy,
  refuseReadOnly,
  type TextFile,
  TextFileError,
  writeTextFile,
} from './node/textFile';

/** Input the user has to fix: reported as status invalid, exit 3. */
class InvalidInput extends Error {}

async function main(argv: readonly string[]): Promise<number> {
  // Known before parsing, so even a usage error is reported the way the caller asked.
  const wantsJson = jsonRequested(argv);
  let file: string | null = null;
  try {
    const args: CliArgs = parseArgs(argv);
    if (args.command === 'help') {
      writeQuietly(1, `${USAGE}\n${PATCH_USAGE}\n${MCP_USAGE}`);
      return 0;
    }
    if (args.command === 'version') {
      writeQuietly(1, `${readVersion()}\n`);
      return 0;
    }
    if (args.command === 'patch') {
      return await runPatchCommand(args.argv);
    }
    if (args.command === 'mcp') {
      return await runMcp(args.argv);
    }
    file = args.file;
    return await apply(args);
  } catch (error) {
    if (error instanceof UsageError) {
      return report(invalid(file, usageMessage(error)), wantsJson, true);
    }
    if (
      error instanceof InvalidInput ||
      error instanceof BlockParseError ||
      error instanceof TextFileError ||
      error instanceof CodeFileError
    ) {
      return report(invalid(file, error.message), wantsJson, true);
    }
    // A bug or an unforeseen system error: the details go to stderr, and a --json caller still gets
    // its one object (status invalid, exit 3: nothing was written, or the write failed before the rename).
    const detail = error instanceof Error ? (error.stack ?? error.message) : String(error);
    writeQuietly(2, `resilient-apply: internal error: ${detail}\n`);
    if (wantsJson) {
      const summary = error instanceof Error ? error.message : String(error);
      return report(invalid(file, `internal error: ${summary}`), true, true);
    }
    return EXIT_CODES.invalid;
  }
}

/**
 * The MCP server is its own bundle beside this one (dist/mcp.js; out/src/mcp.js when compiled by tsc),
 * required only here: the SDK it carries never slows the other commands' cold start. A server runs for
 * long, so V8's optimising compiler is back on.
 */
async function runMcp(argv: readonly string[]): Promise<number> {
  setV8Flags('--turbofan');
  const server = require(path.join(__dirname, 'mcp.js')) as { runMcpServer: typeof runMcpServer };
  return server.runMcpServer(argv, readVersion());
}

async function apply(args: ApplyArgs): Promise<number> {
  if (args.snippet !== undefined) {
    return applyCodeBlock(args, args.snippet);
  }
  const blocks = await readBlocks(args);
  for (const block of blocks) {
    if (block.filePath !== undefined && !namesFile(block.filePath, args.file)) {
      throw new InvalidInput(
        `Block ${block.index} (line ${block.sourceLine}) is for ${block.filePath}, not ${args.file}; ` +
          'apply the blocks of each file with a separate command',
      );
    }
  }

  const file = readTextFile(args.file);
  if (!file && blocks[0].search !== '') {
    throw new InvalidInput(`file not found: ${args.file} (only a first block with an empty SEARCH creates a file)`);
  }
  if (file) {
    refuseReadOnly(file, args.file, readOnlyPolicy(args));
  }

  const options: ApplyOptions = { fileName: args.file, languageId: languageIdFor(args.file) };
  if (args.autoApplyAbove !== undefined) {
    options.autoApplyAbove = args.autoApplyAbove;
  }
  if (args.lineHint !== undefined) {
    options.lineHint = args.lineHint;
  }
  if (args.maxCandidates !== undefined) {
    options.maxCandidates = args.maxCandidates;
  }

  const original = file?.text ?? '';
  const result = applyEdits(original, blocks, { ...options, ...prepareForRun(original.length, blocks.length) });
  if (result.status === 'applied' && !args.dryRun && result.content !== undefined) {
    write(args.file, file, original, result.content);
  }
  return report(applyReport(args.file, result, args.dryRun), args.json, result.status === 'invalid');
}

/**
 * `apply <file> --snippet <path>`: a plain code block placed by its declarations (core's applySnippet,
 * tree-sitter grammars read from dist/grammars on first use), with the outcome, message, exit codes
 * and writing of `apply`. A missing file is created from code without placeholders, as a block with an
 * empty SEARCH would create it.
 */
async function applyCodeBlock(args: ApplyArgs, source: string): Promise<number> {
  const code = await readCode(args, source);
  const options: ApplyOptions = {};
  if (args.autoApplyAbove !== undefined) {
    options.autoApplyAbove = args.autoApplyAbove;
  }
  if (args.maxCandidates !== undefined) {
    options.maxCandidates = args.maxCandidates;
  }
  const result = await applyCodeToFile(args.file, args.file, code, options, { dryRun: args.dryRun, readOnly: readOnlyPolicy(args) });
  return report(applyReport(args.file, result, args.dryRun), args.json, result.status === 'invalid');
}

/** The code of --snippet: one fenced block's fences stripped; naming another file is refused. */
async function readCode(args: ApplyArgs, source: string): Promise<string> {
  let input: { text: string; name: string };
  try {
    input = await readInputText(source, 'the snippet');
  } catch (error) {
    if (error instanceof InputSourceError) {
      throw error.reason === 'terminal' ? new UsageError('--snippet -: pipe the code on stdin') : new InvalidInput(error.message);
    }
    throw error;
  }
  const read = readSnippetText(input.text);
  if (!read.ok) {
    const hint = read.format === undefined ? '' : ' (give edit formats with --blocks)';
    throw new InvalidInput(`the snippet in ${input.name} cannot be applied: ${read.message}${hint}`);
  }
  if (read.filePath !== undefined && !namesFile(read.filePath, args.file)) {
    throw new InvalidInput(`the snippet in ${input.name} is for ${read.filePath}, not ${args.file}`);
  }
  return read.code;
}

async function readBlocks(args: ApplyArgs): Promise<SearchReplaceBlock[]> {
  let input: { text: string; name: string };
  try {
    input = await readInputText(args.blocks, 'the blocks');
  } catch (error) {
    if (error instanceof InputSourceError) {
      throw error.reason === 'terminal'
        ? new UsageError('no blocks: pass --blocks <path> or pipe the blocks on stdin')
        : new InvalidInput(error.message);
    }
    throw error;
  }
  const blocks = editBlocks(parseEdits(input.text));
  if (blocks.length === 0) {
    throw new InvalidInput(
      `no SEARCH/REPLACE blocks found in ${input.name} (expected "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE" lines, or a unified diff or apply_patch patch)`,
    );
  }
  return blocks;
}

function readOnlyPolicy(args: ApplyArgs): ReadOnlyPolicy {
  return { force: args.force, flag: '--force' };
}

function write(displayName: string, file: TextFile | undefined, original: string, content: string): void {
  if (!file) {
    createTextFile(displayName, content);
  } else if (content !== original) {
    writeTextFile(file, content, displayName);
  }
}

function usageMessage(error: UsageError): string {
  return `usage error: ${error.message}\n\n${SYNOPSIS}Run 'resilient-apply --help' for the options and exit codes.`;
}

function invalid(file: string | null, message: string): ApplyReport {
  return { status: 'invalid', file, message, blocks: [] };
}

let reported = false;

/** Prints the one report of this run and returns its exit code. */
function report(json: ApplyReport, asJson: boolean, toStderr: boolean): number {
  if (reported) {
    return EXIT_CODES[json.status];
  }
  reported = true;
  return printReport(json, asJson, toStderr);
}

/** The package version, from the package.json above this script (dist/cli-main.js or out/src/cli.js). */
function readVersion(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    try {
      const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
      if (manifest.name === 'resilient-apply' && manifest.version) {
        return manifest.version;
      }
    } catch {
      // No readable package.json here: keep looking upwards.
    }
    if (path.dirname(dir) === dir) {
      return 'unknown';
    }
  }
}

/**
 * Ends the process with `code` once the report is out. With every byte written, it exits at once:
 * winding down the event loop would wait for V8's background work (optimising code that will not run
 * again), several milliseconds of every cold run. Output still on its way through a stream is waited for.
 */
function finish(code: number): void {
  if (outputWritten()) {
    process.exit(code);
  }
  process.exitCode = code;
}

main(process.argv.slice(2)).then(finish, (error: unknown) => {
  writeQuietly(2, `resilient-apply: internal error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  finish(3);
});
