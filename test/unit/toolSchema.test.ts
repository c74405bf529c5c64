// The language model tool's description and input schema live in core (core/formats/toolSchema.ts), the
// one source for VS Code's tool (package.json) and the MCP server's apply_edits: package.json must say
// exactly the same, so a change in one place cannot leave the other telling models something else. The
// editor's variant adds whole patches ("patch" without "filePath"); apply_edits keeps one file per call.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { APPLY_TOOL_NAME, EDITOR_TOOL_DESCRIPTION, EDITOR_TOOL_INPUT_SCHEMA } from '../../src/core';

// out/test/unit -> repository root
const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', '..', '..', 'package.json'), 'utf8')) as {
  contributes: { languageModelTools: { name: string; modelDescription: string; inputSchema: unknown }[] };
};

test("package.json's language model tool has core's description and input schema", () => {
  const tool = manifest.contributes.languageModelTools.find((t) => t.name === APPLY_TOOL_NAME);
  assert.ok(tool, `${APPLY_TOOL_NAME} is missing from package.json`);
  assert.equal(tool.modelDescription, EDITOR_TOOL_DESCRIPTION, 'modelDescription differs from core/formats/toolSchema.ts');
  assert.deepEqual(tool.inputSchema, EDITOR_TOOL_INPUT_SCHEMA, 'inputSchema differs from core/formats/toolSchema.ts');
});
