import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import { findFuzzyCandidates, FuzzyScratch, type FuzzyWindow } from '../../src/core/match/fuzzy/search';
import { dice, similarity } from '../../src/core/match/fuzzy/similarity';

// ---- dice / similarity: values computed by hand ----

test('dice: multiset bigram Dice on hand-computed pairs', () => {
  // night: ni ig gh ht; nacht: na ac ch ht -> 1 common of 8
  assert.equal(dice('night', 'nacht'), 0.25);
  // hello: he el ll lo; hallo: ha al ll lo -> 2 common of 8
  assert.equal(dice('hello', 'hallo'), 0.5);
  // aaaa: aa x3; aa: aa x1 -> multiset intersection is 1, not 3 -> 2*1/(3+1)
  assert.equal(dice('aaaa', 'aa'), 0.5);
  // abab: ab ba ab; baba: ba ab ba -> common ab x1, ba x1 -> 2*2/6
  assert.equal(dice('abab', 'baba'), 4 / 6);
  assert.equal(dice('same text', 'same text'), 1);
  assert.equal(dice('ab', 'cd'), 0);
  assert.equal(dice('a', 'ab'), 0);
  assert.equal(dice('', ''), 1);
  assert.equal(dice('ab', 'ba'), 0);
});

test('similarity: Levenshtein ratio below 20 characters, Dice from 20 up', () => {
  // kitten -> sitting: distance 3, longer 7
  assert.equal(similarity('kitten', 'sitting'), 1 - 3 / 7);
  assert.equal(similarity('return x;', 'return y;'), 1 - 1 / 9);
  assert.equal(similarity('', 'abc'), 0);
  assert.equal(similarity('abc', 'abc'), 1);
  // two 20-char strings differing in the last character: Dice, 18 of 19 bigrams common
  const a = 'abcdefghijklmnopqrst';
  const b = 'abcdefghijklmnopqrsX';
  assert.equal(similarity(a, b), (2 * 18) / 38);
  assert.notEqual(similarity(a, b), 1 - 1 / 20);
});

// ---- a file full of look-alike regions ----

const ENTITIES = ['user', 'order', 'invoice', 'product', 'account', 'session', 'ticket', 'report', 'payment', 'vendor'];

function handler(entity: string, status: number, extra: string): string[] {
  const cap = entity[0].toUpperCase() + entity.slice(1);
  return [
    `export async function load${cap}(req: Request, res: Response): Promise<void> {`,
    `  const id = parseId(req.params.${entity}Id, '${entity}');`,
    `  const ${entity} = await db.${entity}s.findOne({ id, deleted: false });`,
    `  if (!${entity}) {`,
    `    res.status(${status}).json({ error: '${entity} not found', id });`,
    `    return;`,
    `  }`,
    `  audit.record('load', '${entity}', id, req.user.name);`,
    `  ${extra}`,
    `  res.json(serialize${cap}(${entity}, { expand: req.query.expand }));`,
    `}`,
    ``,
  ];
}

/** Lines of the fixture, and where the target handler (for 'invoice') starts and ends (0-based, end exclusive). */
function fixture(): { lines: string[]; start: number; end: number } {
  const lines: string[] = ['// handlers', "import { db, audit } from './db';", ''];
  let start = -1;
  for (const [i, entity] of ENTITIES.entries()) {
    if (entity === 'invoice') {
      start = lines.length;
    }
    lines.push(...handler(entity, 404, `metrics.count('${entity}.load', 1);`));
    // A near twin of the target: same entity, different status, extra and tail.
    if (i === 6) {
      lines.push(...handler('invoice', 410, `cache.touch('invoice', id);`));
    }
  }
  return { lines, start, end: start + 11 };
}

function target(): { lines: string[]; search: string[]; start: number; end: number } {
  const f = fixture();
  return { lines: f.lines, search: f.lines.slice(f.start, f.end), start: f.start, end: f.end };
}

function top(lines: readonly string[], search: readonly string[]): FuzzyWindow {
  const r = findFuzzyCandidates(lines, search, { maxCandidates: 3, minScore: 0.3 });
  assert.ok(r.windows.length > 0, 'expected at least one candidate');
  assert.equal(r.truncated, false);
  return r.windows[0];
}

function assertRegion(w: FuzzyWindow, start: number, end: number): void {
  assert.deepEqual({ start: w.start, end: w.end }, { start, end }, `top candidate ${JSON.stringify(w)}`);
  assert.ok(w.score > 0.8 && w.score < 1, `score ${w.score}`);
}

test('fuzzy: a typo finds the true region among look-alikes', () => {
  const t = target();
  const search = [...t.search];
  search[4] = search[4].replace('not found', 'not fuond');
  assertRegion(top(t.lines, search), t.start, t.end);
});

test('fuzzy: a dropped trailing comma finds the true region', () => {
  const t = target();
  const lines = [...t.lines];
  lines[t.start + 2] = '  const invoice = await db.invoices.findOne({ id, deleted: false, });';
  const search = [...t.search];
  search[2] = '  const invoice = await db.invoices.findOne({ id, deleted: false });';
  search[7] = search[7].replace('req.user.name', 'req.user.nam'); // and a second small slip
  assertRegion(top(lines, search), t.start, t.end);
});

test('fuzzy: two lines fused into one find the true region', () => {
  const t = target();
  const search = [...t.search];
  search.splice(4, 2, `${search[4].trimEnd()} ${search[5].trim()}`);
  assert.equal(search.length, t.search.length - 1);
  assertRegion(top(t.lines, search), t.start, t.end);
});

test('fuzzy: one line split in two finds the true region', () => {
  const t = target();
  const search = [...t.search];
  search.splice(9, 1, '  res.json(serializeInvoice(invoice,', '    { expand: req.query.expand }));');
  assertRegion(top(t.lines, search), t.start, t.end);
});

test('fuzzy: an added (invented) first line still lands on the true region', () => {
  const t = target();
  const search = ['// load one invoice by id', ...t.search];
  assertRegion(top(t.lines, search), t.start, t.end);
});

test('fuzzy: an added (invented) last line still lands on the true region', () => {
  const t = target();
  const search = [...t.search.slice(0, 10), '  logger.debug("done");', t.search[10]];
  assertRegion(top(t.lines, search), t.start, t.end);
});

test('fuzzy: a dropped first line (plus a typo) lands on the lines SEARCH covers', () => {
  const t = target();
  const search = t.search.slice(1);
  search[3] = search[3].replace('error', 'eror');
  assertRegion(top(t.lines, search), t.start + 1, t.end);
});

test('fuzzy: a dropped middle line keeps the whole region', () => {
  const t = target();
  const search = [...t.search];
  search.splice(7, 1);
  search[0] = search[0].replace('Promise<void>', 'Promise<void >');
  assertRegion(top(t.lines, search), t.start, t.end);
});

test('fuzzy: indentation and blank-line drift are ignored in scoring', () => {
  const t = target();
  const search = t.search.map((l) => `\t\t${l.replace(/^ +/, (m) => '\t'.repeat(m.length / 2))}`);
  search[7] = search[7].replace("'load'", "'lod'");
  search.splice(3, 0, '', '   ');
  assertRegion(top(t.lines, search), t.start, t.end);
});

test('fuzzy: white space as JavaScript reads it is indentation, and a line of it is blank (line and paragraph separators too)', () => {
  const t = target();
  const search = [...t.search];
  search[7] = search[7].replace("'load'", "'lod'");
  // everyRival: the look-alike pass reads every line as well.
  const options = { maxCandidates: 3, minScore: 0.3, everyRival: true };
  const plain = findFuzzyCandidates(t.lines, search, options);
  // The same document with separator-only lines inside the region and separators in its indentation.
  const lines = t.lines.flatMap((l, i) => (i === t.start + 3 ? ['\u2028', `\u2029${l}`, ' \u2028 '] : [l]));
  const spaced = findFuzzyCandidates(lines, search, options);
  const after = (line: number) => (line > t.start + 3 ? line - 2 : line);
  const shift = (w: FuzzyWindow) => ({ ...w, start: after(w.start), end: after(w.end) });
  assert.deepEqual(spaced.windows.map(shift), plain.windows);
});

test('fuzzy: a settled search lists the regions its exact lines support; a reformatted copy of the region is a look-alike', () => {
  // Lines equal to SEARCH's once trimmed settle the search without the key scan; a copy whose lines
  // differ inside (spacing, quote kinds) is then left to the look-alike pass, which a settled search
  // skips unless every rival is wanted. The first candidate is the same either way.
  const t = target();
  const reformatted = t.search.map((l) => l.replace(/\(/g, '( ').replace(/'/g, '"'));
  const lines = [...t.lines, '', ...reformatted];
  const search = [...t.search];
  search[7] = search[7].replace("'load'", "'lod'");
  const settled = findFuzzyCandidates(lines, search, { maxCandidates: 3, minScore: 0.3 });
  const everyRival = findFuzzyCandidates(lines, search, { maxCandidates: 3, minScore: 0.3, everyRival: true });
  assertRegion(settled.windows[0], t.start, t.end);
  assert.deepEqual(settled.windows[0], everyRival.windows[0]);
  const copyStart = t.lines.length + 1;
  assert.ok(
    everyRival.windows.some((w) => w.start === copyStart),
    `the reformatted copy is not among every rival's candidates: ${JSON.stringify(everyRival.windows)}`,
  );
});

test('fuzzy: the near twin ranks below the true region, and candidates never overlap', () => {
  const t = target();
  const search = [...t.search];
  search[4] = search[4].replace('not found', 'missing');
  // everyRival: the look-alike handlers are listed too (without it, the exact lines settle the search).
  const r = findFuzzyCandidates(t.lines, search, { maxCandidates: 5, minScore: 0, everyRival: true });
  assert.equal(r.windows[0].start, t.start);
  const twinStart = t.lines.indexOf("    res.status(410).json({ error: 'invoice not found', id });") - 4;
  assert.equal(r.windows[1].start, twinStart, JSON.stringify(r.windows));
  assert.ok(r.windows[0].score > r.windows[1].score);
  assert.equal(r.windows.length, 5);
  for (let i = 0; i < r.windows.length; i++) {
    const w = r.windows[i];
    assert.ok(w.start < w.end && w.score >= 0 && w.score <= 1);
    if (i > 0) {
      assert.ok(w.score <= r.windows[i - 1].score, 'best first');
    }
    for (let j = 0; j < i; j++) {
      const o = r.windows[j];
      assert.ok(w.end <= o.start || o.end <= w.start, `${JSON.stringify(w)} overlaps ${JSON.stringify(o)}`);
    }
  }
});

test('fuzzy: a region holding most of SEARCH exactly settles the search: no pass for look-alikes unless everyRival', () => {
  const t = target();
  const search = [...t.search];
  search[4] = search[4].replace('not found', 'missing');
  // onDocumentScan tells when the search reads every line (the CLI turns V8's optimising compiler on there).
  let scans = 0;
  const onDocumentScan = () => scans++;
  const settled = findFuzzyCandidates(t.lines, search, { maxCandidates: 5, minScore: 0, onDocumentScan });
  assert.equal(scans, 0, 'a settled search read every line');
  const everywhere = findFuzzyCandidates(t.lines, search, { maxCandidates: 5, minScore: 0, everyRival: true, onDocumentScan });
  assert.equal(scans, 1);
  assert.deepEqual(settled.windows[0], everywhere.windows[0]);
  // The near twin shares most of SEARCH's lines exactly: it is found by its own exact lines.
  const twinStart = t.lines.indexOf("    res.status(410).json({ error: 'invoice not found', id });") - 4;
  assert.deepEqual(
    settled.windows.map((w) => w.start),
    [t.start, twinStart],
  );
  assert.equal(everywhere.windows.length, 5);
  assert.ok(settled.work! < everywhere.work!, `work ${settled.work} against ${everywhere.work}`);
  // With fewer than half of SEARCH's lines exact the look-alike pass runs anyway.
  const loose = t.search.map((l, i) => (i % 2 === 0 ? l.replace(/(\w+)/, '$1x') : l));
  const r = findFuzzyCandidates(t.lines, loose, { maxCandidates: 5, minScore: 0, onDocumentScan });
  assert.equal(r.windows.length, 5);
  assert.equal(scans, 2);
});

test('fuzzy: a large SEARCH (sampled prefilter) finds its region in a file of look-alike handlers', () => {
  // 120 handlers of 12 lines; SEARCH spans six of them (72 lines) with three slips and a fused pair.
  const names = Array.from({ length: 120 }, (_, i) => `${ENTITIES[i % ENTITIES.length]}${Math.floor(i / 10)}`);
  const lines = names.flatMap((name, i) => handler(name, 400 + (i % 7), `metrics.count('${name}.load', ${i});`));
  const from = 61 * 12;
  const search = lines.slice(from, from + 72);
  search[5] = search[5].replace('return;', 'return ;');
  search[30] = search[30].replace('deleted: false', 'deleted: fals');
  search[50] = search[50].replace('audit.record', 'audit.log');
  search.splice(60, 2, `${search[60]} ${search[61].trim()}`);
  const r = findFuzzyCandidates(lines, search, { maxCandidates: 3, minScore: 0.3 });
  assert.equal(r.truncated, false);
  // The block ends with the blank line after a handler: the window ends at that handler's '}'.
  assert.deepEqual([r.windows[0].start, r.windows[0].end], [from, from + 71]);
  assert.ok(r.windows[0].score > 0.9, `score ${r.windows[0].score}`);
  assert.ok(r.windows.slice(1).every((w) => w.score < r.windows[0].score));
});

test('fuzzy: results do not depend on earlier searches sharing a FuzzyScratch (the prefilter reuses its tables)', () => {
  const t = target();
  const typo = [...t.search];
  typo[4] = typo[4].replace('not found', 'not fuond');
  const names = Array.from({ length: 120 }, (_, i) => `${ENTITIES[i % ENTITIES.length]}${Math.floor(i / 10)}`);
  const big = names.flatMap((name, i) => handler(name, 400 + (i % 7), `metrics.count('${name}.load', ${i});`));
  const bigSearch = big.slice(30 * 12, 30 * 12 + 60).map((l, i) => (i === 7 ? l.replace('return;', 'return ;') : l));
  const options = { maxCandidates: 3, minScore: 0.3 };
  const small = findFuzzyCandidates(t.lines, typo, options);
  const large = findFuzzyCandidates(big, bigSearch, options);
  // Interleaved and repeated in the other order on one scratch, each input gets the answer it gets alone.
  const shared = { ...options, scratch: new FuzzyScratch() };
  assert.deepEqual(findFuzzyCandidates(t.lines, typo, shared), small);
  assert.deepEqual(findFuzzyCandidates(big, bigSearch, shared), large);
  assert.deepEqual(findFuzzyCandidates(t.lines, typo, shared), small);
  assert.deepEqual(findFuzzyCandidates(big, bigSearch, shared), large);
  // SEARCH ends with a handler's trailing blank line: the window ends at that handler's '}'.
  assert.deepEqual([large.windows[0].start, large.windows[0].end], [30 * 12, 30 * 12 + 59]);
  assert.deepEqual([small.windows[0].start, small.windows[0].end], [t.start, t.end]);
});

test('fuzzy: minScore filters weak candidates; unrelated text yields none', () => {
  const t = target();
  const search = [...t.search];
  search[4] = search[4].replace('not found', 'missing');
  const strict = findFuzzyCandidates(t.lines, search, { maxCandidates: 5, minScore: 0.95 });
  assert.equal(strict.windows.length, 1);
  assert.ok(strict.windows[0].score >= 0.95);
  assert.equal(strict.windows[0].start, t.start);
  const none = findFuzzyCandidates(t.lines, ['SELECT name FROM pg_catalog.pg_tables', 'WHERE schemaname = $1;'], {
    maxCandidates: 3,
    minScore: 0.5,
  });
  assert.deepEqual(none.windows, []);
});

test('fuzzy: trailing \\r is ignored and the region maps back to document lines around blank lines', () => {
  const doc = ['alpha();', '', 'const total = items.reduce((sum, x) => sum + x.price, 0);', '', '', 'return total;', 'omega();'];
  const crlf = doc.map((l) => `${l}\r`);
  const search = ['const total = items.reduce((sum, x) => sum + x.cost, 0);', 'return total;'];
  for (const lines of [doc, crlf]) {
    const r = findFuzzyCandidates(lines, search, { maxCandidates: 1, minScore: 0.5 });
    assert.deepEqual(
      r.windows.map((w) => [w.start, w.end]),
      [[2, 6]],
    );
  }
});

test('fuzzy: degenerate inputs', () => {
  assert.deepEqual(findFuzzyCandidates([], ['x'], { maxCandidates: 3, minScore: 0 }), { windows: [], truncated: false });
  assert.deepEqual(findFuzzyCandidates(['a', 'b'], ['', '  '], { maxCandidates: 3, minScore: 0 }), {
    windows: [],
    truncated: false,
  });
  assert.deepEqual(findFuzzyCandidates(['a', 'b'], ['a'], { maxCandidates: 0, minScore: 0 }).windows, []);
  // SEARCH longer than the whole document: the document is the one window
  const r = findFuzzyCandidates(['let a = 1;', 'let b = 2;'], ['let a = 1;', 'let b = 2;', 'let c = 3;', 'let d = 4;'], {
    maxCandidates: 3,
    minScore: 0,
  });
  assert.deepEqual(
    r.windows.map((w) => [w.start, w.end]),
    [[0, 2]],
  );
  // a short single line: Levenshtein decides
  const s = findFuzzyCandidates(['foo();', 'bar();', 'baz();'], ['bax();'], { maxCandidates: 2, minScore: 0.5 });
  assert.equal(s.windows.length, 2);
  assert.ok([1, 2].includes(s.windows[0].start));
});

test('fuzzy: the work cap truncates a huge adversarial input deterministically', () => {
  // 200k long lines sharing one alphabet: every window looks alike and the scan is expensive.
  const line = 'ab'.repeat(200);
  const lines = Array.from({ length: 200_000 }, (_, i) => (i % 7 === 0 ? line.replace('ab', 'ba') : line));
  const search = Array.from({ length: 400 }, () => line.replace('b', 'c'));
  const a = findFuzzyCandidates(lines, search, { maxCandidates: 3, minScore: 0, workCap: 2_000_000 });
  assert.equal(a.truncated, true);
  const b = findFuzzyCandidates(lines, search, { maxCandidates: 3, minScore: 0, workCap: 2_000_000 });
  assert.deepEqual(a, b);
  // the default cap also stops it
  assert.equal(findFuzzyCandidates(lines, search, { maxCandidates: 3, minScore: 0 }).truncated, true);
  // and a small input under the same cap is not truncated
  assert.equal(
    findFuzzyCandidates(lines.slice(0, 500), search.slice(0, 5), { maxCandidates: 3, minScore: 0, workCap: 2_000_000 }).truncated,
    false,
  );
});

test('fuzzy: every copy of the best region (re-indented, trailing spaces, blank lines inside) is listed with it, near copies are not', () => {
  // The region's first line also stands alone all over the file (more often than a line may vote), and
  // in the second file every one of its lines does: the copies are found through the
  // exact-line pass's lists in the first file and by the pass over all lines in the second.
  const region = [
    'return null;',
    'function pick(items, key) {',
    '  const seen = new Set();',
    '  for (const item of items) {',
    '    if (seen.has(item[key])) continue;',
    '    seen.add(item[key]);',
    '  }',
    '  return [...seen];',
  ];
  const search = region.map((l) => l.replace('new Set()', 'new Sett()'));
  for (const scattered of [[region[0]], region]) {
    const lines: string[] = [];
    const copies: Array<[number, number]> = [];
    const copy = (text: string[]): void => {
      copies.push([lines.length, lines.length + text.length]);
      lines.push(...text);
    };
    for (let i = 0; i < 700; i++) {
      if (scattered.length > 1 || i % 4 === 2) {
        lines.push(scattered[i % scattered.length]);
      }
      lines.push(`const v${i} = compute(${i}, 'k${i}');`);
      if (i === 40) {
        copy(region);
      } else if (i === 120) {
        copy(region.flatMap((l, k) => (k === 4 ? ['', `    ${l}`] : [`    ${l}`])));
      } else if (i === 200) {
        copy(region.map((l) => `${l}  \t`));
      } else if (i === 250) {
        lines.push(...region.slice(0, -1)); // a near copy: its last line missing
      } else if (i === 280) {
        lines.push(...region.map((l, k) => (k === 5 ? '    seen.add(item.id);' : l))); // a near copy: one line changed
      } else if (i === 300) {
        copy(region);
        copy(region); // back to back
      } else if (i >= 400 && i % 50 === 0) {
        copy(region); // past where the first line's list stops growing (more copies than evidence regions)
      }
    }
    const r = findFuzzyCandidates(lines, search, { maxCandidates: 16, minScore: 0.3 });
    const best = r.windows[0].score;
    assert.deepEqual(
      r.windows.filter((w) => w.score === best).map((w) => [w.start, w.end]),
      copies,
      `scattered ${scattered.length}: ${JSON.stringify(r.windows)}`,
    );
    assert.ok(r.windows.filter((w) => w.score !== best).every((w) => w.score < best));
  }
});
