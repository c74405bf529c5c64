import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import { jsonRequested, parseArgs, UsageError } from '../../src/node/args';
import { languageIdFor, namesFile } from '../../src/node/paths';

function usageError(argv: string[]): string {
  try {
    parseArgs(argv);
  } catch (error) {
    assert.ok(error instanceof UsageError, `expected UsageError, got ${String(error)}`);
    return error.message;
  }
  assert.fail(`expected a usage error for ${argv.join(' ')}`);
}

describe('parseArgs', () => {
  test('apply with every option, in both --flag value and --flag=value forms', () => {
    assert.deepEqual(
      parseArgs([
        'apply',
        'src/a.ts',
        '--blocks',
        'b.txt',
        '--json',
        '--dry-run',
        '--auto-apply-above',
        '0.9',
        '--line-hint=12',
        '--max-candidates',
        '5',
        '--force',
      ]),
      {
        command: 'apply',
        file: 'src/a.ts',
        blocks: 'b.txt',
        json: true,
        dryRun: true,
        force: true,
        autoApplyAbove: 0.9,
        lineHint: 12,
        maxCandidates: 5,
      },
    );
  });

  test('options may come before the file; --blocks - means stdin', () => {
    assert.deepEqual(parseArgs(['apply', '--blocks', '-', 'a.ts']), {
      command: 'apply',
      file: 'a.ts',
      blocks: '-',
      json: false,
      dryRun: false,
      force: false,
    });
    assert.deepEqual(parseArgs(['apply', 'a.ts']), { command: 'apply', file: 'a.ts', json: false, dryRun: false, force: false });
  });

  test('-- ends the options (a file named like a flag)', () => {
    assert.equal((parseArgs(['apply', '--', '--weird.ts']) as { file: string }).file, '--weird.ts');
  });

  test('help and version', () => {
    for (const argv of [['--help'], ['-h'], ['help'], ['apply', 'x', '--help']]) {
      assert.deepEqual(parseArgs(argv), { command: 'help' });
    }
    assert.deepEqual(parseArgs(['--version']), { command: 'version' });
  });

  test('usage errors', () => {
    assert.match(usageError([]), /missing command/);
    assert.match(usageError(['frobnicate', 'a.ts']), /unknown command "frobnicate": expected "apply", "patch" or "mcp"/);
    assert.deepEqual(parseArgs(['patch', '--dry-run', 'x.diff']), { command: 'patch', argv: ['--dry-run', 'x.diff'] });
    assert.match(usageError(['apply']), /missing <file>/);
    assert.match(usageError(['apply', 'a.ts', 'b.ts']), /expected one <file>, got 2/);
    assert.match(usageError(['apply', 'a.ts', '--frobnicate']), /unknown option --frobnicate/);
    assert.match(usageError(['apply', 'a.ts', '--force=yes']), /--force takes no value/);
    assert.match(usageError(['apply', 'a.ts', '--blocks']), /--blocks needs a value/);
    assert.match(usageError(['apply', 'a.ts', '--blocks', '--json']), /--blocks needs a value/);
    assert.match(usageError(['apply', 'a.ts', '--json=1']), /--json takes no value/);
    assert.match(usageError(['apply', 'a.ts', '--line-hint', '3', '--line-hint', '4']), /given twice/);
  });

  test('--auto-apply-above (or its older name --fuzzy-apply) must be within the setting range (0.5..1)', () => {
    assert.equal((parseArgs(['apply', 'a', '--auto-apply-above', '0.5']) as { autoApplyAbove: number }).autoApplyAbove, 0.5);
    assert.equal((parseArgs(['apply', 'a', '--fuzzy-apply', '1']) as { autoApplyAbove: number }).autoApplyAbove, 1);
    assert.match(usageError(['apply', 'a', '--fuzzy-apply', '0.9', '--auto-apply-above', '0.8']), /--auto-apply-above given twice/);
    for (const bad of ['1.5', '-0.1', '0.49', '0', 'high', '', 'NaN', 'Infinity']) {
      assert.match(usageError(['apply', 'a', `--fuzzy-apply=${bad}`]), /--auto-apply-above must be a score between 0.5 and 1/, bad);
      assert.match(usageError(['apply', 'a', `--auto-apply-above=${bad}`]), /--auto-apply-above must be a score between 0.5 and 1/, bad);
    }
  });

  test('--line-hint and --max-candidates must be positive integers; --max-candidates at most 20, like the setting', () => {
    for (const bad of ['1.5', '0', '-3', 'ten', '']) {
      assert.match(usageError(['apply', 'a', `--line-hint=${bad}`]), /--line-hint must be a positive integer/, bad);
      assert.match(usageError(['apply', 'a', `--max-candidates=${bad}`]), /--max-candidates must be a positive integer/, bad);
    }
    assert.equal((parseArgs(['apply', 'a', '--max-candidates', '20']) as { maxCandidates: number }).maxCandidates, 20);
    assert.match(usageError(['apply', 'a', '--max-candidates', '21']), /--max-candidates must be between 1 and 20, got "21"/);
  });
});

describe('namesFile', () => {
  const cwd = '/proj/sub';
  test('same resolved path', () => {
    assert.equal(namesFile('a.ts', 'a.ts', cwd), true);
    assert.equal(namesFile('./a.ts', 'a.ts', cwd), true);
    assert.equal(namesFile('/proj/sub/src/a.ts', 'src/a.ts', cwd), true);
  });

  test('a relative block path that is a suffix of the target', () => {
    assert.equal(namesFile('sub/src/a.ts', 'src/a.ts', cwd), true);
    assert.equal(namesFile('src/a.ts', '/elsewhere/src/a.ts', cwd), true);
    assert.equal(namesFile('src\\a.ts', 'src/a.ts', cwd), true);
  });

  test('other files', () => {
    assert.equal(namesFile('b.ts', 'a.ts', cwd), false);
    assert.equal(namesFile('lib/a.ts', 'src/a.ts', cwd), false);
    assert.equal(namesFile('/other/src/a.ts', 'src/a.ts', cwd), false);
    assert.equal(namesFile('../x/a.ts', 'a.ts', cwd), false);
    assert.equal(namesFile('xa.ts', 'a.ts', cwd), false);
  });
});

test('jsonRequested agrees with parseArgs, and nothing after -- is a flag', () => {
  const cases: string[][] = [
    ['apply', 'a', '--json'],
    ['apply', '--json', '--', 'a'],
    ['apply', '--', '--json'],
    ['apply', 'a', '--', '--json'],
    ['apply', 'a'],
    ['apply', '--dry-run', '--json', '--', '--json'],
  ];
  for (const argv of cases) {
    const parsed = (() => {
      try {
        return parseArgs(argv);
      } catch {
        return undefined;
      }
    })();
    if (parsed?.command === 'apply') {
      assert.equal(jsonRequested(argv), parsed.json, argv.join(' '));
    }
  }
  assert.equal(jsonRequested(['apply', 'a', '--', '--json']), false);
  assert.equal(jsonRequested(['apply', 'a', 'b', '--json']), true, 'a usage error still answers in JSON');
});

test('languageIdFor', () => {
  assert.equal(languageIdFor('README.md'), 'markdown');
  assert.equal(languageIdFor('docs/guide.MARKDOWN'), 'markdown');
  assert.equal(languageIdFor('src/a.ts'), 'typescript');
  assert.equal(languageIdFor('Makefile'), 'plaintext');
});
