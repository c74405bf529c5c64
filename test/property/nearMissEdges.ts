// Near misses for a region the file has grown lines inside at its edges (issue 25): real files from
// node_modules, a SEARCH region taken from one, k lines inserted right after SEARCH's first line, right
// before its last, or both (lines of the same file from elsewhere, as a file grows), sometimes one
// SEARCH line misremembered. The engine must not apply it and its first candidate must be the grown
// region exactly (the model copies what it is shown). A second family puts a comment copying one of
// the region's edge lines beside that line (`// return x + 1;` above `return x + 1;`) and adds a note
// to SEARCH's copy of it: the first candidate must be the code, never the comment.
// Fast slice in test/unit/nearMissEdges.test.ts; long run `npm run test:near-misses -- --cases N --seed S`.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyBlocks } from '../../src/core/engine';
import { seededRandom, type Random } from '../shared/seededRandom';

const ROOT = path.resolve(__dirname, '../../..');
/** Files pinned by package-lock.json, in four languages' comment syntaxes. */
const SOURCES = [
  'node_modules/semver/classes/range.js',
  'node_modules/semver/classes/semver.js',
  'node_modules/commander/lib/command.js',
  'node_modules/express/lib/response.js',
  'node_modules/yaml/dist/compose/composer.js',
  'node_modules/acorn/dist/acorn.js',
  'node_modules/typescript/lib/lib.es5.d.ts',
  'node_modules/flatted/python/flatted.py',
];

export type EdgeKind = 'after-first' | 'before-last' | 'both' | 'comment-copy';

export interface EdgeSummary {
  cases: number;
  byKind: Record<EdgeKind, { cases: number; failures: number }>;
  failures: string[];
}

/** A line a search can hold on to: two word characters, not a comment. */
function codeLine(line: string): boolean {
  return /\w.*\w/.test(line) && !/^\s*(\/\/|\/\*|\*|#)/.test(line);
}

function pick<T>(items: readonly T[], r: Random): T {
  return items[Math.floor(r() * items.length)];
}

/** A line changed the way a model misremembers it: two letters of a word swapped. */
function misremember(line: string): string {
  const m = /[A-Za-z_][A-Za-z0-9_]{3,}/.exec(line);
  if (!m) {
    return `${line} // changed`;
  }
  const w = m[0];
  return line.slice(0, m.index) + w[1] + w[0] + w.slice(2) + line.slice(m.index + w.length);
}

export interface EdgeCase {
  kind: EdgeKind;
  where: string;
  doc: string[];
  search: string[];
  /** The region the first candidate must be: 0-based document lines, end exclusive. */
  start: number;
  end: number;
}

/** One case, or undefined when the picked region is not a fair one (a twin elsewhere, blank or comment edges). */
function makeCase(kind: EdgeKind, file: { name: string; lines: string[] }, r: Random): EdgeCase | undefined {
  const all = file.lines;
  const from = Math.floor(r() * Math.max(1, all.length - 400));
  const docLines = all.slice(from, from + 150 + Math.floor(r() * 250));
  const n = 3 + Math.floor(r() * 12);
  const s = Math.floor(r() * Math.max(1, docLines.length - n));
  const region = docLines.slice(s, s + n);
  if (region.length < n || !codeLine(region[0]) || !codeLine(region[n - 1]) || region.some((l) => l.trim() === '')) {
    return undefined;
  }
  // The region once in the document, its edge lines too: otherwise the intended place is not one.
  const trimmed = docLines.map((l) => l.trim());
  const text = trimmed.join('\n');
  const want = region.map((l) => l.trim()).join('\n');
  if (text.indexOf(want) !== text.lastIndexOf(want)) {
    return undefined;
  }
  if ([region[0], region[n - 1]].some((edge) => trimmed.filter((l) => l === edge.trim()).length > 1)) {
    return undefined;
  }
  const search = [...region];
  if (r() < 0.5 && n > 4) {
    const k = 1 + Math.floor(r() * (n - 2));
    search[k] = misremember(search[k]);
  }
  const where = `${file.name}:${from + s + 1} (${n} lines)`;
  if (kind === 'comment-copy') {
    const first = r() < 0.5;
    const edge = first ? 0 : n - 1;
    const line = region[edge];
    const marker = file.name.endsWith('.py') ? '# ' : '// ';
    const comment = /^\s*/.exec(line)![0] + marker + line.trim();
    const above = r() < 0.5;
    const at = s + edge + (above ? 0 : 1);
    const doc = [...docLines.slice(0, at), comment, ...docLines.slice(at)];
    search[edge] = `${search[edge]} ${marker}note`;
    const start = s + (above && edge === 0 ? 1 : 0);
    return {
      kind,
      where: `${where}, ${first ? 'first' : 'last'} line copied in a comment ${above ? 'above' : 'below'}`,
      doc,
      search,
      start,
      end: start + n + (at > s && at < s + n ? 1 : 0),
    };
  }
  // Lines of the same file from elsewhere, none of them a line of the region: at most as many as the
  // search spans (half of SEARCH's lines, at least 8; split between the two edges for 'both').
  const most = Math.max(8, Math.ceil(n / 2));
  const k = 1 + Math.floor(r() * (kind === 'both' ? Math.floor(most / 2) : most));
  const sourceAt = Math.floor(r() * Math.max(1, all.length - k));
  const grown = all.slice(sourceAt, sourceAt + k).filter((l) => l.trim() !== '' && !region.some((x) => x.trim() === l.trim()));
  if (grown.length === 0 || (kind === 'both' && n < 4)) {
    return undefined;
  }
  const indent = /^\s*/.exec(region[Math.min(1, n - 1)])![0];
  const inserted = grown.map((l) => indent + l.trim());
  const body = [...region];
  if (kind === 'after-first' || kind === 'both') {
    body.splice(1, 0, ...inserted);
  }
  if (kind === 'before-last' || kind === 'both') {
    body.splice(body.length - 1, 0, ...inserted);
  }
  const doc = [...docLines.slice(0, s), ...body, ...docLines.slice(s + n)];
  return { kind, where: `${where}, ${inserted.length} lines grown ${kind}`, doc, search, start: s, end: s + body.length };
}

/** The first `count` cases from `seed` (the same on every run). */
export function* edgeCases(count: number, seed: number): Generator<EdgeCase> {
  const files = SOURCES.map((p) => ({ name: path.basename(p), lines: fs.readFileSync(path.join(ROOT, p), 'utf8').split(/\r?\n/) }));
  const r = seededRandom(seed);
  const kinds: EdgeKind[] = ['after-first', 'before-last', 'both', 'comment-copy'];
  let made = 0;
  for (let attempt = 0; made < count && attempt < count * 50; attempt++) {
    const c = makeCase(kinds[made % kinds.length], pick(files, r), r);
    if (c) {
      made++;
      yield c;
    }
  }
}

/** Runs `cases` cases from `seed`; a failure names the case and what the first candidate was. */
export function runNearMissEdgeProperty(options: { cases: number; seed: number; maxFailures?: number }): EdgeSummary {
  const summary: EdgeSummary = { cases: 0, byKind: {} as EdgeSummary['byKind'], failures: [] };
  for (const kind of ['after-first', 'before-last', 'both', 'comment-copy'] as const) {
    summary.byKind[kind] = { cases: 0, failures: 0 };
  }
  for (const c of edgeCases(options.cases, options.seed)) {
    summary.cases++;
    summary.byKind[c.kind].cases++;
    const edit = { index: 1, sourceLine: 1, search: c.search.join('\n'), replace: `${c.search.join('\n')}\nextra();` };
    const result = applyBlocks(`${c.doc.join('\n')}\n`, [edit], { fileName: c.where.split(':')[0] });
    const top = result.blocks[0]?.candidates[0];
    const got = top ? `${top.startLine}-${top.endLine}` : 'none';
    const wanted = `${c.start + 1}-${c.end}`;
    if (result.status === 'applied' || got !== wanted) {
      summary.byKind[c.kind].failures++;
      if (summary.failures.length < (options.maxFailures ?? Infinity)) {
        summary.failures.push(`case ${summary.cases} ${c.where}: ${result.status}, first candidate ${got}, want ${wanted}`);
      }
    }
  }
  return summary;
}
