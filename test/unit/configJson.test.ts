// JSON and JSON with comments merged by key (issue 26), rule by rule, on real files: a package.json and a
// tsconfig.json (tabs, block and line comments, trailing commas) from node_modules, and the same tsconfig
// as a settings.json with CRLF line endings. Each test checks the merged text byte for byte where it matters.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse } from 'jsonc-parser';
import { mergeJson, mergeJsonc } from '../../src/core/config/json';
import type { ConfigMergeResult } from '../../src/core/config/types';
import { formatConfigMessage } from '../../src/core/report/configMessage';
import { applySnippet } from '../../src/core';

const ROOT = path.resolve(__dirname, '../../..');
const PACKAGE = fs.readFileSync(path.join(ROOT, 'node_modules/jsonc-parser/package.json'), 'utf8');
const TSCONFIG = fs.readFileSync(path.join(ROOT, 'node_modules/es-errors/tsconfig.json'), 'utf8');
const SETTINGS_CRLF = TSCONFIG.replace(/\n/g, '\r\n');

function merged(result: ConfigMergeResult): Extract<ConfigMergeResult, { kind: 'merged' }> {
  assert.equal(result.kind, 'merged', result.kind === 'refused' ? result.message : '');
  return result as Extract<ConfigMergeResult, { kind: 'merged' }>;
}

function refusal(result: ConfigMergeResult): Extract<ConfigMergeResult, { kind: 'refused' }> {
  assert.equal(result.kind, 'refused');
  return result as Extract<ConfigMergeResult, { kind: 'refused' }>;
}

/** The merged text with the edits undone by hand: only `changed` lines differ. */
function changedLines(before: string, after: string): string[] {
  const a = before.split('\n');
  const b = after.split('\n');
  return b.filter((line, i) => a[i] !== line || a.length !== b.length).filter((l) => !a.includes(l));
}

describe('config JSON: the snippet shapes', () => {
  test('a fragment without braces: a bare key that is in one object is set there, in place', () => {
    const r = merged(mergeJson(PACKAGE, '"lint": "eslint ."'));
    assert.equal(r.text, PACKAGE.replace('"lint": "eslint src/**/*.ts"', '"lint": "eslint ."'));
    assert.deepEqual(r.changes, [{ path: ['scripts', 'lint'], action: 'set', line: 35 }]);
    assert.deepEqual(r.edits.length, 1);
  });

  test('a fragment with its parent key, a trailing comma and a placeholder comment', () => {
    const snippet = '"scripts": {\n  // ... existing scripts ...\n  "lint": "eslint .",\n  "format": "prettier --write ."\n},';
    const r = merged(mergeJson(PACKAGE, snippet));
    const expected = PACKAGE.replace('    "lint": "eslint src/**/*.ts"\n', '    "lint": "eslint .",\n    "format": "prettier --write ."\n');
    assert.equal(r.text, expected);
    assert.deepEqual(
      r.changes.map((c) => [c.path.join('.'), c.action, c.line]),
      [
        ['scripts.lint', 'set', 35],
        ['scripts.format', 'added', 36],
      ],
    );
  });

  test('a whole object: keys it does not show are kept and listed per object', () => {
    const r = merged(mergeJson(PACKAGE, '{\n  "version": "3.4.0",\n  "scripts": { "watch": "tsc -w" }\n}\n'));
    assert.deepEqual(parse(r.text), { ...parse(PACKAGE), version: '3.4.0', scripts: { ...parse(PACKAGE).scripts, watch: 'tsc -w' } });
    const kept = Object.fromEntries(r.kept.map((k) => [k.path.join('.'), k.keys]));
    assert.deepEqual(kept[''], [
      'name',
      'description',
      'main',
      'typings',
      'module',
      'author',
      'repository',
      'license',
      'bugs',
      'devDependencies',
    ]);
    assert.deepEqual(kept.scripts, ['prepack', 'compile', 'compile-esm', 'remove-sourcemap-refs', 'clean', 'test', 'lint']);
    const message = formatConfigMessage({ fileName: 'package.json', outcome: r });
    assert.match(
      message,
      /^Applied the snippet to package\.json: set version \(line 3\), set scripts\.watch \(line 33\); kept 17 keys the snippet did not show: in scripts: prepack, /,
    );
    assert.match(message, /at the top level: name, description, main, typings, module, author, repository, license and 2 more\.$/);
  });

  test("an invalid snippet is refused with the parser's message and position", () => {
    const r = refusal(mergeJson(PACKAGE, '"scripts": {\n  "lint": eslint\n}'));
    assert.equal(r.reason, 'invalid-snippet');
    assert.match(r.message, /does not parse as JSON, whole or as key-value lines \(InvalidSymbol at line 2, column 11 of the snippet\)/);
    const whole = refusal(mergeJsonc(TSCONFIG, '{ "compilerOptions": { "strict": true, } '));
    assert.match(whole.message, /CloseBraceExpected at line 1/);
  });

  test('a file that does not parse is refused, naming where', () => {
    const r = refusal(mergeJson('{\n  "a": 1\n  "b": 2\n}\n', '"a": 3'));
    assert.equal(r.reason, 'invalid-file');
    assert.match(r.message, /CommaExpected at line 3, column 3/);
  });
});

describe('config JSON: keys set, added, kept', () => {
  test('a changed value is replaced in place and its trailing comment kept (tsconfig with tabs and comments)', () => {
    const r = merged(mergeJsonc(TSCONFIG, '{ "compilerOptions": { "target": "es2022" } }'));
    assert.equal(r.text, TSCONFIG.replace('"target": "es5",', '"target": "es2022",'));
    assert.match(r.text, /"target": "es2022",\t+\/\* Set the JavaScript language version/);
  });

  test('a new key goes after the key that precedes it in the snippet, indented as its siblings (tabs), commas fixed', () => {
    const r = merged(mergeJsonc(TSCONFIG, '"compilerOptions": {\n  "target": "es2022",\n  "lib": ["es2022"],\n  // ...\n}'));
    const lines = r.text.split('\n');
    const at = lines.findIndex((l) => l.includes('"target": "es2022"'));
    assert.equal(lines[at + 1], '\t\t"lib": [');
    assert.equal(lines[at + 2], '\t\t\t"es2022"');
    assert.equal(lines[at + 3], '\t\t],');
    assert.match(lines[at + 4], /^\t\t\/\/ "lib": \[\],/);
    assert.deepEqual(parse(r.text).compilerOptions.lib, ['es2022']);
  });

  test("a new key with no neighbour in the snippet goes after the last key of its object (here with the file's trailing comma), before the comments that end it", () => {
    const r = merged(mergeJsonc(TSCONFIG, '{ "compilerOptions": { "noUnusedLocals": true } }'));
    assert.match(
      r.text,
      /"strict": true,\t+\/\* Enable all strict type-checking options\. \*\/\n\t\t"noUnusedLocals": true,\n\n\t\t\/\* Completeness \*\/\n/,
    );
    assert.deepEqual(changedLines(TSCONFIG, r.text), ['\t\t"noUnusedLocals": true,']);
  });

  test('after a last key without a comma, the comma goes after its value and the new key below its trailing comment', () => {
    const file = '{\n  "a": 1, // one\n  "b": 2 // two\n}\n';
    assert.equal(merged(mergeJsonc(file, '"c": 3')).text, '{\n  "a": 1, // one\n  "b": 2, // two\n  "c": 3\n}\n');
    assert.equal(merged(mergeJsonc(file, '"a": 1,\n"z": 0')).text, '{\n  "a": 1, // one\n  "z": 0,\n  "b": 2 // two\n}\n');
  });

  test("a new top-level key after a trailing comma keeps the file's trailing-comma style", () => {
    const r = merged(mergeJsonc(TSCONFIG, '{ "include": ["lib"] }'));
    assert.ok(r.text.endsWith('\t"exclude": [\n\t\t"coverage",\n\t],\n\t"include": [\n\t\t"lib"\n\t],\n}\n'), r.text.slice(-80));
  });

  test('a sorted object (devDependencies) stays sorted', () => {
    const r = merged(mergeJson(PACKAGE, '"devDependencies": {\n  "prettier": "^3.0.0",\n  "chai": "^5.0.0"\n}'));
    const keys = Object.keys(parse(r.text).devDependencies);
    assert.deepEqual(
      keys,
      [...keys].sort((a, b) => a.localeCompare(b, 'en')),
    );
    assert.ok(keys.includes('prettier') && keys.includes('chai'));
    assert.match(r.text, /"@typescript-eslint\/parser": "\^7\.13\.1",\n    "chai": "\^5\.0\.0",\n    "eslint"/);
    assert.match(r.text, /"mocha": "\^10\.4\.0",\n    "prettier": "\^3\.0\.0",\n    "rimraf"/);
  });

  test('nothing is removed: a whole-object snippet that leaves keys out keeps them', () => {
    const r = merged(mergeJson(PACKAGE, '{ "name": "jsonc-parser", "license": "Apache-2.0" }'));
    assert.deepEqual(parse(r.text), { ...parse(PACKAGE), license: 'Apache-2.0' });
  });

  test('already there: no edit, every key unchanged', () => {
    const r = merged(mergeJson(PACKAGE, '"scripts": { "clean": "rimraf lib" }'));
    assert.equal(r.edits.length, 0);
    assert.equal(r.text, PACKAGE);
    assert.match(
      formatConfigMessage({ fileName: 'package.json', outcome: r }),
      /^Nothing to apply to package\.json: it already holds every key the snippet shows \(scripts\.clean at line 32\)/,
    );
  });

  test('an empty object and a one-line object get their entries in their own layout', () => {
    assert.equal(merged(mergeJson('{\n  "a": {}\n}\n', '{ "a": { "b": 1 } }')).text, '{\n  "a": {\n    "b": 1\n  }\n}\n');
    assert.equal(merged(mergeJson('{\n  "a": { "x": 1 }\n}\n', '{ "a": { "b": [1, 2] } }')).text, '{\n  "a": { "x": 1, "b": [1, 2] }\n}\n');
  });
});

describe('config JSON: lists, ambiguity, formatting', () => {
  const LAUNCH = [
    '{',
    '  "version": "0.2.0",',
    '  "configurations": [',
    '    {',
    '      "name": "Run tests",',
    '      "type": "node",',
    '      "program": "${workspaceFolder}/test.js" // the runner',
    '    },',
    '    {',
    '      "name": "Run app",',
    '      "type": "node",',
    '      "program": "${workspaceFolder}/app.js"',
    '    }',
    '  ]',
    '}',
    '',
  ].join('\n');

  test("list items with a name are matched by it and merged; the file's other items and keys are kept", () => {
    const r = merged(mergeJsonc(LAUNCH, '"configurations": [\n  { "name": "Run app", "args": ["--port", "3000"] }\n]'));
    const value = parse(r.text);
    assert.deepEqual(value.configurations[0], parse(LAUNCH).configurations[0]);
    assert.deepEqual(value.configurations[1], {
      name: 'Run app',
      type: 'node',
      program: '${workspaceFolder}/app.js',
      args: ['--port', '3000'],
    });
    assert.deepEqual(r.kept.find((k) => k.path.join('.') === 'configurations')?.keys, ['[0] (name "Run tests")']);
    assert.match(r.text, /"program": "\$\{workspaceFolder\}\/test\.js" \/\/ the runner\n/);
  });

  test('a new named item is added at the end of the list', () => {
    const r = merged(mergeJsonc(LAUNCH, '{ "configurations": [ { "name": "Attach", "type": "node", "request": "attach" } ] }'));
    assert.deepEqual(
      parse(r.text).configurations.map((c: { name: string }) => c.name),
      ['Run tests', 'Run app', 'Attach'],
    );
    assert.match(r.text, /    \},\n    \{\n      "name": "Attach",\n      "type": "node",\n      "request": "attach"\n    \}\n  \]/);
  });

  test('a list of plain values shown whole replaces the list; shown with a placeholder, it adds what is missing', () => {
    const file = '{\n  "files": ["lib", "src"],\n  "keywords": [\n    "json"\n  ]\n}\n';
    assert.deepEqual(parse(merged(mergeJson(file, '"files": ["dist"]')).text).files, ['dist']);
    assert.deepEqual(parse(merged(mergeJson(file, '"files": ["lib", "src", "README.md"]')).text).files, ['lib', 'src', 'README.md']);
    const partial = merged(mergeJsonc(file, '"keywords": [\n  // ... existing keywords ...\n  "jsonc"\n]'));
    assert.equal(partial.text, '{\n  "files": ["lib", "src"],\n  "keywords": [\n    "json",\n    "jsonc"\n  ]\n}\n');
  });

  test('a bare key that fits several objects is refused, naming each place', () => {
    const r = refusal(mergeJsonc(LAUNCH, '"program": "${workspaceFolder}/main.js"'));
    assert.equal(r.reason, 'ambiguous');
    assert.deepEqual(r.places, [
      { path: ['configurations', 0, 'program'], line: 7 },
      { path: ['configurations', 1, 'program'], line: 12 },
    ]);
    assert.match(r.message, /"program" fits 2 places: configurations\[0\]\.program \(line 7\), configurations\[1\]\.program \(line 12\)/);
  });

  test('a bare key is placed where its sibling keys are, when that tells one object apart', () => {
    const r = merged(mergeJsonc(LAUNCH, '"name": "Run app",\n"program": "${workspaceFolder}/main.js",\n"args": []'));
    assert.equal(parse(r.text).configurations[1].program, '${workspaceFolder}/main.js');
    assert.equal(r.kept[0].path.join('.'), 'configurations.1');
  });

  test('tabs and CRLF (a settings.json): every line written keeps them, and the final newline', () => {
    const r = merged(mergeJsonc(SETTINGS_CRLF, '"compilerOptions": { "newLine": "lf", "paths": { "x": ["./x"] } }'));
    assert.equal(r.text.replace(/\r\n/g, '').includes('\n'), false, 'a bare LF was written');
    assert.ok(r.text.endsWith('}\r\n'));
    assert.match(
      r.text,
      /\r\n\t\t"newLine": "lf",\r\n\t\t"paths": \{\r\n\t\t\t"x": \[\r\n\t\t\t\t"\.\/x"\r\n\t\t\t\]\r\n\t\t\},\r\n\r\n\t\t\/\* Completeness/,
    );
  });
});

describe('config JSON: through applySnippet (every surface)', () => {
  test("package.json by name: merged by key, one edit, the merge's message", async () => {
    const r = await applySnippet(
      PACKAGE,
      { code: '"scripts": {\n  "lint": "eslint ."\n},' },
      { fileName: 'package.json', languageId: 'json' },
    );
    assert.equal(r.status, 'applied');
    assert.equal(r.content, PACKAGE.replace('"eslint src/**/*.ts"', '"eslint ."'));
    assert.equal(r.edits.length, 1);
    assert.equal(r.snippet.reader, 'json');
    assert.deepEqual(r.blocks[0].range, { startLine: 35, endLine: 35 });
    assert.match(r.message, /^Applied the snippet to package\.json: set scripts\.lint \(line 35\)/);
  });

  test("an ambiguous key is the code block's ambiguous outcome, with each place as a candidate", async () => {
    const file = '{\n  "server": { "timeout": 30 },\n  "client": { "timeout": 10 }\n}\n';
    const r = await applySnippet(file, { code: '"timeout": 60' }, { fileName: 'config/app.json', languageId: 'json' });
    assert.equal(r.status, 'ambiguous');
    assert.deepEqual(
      r.blocks[0].candidates.map((c) => [c.startLine, c.text]),
      [
        [2, '  "server": { "timeout": 30 },'],
        [3, '  "client": { "timeout": 10 }'],
      ],
    );
    assert.equal(r.edits.length, 0);
  });

  test('a tsconfig with comments is no whole-file rewrite: comments and keys not shown stay', async () => {
    const r = await applySnippet(
      TSCONFIG,
      { code: '{\n  "compilerOptions": {\n    "strict": false\n  }\n}' },
      { fileName: 'tsconfig.json', languageId: 'jsonc' },
    );
    assert.equal(r.status, 'applied');
    assert.equal(r.content, TSCONFIG.replace('"strict": true,', '"strict": false,'));
  });
});
