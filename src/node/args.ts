// Command-line parsing for `resilient-apply`. Kept strict: an unknown or malformed flag is a usage
// error (exit 3), never silently ignored, because other tools drive this CLI.
import { outOfRange, SETTINGS } from '../core';

export const SYNOPSIS = `Usage: resilient-apply apply <file> [--blocks <path>|-] [--json] [--dry-run] [--auto-apply-above <score>]
                             [--line-hint <n>] [--max-candidates <k>] [--force]
       resilient-apply apply <file> --snippet <path>|- [--json] [--dry-run] [--max-candidates <k>] [--force]
       resilient-apply patch [<patch>|-] [--root <dir>] [--json] [--dry-run] [--force]
       resilient-apply mcp [--root <dir>]
       resilient-apply --help | --version
`;

export const MCP_SYNOPSIS = 'resilient-apply mcp [--root <dir>]';

export const MCP_USAGE = `${MCP_SYNOPSIS}

Serves the engine to an MCP client (a coding agent) over stdio: the tools apply_edits (SEARCH/REPLACE
blocks, marker text or a patch for one file, as the VS Code language model tool) and apply_patch (a
multi-file patch or whole answer, as "patch"), each with dryRun. Files are read and written only under
the root: --root, else the client's roots when it offers them, else the current folder; paths and
symbolic links that lead outside are refused. Runs until stdin closes.
`;

export const USAGE = `${SYNOPSIS}
Applies SEARCH/REPLACE blocks (aider "<<<<<<< SEARCH / ======= / >>>>>>> REPLACE" or Cline
"------- SEARCH / ======= / +++++++ REPLACE"), or the hunks of a unified diff or apply_patch patch
(detected), to <file>. Either every block applies or none does.
Exact matches apply; unique matches after a normalisation (line endings, trailing whitespace,
indentation, quotes, unicode punctuation, line numbers, sanitised tags, whitespace between tokens)
apply and say so; fuzzy matches are only reported unless --auto-apply-above is given.

Options:
  --blocks <path>|-      Read the blocks from <path>; '-' or no --blocks reads stdin.
  --snippet <path>|-     Instead of blocks, apply a plain code block from <path> ('-': stdin): one
                         declaration, a lazy snippet with "// ... existing code ..." lines for the
                         code it leaves out, or the whole file. Each declaration it shows replaces
                         the one of the same kind and name (inside the enclosing declaration its
                         context lines give); a new one goes next to its neighbour; a declaration
                         it does not show is never removed (except by a whole-file rewrite). A
                         place that is not certain is refused like a block. A fenced block's fences
                         and info string are stripped; a fence or first line "// filepath: x" naming
                         another file than <file> is refused. A missing <file> is created from code
                         without placeholders.
  --json                 Print one JSON object:
                           {status, file, content, message, blocks: [{index, status, tier,
                            range: {startLine, endLine}, score, candidates: [{startLine, endLine,
                            score, text}]}]}
                         status: applied | not_found | ambiguous | invalid. "content" only with
                         --dry-run when applied; "range" for placed blocks, "candidates" for the
                         others (best first; for ambiguous blocks every occurrence in file order).
                         A block that matched while another block failed has status "pending".
                         Line numbers are 1-based and inclusive.
  --dry-run              Do not write <file>; report what would happen ("Would apply ...").
  --force                Also edit <file> when it is marked read-only (no write permission for its
                         owner), keeping its mode; without it such a file is refused (exit 3).
  --auto-apply-above <score>
                         Also apply a unique fuzzy match scoring at least <score> (0.5..1) that
                         leads the next candidate by a clear margin. Off by default. The editor's
                         setting fuzzy.autoApplyAbove; --fuzzy-apply is its older name.
  --line-hint <n>        1-based line near the intended place: picks one of several occurrences.
  --max-candidates <k>   Number of near-miss candidates to report (1..20, default 3).
  -h, --help             Show this help.
  --version              Print the version.

The file is written atomically (temp file + rename) keeping its UTF-8 BOM, line endings, mode and
owner; a file with several hard links is rewritten in place (after an fsynced backup copy) so all its
names see the edit. A symlink is written through: its target changes, the link stays. If <file>
changed on disk during the run, nothing is written. A missing <file> is created when the first
block's SEARCH is empty. Blocks naming another file than <file> are refused.

Exit codes:
  0  applied (with --dry-run: would apply)
  1  not found: a SEARCH matched nowhere; the message lists the closest candidates
  2  ambiguous: a SEARCH matched several places; the message lists every occurrence
  3  invalid input: bad flags, malformed blocks, missing or non-text file, block for another file,
     a read-only file without --force; also: the file changed on disk during the run, an I/O error, an internal error (with --json
     still one object, status "invalid")
`;

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export interface ApplyArgs {
  command: 'apply';
  file: string;
  /** Path of the blocks file; undefined or '-' means stdin. */
  blocks?: string;
  /** Path of a plain code block to apply instead of blocks ('-' means stdin). */
  snippet?: string;
  json: boolean;
  dryRun: boolean;
  /** Write <file> even when it is marked read-only. */
  force: boolean;
  autoApplyAbove?: number;
  lineHint?: number;
  maxCandidates?: number;
}

export type CliArgs =
  ApplyArgs | { command: 'help' } | { command: 'version' } | { command: 'patch'; argv: string[] } | { command: 'mcp'; argv: string[] };

/**
 * Whether the arguments ask for --json, decided before (and whatever the outcome of) parsing, so a
 * usage error is reported as JSON too. After '--' nothing is a flag, as in parseArgs.
 */
export function jsonRequested(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).includes('--json');
}

const VALUE_FLAGS = new Set(['--blocks', '--snippet', '--auto-apply-above', '--line-hint', '--max-candidates']);
/** Older spellings still accepted, so scripts written against them keep working. */
const FLAG_ALIASES = new Map([['--fuzzy-apply', '--auto-apply-above']]);
const BOOLEAN_FLAGS = new Set(['--json', '--dry-run', '--force']);

export function parseArgs(argv: readonly string[]): CliArgs {
  if (argv.some((a) => a === '--help' || a === '-h') || argv[0] === 'help') {
    return { command: 'help' };
  }
  if (argv.includes('--version')) {
    return { command: 'version' };
  }
  if (argv.length === 0) {
    throw new UsageError('missing command: expected "apply <file>"');
  }
  if (argv[0] === 'patch') {
    return { command: 'patch', argv: argv.slice(1) }; // Its own options: see src/node/patchCommand.ts.
  }
  if (argv[0] === 'mcp') {
    return { command: 'mcp', argv: argv.slice(1) }; // Its own options: see src/mcp.ts.
  }
  if (argv[0] !== 'apply') {
    throw new UsageError(
      argv[0].startsWith('-')
        ? `expected the command "apply" before ${argv[0]}`
        : `unknown command "${argv[0]}": expected "apply", "patch" or "mcp"`,
    );
  }

  const flags = readApplyWords(argv.slice(1));
  return applyArgs(applyFile(flags.positional), flags.values, flags.booleans);
}

/** The words after "apply", sorted: positional ones, flags with values, boolean flags. Usage errors for bad flags. */
function readApplyWords(argv: readonly string[]): { positional: string[]; values: Map<string, string>; booleans: Set<string> } {
  const positional: string[] = [];
  const values = new Map<string, string>();
  const booleans = new Set<string>();
  let onlyPositional = false;
  for (let k = 0; k < argv.length; k++) {
    const arg = argv[k];
    if (onlyPositional || !arg.startsWith('-') || arg === '-') {
      positional.push(arg);
      continue;
    }
    if (arg === '--') {
      onlyPositional = true;
      continue;
    }
    const eq = arg.indexOf('=');
    const written = eq > 0 ? arg.slice(0, eq) : arg;
    const name = FLAG_ALIASES.get(written) ?? written;
    if (BOOLEAN_FLAGS.has(name)) {
      if (eq > 0) {
        throw new UsageError(`${name} takes no value`);
      }
      booleans.add(name);
    } else if (VALUE_FLAGS.has(name)) {
      let value: string | undefined;
      if (eq > 0) {
        value = arg.slice(eq + 1);
      } else {
        value = argv[k + 1];
        // '-' is a value (stdin); other dash-words are the next flag, so the value is missing.
        if (value === undefined || (value.startsWith('--') && value !== '-')) {
          throw new UsageError(`${name} needs a value`);
        }
        k++;
      }
      if (values.has(name)) {
        throw new UsageError(`${name} given twice`);
      }
      values.set(name, value);
    } else {
      throw new UsageError(`unknown option ${name}`);
    }
  }
  return { positional, values, booleans };
}

/** The one <file> among the positional words. */
function applyFile(positional: readonly string[]): string {
  if (positional.length === 0) {
    throw new UsageError('missing <file>: expected "apply <file>"');
  }
  if (positional.length > 1) {
    throw new UsageError(`expected one <file>, got ${positional.length}: ${positional.join(' ')}`);
  }
  if (positional[0] === '-') {
    throw new UsageError('<file> must be a path (stdin is for the blocks)');
  }
  return positional[0];
}

/** The apply command's arguments from its flags, each value checked (a usage error names the flag). */
function applyArgs(file: string, values: ReadonlyMap<string, string>, booleans: ReadonlySet<string>): ApplyArgs {
  const args: ApplyArgs = {
    command: 'apply',
    file,
    json: booleans.has('--json'),
    dryRun: booleans.has('--dry-run'),
    force: booleans.has('--force'),
  };
  const blocks = values.get('--blocks');
  if (blocks !== undefined) {
    if (blocks === '') {
      throw new UsageError('--blocks needs a path or -');
    }
    args.blocks = blocks;
  }
  const snippet = values.get('--snippet');
  if (snippet !== undefined) {
    if (snippet === '') {
      throw new UsageError('--snippet needs a path or -');
    }
    if (blocks !== undefined) {
      throw new UsageError('give either --blocks or --snippet, not both');
    }
    if (values.has('--line-hint')) {
      throw new UsageError('--line-hint picks among the places of a block; a --snippet is placed by its declarations');
    }
    args.snippet = snippet;
  }
  const fuzzy = values.get('--auto-apply-above');
  if (fuzzy !== undefined) {
    const score = Number(fuzzy);
    if (fuzzy.trim() === '' || outOfRange(SETTINGS.autoApplyAbove, score) !== undefined) {
      const { minimum, maximum } = SETTINGS.autoApplyAbove;
      throw new UsageError(`--auto-apply-above must be a score between ${minimum} and ${maximum}, got "${fuzzy}"`);
    }
    args.autoApplyAbove = score;
  }
  const hint = values.get('--line-hint');
  if (hint !== undefined) {
    args.lineHint = positiveInteger('--line-hint', hint);
  }
  const max = values.get('--max-candidates');
  if (max !== undefined) {
    args.maxCandidates = positiveInteger('--max-candidates', max);
    const problem = outOfRange(SETTINGS.maxCandidates, args.maxCandidates);
    if (problem) {
      throw new UsageError(`--max-candidates ${problem}, got "${max}"`);
    }
  }
  return args;
}

function positiveInteger(flag: string, value: string): number {
  if (!/^\d+$/.test(value) || Number(value) < 1 || !Number.isSafeInteger(Number(value))) {
    throw new UsageError(`${flag} must be a positive integer, got "${value}"`);
  }
  return Number(value);
}
