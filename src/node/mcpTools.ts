// The MCP server's tools (src/mcp.ts carries them over the protocol): apply_edits takes the language
// model tool's input for one file, apply_patch a whole patch or answer, as `resilient-apply patch` does.
// Each answer is the LLM-facing message, whether it is a refusal, and the object `--json` prints for the
// same input. Paths stay under the roots: lexically, and through symbolic links (resolveUnderRoot).
// `import x = require()` as in the other CLI files: a namespace import is copied at every start (cli.ts).
import path = require('node:path');
import {
  APPLY_PATCH_PATCH_DESCRIPTION,
  APPLY_PATCH_TOOL_DESCRIPTION,
  APPLY_TOOL_DESCRIPTION,
  APPLY_TOOL_INPUT_SCHEMA,
  applyEdits,
  checkToolInput,
  describe,
  DRY_RUN_DESCRIPTION,
  resolveWorkspacePath,
  type ToolSnippet,
} from '../core';
import { applyCodeToFile, CodeFileError } from './codeFile';
import { type ApplyReport, applyReport } from './output';
import { languageIdFor, namesFile } from './paths';
import { applyAnswer, invalidReport, type JsonPatchReport, PatchInputError, resolveUnderRoot } from './patchCommand';
import { createTextFile, type ReadOnlyPolicy, readTextFile, refuseReadOnly, writeTextFile } from './textFile';

export const APPLY_EDITS_TOOL = 'apply_edits';
export const APPLY_PATCH_TOOL = 'apply_patch';

/** An agent never edits a file its owner marked read-only: no argument overrides it (a person can chmod). */
const MCP_READ_ONLY: ReadOnlyPolicy = { force: false };

/** What a tool call answers: the message for the model, whether it is a refusal, and the --json object. */
export interface ToolAnswer {
  text: string;
  isError: boolean;
  structured: ApplyReport | JsonPatchReport;
}

// ---- schemas ----------------------------------------------------------------------------------------

const DRY_RUN = { type: 'boolean', description: DRY_RUN_DESCRIPTION };
const STATUS = { type: 'string', enum: ['applied', 'not_found', 'ambiguous', 'invalid'] };
const LINE = { type: 'integer', minimum: 1 };

/** A block of the --json report (output.ts JsonBlock). */
const JSON_BLOCK_SCHEMA = {
  type: 'object',
  properties: {
    index: { type: 'integer' },
    status: { type: 'string', enum: ['applied', 'not_found', 'ambiguous', 'invalid', 'pending'] },
    tier: { type: 'string' },
    range: { type: 'object', properties: { startLine: LINE, endLine: LINE }, required: ['startLine', 'endLine'] },
    score: { type: 'number' },
    candidates: {
      type: 'array',
      items: {
        type: 'object',
        properties: { startLine: LINE, endLine: LINE, score: { type: 'number' }, text: { type: 'string' }, note: { type: 'string' } },
        required: ['startLine', 'endLine', 'score', 'text'],
      },
    },
    notes: { type: 'array', items: { type: 'string' } },
    truncated: { type: 'boolean' },
  },
  required: ['index', 'status'],
};

/** The tools as tools/list gives them. */
export const MCP_TOOLS = [
  {
    name: APPLY_EDITS_TOOL,
    title: 'Apply SEARCH/REPLACE edits to a file',
    description: APPLY_TOOL_DESCRIPTION,
    inputSchema: { ...APPLY_TOOL_INPUT_SCHEMA, properties: { ...APPLY_TOOL_INPUT_SCHEMA.properties, dryRun: DRY_RUN } },
    outputSchema: {
      type: 'object',
      properties: {
        status: STATUS,
        file: { type: ['string', 'null'] },
        content: { type: 'string', description: 'The new content of the file (dry runs that apply only).' },
        message: { type: 'string' },
        blocks: { type: 'array', items: JSON_BLOCK_SCHEMA },
      },
      required: ['status', 'file', 'message', 'blocks'],
    },
  },
  {
    name: APPLY_PATCH_TOOL,
    title: 'Apply a multi-file patch or answer',
    description: APPLY_PATCH_TOOL_DESCRIPTION,
    inputSchema: {
      type: 'object',
      properties: { patch: { type: 'string', description: APPLY_PATCH_PATCH_DESCRIPTION }, dryRun: DRY_RUN },
      required: ['patch'],
    },
    outputSchema: {
      type: 'object',
      properties: {
        status: STATUS,
        message: { type: 'string' },
        files: {
          type: 'array',
          items: {
            type: 'object',
            properties: {
              path: { type: 'string' },
              action: { type: 'string', enum: ['update', 'add', 'delete', 'move'] },
              to: { type: 'string' },
              status: JSON_BLOCK_SCHEMA.properties.status,
              message: { type: 'string' },
              content: { type: 'string' },
              blocks: { type: 'array', items: JSON_BLOCK_SCHEMA },
            },
            required: ['path', 'action', 'status', 'blocks'],
          },
        },
      },
      required: ['status', 'message', 'files'],
    },
  },
];

// ---- calls ------------------------------------------------------------------------------------------

/** Runs one tool call under `roots` (real paths of folders, the first one for relative paths). */
export async function callTool(name: string, args: unknown, roots: readonly string[]): Promise<ToolAnswer> {
  if (name === APPLY_EDITS_TOOL) {
    return applyEditsTool(args, roots);
  }
  if (name === APPLY_PATCH_TOOL) {
    return applyPatchTool(args, roots);
  }
  return refusal(
    { status: 'invalid', message: '', files: [] },
    `Unknown tool ${JSON.stringify(name)}: this server has ${APPLY_EDITS_TOOL} and ${APPLY_PATCH_TOOL}.`,
  );
}

/** Takes `dryRun` out of the arguments; a problem with it is named like the others. */
function takeDryRun(args: Record<string, unknown>, problems: string[]): boolean {
  const { dryRun } = args;
  delete args.dryRun;
  if (dryRun === undefined || dryRun === null || typeof dryRun === 'boolean') {
    return dryRun === true;
  }
  problems.push(`"dryRun" must be a boolean (true or false), got ${describe(dryRun)}`);
  return false;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function applyEditsTool(raw: unknown, roots: readonly string[]): Promise<ToolAnswer> {
  const args = isRecord(raw) ? { ...raw } : raw;
  const problems: string[] = [];
  const dryRun = isRecord(args) ? takeDryRun(args, problems) : false;
  const checked = checkToolInput(args, APPLY_EDITS_TOOL);
  const given = isRecord(args) && typeof args.filePath === 'string' ? args.filePath : null;
  if (!checked.ok || problems.length > 0) {
    const message = checked.ok
      ? [`Invalid input for ${APPLY_EDITS_TOOL}; nothing was applied.`, ...problems.map((p) => `- ${p}`)].join('\n')
      : checked.message.replace('\n', `\n${problems.map((p) => `- ${p}\n`).join('')}`);
    return refusal({ status: 'invalid', file: given, message, blocks: [] });
  }
  const { filePath, blocks, snippet } = checked;
  if (snippet !== undefined) {
    return applyCodeTool(filePath, snippet, roots, dryRun);
  }
  try {
    const target = resolveFilePath(filePath, roots);
    for (const block of blocks) {
      if (block.filePath !== undefined && !namesFile(block.filePath, target, roots[0])) {
        throw new PatchInputError(
          `Block ${block.index} (line ${block.sourceLine}) is for ${block.filePath}, not ${filePath}; nothing was applied. ` +
            `Give the blocks of each file in their own call, or use ${APPLY_PATCH_TOOL} for several files.`,
        );
      }
    }
    const file = readTextFile(target);
    if (!file && blocks[0].search !== '') {
      throw new PatchInputError(
        `"filePath" ${JSON.stringify(filePath)}: file not found (only a first block with an empty SEARCH creates a file); nothing was applied.`,
      );
    }
    if (file) {
      refuseReadOnly(file, filePath, MCP_READ_ONLY);
    }
    const original = file?.text ?? '';
    const result = applyEdits(original, blocks, { fileName: filePath, languageId: languageIdFor(target) });
    if (result.status === 'applied' && !dryRun && result.content !== undefined) {
      if (!file) {
        createTextFile(target, result.content);
      } else if (result.content !== original) {
        writeTextFile(file, result.content, filePath);
      }
    }
    const report = applyReport(filePath, result, dryRun);
    return { text: report.message, isError: report.status !== 'applied', structured: report };
  } catch (error) {
    const { message } = invalidReport(error);
    return refusal({ status: 'invalid', file: filePath, message, blocks: [] });
  }
}

/**
 * `code`: a plain code block placed by its declarations, exactly as `resilient-apply apply FILE --snippet`
 * places it (the same function, codeFile.ts): the same message, refusals and --json object.
 */
async function applyCodeTool(filePath: string, snippet: ToolSnippet, roots: readonly string[], dryRun: boolean): Promise<ToolAnswer> {
  try {
    const target = resolveFilePath(filePath, roots);
    if (snippet.namedFile !== undefined && !namesFile(snippet.namedFile, target, roots[0])) {
      throw new PatchInputError(
        `"code" names the file ${JSON.stringify(snippet.namedFile)} but "filePath" is ${JSON.stringify(filePath)}; nothing was applied. Give the code of each file in its own call.`,
      );
    }
    // The server lives on between calls: the absolute path keeps the file's parse tree (core's tree
    // cache), so the next code block for it reparses only what changed, this apply's writing included.
    const result = await applyCodeToFile(target, filePath, snippet.code, { documentKey: target }, { dryRun, readOnly: MCP_READ_ONLY });
    const report = applyReport(filePath, result, dryRun);
    return { text: report.message, isError: report.status !== 'applied', structured: report };
  } catch (error) {
    const message = error instanceof CodeFileError ? error.message : invalidReport(error).message;
    return refusal({ status: 'invalid', file: filePath, message, blocks: [] });
  }
}

async function applyPatchTool(raw: unknown, roots: readonly string[]): Promise<ToolAnswer> {
  if (!isRecord(raw)) {
    return patchRefusal([`the input must be a JSON object {"patch": "..."}, got ${describe(raw)}`]);
  }
  const args = { ...raw };
  const problems: string[] = [];
  const dryRun = takeDryRun(args, problems);
  for (const key of Object.keys(args)) {
    if (key !== 'patch') {
      problems.push(`unknown field "${key}" (allowed: patch, dryRun)`);
    }
  }
  if (args.patch === undefined) {
    problems.push('"patch" is missing: expected the patch text (a unified diff, an apply_patch patch or SEARCH/REPLACE blocks)');
  } else if (typeof args.patch !== 'string') {
    problems.push(`"patch" must be a string, got ${describe(args.patch)}`);
  } else if (args.patch.trim() === '') {
    problems.push('"patch" is empty');
  }
  if (problems.length > 0) {
    return patchRefusal(problems);
  }
  let report: JsonPatchReport;
  try {
    report = await applyAnswer(roots[0], args.patch as string, '"patch"', { dryRun, readOnly: MCP_READ_ONLY });
  } catch (error) {
    report = invalidReport(error);
  }
  return { text: report.message, isError: report.status !== 'applied', structured: report };
}

function patchRefusal(problems: string[]): ToolAnswer {
  const message = [`Invalid input for ${APPLY_PATCH_TOOL}; nothing was applied.`, ...problems.map((p) => `- ${p}`)].join('\n');
  return refusal({ status: 'invalid', message, files: [] });
}

function refusal(structured: ApplyReport | JsonPatchReport, message = structured.message): ToolAnswer {
  structured.message = message;
  return { text: message, isError: true, structured };
}

/**
 * The file a model's `filePath` names, as the language model tool resolves it (relative to the first
 * root, or absolute inside one; a `file:` URI; `..` never climbs out), then held under that root
 * through symbolic links: a link on the way (folder or file) that leads outside is refused.
 */
export function resolveFilePath(filePath: string, roots: readonly string[]): string {
  const folders = roots.map((root) => ({ path: toUriPath(root), name: path.basename(root) }));
  const resolved = resolveWorkspacePath(filePath, folders);
  if (!resolved.ok) {
    throw new PatchInputError(`${resolved.message} Nothing was applied.`);
  }
  try {
    return resolveUnderRoot(roots[resolved.folderIndex], resolved.relativePath);
  } catch (error) {
    if (error instanceof PatchInputError) {
      throw new PatchInputError(`"filePath" ${JSON.stringify(filePath)}: ${error.message}`);
    }
    throw error;
  }
}

/** A folder as resolveWorkspacePath reads paths: '/'-separated, a Windows drive as "/c:/...". */
function toUriPath(folder: string): string {
  const slashed = folder.replace(/\\/g, '/');
  return /^[A-Za-z]:\//.test(slashed) ? `/${slashed}` : slashed;
}
