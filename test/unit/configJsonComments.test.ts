// Comments inside added values (issue 26): a key the snippet adds to a JSON-with-comments file brings its
// own comments (the comment lines right above it, the comment at the end of its line) into the file, after
// its comma, in the file's indentation and line endings; placeholder comments (`// ... existing ...`) are
// never written; a plain JSON file (package.json) gets no comments. On a real tsconfig.json (es-errors',
// tab-indented, with line and block comments) and the same file with CRLF line endings.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'jsonc-parser';
import { mergeJson, mergeJsonc } from '../../src/core/config/json';
import type { ConfigMergeResult } from '../../src/core/config/types';

const ROOT = path.resolve(__dirname, '../../..');
const TSCONFIG = fs.readFileSync(path.join(ROOT, 'node_modules/es-errors/tsconfig.json'), 'utf8');

function mergedText(result: ConfigMergeResult): string {
  assert.equal(result.kind, 'merged', result.kind === 'refused' ? result.message : '');
  return (result as Extract<ConfigMergeResult, { kind: 'merged' }>).text;
}

/** The lines of `after` that `before` does not have, in order. */
function addedLines(before: string, after: string): string[] {
  const old = new Set(before.split(/\r?\n/));
  return after.split(/\r?\n/).filter((line) => !old.has(line));
}

const SNIPPET = [
  '{',
  '  "compilerOptions": {',
  '    // ... existing options ...',
  '    // Catches a misspelt override',
  '    "noImplicitOverride": true, // since TS 4.3',
  '    "outDir": "out" /* the build output */',
  '  }',
  '}',
].join('\n');

test('JSONC: an added key brings the comment line above it and the comment at the end of its line; the placeholder stays out', () => {
  const after = mergedText(mergeJsonc(TSCONFIG, SNIPPET));
  assert.deepEqual(addedLines(TSCONFIG, after), [
    '\t\t// Catches a misspelt override',
    '\t\t"noImplicitOverride": true, // since TS 4.3',
    '\t\t"outDir": "out", /* the build output */',
  ]);
  assert.doesNotMatch(after, /existing options/);
  const value = parse(after) as { compilerOptions: Record<string, unknown> };
  assert.equal(value.compilerOptions.noImplicitOverride, true);
  assert.equal(value.compilerOptions.outDir, 'out');
});

test("JSONC with CRLF: the comment lines are written with the file's line ending", () => {
  const crlf = TSCONFIG.replace(/\n/g, '\r\n');
  const after = mergedText(mergeJsonc(crlf, SNIPPET));
  assert.equal(after.replace(/\r\n/g, '\n'), mergedText(mergeJsonc(TSCONFIG, SNIPPET)));
  assert.doesNotMatch(after.replace(/\r\n/g, ''), /\n/, 'no bare line feed');
});

test("JSONC: a fragment's last key keeps its comment at the end of the line, before the closing brace", () => {
  const after = mergedText(mergeJsonc(TSCONFIG, '"compilerOptions": {\n  "sourceMap": true // for the debugger\n},'));
  const added = addedLines(TSCONFIG, after);
  assert.equal(added.length, 1, added.join('\n'));
  assert.match(added[0], /^\t\t"sourceMap": true,? \/\/ for the debugger$/);
  assert.ok(parse(after));
});

test('plain JSON (package.json): the same snippet adds the keys without any comment', () => {
  const file = '{\n  "name": "shop",\n  "compilerOptions": {\n    "strict": true\n  }\n}\n';
  const after = mergedText(mergeJson(file, SNIPPET));
  assert.deepEqual(addedLines(file, after), ['    "strict": true,', '    "noImplicitOverride": true,', '    "outDir": "out"']);
  assert.doesNotMatch(after, /\/\/|\/\*/);
});
