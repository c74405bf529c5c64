// Placeholders in REPLACE: what each stands for, and when the expansion is not certain.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import {
  expandReplacePlaceholders,
  elisionNote,
  pairingCandidates,
  placeholderWritten,
  pairingLines,
  PairingTable,
  possibleSpans,
  placeholderRuns,
} from '../../src/core/decide/elisions';

const LOAD = ['def load(path):', '    with open(path) as f:', '        data = json.load(f)', '    validate(data)', '    return data'];

describe('placeholder runs in REPLACE', () => {
  test('consecutive placeholder lines are one placeholder; a line SEARCH has is text', () => {
    const replace = ['a', '# ...', '// existing code', 'b', '...', 'c'];
    assert.deepEqual(placeholderRuns(replace, ['a', 'b', 'c'], {}), [
      { first: 1, last: 2, text: '# ...' },
      { first: 4, last: 4, text: '...' },
    ]);
    assert.deepEqual(placeholderRuns(replace, ['a', '    ...', 'b', 'c'], {}), [{ first: 1, last: 2, text: '# ...' }]);
  });

  test("the file's language decides: '#' is no placeholder in C", () => {
    assert.deepEqual(placeholderRuns(['x', '# ... existing code ...'], ['x'], { languageId: 'c' }), []);
  });
});

describe('pairing candidates', () => {
  test('the strictest reading with any equal line wins; else similar lines; else none', () => {
    const search = ['  return x', 'return x', 'const total = price * count;', '}'];
    assert.deepEqual(pairingCandidates('return x', search), [1]);
    assert.deepEqual(pairingCandidates('    return x', search), [0, 1]);
    assert.deepEqual(pairingCandidates('const total = price * count + tax;', search), [2]);
    assert.deepEqual(pairingCandidates('launchRockets();', search), []);
    assert.deepEqual(pairingCandidates('', search), []);
  });

  test('the best pairings pair as many lines as can be in order, every neighbour of a placeholder paired', () => {
    // '}' x 2 in REPLACE after the placeholder: only the pairing that pairs both closes the region.
    const search = ['f() {', '  x();', '}', '}'];
    const replace = ['f() {', '  // ...', '}', '}'];
    const runs = placeholderRuns(replace, search, {});
    const table = new PairingTable(pairingLines(runs, replace, search), search.length);
    assert.equal(table.best, 3);
    assert.deepEqual(possibleSpans(table, runs[0]), [[1, 2]]);
  });
});

describe('expanding REPLACE', () => {
  test("the issue's example: the placeholder keeps the with block and the validation", () => {
    const out = expandReplacePlaceholders(LOAD, ['def load(path, strict=False):', '    # ... existing code ...', '    return data'], {
      languageId: 'python',
    });
    assert.equal(out.kind, 'expanded');
    assert.ok(out.kind === 'expanded');
    assert.deepEqual(out.replaceLines, ['def load(path, strict=False):', ...LOAD.slice(1)]);
    assert.deepEqual(out.elisions, [{ replaceFirst: 1, replaceLast: 1, text: '# ... existing code ...', searchStart: 1, searchEnd: 4 }]);
  });

  test('at the start or the end of REPLACE a placeholder stands for the leading or trailing lines', () => {
    const tail = expandReplacePlaceholders(LOAD, ['def load(path, strict=False):', '    ...'], {});
    assert.ok(tail.kind === 'expanded');
    assert.deepEqual(tail.replaceLines, ['def load(path, strict=False):', ...LOAD.slice(1)]);
    const head = expandReplacePlaceholders(LOAD, ['    # ...', '    return dict(data)'], {});
    assert.ok(head.kind === 'expanded');
    assert.deepEqual(head.replaceLines, [...LOAD.slice(0, 4), '    return dict(data)']);
  });

  test('no placeholder: nothing to do', () => {
    assert.deepEqual(expandReplacePlaceholders(LOAD, ['x'], {}), { kind: 'none' });
  });

  test('a neighbour that pairs with no SEARCH line makes it uncertain: refused, naming REPLACE line N', () => {
    const out = expandReplacePlaceholders(
      LOAD,
      ['def load(path):', '    # ... existing code ...', '    launch_rockets()', '    return data'],
      {},
    );
    assert.equal(out.kind, 'refused');
    assert.ok(out.kind === 'refused');
    assert.match(out.reason, /^REPLACE line 2 `# \.\.\. existing code \.\.\.`: the line after it \(REPLACE line 3\) is no SEARCH line/);
    assert.match(out.reason, /write those lines out in REPLACE, or split the edit into smaller blocks/);
  });

  test('two pairings that write different text: refused, with both readings', () => {
    const search = [
      'class A:',
      '    def f(self):',
      '        return 1',
      '',
      '    def g(self):',
      '        return 2',
      '',
      '    def h(self):',
      '        return 3',
    ];
    const out = expandReplacePlaceholders(
      search,
      ['class A:', '    # ... other methods ...', '', '    def h(self):', '        return 4'],
      {},
    );
    assert.ok(out.kind === 'refused');
    assert.match(out.reason, /^REPLACE line 2 `# \.\.\. other methods \.\.\.` could stand for SEARCH lines 2-3 or for SEARCH lines 2-6/);
  });

  test('pairings that write the same text are certain', () => {
    // The '}' after the placeholder pairs with either '}' of two identical lines: the same text either way.
    const search = ['f() {', '  x();', '}', '}'];
    const out = expandReplacePlaceholders(search, ['f() {', '  // ...', '}', '}'], {});
    assert.ok(out.kind === 'expanded');
    assert.deepEqual(out.replaceLines, search);
  });

  test('a placeholder in REPLACE with an empty SEARCH is refused', () => {
    const out = expandReplacePlaceholders([], ['// ... existing code ...', 'x'], {});
    assert.ok(out.kind === 'refused');
    assert.match(out.reason, /SEARCH is empty/);
  });

  test('a placeholder that stands for no lines expands to nothing', () => {
    const out = expandReplacePlaceholders(['a', 'b'], ['a', '// ...', 'b', 'c'], {});
    assert.ok(out.kind === 'expanded');
    assert.deepEqual(out.replaceLines, ['a', 'b', 'c']);
    assert.deepEqual(out.elisions[0], { replaceFirst: 1, replaceLast: 1, text: '// ...', searchStart: 1, searchEnd: 1 });
  });
});

describe('the invariant and the notes', () => {
  test('placeholderWritten: a placeholder line may be written only where the same line stood', () => {
    assert.equal(placeholderWritten(['x = 1', '# ... existing code ...'], ['x = 0'], { languageId: 'python' }), '# ... existing code ...');
    assert.equal(placeholderWritten(['    # ... existing code ...'], ['# ... existing code ...'], { languageId: 'python' }), undefined);
    assert.equal(placeholderWritten(['...'], [], { fileName: 'm.pyi' }), undefined);
    assert.equal(placeholderWritten(['# ...'], [], { languageId: 'c' }), undefined);
  });

  test('elisionNote says which file lines each placeholder kept', () => {
    assert.equal(
      elisionNote({ replaceStartLine: 2, replaceEndLine: 2, text: '# ... existing code ...', kept: { startLine: 14, endLine: 19 } }),
      'REPLACE line 2 `# ... existing code ...` kept file lines 14-19',
    );
    assert.equal(
      elisionNote({ replaceStartLine: 3, replaceEndLine: 4, text: '...', kept: { startLine: 7, endLine: 7 } }),
      'REPLACE lines 3-4 `...` kept file line 7',
    );
    assert.equal(elisionNote({ replaceStartLine: 1, replaceEndLine: 1, text: '// ...' }), 'REPLACE line 1 `// ...` stood for no lines');
  });
});
