// The language model tool's description and input schema, in one place for every tool on the engine: the
// VS Code tool (package.json contributes.languageModelTools, held to this file by test/unit/toolSchema.test.ts)
// and the MCP server's apply_edits (src/node/mcpTools.ts). A model reads these words to decide how to call.

/** What the model is told the tool does and how to call it (package.json: modelDescription). */
export const APPLY_TOOL_DESCRIPTION =
  'Edit one existing workspace file by replacing exact excerpts: each block gives SEARCH (whole lines copied from the file) and REPLACE (the new lines). ' +
  "Prefer this tool over other file-editing tools when you have not just re-read the file or it may have been reformatted, because matching tolerates differences in indentation (tabs vs spaces), trailing whitespace, line endings, curly vs straight quotes, unicode punctuation, line-number prefixes copied from a numbered view, and spacing between tokens, and keeps the file's own style in the lines it writes. " +
  'It never edits an ambiguous place: if SEARCH occurs more than once, nothing changes and every occurrence is listed with its line range; add surrounding lines or startLine (the 1-based line where SEARCH starts) to pick one. ' +
  'If SEARCH is not found, nothing changes and the result lists the closest real text in the file with similarity scores and line ranges: copy SEARCH exactly from those lines and call again. ' +
  'All blocks of one call apply atomically (all or nothing) as one undoable edit, in order, each against the text left by the previous ones. ' +
  'Keep SEARCH short but unique (a few lines); use several blocks for several places. ' +
  "Placeholders such as '// ... existing code ...' (or a line of just '...') may stand for unchanged lines in REPLACE when SEARCH has those lines: they are kept from the file, never deleted; if what a placeholder stands for is not certain the block is refused, naming it (write those lines out). " +
  "Give one of: blocks (JSON), text (blocks in the <<<<<<< SEARCH / ======= / >>>>>>> REPLACE marker format), or patch (a unified diff or an apply_patch '*** Begin Patch' patch for this one file; each hunk is matched like a block: its context and '-' lines are SEARCH, its context and '+' lines are REPLACE; '@@' line numbers only pick among occurrences and an '@@ <line>' anchor restricts the search to the text after that line; a hunk that lands away from its header's line number says so). " +
  'To create or fill an empty file, use an empty SEARCH. ' +
  "Or give code (Cursor's edit_file convention): a snippet of filePath written as the file should read: one or more declarations (functions, methods, classes, types...), each inside its enclosing declaration's opening and closing lines when it is nested (class Cart { ... }), with the line '// ... existing code ...' (in the file's comment syntax, e.g. '# ... existing code ...' in Python) standing for every run of unchanged code you leave out; or the whole file without placeholders. " +
  'Each declaration the snippet shows replaces the one of the same kind and name in the file; a declaration the file does not have is inserted next to its neighbour from the snippet. ' +
  'Nothing the snippet does not show is deleted (except by a whole-file rewrite), and placeholders are never written. ' +
  "If a declaration's place is not certain (the name occurs twice, or nothing fits), nothing changes and the result lists the candidates: add the enclosing declaration's lines or use blocks.";

/** The tool's input as JSON Schema (package.json: inputSchema); checkToolInput (toolInput.ts) enforces it. */
export const APPLY_TOOL_INPUT_SCHEMA = {
  type: 'object',
  properties: {
    filePath: {
      type: 'string',
      description: 'The file to edit: a path relative to the workspace folder (e.g. src/app.ts), or an absolute path inside the workspace.',
    },
    blocks: {
      type: 'array',
      description: 'The edits, applied in order and atomically. Give one of blocks, text, patch or code.',
      items: {
        type: 'object',
        properties: {
          search: {
            type: 'string',
            description:
              'Whole lines copied from the file, to be replaced. Must occur once (or give startLine). Empty only to fill an empty file.',
          },
          replace: {
            type: 'string',
            description: 'The new lines that take the place of search. Empty to delete.',
          },
          startLine: {
            type: 'integer',
            minimum: 1,
            description: 'Optional 1-based line where search starts, to pick one of several occurrences.',
          },
        },
        required: ['search', 'replace'],
      },
    },
    text: {
      type: 'string',
      description:
        "Alternative to blocks: one or more blocks in the marker format: a line '<<<<<<< SEARCH', the lines to find, '=======', the new lines, '>>>>>>> REPLACE'.",
    },
    patch: {
      type: 'string',
      description:
        "Alternative to blocks and text: a unified diff ('--- a/path', '+++ b/path', '@@ -12,7 +12,8 @@' hunks of ' ' context, '-' removed and '+' added lines) or an apply_patch patch ('*** Begin Patch', '*** Update File: path', '@@ <line the hunk follows>', hunk lines, '*** End Patch') for filePath. Line numbers are hints only; counts need not be right.",
    },
    code: {
      type: 'string',
      description:
        "Alternative to blocks, text and patch: code for filePath. One declaration or several (a method inside its class's opening and closing lines), with '// ... existing code ...' lines for the unchanged code left out; or the whole new file. Placed by declaration kind and name; refused when unsure. Fences (```) are stripped. Creates filePath when it does not exist and the code has no placeholder.",
    },
  },
  required: ['filePath'],
};

/** The MCP server's `dryRun` argument (both tools). */
export const DRY_RUN_DESCRIPTION =
  'Optional: true to compute and report the result, with the new content of each file, without writing anything.';

/** The MCP server's apply_patch tool: a whole patch or answer over several files, as `resilient-apply patch` takes it. */
export const APPLY_PATCH_TOOL_DESCRIPTION =
  'Apply a multi-file edit as one batch: every file changes or none does. ' +
  "Give in patch a unified diff ('--- a/path', '+++ b/path', '@@' hunks; /dev/null for new and deleted files), an apply_patch patch ('*** Begin Patch', '*** Add File: path', '*** Update File: path' optionally followed by '*** Move to: path', '*** Delete File: path', '@@' hunks, '*** End Patch'), or a whole answer with SEARCH/REPLACE blocks for several files, each with its file's path on the line before the block or its code fence, in any mix, also plain fenced code blocks (a whole file, a declaration, or a lazy snippet with '// ... existing code ...' lines), each naming its file (its path on the line before the fence, the fence's info string '```ts src/a.ts', or a first line '// filepath: src/a.ts'). " +
  'Paths are relative to the project root; nothing outside it is read or written. ' +
  'Every hunk and block is matched like a SEARCH/REPLACE block, tolerating indentation, trailing whitespace, quote, unicode punctuation and line-ending drift; line numbers in @@ headers are only hints. ' +
  'If a hunk or block is ambiguous or not found, nothing is written and the result lists every occurrence, or the closest real text with similarity scores and line ranges: correct that part and call again with the whole patch. ' +
  'A block with an empty SEARCH creates its file, and so does a code block without placeholder lines for a file that does not exist.';

/** The apply_patch tool's `patch` argument. */
export const APPLY_PATCH_PATCH_DESCRIPTION =
  'The whole edit: a unified diff, an apply_patch patch, SEARCH/REPLACE blocks each preceded by its file path line, or fenced code blocks each naming its file, for one or more files under the root.';

/**
 * The editor's tool (package.json) also takes a whole patch: "patch" without "filePath", naming its
 * files, adding, deleting and moving them (checkWholePatchInput, core/batch/wholePatch.ts). The MCP
 * server's apply_edits keeps one file per call (its apply_patch tool takes whole patches).
 */
export const EDITOR_TOOL_DESCRIPTION = /* @__PURE__ */ editorToolDescription();

function editorToolDescription(): string {
  return (
    APPLY_TOOL_DESCRIPTION +
    ' A patch that names its files may also go without filePath: then it adds, changes, deletes and moves several files in one call (a deletion or an overwrite asks the user first), every file or none, as one undoable edit.'
  );
}

/**
 * The editor's tool input: filePath may be left out with a patch that names its files. Built by a call
 * marked pure, so a bundle that does not use the schemas drops them (the activation bundle).
 */
export const EDITOR_TOOL_INPUT_SCHEMA = /* @__PURE__ */ editorToolInputSchema();

function editorToolInputSchema() {
  const { required: _oneFile, ...editorSchema } = APPLY_TOOL_INPUT_SCHEMA;
  return {
    ...editorSchema,
    properties: {
      ...APPLY_TOOL_INPUT_SCHEMA.properties,
      filePath: {
        type: 'string',
        description:
          APPLY_TOOL_INPUT_SCHEMA.properties.filePath.description +
          ' Required except with a patch that names its files (then leave it out: the patch may add, change, delete and move several files).',
      },
      patch: {
        type: 'string',
        description:
          APPLY_TOOL_INPUT_SCHEMA.properties.patch.description +
          " Without filePath the patch names its files and may add ('*** Add File:', '--- /dev/null'), delete ('*** Delete File:', '+++ /dev/null') and move ('*** Move to:') files: every file or none, one undoable edit.",
      },
    },
  };
}
