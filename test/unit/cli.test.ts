// End-to-end tests of the `resilient-apply` CLI: spawns the compiled out/src/cli.js on temp files.
import { describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { block, runSync as run, runJsonSync as runJson, workspace } from './cliHarness';

const SOURCE = ['function greet(name) {', "  return 'Hello, ' + name;", '}', '', 'function add(a, b) {', '  return a + b;', '}', ''].join(
  '\n',
);

describe('resilient-apply apply: exit codes', () => {
  test('0: an exact block is applied and the file written', () => {
    const dir = workspace({ 'app.js': SOURCE, 'edit.txt': block('  return a + b;', '  return a + b + 0;') });
    const r = run(dir, ['apply', 'app.js', '--blocks', 'edit.txt']);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.trim().length > 0, 'prints the message');
    assert.equal(fs.readFileSync(path.join(dir, 'app.js'), 'utf8'), SOURCE.replace('return a + b;', 'return a + b + 0;'));
  });

  test('1: already applied (REPLACE is in the file): not_found, a note with its lines, no candidates', () => {
    const dir = workspace({ 'app.js': SOURCE });
    const { code, json } = runJson(dir, ['apply', 'app.js'], block('  return a - b;', '  return a + b;'));
    assert.equal(code, 1);
    assert.equal(json.status, 'not_found');
    const [outcome] = json.blocks;
    assert.equal(outcome.status, 'not_found');
    assert.ok(outcome.notes.includes('already applied at line 6'), JSON.stringify(outcome.notes));
    assert.deepEqual(outcome.candidates, []);
    assert.match(json.message, /already applied at line 6/);
    assert.match(json.message, /Do not re-send this block/);
    assert.equal(fs.readFileSync(path.join(dir, 'app.js'), 'utf8'), SOURCE);
  });

  test('1: not found, with ranked candidates and the file untouched', () => {
    const dir = workspace({ 'app.js': SOURCE });
    const { code, json } = runJson(dir, ['apply', 'app.js'], block('function add(a, b, c) {\n  return a + b;\n}', 'x'));
    assert.equal(code, 1);
    assert.equal(json.status, 'not_found');
    assert.equal(json.file, 'app.js');
    assert.equal(json.content, undefined);
    assert.match(json.message, /not found in app\.js/);
    const [outcome] = json.blocks;
    assert.equal(outcome.index, 1);
    assert.equal(outcome.status, 'not_found');
    assert.equal(outcome.range, undefined);
    assert.ok(outcome.candidates.length >= 1);
    const best = outcome.candidates[0];
    assert.deepEqual([best.startLine, best.endLine], [5, 7]);
    assert.equal(best.text, 'function add(a, b) {\n  return a + b;\n}');
    assert.ok(best.score > 0.5 && best.score < 1, `score ${best.score}`);
    for (let k = 1; k < outcome.candidates.length; k++) {
      assert.ok(outcome.candidates[k - 1].score >= outcome.candidates[k].score, 'best first');
    }
    assert.equal(fs.readFileSync(path.join(dir, 'app.js'), 'utf8'), SOURCE);
  });

  test('2: ambiguous lists every occurrence in file order; --line-hint picks one', () => {
    const dir = workspace({ 'app.js': SOURCE });
    const edit = block('}', '};');
    const { code, json } = runJson(dir, ['apply', 'app.js'], edit);
    assert.equal(code, 2);
    assert.equal(json.status, 'ambiguous');
    assert.equal(json.blocks[0].status, 'ambiguous');
    assert.equal(json.blocks[0].tier, 'exact');
    assert.deepEqual(
      json.blocks[0].candidates.map((c: any) => [c.startLine, c.endLine, c.text]),
      [
        [3, 3, '}'],
        [7, 7, '}'],
      ],
    );
    assert.equal(fs.readFileSync(path.join(dir, 'app.js'), 'utf8'), SOURCE);

    const hinted = runJson(dir, ['apply', 'app.js', '--line-hint', '7'], edit);
    assert.equal(hinted.code, 0, hinted.json.message);
    assert.deepEqual(hinted.json.blocks[0].range, { startLine: 7, endLine: 7 });
    assert.equal(fs.readFileSync(path.join(dir, 'app.js'), 'utf8'), SOURCE.replace(/}\n$/, '};\n'));
  });

  test('3: a parse error names the block and line, on stderr and in --json', () => {
    const dir = workspace({ 'app.js': SOURCE });
    const bad = `${block('a', 'b')}<<<<<<< SEARCH\nx\n>>>>>>> REPLACE\n`;
    const r = run(dir, ['apply', 'app.js'], bad);
    assert.equal(r.code, 3);
    assert.equal(r.stderr.trim(), "Block 2 (line 8): expected '=======' before '>>>>>>> REPLACE'");
    const { code, json } = runJson(dir, ['apply', 'app.js'], bad);
    assert.equal(code, 3);
    assert.deepEqual(json, {
      status: 'invalid',
      file: 'app.js',
      message: "Block 2 (line 8): expected '=======' before '>>>>>>> REPLACE'",
      blocks: [],
    });
  });

  test('3: input without any block', () => {
    const dir = workspace({ 'app.js': SOURCE });
    const r = run(dir, ['apply', 'app.js'], 'just prose\n');
    assert.equal(r.code, 3);
    assert.match(r.stderr, /no SEARCH\/REPLACE blocks found in stdin/);
  });

  test('3: an empty SEARCH on a non-empty file is refused by the engine', () => {
    const dir = workspace({ 'app.js': SOURCE });
    const { code, json } = runJson(dir, ['apply', 'app.js'], block('', 'new content'));
    assert.equal(code, 3);
    assert.equal(json.status, 'invalid');
    assert.equal(fs.readFileSync(path.join(dir, 'app.js'), 'utf8'), SOURCE);
  });
});

describe('resilient-apply apply: --json and --dry-run', () => {
  test('--json on success: tier, range, score; no content without --dry-run', () => {
    const dir = workspace({ 'app.js': SOURCE });
    const { code, json } = runJson(
      dir,
      ['apply', 'app.js'],
      block('function add(a, b) {\n  return a + b;', 'function add(a, b) {\n  return b + a;'),
    );
    assert.equal(code, 0);
    assert.equal(json.status, 'applied');
    assert.equal(json.file, 'app.js');
    assert.equal('content' in json, false);
    assert.equal(typeof json.message, 'string');
    assert.deepEqual(json.blocks, [{ index: 1, status: 'applied', tier: 'exact', range: { startLine: 5, endLine: 6 }, score: 1 }]);
  });

  test('--dry-run leaves the file untouched and --json carries the content', () => {
    const dir = workspace({ 'app.js': SOURCE });
    const file = path.join(dir, 'app.js');
    const before = fs.statSync(file).mtimeMs;
    const { code, json } = runJson(dir, ['apply', 'app.js', '--dry-run'], block('  return a + b;', '  return a - b;'));
    assert.equal(code, 0);
    assert.equal(json.status, 'applied');
    assert.equal(json.content, SOURCE.replace('a + b;', 'a - b;'));
    assert.equal(fs.readFileSync(file, 'utf8'), SOURCE);
    assert.equal(fs.statSync(file).mtimeMs, before);
    assert.equal(run(dir, ['apply', 'app.js', '--dry-run'], block('  return a + b;', '  return a - b;')).code, 0);
    assert.equal(fs.readFileSync(file, 'utf8'), SOURCE);
  });

  test('a normalised match reports its tier', () => {
    const dir = workspace({ 'app.js': SOURCE });
    const { code, json } = runJson(dir, ['apply', 'app.js', '--dry-run'], block('    return a + b;', '    return a * b;'));
    assert.equal(code, 0, json.message);
    assert.equal(json.blocks[0].tier, 'indentation');
    assert.equal(json.content, SOURCE.replace('  return a + b;', '  return a * b;'));
  });

  test('--max-candidates limits the near misses', () => {
    const dir = workspace({ 'app.js': SOURCE });
    const { code, json } = runJson(
      dir,
      ['apply', 'app.js', '--max-candidates', '1'],
      block('function sub(a, b) {\n  return a - b;\n}', 'x'),
    );
    assert.equal(code, 1);
    assert.ok(json.blocks[0].candidates.length <= 1);
  });

  test('--auto-apply-above applies a clear fuzzy match that is otherwise only offered (--fuzzy-apply is its older name)', () => {
    const dir = workspace({ 'app.js': SOURCE });
    const typo = block('function add(a, b) {\n  retrun a + b;\n}', 'function add(a, b) {\n  return a - b;\n}');
    const offered = runJson(dir, ['apply', 'app.js'], typo);
    assert.equal(offered.code, 1);
    assert.deepEqual([offered.json.blocks[0].candidates[0].startLine, offered.json.blocks[0].candidates[0].endLine], [5, 7]);
    assert.equal(fs.readFileSync(path.join(dir, 'app.js'), 'utf8'), SOURCE);

    const strict = runJson(dir, ['apply', 'app.js', '--auto-apply-above', '0.99'], typo);
    assert.equal(strict.code, 1, 'a threshold above the score does not apply');

    const applied = runJson(dir, ['apply', 'app.js', '--fuzzy-apply', '0.8'], typo);
    assert.equal(applied.code, 0, applied.json.message);
    assert.equal(applied.json.blocks[0].tier, 'fuzzy');
    assert.deepEqual(applied.json.blocks[0].range, { startLine: 5, endLine: 7 });
    assert.ok(applied.json.blocks[0].score >= 0.8 && applied.json.blocks[0].score < 1);
    assert.equal(fs.readFileSync(path.join(dir, 'app.js'), 'utf8'), SOURCE.replace('a + b;', 'a - b;'));
  });

  test('a failing second block leaves the file untouched (atomic batch)', () => {
    const dir = workspace({ 'app.js': SOURCE });
    const { code, json } = runJson(dir, ['apply', 'app.js'], block('  return a + b;', '  return 0;') + block('no such line', 'x'));
    assert.equal(code, 1);
    assert.equal(json.blocks.length, 2);
    assert.equal(json.blocks[1].status, 'not_found');
    assert.equal(json.blocks[0].status, 'pending', 'block 1 matched but the batch did not apply');
    assert.deepEqual(json.blocks[0].range, { startLine: 6, endLine: 6 });
    assert.equal(fs.readFileSync(path.join(dir, 'app.js'), 'utf8'), SOURCE);
  });
});

describe('resilient-apply apply: writing files', () => {
  test('keeps BOM, CRLF line endings and mode', () => {
    const original = '\uFEFFline one\r\nline two\r\nline three\r\n';
    const dir = workspace({ 'doc.txt': original });
    const file = path.join(dir, 'doc.txt');
    fs.chmodSync(file, 0o751);
    const r = run(dir, ['apply', 'doc.txt'], block('line two', 'line 2\nline 2.5'));
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.deepEqual(fs.readFileSync(file), Buffer.from('\uFEFFline one\r\nline 2\r\nline 2.5\r\nline three\r\n'));
    assert.equal(fs.statSync(file).mode & 0o777, 0o751);
    assert.deepEqual(fs.readdirSync(dir), ['doc.txt'], 'no temp file left behind');
  });

  test('reads blocks from stdin, from --blocks -, and from a file', () => {
    const dir = workspace({ 'a.txt': 'one\ntwo\n', 'b.txt': block('two', '2') });
    assert.equal(run(dir, ['apply', 'a.txt'], block('one', '1')).code, 0);
    assert.equal(run(dir, ['apply', 'a.txt', '--blocks', '-'], block('1', 'I')).code, 0);
    assert.equal(run(dir, ['apply', 'a.txt', '--blocks', 'b.txt']).code, 0);
    assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'I\n2\n');
  });

  test('aider-style input with a matching path (relative to another root) applies', () => {
    const dir = workspace({ 'src/app.js': SOURCE });
    const input = `Change add:\n\nsrc/app.js\n\`\`\`js\n${block('  return a + b;', '  return a + b; // sum')}\`\`\`\n`;
    // Run from inside src/: the block's path is relative to the project root, not the cwd.
    const r = run(path.join(dir, 'src'), ['apply', 'app.js'], input);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(fs.readFileSync(path.join(dir, 'src/app.js'), 'utf8'), /\/\/ sum/);
  });

  test('a block naming another file is refused, naming the block and the path', () => {
    const dir = workspace({ 'a.js': SOURCE });
    const input = `a.js\n${block('  return a + b;', 'x')}\nlib/other.js\n${block('y', 'z')}`;
    const r = run(dir, ['apply', 'a.js'], input);
    assert.equal(r.code, 3);
    assert.match(r.stderr, /Block 2 \(line 9\) is for lib\/other\.js, not a\.js/);
    assert.equal(fs.readFileSync(path.join(dir, 'a.js'), 'utf8'), SOURCE);
  });

  test('a missing file is created by an empty SEARCH, otherwise refused', () => {
    const dir = workspace();
    const refused = run(dir, ['apply', 'new/file.txt'], block('x', 'y'));
    assert.equal(refused.code, 3);
    assert.match(refused.stderr, /file not found: new\/file\.txt/);
    assert.equal(fs.existsSync(path.join(dir, 'new')), false);

    const dry = runJson(dir, ['apply', 'new/file.txt', '--dry-run'], block('', 'hello\nworld'));
    assert.equal(dry.code, 0, dry.json.message);
    assert.equal(fs.existsSync(path.join(dir, 'new')), false);

    const created = run(dir, ['apply', 'new/file.txt'], block('', 'hello\nworld'));
    assert.equal(created.code, 0, created.stdout + created.stderr);
    assert.match(fs.readFileSync(path.join(dir, 'new/file.txt'), 'utf8'), /^hello\nworld\n?$/);
  });

  test('non-text files are refused with exit 3, naming the file and the problem', () => {
    const dir = workspace({ 'bin.dat': Buffer.from([0x61, 0x0a, 0x00, 0x01]), 'latin.txt': Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]) });
    const nul = run(dir, ['apply', 'bin.dat'], block('a', 'b'));
    assert.equal(nul.code, 3);
    assert.match(nul.stderr, /bin\.dat is not a text file: it contains a NUL byte at offset 2 \(line 2\)/);
    const latin = runJson(dir, ['apply', 'latin.txt'], block('caf', 'x'));
    assert.equal(latin.code, 3);
    assert.equal(latin.json.status, 'invalid');
    assert.match(latin.json.message, /latin\.txt is not valid UTF-8: invalid byte 0xe9 at offset 3 \(line 1\)/);
    assert.deepEqual(fs.readFileSync(path.join(dir, 'latin.txt')), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]));
  });
});

describe('resilient-apply: usage', () => {
  test('--help, -h and help print the usage with exit codes', () => {
    for (const args of [['--help'], ['-h'], ['help']]) {
      const r = run(workspace(), args);
      assert.equal(r.code, 0);
      assert.match(
        r.stdout,
        /^Usage: resilient-apply apply <file> \[--blocks <path>\|-\] \[--json\] \[--dry-run\] \[--auto-apply-above <score>\]/,
      );
      assert.match(
        r.stdout,
        /Exit codes:\n {2}0 {2}applied[^\n]*\n {2}1 {2}not found[^\n]*\n {2}2 {2}ambiguous[^\n]*\n {2}3 {2}invalid input/,
      );
    }
  });

  test('--version prints the package version', () => {
    const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../../package.json'), 'utf8'));
    const r = run(workspace(), ['--version']);
    assert.equal(r.code, 0);
    assert.equal(r.stdout.trim(), manifest.version);
  });

  test('bad flags are usage errors with exit 3', () => {
    const dir = workspace({ 'a.txt': 'x\n' });
    const cases: Array<[string[], RegExp]> = [
      [[], /missing command/],
      [['apply', 'a.txt', '--frobnicate'], /unknown option --frobnicate/],
      [['apply', 'a.txt', '--fuzzy-apply', '1.5'], /--auto-apply-above must be a score between 0.5 and 1/],
      [['apply', 'a.txt', '--line-hint', '2.5'], /--line-hint must be a positive integer/],
      [['apply', 'a.txt', '--max-candidates', 'x'], /--max-candidates must be a positive integer/],
    ];
    for (const [args, pattern] of cases) {
      const r = run(dir, args, block('x', 'y'));
      assert.equal(r.code, 3, args.join(' '));
      assert.match(r.stderr, /^usage error: /);
      assert.match(r.stderr, pattern);
      assert.match(r.stderr, /Usage: resilient-apply apply/);
    }
    const { code, json } = runJson(dir, ['apply', 'a.txt', '--line-hint', 'x'], block('x', 'y'));
    assert.equal(code, 3);
    assert.equal(json.status, 'invalid');
    assert.deepEqual(json.blocks, []);
    assert.equal(fs.readFileSync(path.join(dir, 'a.txt'), 'utf8'), 'x\n');
  });
});
