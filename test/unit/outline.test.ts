// The indentation and brace outline (core/match/structure/outline.ts) on real source text of languages
// without a grammar: where a declaration ends when a `#` is code and when braces and indentation disagree.
// Found by the code-block property on config.pl (a regex `/^\s*#/` hid a `{`, and a `}` the edit duplicated
// cut read_config in two, so the block's last `}` was paired with the file's last line and dropped).
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { outlineText } from '../../src/core/match/structure/outline';
import { applySnippet } from '../../src/core';

const CONFIG_PL = `#!/usr/bin/perl
use strict;

sub parse_line {
    my ($line) = @_;
    if ($line =~ /^\\s*#/) {
\treturn undef;
    }
    return [split /=/, $line, 2];
}

sub last_index {
    my @items = @_;
    return $#items;
}
`;

const ends = (text: string) => outlineText(text.split('\n')).decls.map((d) => [d.name, d.start + 1, d.end + 1]);

describe('outline: where a declaration ends', () => {
  test('a `#` inside code (a regex, `$#items`) is no comment, so the braces after it count', () => {
    assert.deepEqual(ends(CONFIG_PL), [
      ['parse_line', 4, 10],
      ['last_index', 12, 15],
    ]);
    assert.equal(outlineText(CONFIG_PL.split('\n')).errors, 0);
  });

  test('a `#` after white space still opens a comment (shell, Ruby, Perl)', () => {
    const sh = 'deploy() {\n    echo "go" # a { in a comment\n    run\n}\n';
    assert.deepEqual(ends(sh), [['deploy', 1, 4]]);
  });

  test("braces that close early inside an indented body end at the `}` at the header's depth", () => {
    // A stray `}` (written twice by a model) balances the braces before the body is over.
    const perl = [
      'sub read_config {',
      '    while (my $line = <$fh>) {',
      '\tif (exists $config{$key}) {',
      '\t    warn "duplicate";',
      '\t}',
      '\t}',
      '\tpush @list, $value;',
      '    }',
      '    return \\%config;',
      '}',
      '',
      'my $config = read_config();',
      'foreach my $key (sort keys %$config) {',
      '    print $key;',
      '}',
    ].join('\n');
    assert.deepEqual(ends(perl), [['read_config', 1, 10]]);
  });

  test('a closing brace indented like the body ends its declaration when the next line is the next declaration', () => {
    const kotlin = 'fun f(): Int {\n    return 1\n    }\nfun g(): Int {\n    return 2\n}\n';
    assert.deepEqual(ends(kotlin), [
      ['f', 1, 3],
      ['g', 4, 6],
    ]);
  });
});

describe('outline: code blocks placed by it', () => {
  test('a Perl function after one with `#` in a regex is replaced whole, its closing brace kept', async () => {
    const code = 'sub last_index {\n    my @items = @_;\n    return scalar(@items) - 1;\n}';
    const result = await applySnippet(CONFIG_PL, { code }, { fileName: 'config.pl' });
    assert.equal(result.status, 'applied', result.message);
    assert.equal(result.content, CONFIG_PL.replace('return $#items;', 'return scalar(@items) - 1;'));
  });

  test('a block whose braces do not balance, for a file whose braces do, is refused with nothing written', async () => {
    const code = 'sub last_index {\n    my @items = @_;\n    }\n    return $#items;\n}';
    const result = await applySnippet(CONFIG_PL, { code }, { fileName: 'config.pl' });
    assert.equal(result.status, 'invalid');
    assert.equal(result.content, undefined);
  });
});
