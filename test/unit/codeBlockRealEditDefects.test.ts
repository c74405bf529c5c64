// Placement defects the real-edit corpora found (issue 25: test/fixtures/npmCorpus and the local commit
// corpus), each on a reproduction written for it in the shape the corpus case had: the file and the block,
// and the file the user wants, or the audit's refusal naming the rule.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { applySnippet, type SnippetResult } from '../../src/core';
import { outlineText } from '../../src/core/match/structure/outline';
import { testGrammars } from '../shared/grammars';

const lines = (...l: string[]): string => l.join('\n');

async function apply(doc: string, code: string, fileName: string): Promise<SnippetResult> {
  return applySnippet(doc, { code, fileName }, { grammars: testGrammars, fileName });
}

function assertApplied(result: SnippetResult, expected: string): void {
  assert.equal(result.status, 'applied', result.message);
  assert.equal(result.content, expected, result.message);
}

describe('placement defects from the real-edit corpora', () => {
  test('a changed SCSS declaration is not written above the old one: refused, naming the line and its neighbours', async () => {
    const file = lines('.card {', '\t.title {', '\t\t// legacy', '\t\tword-break: break-word;', '\t}', '}', '');
    const block = lines('\t.title {', '\t\tword-break: normal;', '\t\toverflow-wrap: break-word;', '\t}');
    const result = await apply(file, block, 'card.scss');
    assert.equal(result.status, 'invalid', result.content);
    assert.match(result.message, /stands between its neighbours in the block/);
    assert.match(result.message, /"overflow-wrap: break-word;"\) .*before "\}"/);
  });

  test('a nested SCSS rule is not written to the left of its parent: refused, naming the depth', async () => {
    const file = lines('.post {', '\t.meta {', '\t\tb {', '\t\t\tfont-weight: normal;', '\t\t}', '\t}', '}', '');
    const result = await apply(file, lines('\t\tb {', '\t\t\tfont-weight: 400;', '\t\t}'), 'post.scss');
    assert.equal(result.status, 'invalid', result.content);
    assert.match(result.message, /"font-weight: 400;"\) .*indents it deeper than "b \{"/);
  });

  test('a whole-file rewrite keeps the blank lines the file starts with', async () => {
    const file = lines('', '#pragma once', '', 'namespace app {', '', 'using Size = int;', '', '} // namespace app', '');
    const block = lines('#pragma once', '', 'namespace app {', '', 'using Size = long;', '', '} // namespace app');
    assertApplied(await apply(file, block, 'size.h'), file.replace('int', 'long'));
  });

  test('a namespace shown whole around its one function keeps the blank lines inside its braces', async () => {
    const file = lines(
      '#include "log.h"',
      '',
      'namespace app {',
      '',
      'void log(int level)',
      '{',
      '  print(level);',
      '}',
      '',
      '} // namespace app',
      '',
    );
    const block = lines(
      '// ... existing code ...',
      'namespace app {',
      'void log(int level)',
      '{',
      '  print(level + 1);',
      '}',
      '} // namespace app',
    );
    assertApplied(await apply(file, block, 'log.cpp'), file.replace('print(level)', 'print(level + 1)'));
  });

  test('the blank line a block puts between a kept line and the lines it adds stays', async () => {
    const file = lines('// icons', '.icon svg {', '\twidth: 100%;', '\theight: 100%;', '}', '');
    const block = lines(
      '// ... existing code ...',
      '.icon svg {',
      '\twidth: 100%;',
      '\theight: 100%;',
      '',
      '\t// strokes scale',
      '\tpath {',
      '\t\tvector-effect: none;',
      '\t}',
      '}',
    );
    const expected = lines(
      '// icons',
      '.icon svg {',
      '\twidth: 100%;',
      '\theight: 100%;',
      '',
      '\t// strokes scale',
      '\tpath {',
      '\t\tvector-effect: none;',
      '\t}',
      '}',
      '',
    );
    assertApplied(await apply(file, block, 'icon.scss'), expected);
  });

  test('a C++17 nested namespace keeps its whole name where the outline reads it (files the grammar reads with errors)', () => {
    const outline = outlineText(['namespace facebook::react {', 'class Instance;', '} // namespace facebook::react']);
    assert.equal(outline.decls[0]?.name, 'facebook::react');
  });

  test('a class shown whole that leaves out a member between two it shows unchanged is refused, naming the member', async () => {
    // Polly's GeneratorHelper moved to a primary constructor: the block shows every member but the old
    // constructor, which kept in place would make a class that does not compile.
    const file = lines(
      'namespace Shop.Picking;',
      '',
      'internal sealed class Picker<T>',
      '{',
      '    private readonly Func<int, int> _roll;',
      '',
      '    private readonly List<int> _weights = [];',
      '    private int _total;',
      '',
      '    public Picker(Func<int, int> roll) => _roll = roll;',
      '',
      '    public void Add(int weight)',
      '    {',
      '        _total += weight;',
      '        _weights.Add(weight);',
      '    }',
      '}',
      '',
    );
    const block = lines(
      'internal sealed class Picker<T>(Func<int, int> roll)',
      '{',
      '    private readonly Func<int, int> _roll = roll;',
      '',
      '    private readonly List<int> _weights = [];',
      '    private int _total;',
      '',
      '    public void Add(int weight)',
      '    {',
      '        _total += weight;',
      '        _weights.Add(weight);',
      '    }',
      '}',
    );
    const result = await apply(file, block, 'Picker.cs');
    assert.equal(result.status, 'invalid', result.content);
    assert.match(result.message, /constructor Picker \(line 10\)/);
    assert.match(result.message, /placeholder/);
  });

  test('a class shown whole with the one method it changes keeps the members it leaves out', async () => {
    const file = lines(
      'class Counter {',
      '    private int count;',
      '',
      '    void reset() {',
      '        count = 0;',
      '    }',
      '',
      '    void add() {',
      '        count++;',
      '    }',
      '}',
      '',
      'class Limit {',
      '    int max = 10;',
      '}',
      '',
    );
    const block = lines('class Counter {', '    private int count;', '', '    void add() {', '        count += 1;', '    }', '}');
    assertApplied(await apply(file, block, 'Counter.java'), file.replace('count++;', 'count += 1;'));
  });

  test('a 2-space block into a 4-space file is written with four, its JSDoc lines one column in', async () => {
    const file = lines('export class Cart {', '    /** Adds one. */', '    add(): void {', '        this.count++;', '    }', '}', '');
    const block = lines(
      '/** Adds one. */',
      'add(): void {',
      '  this.count++;',
      '}',
      '',
      '/**',
      ' * Empties the cart.',
      ' */',
      'clear(): void {',
      '  if (this.count > 0) {',
      '    this.count = 0;',
      '  }',
      '}',
    );
    const expected = file.replace(
      '        this.count++;\n    }\n',
      '        this.count++;\n    }\n\n    /**\n     * Empties the cart.\n     */\n    clear(): void {\n        if (this.count > 0) {\n            this.count = 0;\n        }\n    }\n',
    );
    assertApplied(await apply(file, block, 'cart.ts'), expected);
  });

  test('a block that copies the file at its own depths keeps them, though its heredoc steps by two in code stepping by four', async () => {
    // react-native's script_phases.rb: Ruby indented by four, a shell heredoc inside indented by two; the
    // rest of the file (here 30 small methods) is on four, so its unit is certain and the block's reads as two.
    const others = Array.from({ length: 30 }, (_, i) =>
      lines(`def phase_${i}(config)`, '    if config', `        config.run(${i})`, '    end', 'end', ''),
    );
    const file = lines(
      ...others,
      'def script_template(name)',
      '    template = <<~EOS',
      '      if [ -n "$DIR" ]; then',
      '        cd "$DIR"',
      '      fi',
      '      run "#{name}"',
      '    EOS',
      '    return template',
      'end',
      '',
    );
    const block = lines(
      'def script_template(name)',
      '    template = <<~EOS',
      '      if [ -n "$DIR" ]; then',
      '        cd "$DIR"',
      '      else',
      '        cd "$HOME"',
      '      fi',
      '      run "#{name}"',
      '    EOS',
      '    return template',
      'end',
    );
    assertApplied(await apply(file, block, 'script_phases.rb'), `${others.join('\n')}\n${block}\n`);
  });
});
