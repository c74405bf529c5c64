// Python indentation a code block gets wrong (issue 25, found by the 20,000-case code-block property, seed 2):
// a block whose `if` line was dropped leaves its body indented under nothing. tree-sitter reads that without
// an error, so the block was placed and the file written with the orphaned lines. Real Python files (the
// project's fixtures and node_modules/flatted) show that the check finds nothing in code Python accepts.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applySnippet } from '../../src/core';
import { pythonIndentProblem } from '../../src/core/decide/pythonIndent';
import { testGrammars } from '../shared/grammars';

const root = path.join(__dirname, '..', '..', '..');

function pythonFiles(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      pythonFiles(full, out);
    } else if (entry.name.endsWith('.py')) {
      out.push(full);
    }
  }
  return out;
}

const realPython = [...pythonFiles(path.join(root, 'test')), path.join(root, 'node_modules', 'flatted', 'python', 'flatted.py')];

describe('python indentation of a code block', () => {
  test('real Python files and each of their declarations, cut out at any depth, have no indentation problem', () => {
    let declarations = 0;
    for (const file of realPython) {
      const lines = fs.readFileSync(file, 'utf8').replace(/\r\n/g, '\n').split('\n');
      assert.equal(pythonIndentProblem(lines, []), undefined, file);
      for (let start = 0; start < lines.length; start++) {
        const header = /^(\s*)(?:async\s+)?(def|class)\s/.exec(lines[start]);
        if (!header) {
          continue;
        }
        let end = start + 1;
        while (end < lines.length && (lines[end].trim() === '' || /^\s*/.exec(lines[end])![0].length > header[1].length)) {
          end++;
        }
        const declaration = lines.slice(start, end);
        const dedented = declaration.map((l) => l.slice(Math.min(header[1].length, /^\s*/.exec(l)![0].length)));
        assert.equal(pythonIndentProblem(declaration, []), undefined, `${file}:${start + 1}`);
        assert.equal(pythonIndentProblem(dedented, []), undefined, `${file}:${start + 1} dedented`);
        declarations++;
      }
    }
    assert.ok(declarations > 50, `${declarations} declarations`);
  });

  test('each line a block leaves out that orphans the lines under it is found; other removals are not', () => {
    const fixture = fs.readFileSync(path.join(root, 'test', 'property', 'fixtures', 'inventory.py'), 'utf8').split('\n');
    const start = fixture.indexOf('def main(argv):');
    const body = fixture.slice(start, fixture.indexOf('    return 0', start) + 1);
    const found = body.map((_, k) => pythonIndentProblem([...body.slice(0, k), ...body.slice(k + 1)], []) !== undefined);
    // Removing `if len(argv) < 2:` or the `while` line leaves an indented body under nothing; removing the
    // header leaves a body that may start anywhere (a block can start inside a body).
    assert.deepEqual(body.map((line, k) => (found[k] ? line.trim() : undefined)).filter(Boolean), [
      'if len(argv) < 2:',
      'while inventory.items and inventory.value() > 1000:',
    ]);
  });

  test('a placeholder stands for code of any depth', () => {
    const block = [
      'class Basket:',
      '    # ... existing code ...',
      '            return total',
      '    def add(self, item):',
      '        self.items.append(item)',
    ];
    assert.equal(pythonIndentProblem(block, [false, true, false, false, false]), undefined);
  });

  test('the def main block without its if line is refused, naming the line, and the file is unchanged', async () => {
    const file = fs.readFileSync(path.join(root, 'test', 'property', 'fixtures', 'inventory.py'), 'utf8');
    const block = [
      'def main(argv):',
      '        print("usage: inventory.py FILE")',
      '        return 2',
      '    inventory = load(argv[1])',
      '    return 0',
    ].join('\n');
    const result = await applySnippet(
      file,
      { code: block, fileName: 'inventory.py' },
      { grammars: testGrammars, fileName: 'inventory.py' },
    );
    assert.equal(result.status, 'invalid', result.message);
    assert.equal(result.content ?? file, file);
    assert.match(result.message, /line 4 of the code block is indented to no outer level.*unindent does not match/);
  });

  test(
    'a dedent over levels first seen after a placeholder ends: every line of real Python as a placeholder (it had looped forever)',
    { timeout: 60_000 },
    () => {
      let checked = 0;
      for (const file of realPython) {
        const lines = fs.readFileSync(file, 'utf8').split('\n');
        for (let i = 0; i < lines.length; i++) {
          if (lines[i].trim() === '') {
            continue;
          }
          const withPlaceholder = [...lines];
          withPlaceholder[i] = `${/^\s*/.exec(lines[i])?.[0] ?? ''}# ... existing code ...`;
          const placeholders = withPlaceholder.map((_, k) => k === i);
          assert.equal(pythonIndentProblem(withPlaceholder, placeholders), undefined, `${file}, placeholder at line ${i + 1}`);
          checked++;
        }
      }
      assert.ok(checked > 500, `${checked} placements`);
    },
  );

  test('a method edited after a placeholder, a top-level def after its class: applied', { timeout: 20_000 }, async () => {
    const file = [
      'class Service:',
      '    def load(self):',
      '        data = 1',
      '        return data',
      '',
      '',
      'def main():',
      '    print(Service().load())',
      '',
    ].join('\n');
    const block = file.replace('        data = 1\n', '        # ... existing code ...\n').replace('return data\n', 'return data + 1\n');
    const result = await applySnippet(file, { code: block, fileName: 'service.py' }, { grammars: testGrammars, fileName: 'service.py' });
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, file.replace('return data\n', 'return data + 1\n'));
  });
});
