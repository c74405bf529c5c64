// Patch hunks through the engine (applyEdits): drift in hunks, stale line numbers that must be reported,
// @@ anchors narrowing the search, ambiguity and near misses exactly as for SEARCH/REPLACE blocks.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseEdits } from '../../src/core/formats/edits';
import { applyEdits } from '../../src/core/batch/hunkPlacement';
import type { ApplyOptions, ApplyResult } from '../../src/core/types';

const text = (...lines: string[]): string => lines.join('\n');

/** Parses `patch` and applies its hunks to `doc`; checks that the edits turn doc into content. */
function apply(doc: string, patch: string, options: ApplyOptions = {}): ApplyResult {
  const { blocks } = parseEdits(patch);
  assert.ok(blocks.length > 0, 'the patch has hunks');
  const result = applyEdits(doc, blocks, { fileName: 'f', ...options });
  if (result.status !== 'applied') {
    assert.equal(result.content, undefined);
    assert.deepEqual(result.edits, []);
    return result;
  }
  let out = '';
  let pos = 0;
  for (const e of result.edits) {
    out += doc.slice(pos, e.start) + e.newText;
    pos = e.end;
  }
  assert.equal(out + doc.slice(pos), result.content, 'edits applied to the original give content');
  return result;
}

const SERVER = text(
  'import http from "node:http";',
  '',
  'function greet(name) {',
  "\treturn 'Hello, ' + name;",
  '}',
  '',
  'function start(port) {',
  '\tconst server = http.createServer(handler);',
  '\tserver.listen(port);',
  "\tconsole.log('listening on ' + port);",
  '\treturn server;',
  '}',
  '',
);

describe('unified diff hunks through the engine', () => {
  test("whitespace and quote drift plus one stale line number: applied, in the file's style, and the offset is reported", () => {
    // The model indented with spaces, wrote double quotes, and its numbers are from an older file. (A
    // quote style is mapped where SEARCH shows it; the added line of hunk 2 has no such line to go by.)
    const diff = text(
      '--- a/server.js',
      '+++ b/server.js',
      '@@ -3,3 +3,3 @@',
      ' function greet(name) {',
      '-    return "Hello, " + name;',
      '+    return "Hi, " + name;',
      ' }',
      '@@ -30,4 +30,5 @@',
      ' function start(port) {',
      '     const server = http.createServer(handler);',
      '     server.listen(port);',
      '+    server.on("error", fail);',
    );
    const result = apply(SERVER, diff);
    assert.equal(result.status, 'applied', result.message);
    assert.equal(
      result.content,
      SERVER.replace("\treturn 'Hello, ' + name;", "\treturn 'Hi, ' + name;").replace(
        '\tserver.listen(port);\n',
        '\tserver.listen(port);\n\tserver.on("error", fail);\n',
      ),
    );
    assert.deepEqual(
      result.blocks[0].notes.filter((n) => /hunk header/.test(n)),
      [],
    );
    assert.ok(result.blocks[1].notes.includes('hunk header said line 30, applied at line 7'), result.blocks[1].notes.join(' | '));
    assert.match(result.message, /hunk header said line 30, applied at line 7/);
  });

  test('CRLF file, LF diff: applied with CRLF kept', () => {
    const crlf = SERVER.replace(/\n/g, '\r\n');
    const result = apply(crlf, text('@@ -9,1 +9,1 @@', '-\tserver.listen(port);', '+\tserver.listen(port, "0.0.0.0");'));
    assert.equal(result.status, 'applied', result.message);
    assert.ok(result.content!.includes('\tserver.listen(port, "0.0.0.0");\r\n'));
    assert.equal(result.content!.split('\r\n').length, crlf.split('\r\n').length);
  });

  test('a hunk whose context occurs twice, far from its header line, is refused with both places', () => {
    const doc = text('a()', 'x = 1', 'y = 2', ...Array(40).fill('pad'), 'x = 1', 'y = 2', 'b()');
    const result = apply(doc, text('--- a/f', '+++ b/f', '@@ -90,2 +90,2 @@', ' x = 1', '-y = 2', '+y = 3'));
    assert.equal(result.status, 'ambiguous');
    assert.deepEqual(
      result.blocks[0].candidates.map((c) => [c.startLine, c.endLine]),
      [
        [2, 3],
        [44, 45],
      ],
    );
    assert.match(result.message, /lines 2-3/);
    assert.match(result.message, /lines 44-45/);
  });

  test('the header line picks one of two occurrences near it, like a :start_line: hint', () => {
    const doc = text('a()', 'x = 1', 'y = 2', ...Array(40).fill('pad'), 'x = 1', 'y = 2', 'b()');
    const result = apply(doc, text('@@ -44,2 +44,2 @@', ' x = 1', '-y = 2', '+y = 3'));
    assert.equal(result.status, 'applied', result.message);
    assert.deepEqual(result.blocks[0].range, { startLine: 44, endLine: 45 });
    assert.match(result.message, /the hunk header's line 44 picked the one at line 44/);
  });

  test('a hunk that only fuzzy matching can place is a near miss with candidates', () => {
    const result = apply(
      SERVER,
      text(
        '@@ -7,3 +7,3 @@',
        ' function start(prt) {',
        '-\tconst srv = http.createServer(handler);',
        '+\tconst srv = http.createServer(route);',
      ),
    );
    assert.equal(result.status, 'not_found');
    assert.ok(result.blocks[0].candidates.length > 0);
    assert.equal(result.blocks[0].candidates[0].startLine, 7);
  });

  test('one failing hunk leaves the whole file untouched', () => {
    const result = apply(
      SERVER,
      text('@@ -3,1 +3,1 @@', '-function greet(name) {', '+function greet(who) {', '@@ -50,1 +50,1 @@', '-not in the file at all', '+x'),
    );
    assert.equal(result.status, 'not_found');
    assert.equal(result.blocks[0].status, 'held_back');
  });
});

const SHAPES = text(
  'class Square:',
  '    def area(self):',
  '        return self.size * self.size',
  '',
  '    def name(self):',
  "        return 'square'",
  '',
  'class Circle:',
  '    def area(self):',
  '        return 3.14 * self.r * self.r',
  '',
  '    def name(self):',
  "        return 'square'",
  '',
);

describe('apply_patch hunks through the engine', () => {
  const patch = (...body: string[]) => text('*** Begin Patch', '*** Update File: shapes.py', ...body, '*** End Patch');

  test('an @@ anchor narrows the search to the text after it; drift and one occurrence before it do not matter', () => {
    const result = apply(SHAPES, patch('@@ class Circle:', '     def name(self):', '-        return "square"', '+        return "circle"'));
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, SHAPES.replace(/'square'(?![\s\S]*'square')/, "'circle'"));
    assert.deepEqual(result.blocks[0].range, { startLine: 12, endLine: 13 });
    assert.match(result.message, /after the @@ anchor "class Circle:" \(line 8\); the same lines also occur at line 5/);
  });

  test('without the anchor the same hunk is ambiguous and both places are listed', () => {
    const result = apply(SHAPES, patch('@@', '     def name(self):', "-        return 'square'", "+        return 'circle'"));
    assert.equal(result.status, 'ambiguous');
    assert.deepEqual(
      result.blocks[0].candidates.map((c) => c.startLine),
      [5, 12],
    );
  });

  test('ambiguity is judged after the anchor: twice after it is refused with both places', () => {
    const result = apply(SHAPES, patch('@@ class Square:', '     def name(self):', "-        return 'square'", "+        return 'sq'"));
    assert.equal(result.status, 'ambiguous');
    assert.deepEqual(
      result.blocks[0].candidates.map((c) => [c.startLine, c.endLine]),
      [
        [5, 6],
        [12, 13],
      ],
    );
    assert.match(result.message, /occur 2 times after the @@ anchor "class Square:" \(line 1\)/);
  });

  test('nested anchors: class, then method', () => {
    const result = apply(
      SHAPES,
      patch(
        '@@ class Circle:',
        '@@     def area(self):',
        '-        return 3.14 * self.r * self.r',
        '+        return math.pi * self.r ** 2',
      ),
    );
    assert.equal(result.status, 'applied', result.message);
    assert.deepEqual(result.blocks[0].range, { startLine: 10, endLine: 10 });
  });

  test('the anchor wins over an exact copy before it when only a drifted copy follows it', () => {
    const doc = text('def a():', '    x = 1', '', 'def b():', '\tx = 1', '');
    const result = apply(doc, patch('@@ def b():', '-    x = 1', '+    x = 2'));
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, text('def a():', '    x = 1', '', 'def b():', '\tx = 2', ''));
    assert.equal(result.blocks[0].tier, 'indentation');
  });

  test('an anchor that is not in the file is reported, and the hunk is placed by its own lines', () => {
    const result = apply(
      SHAPES,
      patch(
        '@@ class Triangle:',
        '     def area(self):',
        '-        return 3.14 * self.r * self.r',
        '+        return 3.1416 * self.r * self.r',
      ),
    );
    assert.equal(result.status, 'applied', result.message);
    assert.match(result.message, /the @@ anchor "class Triangle:" is not in f/);
  });

  test('*** End of File and hunks with no old lines go to the end of the file', () => {
    const doc = text('x = 1', 'y = 2', 'x = 1', 'y = 2', '');
    const end = apply(doc, patch('@@', ' x = 1', '-y = 2', '+y = 3', '*** End of File'));
    assert.equal(end.status, 'applied', end.message);
    assert.equal(end.content, text('x = 1', 'y = 2', 'x = 1', 'y = 3', ''));
    const append = apply(doc, patch('@@', '+z = 3'));
    assert.equal(append.status, 'applied', append.message);
    assert.equal(append.content, text('x = 1', 'y = 2', 'x = 1', 'y = 2', 'z = 3', ''));
  });

  test('an added file fills an empty document', () => {
    const result = apply('', text('*** Begin Patch', '*** Add File: n.txt', '+one', '+two', '*** End Patch'));
    assert.equal(result.status, 'applied');
    assert.equal(result.content, 'one\ntwo\n');
  });
});

// Property: on real source files, a one-line change written as a unified diff hunk with a stale header
// line applies exactly where its (unique) context is, and says where when the header was wrong.
describe('property: stale hunk headers on real source', () => {
  const sources = ['engine.ts', 'formats/parser.ts', 'write/transform.ts', 'match/tiers.ts', 'report/message.ts'].map((f) =>
    fs.readFileSync(path.resolve(__dirname, '../../../src/core', f), 'utf8'),
  );
  let seed = 12345;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed % n;
  };

  test('400 hunks: applied at the true place, offset reported exactly when the header is off', () => {
    let checked = 0;
    for (let k = 0; checked < 400 && k < 5000; k++) {
      const lines = sources[rand(sources.length)].split('\n');
      const size = 3 + rand(3);
      const start = rand(lines.length - size);
      const ctx = lines.slice(start, start + size);
      if (ctx.some((l) => l.trim() === '')) {
        continue;
      }
      const joined = ctx.join('\n');
      const all = lines.join('\n');
      if (all.indexOf(joined) !== all.lastIndexOf(joined)) {
        continue;
      }
      const mid = 1 + rand(size - 2);
      const offset = rand(3) === 0 ? 0 : rand(200) - 100;
      const header = Math.max(1, start + 1 + offset);
      const body = ctx.map((l, i) => (i === mid ? `-${l}\n+${l} // changed` : ` ${l}`));
      const doc = lines.join('\n');
      const result = apply(doc, text('--- a/f.ts', '+++ b/f.ts', `@@ -${header},${size} +${header},${size} @@`, ...body));
      assert.equal(result.status, 'applied', result.message);
      const expected = [...lines.slice(0, start + mid), `${lines[start + mid]} // changed`, ...lines.slice(start + mid + 1)].join('\n');
      assert.equal(result.content, expected);
      const said = result.blocks[0].notes.some((n) => n === `hunk header said line ${header}, applied at line ${start + 1}`);
      assert.equal(said, header !== start + 1, result.blocks[0].notes.join(' | '));
      checked++;
    }
    assert.equal(checked, 400);
  });
});
