// `resilient-apply mcp [--root <dir>]`: the engine as a Model Context Protocol server over stdio, for
// coding agents outside VS Code. Built into its own bundle (dist/mcp.js) that only this subcommand
// requires: the SDK never weighs on the CLI's cold start. The tools themselves are src/node/mcpTools.ts.
// The SDK's low-level Server, not McpServer: the tools' schemas are JSON Schema from core (the same as
// the language model tool's), and arguments are checked by core's own checks, whose messages name each
// argument, where McpServer would want zod schemas and answer with its own validation errors.
// Nothing but protocol messages goes to stdout; a closed stdin ends the server.
import url = require('node:url');
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema, RootsListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { callTool, MCP_TOOLS } from './node/mcpTools';
import { MCP_SYNOPSIS } from './node/args';
import { PatchInputError, realFolder } from './node/patchCommand';

/** How long a client may take to answer roots/list before the server falls back to its own root. */
const ROOTS_TIMEOUT_MS = 5_000;

const SERVER_INSTRUCTIONS =
  'Resilient Apply edits files under the project root with SEARCH/REPLACE blocks, unified diffs or apply_patch patches, ' +
  'tolerating indentation, whitespace, quote and line-ending drift and refusing ambiguous places. Use apply_edits for one ' +
  'file and apply_patch for several (atomic: every file or none). A refusal lists the closest real text or every ' +
  'occurrence: correct SEARCH from it and call again.';

function parseMcpArgs(argv: readonly string[]): { root?: string } {
  let root: string | undefined;
  for (let k = 0; k < argv.length; k++) {
    const arg = argv[k];
    if (arg === '--root' || arg.startsWith('--root=')) {
      const value = arg === '--root' ? argv[++k] : arg.slice('--root='.length);
      if (value === undefined || value === '' || value.startsWith('--')) {
        throw new PatchInputError('usage error: --root needs a folder');
      }
      if (root !== undefined) {
        throw new PatchInputError('usage error: --root given twice');
      }
      root = value;
    } else {
      throw new PatchInputError(`usage error: unexpected ${JSON.stringify(arg)} for "mcp"\n\nUsage: ${MCP_SYNOPSIS}`);
    }
  }
  return { root };
}

/**
 * Runs the server until stdin closes; returns the exit code. Usage errors (bad --root) are reported on
 * stderr before any protocol starts, exit 3.
 */
export async function runMcpServer(argv: readonly string[], version: string): Promise<number> {
  let ownRoot: string;
  let explicitRoot: boolean;
  try {
    const args = parseMcpArgs(argv);
    explicitRoot = args.root !== undefined;
    ownRoot = realFolder(args.root ?? '.', args.root !== undefined ? '--root' : 'the current folder');
  } catch (error) {
    process.stderr.write(`resilient-apply mcp: ${error instanceof Error ? error.message : String(error)}\n`);
    return 3;
  }

  const server = new Server(
    { name: 'resilient-apply', version },
    { capabilities: { tools: { listChanged: false } }, instructions: SERVER_INSTRUCTIONS },
  );
  // The client's roots, asked once and again after it says they changed (only without --root).
  let clientRoots: Promise<string[] | undefined> | undefined;
  const roots = async (): Promise<string[]> => {
    if (explicitRoot || !server.getClientCapabilities()?.roots) {
      return [ownRoot];
    }
    clientRoots ??= askClientRoots(server);
    return (await clientRoots) ?? [ownRoot];
  };
  server.setNotificationHandler(RootsListChangedNotificationSchema, () => {
    clientRoots = undefined;
  });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: MCP_TOOLS }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    try {
      const answer = await callTool(request.params.name, request.params.arguments, await roots());
      return {
        content: [{ type: 'text' as const, text: answer.text }],
        structuredContent: answer.structured as unknown as Record<string, unknown>,
        isError: answer.isError,
      };
    } catch (error) {
      // A bug or an unforeseen system error: the model gets a refusal, the server goes on serving.
      const reason = error instanceof Error ? error.message : String(error);
      process.stderr.write(`resilient-apply mcp: internal error: ${error instanceof Error ? (error.stack ?? reason) : reason}\n`);
      return { content: [{ type: 'text' as const, text: `internal error: ${reason}; nothing was changed` }], isError: true };
    }
  });

  const closed = new Promise<void>((resolve) => {
    server.onclose = resolve;
  });
  const stop = () => void server.close();
  process.stdin.once('end', stop);
  process.stdin.once('close', stop);
  // A client that goes away mid-answer: no crash on EPIPE, the server just ends.
  process.stdout.on('error', stop);
  await server.connect(new StdioServerTransport());
  await closed;
  // stdout to a pipe is written asynchronously: the last answers must be out before the process exits.
  await new Promise<void>((resolve) => (process.stdout.writableLength === 0 ? resolve() : process.stdout.once('drain', resolve)));
  return 0;
}

/** The client's file roots as real folder paths; undefined when it has none usable or does not answer. */
async function askClientRoots(server: Server): Promise<string[] | undefined> {
  try {
    const { roots } = await server.listRoots(undefined, { timeout: ROOTS_TIMEOUT_MS });
    const folders: string[] = [];
    for (const root of roots) {
      if (!root.uri.startsWith('file:')) {
        continue;
      }
      try {
        folders.push(realFolder(url.fileURLToPath(root.uri), 'the client root'));
      } catch {
        // A root that is not a folder here: skip it.
      }
    }
    return folders.length > 0 ? folders : undefined;
  } catch {
    return undefined;
  }
}
