import { after, describe, test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { createTextFile, decodeText, firstInvalidUtf8, readTextFile, TextFileError, writeTextFile } from '../../src/node/textFile';
import { newSidePath, sideStem } from '../../src/node/sideFiles';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ra-textfile-'));
after(() => fs.rmSync(dir, { recursive: true, force: true }));

function problemOf(fn: () => unknown): TextFileError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof TextFileError, `expected TextFileError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected a TextFileError');
}

describe('decodeText', () => {
  test('UTF-8 with and without BOM', () => {
    assert.deepEqual(decodeText(Buffer.from('héllo\n'), 'f'), { text: 'héllo\n', bom: false });
    assert.deepEqual(decodeText(Buffer.from('\uFEFFhi'), 'f'), { text: 'hi', bom: true });
    assert.deepEqual(decodeText(Buffer.alloc(0), 'f'), { text: '', bom: false });
  });

  test('real files, ASCII (read as Latin-1) or not, read as the UTF-8 decoder reads them', () => {
    const files = ['typescript/lib/typescript.js', 'typescript/lib/zh-cn/diagnosticMessages.generated.json'];
    for (const name of files) {
      const bytes = fs.readFileSync(require.resolve(name));
      // Slices end at a line end: never inside a character.
      const head = (size: number) => bytes.subarray(0, bytes.lastIndexOf(10, size) + 1);
      for (const slice of [bytes, head(100_000), Buffer.concat([Buffer.from('\uFEFF'), head(5_000)])]) {
        const bom = slice[0] === 0xef;
        assert.deepEqual(decodeText(slice, 'f'), { text: slice.toString('utf8', bom ? 3 : 0), bom });
      }
    }
  });

  test('NUL bytes are refused with the offset and line', () => {
    const error = problemOf(() => decodeText(Buffer.from('a\nb\n\u0000c'), 'x.bin'));
    assert.equal(error.problem, 'not-text');
    assert.match(error.message, /^x\.bin is not a text file: it contains a NUL byte at offset 4 \(line 3\)/);
  });

  test('UTF-16 is refused by its BOM', () => {
    const error = problemOf(() => decodeText(Buffer.from([0xff, 0xfe, 0x61, 0x00]), 'w.txt'));
    assert.match(error.message, /w\.txt is not a UTF-8 text file: it starts with a UTF-16 byte order mark/);
  });

  test('invalid UTF-8 is refused with the offset and line', () => {
    const error = problemOf(() => decodeText(Buffer.from([0x61, 0x0a, 0x62, 0xe9, 0x0a]), 'latin1.txt'));
    assert.match(error.message, /^latin1\.txt is not valid UTF-8: invalid byte 0xe9 at offset 3 \(line 2\)/);
  });
});

test('firstInvalidUtf8 agrees with a strict decoder', () => {
  const samples: number[][] = [
    [0xc3, 0xa9],
    [0xc0, 0x80],
    [0xe0, 0x80, 0x80],
    [0xed, 0xa0, 0x80],
    [0xf4, 0x90, 0x80, 0x80],
    [0xf0, 0x9f, 0x98, 0x80],
    [0xe2, 0x82],
    [0x80],
    [0xff],
    [0x41, 0xe2, 0x82, 0xac, 0x42],
  ];
  const strict = new TextDecoder('utf-8', { fatal: true });
  for (const bytes of samples) {
    let valid = true;
    try {
      strict.decode(new Uint8Array(bytes));
    } catch {
      valid = false;
    }
    assert.equal(firstInvalidUtf8(new Uint8Array(bytes)) === -1, valid, bytes.map((b) => b.toString(16)).join(' '));
  }
});

test('firstInvalidUtf8 finds the first bad sequence in random bytes (seeded)', () => {
  let seed = 12;
  const random = (): number => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const strict = new TextDecoder('utf-8', { fatal: true });
  const valid = (bytes: Uint8Array): boolean => {
    try {
      strict.decode(bytes);
      return true;
    } catch {
      return false;
    }
  };
  const pieces = [
    [0x61],
    [0xc3, 0xa9],
    [0xe2, 0x82, 0xac],
    [0xf0, 0x9f, 0x98, 0x80],
    [0x80],
    [0xc3],
    [0xe2, 0x82],
    [0xf0, 0x9f],
    [0xed, 0xa0, 0x80],
    [0xc0, 0xaf],
    [0xff],
    [0xef, 0xbf],
    [0xef, 0xbf, 0xbd],
    [0xf4, 0x90, 0x80, 0x80],
  ];
  for (let n = 0; n < 3000; n++) {
    const bytes: number[] = [];
    const count = Math.floor(random() * 8);
    for (let k = 0; k < count; k++) {
      bytes.push(...pieces[Math.floor(random() * pieces.length)]);
    }
    const buffer = new Uint8Array(bytes);
    const at = firstInvalidUtf8(buffer);
    const label = bytes.map((b) => b.toString(16)).join(' ');
    if (at === -1) {
      assert.ok(valid(buffer), label);
      continue;
    }
    // The prefix before it is valid, and no character starting there completes it.
    assert.ok(valid(buffer.subarray(0, at)), `${label}: prefix of ${at}`);
    for (let end = at + 1; end <= Math.min(at + 4, buffer.length); end++) {
      assert.ok(!valid(buffer.subarray(0, end)), `${label}: ${at} is not the first bad byte`);
    }
  }
});

test('side file names fit NAME_MAX whatever the target name, and stay tied to it', () => {
  for (const base of ['a.js', 'b'.repeat(251), 'é'.repeat(127), `${'x'.repeat(229)}.ts`, '😀'.repeat(63)]) {
    const side = path.basename(newSidePath(path.join('/d', base), 'tmp'));
    assert.ok(Buffer.byteLength(side) <= 255, `${Buffer.byteLength(side)} bytes for a ${Buffer.byteLength(base)}-byte name`);
    assert.ok(!side.includes('\uFFFD'), 'cut on a character boundary');
    assert.equal(sideStem(base), sideStem(base));
  }
  assert.notEqual(sideStem(`${'b'.repeat(250)}1`), sideStem(`${'b'.repeat(250)}2`));
  assert.equal(sideStem('short.js'), 'short.js');
});

describe('readTextFile / writeTextFile', () => {
  test('a missing file reads as undefined', () => {
    assert.equal(readTextFile(path.join(dir, 'nope.txt')), undefined);
  });

  test('a directory is refused', () => {
    assert.equal(problemOf(() => readTextFile(dir)).problem, 'not-text');
  });

  test('writes keep BOM and mode, leave no temp file, and follow symlinks', () => {
    const target = path.join(dir, 'bom.txt');
    fs.writeFileSync(target, '\uFEFFone\r\ntwo\r\n');
    fs.chmodSync(target, 0o640);
    const link = path.join(dir, 'link.txt');
    fs.symlinkSync(target, link);
    const file = readTextFile(link)!;
    assert.equal(file.bom, true);
    assert.equal(file.text, 'one\r\ntwo\r\n');
    writeTextFile(file, 'one\r\nTWO\r\n', 'link.txt');
    assert.deepEqual(fs.readFileSync(target), Buffer.from('\uFEFFone\r\nTWO\r\n'));
    assert.equal(fs.statSync(target).mode & 0o777, 0o640);
    assert.equal(fs.lstatSync(link).isSymbolicLink(), true);
    assert.deepEqual(
      fs.readdirSync(dir).filter((n) => n.endsWith('.tmp')),
      [],
    );
  });

  test('a file changed on disk after reading is not overwritten', () => {
    const target = path.join(dir, 'race.txt');
    fs.writeFileSync(target, 'a\n');
    const file = readTextFile(target)!;
    fs.writeFileSync(target, 'changed by someone else\n');
    const error = problemOf(() => writeTextFile(file, 'b\n', 'race.txt'));
    assert.equal(error.problem, 'changed');
    assert.equal(fs.readFileSync(target, 'utf8'), 'changed by someone else\n');
  });

  test('a change that keeps size and mtime is still noticed (content and inode are compared)', () => {
    const target = path.join(dir, 'same-size.txt');
    const stamp = 1_700_000_000; // whole seconds: utimes can restore them exactly
    fs.writeFileSync(target, 'abc\n');
    fs.utimesSync(target, stamp, stamp);
    const file = readTextFile(target)!;
    fs.writeFileSync(target, 'xyz\n');
    fs.utimesSync(target, stamp, stamp);
    assert.equal(fs.statSync(target).mtimeMs, file.mtimeMs, 'the disguise works');
    assert.equal(problemOf(() => writeTextFile(file, 'new\n', 'same-size.txt')).problem, 'changed');
    assert.equal(fs.readFileSync(target, 'utf8'), 'xyz\n');

    // Same bytes, same mtime, but another file renamed over it: still refused.
    fs.writeFileSync(target, 'abc\n');
    fs.utimesSync(target, stamp, stamp);
    const again = readTextFile(target)!;
    fs.writeFileSync(`${target}.new`, 'abc\n');
    fs.utimesSync(`${target}.new`, stamp, stamp);
    fs.renameSync(`${target}.new`, target);
    assert.equal(problemOf(() => writeTextFile(again, 'new\n', 'same-size.txt')).problem, 'changed');
    assert.equal(fs.readFileSync(target, 'utf8'), 'abc\n');
    assert.deepEqual(
      fs.readdirSync(dir).filter((n) => n.endsWith('.tmp')),
      [],
    );
  });

  test('createTextFile makes parent directories', () => {
    const target = path.join(dir, 'new', 'deep', 'file.ts');
    createTextFile(target, 'export {};\n');
    assert.equal(fs.readFileSync(target, 'utf8'), 'export {};\n');
  });
});
