// The code-block audit (issue 25): each rule on its own, on small files read by the outline and by the
// grammars; the reproductions the issue names (a constructor shown alone in a class with overloads, a
// package.json block taken for the whole file); and plans broken on purpose (a wrong span, a dropped
// declaration), which the audit refuses whatever the planner said.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applySnippet } from '../../src/core';
import { applySnippetWith, type PlanFault } from '../../src/core/batch/snippet';
import {
  auditCodeBlock,
  type AuditInput,
  blockLinesKept,
  bracketBalance,
  lineSimilarity,
  noNewSyntaxErrors,
  noSecondDeclaration,
  removedLinesShown,
  unshownDeclarationsKept,
  wholeFileRewriteAllowed,
} from '../../src/core/decide/audit/codeBlockAudit';
import { writtenInPlace } from '../../src/core/decide/audit/writtenInPlace';
import { keptLines } from '../../src/core/decide/audit/lineDiff';
import { keyEquals, lineKey } from '../../src/core/decide/audit/lineKeys';
import { isConfigFile, rewriteAllowed } from '../../src/core/decide/audit/wholeFile';
import { isPlaceholderLine } from '../../src/core/formats/placeholders';
import { outlineText } from '../../src/core/match/structure/outline';
import { GRAMMARS } from '../../src/core/match/structure/languages';
import { parseOutline, prepareGrammar } from '../../src/core/match/structure/treeSitter';
import { seededRandom } from '../shared/seededRandom';
import { testGrammars } from '../shared/grammars';

/** The audit's input for a file, a block and a result, read by the outline or by a grammar. */
async function inputOf(
  file: string,
  block: string,
  result: string,
  grammar?: keyof typeof GRAMMARS,
  wholeFile = false,
): Promise<AuditInput> {
  const read = async (text: string) => {
    if (!grammar) {
      return outlineText(text.split('\n'));
    }
    await prepareGrammar(GRAMMARS[grammar], testGrammars);
    return parseOutline(GRAMMARS[grammar], text);
  };
  const blockLines = block.split('\n');
  return {
    fileLines: file.split('\n'),
    blockLines,
    placeholders: blockLines.map((l) => isPlaceholderLine(l)),
    resultLines: result.split('\n'),
    fileOutline: await read(file),
    blockOutline: await read(block),
    resultOutline: await read(result),
    wholeFile,
    config: false,
  };
}

const CLASS = `class Cart {
  add(item) {
    this.items.push(item);
  }

  remove(id) {
    this.items = this.items.filter((i) => i.id !== id);
  }

  total() {
    return this.items.length;
  }
}
`;

describe('audit rules, one by one', () => {
  test('block-lines-kept: a block line the result lacks is named', async () => {
    const block = 'total() {\n  return this.items.length * 2;\n}';
    const input = await inputOf(CLASS, block, CLASS, 'javascript');
    const failure = blockLinesKept(input);
    assert.equal(failure?.rule, 'block-lines-kept');
    assert.match(failure?.reason ?? '', /line 2 of the code block \("return this\.items\.length \* 2;"\)/);
    // Re-indented, it is kept.
    const result = CLASS.replace('return this.items.length;', 'return this.items.length * 2;');
    assert.equal(blockLinesKept(await inputOf(CLASS, block, result, 'javascript')), undefined);
  });

  test('removed-lines-shown: removing a declaration the block does not show is refused, with its lines', async () => {
    const block = 'class Cart {\n  // ... existing code ...\n  total() {\n    return 0;\n  }\n}';
    const right = CLASS.replace('return this.items.length;', 'return 0;');
    assert.equal(removedLinesShown(await inputOf(CLASS, block, right, 'javascript')), undefined);
    // The same block, but the result lost remove().
    const wrong = right.replace(/ {2}remove\(id\) \{\n.*\n {2}\}\n\n/, '');
    const failure = removedLinesShown(await inputOf(CLASS, block, wrong, 'javascript'));
    assert.equal(failure?.rule, 'removed-lines-shown');
    assert.deepEqual(failure?.places, [{ start: 5, end: 8 }]);
    assert.match(failure?.reason ?? '', /lines 6-8 \(in method remove\)/);
  });

  test('removed-lines-shown: lines between two lines the block shares with the file, spelled out, may go', async () => {
    const file = 'a = 1\nb = 2\nc = 3\nd = 4\ne = 5\n';
    const block = 'b = 2\nc = 30\nd = 4';
    const result = file.replace('c = 3', 'c = 30');
    assert.equal(removedLinesShown(await inputOf(file, block, result)), undefined);
    // With a placeholder between the shared lines, nothing the block does not show may go.
    const lazy = 'a = 1\n# ... existing code ...\ne = 5';
    const dropped = 'a = 1\ne = 5\n';
    assert.equal(removedLinesShown(await inputOf(file, lazy, dropped))?.rule, 'removed-lines-shown');
  });

  test('removed-lines-shown: a line changed in place next to a placeholder is the line changed', async () => {
    const file = 'def f():\n    x = 1\n    y = 2\n    return x + y\n';
    const block = 'def f():\n    # ... existing code ...\n    return x * y\n';
    const result = file.replace('return x + y', 'return x * y');
    assert.equal(removedLinesShown(await inputOf(file, block, result, 'python')), undefined);
    assert.ok(lineSimilarity('return x + y', 'return x * y') > 0.6);
    assert.ok(lineSimilarity('return x + y', 'self.cache.clear()') < 0.3);
  });

  test('unshown-declarations-kept: a declaration the block does not show must stay byte for byte, once', async () => {
    const block = 'class Cart {\n  // ... existing code ...\n  total() {\n    return 0;\n  }\n}';
    const result = CLASS.replace('return this.items.length;', 'return 0;');
    assert.equal(unshownDeclarationsKept(await inputOf(CLASS, block, result, 'javascript')), undefined);
    const duplicated = result.replace('  total() {', '  add(item) {\n    this.items.push(item);\n  }\n\n  total() {');
    const failure = unshownDeclarationsKept(await inputOf(CLASS, block, duplicated, 'javascript'));
    assert.equal(failure?.rule, 'unshown-declarations-kept');
    assert.match(failure?.reason ?? '', /method add is not in the result exactly as in the file/);
    const altered = result.replace('this.items.push(item);', 'this.items.push(item );');
    assert.equal(unshownDeclarationsKept(await inputOf(CLASS, block, altered, 'javascript'))?.rule, 'unshown-declarations-kept');
  });

  test('no-new-syntax-errors: by the grammar, and by the brackets where no grammar reads the file', async () => {
    const block = 'total() {\n  return 0;\n}';
    const broken = CLASS.replace('return this.items.length;\n  }', 'return 0;\n  ');
    assert.equal(noNewSyntaxErrors(await inputOf(CLASS, block, broken, 'javascript'))?.rule, 'no-new-syntax-errors');
    const json = '{\n  "a": {\n    "b": 1\n  },\n  "c": 2\n}\n';
    const unbalanced = '{\n  "a": {\n    "b": 2\n  }\n}\n  },\n  "c": 2\n}\n';
    const failure = noNewSyntaxErrors(await inputOf(json, '{\n  "a": {\n    "b": 2\n  }\n}', unbalanced));
    assert.match(failure?.reason ?? '', /2 more `\}` than `\{`/);
    assert.deepEqual(bracketBalance(['f("(", x) {']), [1, 0, 0]);
  });

  test('no-second-declaration: a scope that gains a second declaration of a shown name', async () => {
    const block = 'class Cart {\n  total() {\n    return 0;\n  }\n}';
    const twice = CLASS.replace('  total() {', '  total() {\n    return 0;\n  }\n\n  total() {');
    const failure = noSecondDeclaration(await inputOf(CLASS, block, twice, 'javascript'));
    assert.equal(failure?.rule, 'no-second-declaration');
    assert.match(failure?.reason ?? '', /method total 2 times in Cart/);
    // A new overload (other parameters) is no second declaration.
    const java = 'class A {\n  int f(int a) {\n    return a;\n  }\n}\n';
    const overload = 'class A {\n  int f(int a) {\n    return a;\n  }\n\n  int f(int a, int b) {\n    return a + b;\n  }\n}\n';
    assert.equal(noSecondDeclaration(await inputOf(java, 'int f(int a, int b) {\n  return a + b;\n}', overload, 'java')), undefined);
  });

  test('whole-file-rewrite: only when every top-level declaration is shown; never for configuration files', async () => {
    const file = 'function a() {}\nfunction b() {}\nfunction c() {}\n';
    const block = 'function a() {\n  return 1;\n}';
    const failure = wholeFileRewriteAllowed(await inputOf(file, block, block, 'javascript', true));
    assert.equal(failure?.rule, 'whole-file-rewrite');
    assert.match(failure?.reason ?? '', /does not show function b, function c/);
    const all = 'function a() {}\nfunction b() {}\nfunction c() { return 1; }\n';
    assert.equal(wholeFileRewriteAllowed(await inputOf(file, all, all, 'javascript', true)), undefined);
    assert.equal(rewriteAllowed({ fileTop: [], blockTop: [], placeholders: false, config: true }), false);
    assert.ok(isConfigFile(undefined, 'package.json') && isConfigFile('yaml', undefined) && isConfigFile(undefined, 'Cargo.toml'));
    assert.ok(!isConfigFile('typescript', 'a.ts'));
  });

  test('no-second-declaration: a block that itself declares a name twice in one scope asks for it', async () => {
    // The long code-block property (seed 1, case 40907) copied a line into a function: the block and the
    // real edit both hold the inner function twice, and the audit refused the exact edit.
    const file = 'function kept(a) {\n  function names(x) {\n    return x;\n  }\n  return names(a);\n}\n';
    const block =
      'function kept(a) {\n  function names(x) {\n    return x;\n  }\n  function names(x) {\n    return x;\n  }\n  return names(a);\n}';
    assert.equal(noSecondDeclaration(await inputOf(file, block, `${block}\n`, 'javascript')), undefined);
    // Shown once but written twice is still refused.
    const once = 'function kept(a) {\n  function names(x) {\n    return x + 1;\n  }\n  return names(a);\n}';
    const twice = `${block.replace('return x;\n  }\n  return', 'return x + 1;\n  }\n  return')}\n`;
    assert.equal(noSecondDeclaration(await inputOf(file, once, twice, 'javascript'))?.rule, 'no-second-declaration');
  });

  test('no-second-declaration: names the plan wrote count too, when the block does not read whole', async () => {
    const file = 'function a() {}\n\nconst styles = { box: 1 };\n';
    // The block as read lists no declaration (as a Flow block read by the JavaScript grammar may not).
    const input = await inputOf(file, 'const styles = { box: 2 };', `${file}\nconst styles = { box: 2 };\n`, 'javascript');
    const failure = noSecondDeclaration({ ...input, blockOutline: { ...input.blockOutline, decls: [] } });
    assert.equal(failure?.rule, 'no-second-declaration');
    assert.match(failure?.reason ?? '', /const styles 2 times at the top level/);
  });

  test('written-in-place: a written line stands between its neighbours in the block', async () => {
    const file = '.card {\n\t.title {\n\t\t// legacy\n\t\tword-break: break-word;\n\t}\n}\n';
    const block = '\t.title {\n\t\tword-break: normal;\n\t\toverflow-wrap: break-word;\n\t}';
    // The old declaration left under the new ones: the block has `}` after them.
    const below =
      '.card {\n\t.title {\n\t\tword-break: normal;\n\t\toverflow-wrap: break-word;\n\t\t// legacy\n\t\tword-break: break-word;\n\t}\n}\n';
    const failure = writtenInPlace(await inputOf(file, block, below));
    assert.equal(failure?.rule, 'written-in-place');
    assert.match(failure?.reason ?? '', /"overflow-wrap: break-word;"\) .*before "\}"/);
    const right = '.card {\n\t.title {\n\t\tword-break: normal;\n\t\toverflow-wrap: break-word;\n\t}\n}\n';
    assert.equal(writtenInPlace(await inputOf(file, block, right)), undefined);
    // A comment of the file the block left out may stand between a written line and its neighbour.
    const commented = '.card {\n\t.title {\n\t\t// legacy\n\t\tword-break: normal;\n\t\toverflow-wrap: break-word;\n\t}\n}\n';
    assert.equal(writtenInPlace(await inputOf(file, block, commented)), undefined);
  });

  test('written-in-place: at the depth the block gives it', async () => {
    const file = '.post {\n\tb {\n\t\tfont-weight: normal;\n\t}\n}\n';
    const block = '\tb {\n\t\tfont-weight: 400;\n\t}';
    const flat = '.post {\n\tb {\n\tfont-weight: 400;\n}\n}\n';
    assert.match(writtenInPlace(await inputOf(file, block, flat))?.reason ?? '', /indents it deeper than "b \{"/);
    // Another width is the same depth: 2 spaces a level in the block, a tab in the file.
    assert.equal(writtenInPlace(await inputOf(file, '  b {\n    font-weight: 400;\n  }', file.replace('normal', '400'))), undefined);
  });

  test("written-in-place: never beside the file's own copy of the line", async () => {
    const file = 'template <typename T>\nT a(T x)\n{\n  return x;\n}\n\ntemplate <typename T>\nT b(T x)\n{\n  return a(x);\n}\n';
    const block = 'template <typename T>\nT a(T x)\n{\n  return x + 1;\n}\n\ntemplate <typename T>\n// ... existing code ...';
    const doubled = file.replace('return x;\n}\n', 'return x + 1;\n}\n\ntemplate <typename T>\n');
    const failure = writtenInPlace(await inputOf(file, block, doubled));
    assert.match(failure?.reason ?? '', /"template <typename T>"\) .*written again beside the file's own line 7/);
    assert.equal(writtenInPlace(await inputOf(file, block, file.replace('return x;', 'return x + 1;'))), undefined);
    // A block that repeats a line asks for the repeat; closers repeat in real code.
    const twice = 'int a;\nint b;\n';
    assert.equal(writtenInPlace(await inputOf(twice, 'int a;\nint a;\n// ... existing code ...', 'int a;\nint a;\nint b;\n')), undefined);
  });

  test('the audit passes a correct result', async () => {
    const block = 'class Cart {\n  // ... existing code ...\n  total() {\n    return 0;\n  }\n}';
    const result = CLASS.replace('return this.items.length;', 'return 0;');
    assert.equal(auditCodeBlock(await inputOf(CLASS, block, result, 'javascript')), undefined);
  });
});

describe("the audit's line diff", () => {
  test('keeps exactly the lines of a longest common subsequence (seeded edits)', () => {
    const random = seededRandom(11);
    for (let round = 0; round < 300; round++) {
      const a = Array.from({ length: Math.floor(random() * 40) }, () => String.fromCharCode(97 + Math.floor(random() * 4)));
      const b = [...a];
      for (let k = Math.floor(random() * 6); k > 0; k--) {
        const at = Math.floor(random() * (b.length + 1));
        if (random() < 0.5 && b.length > 0) {
          b.splice(Math.min(at, b.length - 1), 1);
        } else {
          b.splice(at, 0, String.fromCharCode(97 + Math.floor(random() * 5)));
        }
      }
      const kept = keptLines(a, b);
      assert.ok(kept);
      let last = -1;
      let count = 0;
      kept.forEach((j, i) => {
        if (j >= 0) {
          assert.equal(a[i], b[j]);
          assert.ok(j > last);
          last = j;
          count++;
        }
      });
      // The length of a longest common subsequence, by dynamic programming.
      const dp = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
      for (let i = 1; i <= a.length; i++) {
        for (let j = 1; j <= b.length; j++) {
          dp[i][j] = a[i - 1] === b[j - 1] ? dp[i - 1][j - 1] + 1 : Math.max(dp[i - 1][j], dp[i][j - 1]);
        }
      }
      assert.equal(count, dp[a.length][b.length]);
    }
  });
});

const SHOP_JAVA = `package demo;

import java.util.List;

public class Shop {
    private final String name;
    private final int size;

    public Shop(String name) {
        this(name, 10);
    }

    public Shop(String name, int size) {
        this.name = name;
        this.size = size;
    }

    public Shop() {
        this("default");
    }

    public String getName() {
        return name;
    }
}
`;

const apply = (doc: string, code: string, fileName: string, fault?: PlanFault) =>
  applySnippetWith(doc, { code, fileName }, { grammars: testGrammars, fileName }, fault);

test('keyEquals(line, key) is lineKey(line) === key, for real lines and their restyled and neighbouring keys', () => {
  const ROOT = path.resolve(__dirname, '..', '..', '..');
  const lines = [
    ...fs
      .readFileSync(path.join(ROOT, 'node_modules', 'typescript', 'lib', 'typescript.js'), 'utf8')
      .split('\n')
      .slice(20_000, 22_000),
    ...['notes.md', 'messages.ts', 'inventory.py', 'buffer.c'].flatMap((f) =>
      fs.readFileSync(path.join(ROOT, 'test', 'property', 'fixtures', f), 'utf8').split('\n'),
    ),
  ];
  const random = seededRandom(25);
  // A line as a writer may restyle it: quotes swapped, white space added at its ends, a curly quote or dash.
  const restyled = (line: string): string => {
    const swapped = line.replace(/['"]/g, (q) => (random() < 0.5 ? q : q === '"' ? "'" : '\u201C'));
    return `${random() < 0.3 ? '\t' : ''}${swapped.replace(/-/g, () => (random() < 0.2 ? '\u2013' : '-'))}${random() < 0.3 ? '  ' : ''}`;
  };
  let equal = 0;
  lines.forEach((line, i) => {
    for (const other of [
      line,
      restyled(line),
      lines[i + 1] ?? '',
      lines[Math.floor(random() * lines.length)],
      line.slice(0, -1),
      `${line};`,
    ]) {
      const key = lineKey(other);
      const expected = lineKey(line) === key;
      equal += expected ? 1 : 0;
      assert.equal(keyEquals(line, key), expected, `${JSON.stringify(line)} against the key of ${JSON.stringify(other)}`);
    }
  });
  assert.ok(equal > lines.length, 'the restyled lines are equal by key');
});

describe('reproductions and plans broken on purpose', () => {
  test('a constructor shown alone in a class with overloads never replaces the class', async () => {
    const code = 'public Shop(String name, int size) {\n    this.name = name.trim();\n    this.size = Math.max(1, size);\n}\n';
    const result = await applySnippet(SHOP_JAVA, { code, fileName: 'Shop.java' }, { grammars: testGrammars, fileName: 'Shop.java' });
    if (result.status === 'applied') {
      // Applied only as the one constructor changed.
      assert.equal(
        result.content,
        SHOP_JAVA.replace('this.name = name;', 'this.name = name.trim();').replace('this.size = size;', 'this.size = Math.max(1, size);'),
      );
    } else {
      assert.equal(result.content, undefined);
      assert.match(result.message, /not applied to Shop\.java/);
    }
  });

  test('a package.json block with one key is never a rewrite of the whole file', async () => {
    const pkg =
      '{\n  "name": "demo",\n  "scripts": {\n    "build": "tsc",\n    "test": "node --test"\n  },\n  "dependencies": {\n    "left-pad": "1.3.0"\n  }\n}\n';
    const code = '{\n  "scripts": {\n    "build": "tsc -p .",\n    "test": "node --test"\n  }\n}\n';
    const result = await applySnippet(pkg, { code, fileName: 'package.json' }, { fileName: 'package.json' });
    assert.equal(result.snippet.wholeFile, false);
    if (result.status === 'applied') {
      assert.equal(result.content, pkg.replace('"tsc"', '"tsc -p ."'));
    } else {
      assert.equal(result.content, undefined);
    }
  });

  test('a plan whose span is wrong (it takes the next method too) is refused by the audit', async () => {
    const code = 'class Cart {\n  // ... existing code ...\n  remove(id) {\n    this.items = [];\n  }\n  // ... existing code ...\n}';
    const honest = await apply(CLASS, code, 'cart.js');
    assert.equal(honest.status, 'applied', honest.message);
    const widened = await apply(CLASS, code, 'cart.js', (plan) => {
      const edit = plan.edits.find((e) => e.lines.some((l) => l.includes('this.items = [];')));
      assert.ok(edit);
      edit.end += 4; // the blank line and total()'s first three lines
    });
    assert.equal(widened.status, 'invalid');
    assert.equal(widened.content, undefined);
    assert.match(
      widened.message,
      /breaks the rule that nothing the code block does not show is removed: the result removes lines 10-1\d \(in method total\)/,
    );
  });

  test('a plan that drops a declaration the block does not show is refused by the audit', async () => {
    const code = 'class Cart {\n  // ... existing code ...\n  total() {\n    return 0;\n  }\n}';
    const dropped = await apply(CLASS, code, 'cart.js', (plan) => {
      plan.edits.unshift({ start: 1, end: 5, lines: [], part: 0 });
    });
    assert.equal(dropped.status, 'invalid');
    assert.match(dropped.message, /the result removes lines 2-4 \(in method add\)/);
  });

  test('a plan that claims a whole-file rewrite for a partial block is refused by the audit', async () => {
    const code = 'class Cart {\n  total() {\n    return 0;\n  }\n}\n\nfunction helper() {}\n';
    const file = `${CLASS}\nfunction other() {}\n\nfunction helper() {}\n`;
    const claimed = await apply(file, code, 'cart.js', (plan, fileLines) => {
      plan.wholeFile = true;
      plan.edits.splice(0, plan.edits.length, { start: 0, end: fileLines.length - 1, lines: code.trimEnd().split('\n'), part: 0 });
    });
    assert.equal(claimed.status, 'invalid');
    assert.match(
      claimed.message,
      /a whole-file rewrite shows every top-level declaration of the file: the result rewrites the whole file, but the code block does not show function other/,
    );
  });
});
