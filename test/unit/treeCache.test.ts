// The tree cache (src/core/match/structure/treeCache.ts): an outline read from a kept tree, edited and
// reparsed incrementally, must be the outline a fresh parse gives, edit after edit. Real source text
// (the repository's own TypeScript, TypeScript's JavaScript, the Python fixture) gets seeded random
// edits: spans replaced by text from elsewhere in the file, lines deleted or duplicated, syntax characters
// and non-BMP characters typed, and jumps back to an earlier version (a large change).
import { after, before, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { GRAMMARS, type GrammarSpec } from '../../src/core/match/structure/languages';
import { type KeptParse, parseOutline, parseOutlineKept, prepareGrammar, topReadStats } from '../../src/core/match/structure/treeSitter';
import { cachedTreeKeys, clearTreeCache, editBetween, TREE_CACHE_LIMITS, treeCacheStats } from '../../src/core/match/structure/treeCache';
import { type Random, seededRandom } from '../shared/seededRandom';
import { testGrammars } from '../shared/grammars';
import { callTool } from '../../src/node/mcpTools';
import { applySnippet } from '../../src/core';
import { applySnippetWith, type PlanFault } from '../../src/core/batch/snippet';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const read = (...parts: string[]): string => fs.readFileSync(path.join(ROOT, ...parts), 'utf8');

/** About 600 lines of a large real file, from a top-level function to the `}` that closes one (so it parses). */
function window(text: string, from: number): string {
  const lines = text.split('\n');
  const start = lines.findIndex((l, i) => i >= from && l.startsWith('function '));
  const end = lines.slice(0, start + 600).lastIndexOf('}');
  return lines.slice(start, end + 1).join('\n');
}

export const SOURCES: Array<{ grammar: GrammarSpec; name: string; text: () => string }> = [
  { grammar: GRAMMARS.typescript, name: 'src/core/batch/snippet.ts', text: () => read('src', 'core', 'batch', 'snippet.ts') },
  {
    grammar: GRAMMARS.typescript,
    name: 'src/extension/snippets/snippetApplier.ts',
    text: () => read('src', 'extension', 'snippets', 'snippetApplier.ts'),
  },
  {
    grammar: GRAMMARS.typescript,
    name: 'src/core/match/structure/outline.ts',
    text: () => read('src', 'core', 'match', 'structure', 'outline.ts'),
  },
  {
    grammar: GRAMMARS.javascript,
    name: '_typingsInstaller.js',
    text: () => read('node_modules', 'typescript', 'lib', '_typingsInstaller.js'),
  },
  {
    grammar: GRAMMARS.javascript,
    name: 'typescript.js, 600 lines from line 120,001',
    text: () => window(read('node_modules', 'typescript', 'lib', 'typescript.js'), 120_000),
  },
  { grammar: GRAMMARS.python, name: 'inventory.py', text: () => read('test', 'property', 'fixtures', 'inventory.py') },
];

const TYPED = [
  '{',
  '}',
  '(',
  ')',
  '[',
  ']',
  ';',
  ':',
  '"',
  "'",
  '`',
  '\n',
  '\t',
  '    ',
  '#',
  '/*',
  '*/',
  '//',
  'é',
  '😀',
  'def x():\n',
  ' => ',
  'class ',
];

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];

/** An edit that usually keeps the text parsing: a comment or blank line, a word renamed, a line's indentation. */
function benignEdit(random: Random, text: string, comment: string): string {
  const lines = text.split('\n');
  const line = Math.floor(random() * lines.length);
  const roll = random();
  if (roll < 0.3) {
    lines.splice(line, 0, random() < 0.5 ? '' : `${/^[ \t]*/.exec(lines[line] ?? '')?.[0] ?? ''}${comment} note ${line}`);
  } else if (roll < 0.7) {
    const words = [...(lines[line] ?? '').matchAll(/\b[a-z][A-Za-z0-9]{2,}\b/g)];
    const word = words.length > 0 ? pick(random, words) : undefined;
    if (word?.index !== undefined) {
      lines[line] = `${lines[line].slice(0, word.index)}${word[0]}Renamed${lines[line].slice(word.index + word[0].length)}`;
    }
  } else {
    lines[line] = (lines[line] ?? '').replace(/ +$/, '') + (random() < 0.5 ? ' ' : '');
  }
  return lines.join('\n');
}

/** One random edit of `text` (the kinds above, or syntax characters typed anywhere), or an earlier version of it. */
export function edited(random: Random, text: string, history: readonly string[], comment = '//'): string {
  const at = Math.floor(random() * (text.length + 1));
  const roll = random();
  if (roll < 0.2) {
    const from = Math.floor(random() * text.length);
    const piece = text.slice(from, from + Math.floor(random() * 80));
    return text.slice(0, at) + piece + text.slice(Math.min(text.length, at + Math.floor(random() * 80)));
  }
  if (roll < 0.35) {
    const lines = text.split('\n');
    const line = Math.floor(random() * lines.length);
    const count = 1 + Math.floor(random() * 5);
    const removed = lines.splice(line, count);
    if (random() < 0.5) {
      lines.splice(Math.floor(random() * lines.length), 0, ...removed, ...removed);
    }
    return lines.join('\n');
  }
  if (roll < 0.5) {
    return text.slice(0, at) + pick(random, TYPED) + text.slice(at + (random() < 0.3 ? 1 : 0));
  }
  if (roll < 0.85) {
    return benignEdit(random, text, comment);
  }
  // Back to an earlier version, most often the first (a text that parses, for the edits that follow).
  return history.length > 0 ? (random() < 0.5 ? history[0] : pick(random, history)) : text;
}

/** Parses `steps` seeded edits of the source under one key, each checked against a fresh parse; how many had errors. */
export function checkEdits(source: (typeof SOURCES)[number], seed: number, steps: number): { withErrors: number; reparsed: number } {
  const random = seededRandom(seed);
  const key = `test:${source.name}`;
  const comment = source.grammar.id === 'python' ? '#' : '//';
  const reparsedBefore = treeCacheStats.reparsed;
  let text = source.text();
  const history: string[] = [];
  let withErrors = 0;
  let lastParsing = text;
  let previous: KeptParse | undefined;
  for (let step = 0; step <= steps; step++) {
    const fresh = parseOutline(source.grammar, text);
    const kept = parseOutline(source.grammar, text, key);
    assert.deepEqual(kept, fresh, `${source.name}, seed ${seed} step ${step}: the incremental outline differs from a fresh parse`);
    // The audit's reparse without a key (parseOutlineKept): the previous version's tree reparsed to this text.
    if (previous) {
      const reparsed = previous.reparse(text);
      assert.deepEqual(reparsed, fresh, `${source.name}, seed ${seed} step ${step}: the kept tree's reparse differs from a fresh parse`);
    }
    previous = parseOutlineKept(source.grammar, text);
    withErrors += fresh.errors > 0 ? 1 : 0;
    history.push(text);
    lastParsing = fresh.errors === 0 ? text : lastParsing;
    // Mostly edit a text that parses (its tree is the one kept for a reparse), sometimes keep breaking one.
    text = edited(random, fresh.errors === 0 || random() < 0.3 ? text : lastParsing, history, comment);
  }
  previous?.release();
  return { withErrors, reparsed: treeCacheStats.reparsed - reparsedBefore };
}

before(async () => {
  for (const grammar of [GRAMMARS.typescript, GRAMMARS.javascript, GRAMMARS.python]) {
    await prepareGrammar(grammar, testGrammars);
  }
});

after(() => clearTreeCache());

describe('outlines from kept trees', () => {
  for (const source of SOURCES) {
    test(`${source.name} (${source.grammar.id}): 30 seeded edits, each outline equal to a fresh parse's`, () => {
      const reusedBefore = topReadStats.reused;
      const { withErrors, reparsed } = checkEdits(source, 20 + source.name.length, 30);
      // The edits must reach texts with syntax errors (where a reparse can go astray, so they are parsed
      // afresh), and texts that parse, read from the edited tree.
      assert.ok(withErrors > 0, `no version of ${source.name} had a syntax error`);
      assert.ok(reparsed > 0, `no version of ${source.name} was reparsed from the kept tree`);
      // And the reads of top-level nodes a reparse kept were reused, moved to their new lines.
      assert.ok(topReadStats.reused > reusedBefore, `no top-level node of ${source.name} was reused from the previous read`);
    });
  }

  test('the same text reuses the outline, and what a caller does to it never reaches the cache', () => {
    const text = read('src', 'core', 'batch', 'snippet.ts');
    const first = parseOutline(GRAMMARS.typescript, text, 'test:reuse');
    first.decls[0].name = 'changed by the caller';
    first.decls.pop();
    const second = parseOutline(GRAMMARS.typescript, text, 'test:reuse');
    assert.deepEqual(second, parseOutline(GRAMMARS.typescript, text));
    // An overload group holds declarations of its own: they are copies too.
    const overloaded = `${text}\nexport function pad(a: string): string;\nexport function pad(a: number): string;\nexport function pad(a: unknown): string {\n  return String(a);\n}\n`;
    const group = parseOutline(GRAMMARS.typescript, overloaded, 'test:reuse').decls.find((d) => d.overloads);
    assert.ok(group?.overloads, 'no overload group read');
    group.overloads.implementation.name = 'changed by the caller';
    group.overloads.signatures.pop();
    assert.deepEqual(parseOutline(GRAMMARS.typescript, overloaded, 'test:reuse'), parseOutline(GRAMMARS.typescript, overloaded));
  });

  test('a key keeps its last two texts: the document read again after its planned result reuses its outline', () => {
    const text = read('src', 'core', 'match', 'structure', 'outline.ts');
    const result = text.replace('export function groupOverloads', '// a line the code block added\nexport function groupOverloads');
    const before = { ...treeCacheStats };
    parseOutline(GRAMMARS.typescript, text, 'test:versions');
    // The audit's read of the result, then a Preview followed by Apply: the document and its result again.
    assert.deepEqual(parseOutline(GRAMMARS.typescript, result, 'test:versions'), parseOutline(GRAMMARS.typescript, result));
    assert.deepEqual(parseOutline(GRAMMARS.typescript, text, 'test:versions'), parseOutline(GRAMMARS.typescript, text));
    assert.deepEqual(parseOutline(GRAMMARS.typescript, result, 'test:versions'), parseOutline(GRAMMARS.typescript, result));
    assert.deepEqual(
      [treeCacheStats.parsed - before.parsed, treeCacheStats.reparsed - before.reparsed, treeCacheStats.reused - before.reused],
      [1, 1, 2],
    );
    // A third text is reparsed from the last read (the result), and the oldest version goes.
    const third = result.replace('// a line the code block added', '// a line changed again');
    assert.deepEqual(parseOutline(GRAMMARS.typescript, third, 'test:versions'), parseOutline(GRAMMARS.typescript, third));
    assert.deepEqual(parseOutline(GRAMMARS.typescript, text, 'test:versions'), parseOutline(GRAMMARS.typescript, text));
    assert.deepEqual([treeCacheStats.reparsed - before.reparsed, treeCacheStats.reused - before.reused], [3, 2]);
  });

  test('a text given as the edits of another is found kept piece by piece; a read-only outline is the kept one, frozen', () => {
    const text = read('src', 'core', 'match', 'structure', 'outline.ts');
    const at = text.indexOf('export function groupOverloads');
    const edited = (newText: string) => ({
      text: text.slice(0, at) + newText + text.slice(at),
      editOf: { base: text, edits: [{ start: at, end: at, newText }] },
    });
    const result = edited('// a line the code block added\n');
    const before = { ...treeCacheStats };
    parseOutline(GRAMMARS.typescript, text, 'test:edited');
    const first = parseOutline(GRAMMARS.typescript, result.text, 'test:edited', { editOf: result.editOf, readOnly: true });
    assert.deepEqual(first, parseOutline(GRAMMARS.typescript, result.text));
    assert.ok(Object.isFrozen(first) && Object.isFrozen(first.decls) && Object.isFrozen(first.decls[0]));
    assert.throws(() => {
      first.decls[0].name = 'changed by the caller';
    }, TypeError);
    const again = parseOutline(GRAMMARS.typescript, result.text, 'test:edited', { editOf: result.editOf, readOnly: true });
    assert.equal(again, first, 'the kept outline itself');
    // A reader that may change its outline gets a copy of the kept one, as before.
    const copy = parseOutline(GRAMMARS.typescript, result.text, 'test:edited');
    assert.ok(!Object.isFrozen(copy.decls[0]));
    assert.deepEqual(copy, first);
    // Edits that make another text of the same length are no match: that text is reparsed.
    const same = edited('// a line the code block ADDED\n');
    assert.equal(same.text.length, result.text.length);
    assert.deepEqual(
      parseOutline(GRAMMARS.typescript, same.text, 'test:edited', { editOf: same.editOf, readOnly: true }),
      parseOutline(GRAMMARS.typescript, same.text),
    );
    assert.deepEqual(
      [treeCacheStats.parsed - before.parsed, treeCacheStats.reparsed - before.reparsed, treeCacheStats.reused - before.reused],
      [1, 2, 2],
    );
  });

  test('a code block applied under a documentKey, twice (Preview, then Apply), gives what it gives without one; the second audit finds the result kept', async () => {
    const text = read('src', 'core', 'match', 'structure', 'outline.ts');
    const lines = text.split('\n');
    const start = lines.findIndex((l) => l.startsWith('export function groupOverloads'));
    const end = lines.findIndex((l, i) => i > start && l === '}');
    const code = [...lines.slice(start, end), '  // changed by the test', '}'].join('\n');
    for (const doc of [text, text.replace(/\n/g, '\r\n')]) {
      const options = { grammars: testGrammars, fileName: 'outline.ts' };
      const unkeyed = await applySnippet(doc, { code, languageId: 'typescript' }, options);
      assert.equal(unkeyed.status, 'applied', unkeyed.message);
      const key = `test:apply:${doc.length}`;
      const preview = await applySnippet(doc, { code, languageId: 'typescript' }, { ...options, documentKey: key });
      const before = { ...treeCacheStats };
      const applied = await applySnippet(doc, { code, languageId: 'typescript' }, { ...options, documentKey: key });
      for (const keyed of [preview, applied]) {
        assert.deepEqual(
          [keyed.status, keyed.content, keyed.edits, keyed.message],
          [unkeyed.status, unkeyed.content, unkeyed.edits, unkeyed.message],
        );
      }
      assert.deepEqual(
        [treeCacheStats.parsed - before.parsed, treeCacheStats.reparsed - before.reparsed, treeCacheStats.reused - before.reused],
        [0, 0, 2],
      );
      // A plan broken on purpose is refused alike.
      const fault = (plan: Parameters<PlanFault>[0]): void => {
        plan.edits.unshift({ start: 1, end: 3, lines: [], part: 0 });
      };
      const refusedUnkeyed = await applySnippetWith(doc, { code, languageId: 'typescript' }, options, fault);
      const refusedKeyed = await applySnippetWith(doc, { code, languageId: 'typescript' }, { ...options, documentKey: key }, fault);
      assert.equal(refusedUnkeyed.status, 'invalid');
      assert.deepEqual([refusedKeyed.status, refusedKeyed.message], [refusedUnkeyed.status, refusedUnkeyed.message]);
    }
  });

  test('a key read with another grammar is parsed from scratch', () => {
    const text = read('src', 'core', 'match', 'structure', 'outline.ts');
    parseOutline(GRAMMARS.typescript, text, 'test:grammar');
    assert.deepEqual(parseOutline(GRAMMARS.javascript, text, 'test:grammar'), parseOutline(GRAMMARS.javascript, text));
  });

  test('bounded: the least recently used documents are dropped first', () => {
    clearTreeCache();
    const text = read('test', 'property', 'fixtures', 'inventory.py');
    const keys = Array.from({ length: TREE_CACHE_LIMITS.documents + 2 }, (_, i) => `test:bound:${i}`);
    for (const key of keys) {
      parseOutline(GRAMMARS.python, `${text}\n# ${key}\n`, key);
    }
    parseOutline(GRAMMARS.python, `${text}\n# ${keys[2]}\n`, keys[2]);
    const expected = [...keys.slice(3), keys[2]];
    assert.deepEqual(cachedTreeKeys(), expected);
  });
});

test('bounded by the text kept in all; the document just read always stays', () => {
  clearTreeCache();
  const text = read('test', 'property', 'fixtures', 'inventory.py');
  const limit = TREE_CACHE_LIMITS.chars;
  TREE_CACHE_LIMITS.chars = 2.5 * text.length;
  try {
    for (const key of ['test:chars:1', 'test:chars:2', 'test:chars:3']) {
      parseOutline(GRAMMARS.python, text, key);
    }
    assert.deepEqual(cachedTreeKeys(), ['test:chars:2', 'test:chars:3']);
    parseOutline(GRAMMARS.python, text.repeat(3), 'test:chars:big');
    assert.deepEqual(cachedTreeKeys(), ['test:chars:big']);
  } finally {
    TREE_CACHE_LIMITS.chars = limit;
  }
});

test("the MCP server keeps a file's tree by its absolute path: the next code block reparses what changed", async () => {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'ra-tree-cache-')));
  try {
    // The server reads grammars from dist/grammars (absent here); the JavaScript grammar loaded above serves.
    const file = path.join(root, 'cart.js');
    const functions = Array.from({ length: 30 }, (_, i) => `function f${i}(a) {\n  return a + ${i};\n}\n`);
    fs.writeFileSync(file, functions.join('\n'));
    const before = { ...treeCacheStats };
    const first = await callTool('apply_edits', { filePath: 'cart.js', code: 'function f3(a) {\n  return a * 3;\n}\n' }, [root]);
    assert.equal(first.isError, false, first.text);
    assert.ok(cachedTreeKeys().includes(file), 'no tree kept under the absolute path');
    const second = await callTool('apply_edits', { filePath: 'cart.js', code: 'function f20(a) {\n  return a * 20;\n}\n' }, [root]);
    assert.equal(second.isError, false, second.text);
    // The first call parsed the file and reparsed its result for the audit; the second found that result's
    // outline kept (the file is what the first call wrote) and reparsed its own result from that tree.
    assert.deepEqual(
      [treeCacheStats.parsed - before.parsed, treeCacheStats.reparsed - before.reparsed, treeCacheStats.reused - before.reused],
      [1, 2, 1],
    );
    assert.match(fs.readFileSync(file, 'utf8'), /return a \* 3;[^]*return a \* 20;/);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
});

describe('editBetween', () => {
  const naivePoint = (text: string, index: number): { row: number; column: number } => {
    const before = text.slice(0, index).split('\n');
    return { row: before.length - 1, column: before[before.length - 1].length };
  };

  test('equal texts: no edit', () => {
    assert.equal(editBetween('a\nb', 'a\nb'), undefined);
  });

  test('indexes and points (UTF-16 code units) describe the change, for seeded edits of real text', () => {
    const random = seededRandom(3);
    // Longer than the 2,048-character chunks editBetween compares first, with characters beyond the BMP.
    const base = `${read('test', 'property', 'fixtures', 'inventory.py')}\nname = "😀 é"\n${read('src', 'core', 'batch', 'snippet.ts')}`;
    let text = base;
    for (let step = 0; step < 300; step++) {
      const next = edited(random, text, [base]);
      const edit = editBetween(text, next);
      if (next === text) {
        assert.equal(edit, undefined);
        continue;
      }
      assert.ok(edit);
      // What lies outside the range is common to both texts; what lies inside is the change.
      assert.equal(text.slice(0, edit.startIndex), next.slice(0, edit.startIndex));
      assert.equal(text.slice(edit.oldEndIndex), next.slice(edit.newEndIndex));
      assert.equal(text.slice(0, edit.startIndex) + next.slice(edit.startIndex, edit.newEndIndex) + text.slice(edit.oldEndIndex), next);
      assert.deepEqual(edit.startPosition, naivePoint(text, edit.startIndex));
      assert.deepEqual(edit.oldEndPosition, naivePoint(text, edit.oldEndIndex));
      assert.deepEqual(edit.newEndPosition, naivePoint(next, edit.newEndIndex));
      text = next;
    }
  });

  test('a surrogate pair is never cut', () => {
    const edit = editBetween('x😀y', 'x😃y');
    assert.deepEqual([edit?.startIndex, edit?.oldEndIndex, edit?.newEndIndex], [1, 3, 3]);
    // Same low surrogate, different high one: the common end starts after the pair.
    const low = editBetween('x\u{10000}y', 'x\u{1F400}y');
    assert.deepEqual([low?.startIndex, low?.oldEndIndex, low?.newEndIndex], [1, 3, 3]);
  });
});
