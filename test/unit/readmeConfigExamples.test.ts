// The README's "Configuration files" examples are true (issue 26): each example's file, code block and
// result are read from README.md, the code block is applied to the file as the CLI applies it (core's
// applySnippet, the language id the CLI gives the file's name), and the result must be exactly the one
// shown, with the message where the README quotes it. The refusal the section quotes is checked the same way.
// (The README's commands are run by readmeDocs.test.ts; this file covers only this section's examples.)
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applySnippet } from '../../src/core';
import { configFormatOf } from '../../src/core/config/configFormats';
import { languageIdFor } from '../../src/node/paths';

const README = fs.readFileSync(path.resolve(__dirname, '../../../README.md'), 'utf8');

/** The section's text, from its heading to the next `## ` heading. */
function section(title: string): string {
  const start = README.indexOf(`\n## ${title}\n`);
  assert.ok(start >= 0, `README.md has no "## ${title}" section`);
  const end = README.indexOf('\n## ', start + 1);
  return README.slice(start, end < 0 ? README.length : end);
}

interface Example {
  label: string;
  fileName: string;
  file: string;
  code: string;
  result: string;
  message?: string;
}

/** Fenced blocks (```) of `text` in order, with the line offset of each opening fence. */
function fencedBlocks(text: string): Array<{ at: number; body: string }> {
  const blocks: Array<{ at: number; body: string }> = [];
  const fence = /^```[^\n]*\n([\s\S]*?)^```$/gm;
  for (let m = fence.exec(text); m; m = fence.exec(text)) {
    blocks.push({ at: m.index, body: m[1] });
  }
  return blocks;
}

/** Each example: a line `**Label** (`file name`), the file:` and the next three fenced blocks (file, code block, result). */
function examples(): Example[] {
  const text = section('Configuration files');
  const heads = [...text.matchAll(/^\*\*([^*]+)\*\* \(`([^`]+)`\), the file:$/gm)];
  return heads.map((head, i) => {
    const from = head.index;
    const to = i + 1 < heads.length ? heads[i + 1].index : text.length;
    const part = text.slice(from, to);
    const blocks = fencedBlocks(part);
    assert.equal(blocks.length, 3, `README example ${head[1]}: the file, the code block and the result (${blocks.length} blocks)`);
    const afterResult = part.slice(part.lastIndexOf('```') + 3);
    const quoted = /the message: `([^`]+)`/.exec(afterResult.replace(/\s*\n\s*/g, ' '));
    return {
      label: head[1],
      fileName: head[2],
      file: blocks[0].body,
      code: blocks[1].body,
      result: blocks[2].body,
      message: quoted?.[1],
    };
  });
}

const found = examples();

test('the README has a configuration example for every format family: JSON, JSONC, YAML, TOML, .env, INI', () => {
  assert.deepEqual(
    found.map((e) => configFormatOf(e.fileName, languageIdFor(e.fileName))),
    ['json', 'jsonc', 'yaml', 'toml', 'env', 'ini'],
  );
});

for (const example of found) {
  test(`README configuration example ${example.label} (${example.fileName}): gives the result shown`, async () => {
    const options = { fileName: example.fileName, languageId: languageIdFor(example.fileName) };
    const result = await applySnippet(example.file, { code: example.code, ...options }, options);
    assert.equal(result.status, 'applied', result.message);
    assert.ok(result.snippet.config, 'merged by key, not placed as lines');
    assert.equal(result.content, example.result);
    if (example.message !== undefined) {
      assert.equal(result.message, example.message);
    }
  });
}

test("the README's refused example: a bare key that fits two objects, the message it quotes", async () => {
  const text = section('Configuration files').replace(/\s*\n\s*/g, ' ');
  const quoted = /gives `(The snippet was not applied to app\.json: [^`]+)`/.exec(text);
  assert.ok(quoted, 'the section quotes the refusal');
  assert.match(text, /`"timeout": 60` for a file with `"server": \{ "timeout": 30 \}` and `"client": \{ "timeout": 10 \}`/);
  const file = '{\n  "server": { "timeout": 30 },\n  "client": { "timeout": 10 }\n}\n';
  const result = await applySnippet(file, { code: '"timeout": 60' }, { fileName: 'app.json', languageId: 'json' });
  assert.equal(result.status, 'ambiguous');
  assert.ok(result.message.startsWith(quoted[1]), `${result.message}\ndoes not start with the README's\n${quoted[1]}`);
});
