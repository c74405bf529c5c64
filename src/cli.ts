// `resilient-apply`: applies SEARCH/REPLACE blocks to one file from the command line, for people and
// for agent loops (--json). The engine decides everything; this file reads, writes and reports.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { editBlocks, parseEdits } from './core/edits';
import { applyEdits } from './core/hunkPlacement';
import { BlockParseError } from './core/parser';
import type { ApplyOptions, ApplyResult, BatchStatus, BlockOutcome, SearchReplaceBlock } from './core/types';
import { ApplyArgs, CliArgs, parseArgs, SYNOPSIS, USAGE, UsageError } from './node/args';
import { languageIdFor, namesFile } from './node/paths';
import { PATCH_USAGE, runPatchCommand } from './node/patchCommand';
import { createTextFile, decodeText, readTextFile, TextFile, TextFileError, writeTextFileAtomic } from './node/textFile';

const EXIT_CODES: Record<BatchStatus, number> = { applied: 0, not_found: 1, ambiguous: 2, invalid: 3 };

/** The --json object (the contract other tools read). */
interface JsonReport {
  status: BatchStatus;
  file: string | null;
  content?: string;
  message: string;
  blocks: JsonBlock[];
}

interface JsonBlock {
  index: number;
  status: BlockOutcome['status'];
  tier?: string;
  range?: { startLine: number; endLine: number };
  score?: number;
  candidates?: JsonCandidate[];
  notes?: string[];
  truncated?: boolean;
}

interface JsonCandidate {
  startLine: number;
  endLine: number;
  score: number;
  text: string;
  note?: string;
}

/** Input the user has to fix: reported as status invalid, exit 3. */
class InvalidInput extends Error {}

async function main(argv: readonly string[]): Promise<number> {
  const wantsJson = argv.includes('--json');
  let args: CliArgs;
  try {
    args = parseArgs(argv);
  } catch (error) {
    if (error instanceof UsageError) {
      return report(invalid(null, usageMessage(error)), wantsJson, true);
    }
    throw error;
  }
  if (args.command === 'patch') {
    return runPatchCommand(args.argv);
  }
  if (args.command === 'help') {
    process.stdout.write(`${USAGE}\n${PATCH_USAGE}`);
    return 0;
  }
  if (args.command === 'version') {
    process.stdout.write(`${readVersion()}\n`);
    return 0;
  }
  try {
    return await apply(args);
  } catch (error) {
    if (error instanceof UsageError) {
      return report(invalid(args.file, usageMessage(error)), args.json, true);
    }
    if (error instanceof InvalidInput || error instanceof BlockParseError || error instanceof TextFileError) {
      return report(invalid(args.file, error.message), args.json, true);
    }
    throw error;
  }
}

async function apply(args: ApplyArgs): Promise<number> {
  const blocks = await readBlocks(args);
  for (const block of blocks) {
    if (block.filePath !== undefined && !namesFile(block.filePath, args.file)) {
      throw new InvalidInput(
        `Block ${block.index} (line ${block.sourceLine}) is for ${block.filePath}, not ${args.file}; ` +
        'apply the blocks of each file with a separate command');
    }
  }

  const file = readTextFile(args.file);
  if (!file && blocks[0].search !== '') {
    throw new InvalidInput(`file not found: ${args.file} (only a first block with an empty SEARCH creates a file)`);
  }

  const options: ApplyOptions = { fileName: args.file, languageId: languageIdFor(args.file) };
  if (args.fuzzyApply !== undefined) options.fuzzyApply = args.fuzzyApply;
  if (args.lineHint !== undefined) options.lineHint = args.lineHint;
  if (args.maxCandidates !== undefined) options.maxCandidates = args.maxCandidates;

  const original = file?.text ?? '';
  const result = applyEdits(original, blocks, options);
  if (result.status === 'applied' && !args.dryRun && result.content !== undefined) {
    write(args.file, file, original, result.content);
  }
  return report(toJson(args, result), args.json, result.status === 'invalid');
}

async function readBlocks(args: ApplyArgs): Promise<SearchReplaceBlock[]> {
  const fromStdin = args.blocks === undefined || args.blocks === '-';
  const source = fromStdin ? 'stdin' : args.blocks!;
  let bytes: Buffer;
  if (fromStdin) {
    if (process.stdin.isTTY) {
      throw new UsageError('no blocks: pass --blocks <path> or pipe the blocks on stdin');
    }
    bytes = await readStdin();
  } else {
    try {
      bytes = fs.readFileSync(source);
    } catch (error) {
      throw new InvalidInput(`cannot read the blocks from ${source}: ${(error as Error).message}`);
    }
  }
  const { text } = decodeText(bytes, `the blocks from ${source}`);
  const blocks = editBlocks(parseEdits(text));
  if (blocks.length === 0) {
    throw new InvalidInput(`no SEARCH/REPLACE blocks found in ${source} (expected "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE" lines, or a unified diff or apply_patch patch)`);
  }
  return blocks;
}

async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) {
    chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  }
  return Buffer.concat(chunks);
}

function write(displayName: string, file: TextFile | undefined, original: string, content: string): void {
  if (!file) {
    createTextFile(displayName, content);
  } else if (content !== original) {
    writeTextFileAtomic(file, content, displayName);
  }
}

function toJson(args: ApplyArgs, result: ApplyResult): JsonReport {
  const withContent = args.dryRun && result.status === 'applied' && result.content !== undefined;
  // Key order follows the contract: status, file, content, message, blocks.
  return {
    status: result.status,
    file: args.file,
    ...(withContent ? { content: result.content } : {}),
    message: result.message,
    blocks: result.blocks.map(toJsonBlock),
  };
}

function toJsonBlock(outcome: BlockOutcome): JsonBlock {
  const block: JsonBlock = { index: outcome.index, status: outcome.status };
  if (outcome.tier !== undefined) block.tier = outcome.tier;
  if (outcome.range) {
    block.range = { startLine: outcome.range.startLine, endLine: outcome.range.endLine };
  }
  if (outcome.score !== undefined) block.score = outcome.score;
  if (!outcome.range) {
    block.candidates = outcome.candidates.map((c) => {
      const candidate: JsonCandidate = { startLine: c.startLine, endLine: c.endLine, score: c.score, text: c.text };
      if (c.note !== undefined) candidate.note = c.note;
      return candidate;
    });
  }
  if (outcome.notes.length > 0) block.notes = outcome.notes;
  if (outcome.truncated) block.truncated = true;
  return block;
}

function usageMessage(error: UsageError): string {
  return `usage error: ${error.message}\n\n${SYNOPSIS}Run 'resilient-apply --help' for the options and exit codes.`;
}

function invalid(file: string | null, message: string): JsonReport {
  return { status: 'invalid', file, message, blocks: [] };
}

function report(json: JsonReport, asJson: boolean, toStderr: boolean): number {
  if (asJson) {
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else {
    const message = json.message.endsWith('\n') ? json.message : `${json.message}\n`;
    (toStderr ? process.stderr : process.stdout).write(message);
  }
  return EXIT_CODES[json.status];
}

/** The package version, from the package.json above this script (dist/cli.js or out/src/cli.js). */
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

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`resilient-apply: internal error: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
    process.exitCode = 3;
  },
);
