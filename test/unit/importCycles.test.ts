// The source tree has no import cycles (type-only imports included: a cycle of types still ties modules
// together). Relative imports of src/ are read with a regex over the files; a cycle fails with its path.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';

const SRC = path.resolve(__dirname, '../../../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(p) : e.name.endsWith('.ts') ? [p] : [];
  });
}

/** The src/ files a file imports (relative specifiers only; packages and node: built-ins are not ours). */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+['"](\.[^'"]+)['"]/gm)) {
    const target = path.resolve(path.dirname(file), m[1]);
    const candidates = [`${target}.ts`, path.join(target, 'index.ts')];
    const found = candidates.find((c) => fs.existsSync(c));
    if (found) {
      out.push(found);
    }
  }
  return out;
}

test('src/ has no import cycles', () => {
  const files = sourceFiles(SRC);
  assert.ok(files.length > 20, `only ${files.length} source files found under ${SRC}`);
  const graph = new Map(files.map((f) => [f, importsOf(f)]));
  const state = new Map<string, 'visiting' | 'done'>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (f: string) => {
    state.set(f, 'visiting');
    stack.push(f);
    for (const next of graph.get(f) ?? []) {
      if (state.get(next) === 'visiting') {
        cycles.push([...stack.slice(stack.indexOf(next)), next].map((p) => path.relative(SRC, p)).join(' -> '));
      } else if (!state.has(next)) {
        visit(next);
      }
    }
    stack.pop();
    state.set(f, 'done');
  };
  for (const f of files) {
    if (!state.has(f)) {
      visit(f);
    }
  }
  assert.deepEqual(cycles, []);
});
