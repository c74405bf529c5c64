// Generative test of the review's hunk model (core/report/hunks.ts): a slice of a real file from
// node_modules (LF or CRLF, with or without a last newline) gets a random apply of several changed
// places; its hunks then meet random typing between them, typing inside some of them, and Undos of a
// random subset in random order, each hunk followed through every change as the editor does
// (followChanges). Properties: the hunks rebuild the apply; every Undo finds its hunk exactly where the
// model has it and restores its original lines; a hunk typed in is refused; at the end the text is the
// model's: undone hunks original, the others as applied or typed, the typing between them kept.
import * as fs from 'node:fs';
import * as path from 'node:path';
import {
  type ChangedRegion,
  type ChangeHunk,
  changeHunks,
  followChanges,
  type LineChange,
  lineChange,
  linesWithEnds,
  regionHunks,
  restoreEdit,
} from '../../src/core/report/hunks';
import { type Random, seededRandom } from '../shared/seededRandom';

const ROOT = path.join(__dirname, '..', '..', '..');
const SOURCES = [
  'node_modules/mocha/lib/runner.js',
  'node_modules/diff/lib/index.js',
  'node_modules/js-yaml/dist/js-yaml.js',
  'node_modules/typescript/lib/lib.es5.d.ts',
  'node_modules/eslint/lib/linter/linter.js',
  'node_modules/yaml/dist/compose/composer.js',
  'node_modules/jsonc-parser/lib/umd/main.js',
];

let loaded: string[][] | undefined;
function sources(): string[][] {
  loaded ??= SOURCES.map((rel) => path.join(ROOT, rel))
    .filter((file) => fs.existsSync(file))
    .map((file) => fs.readFileSync(file, 'utf8').replace(/\r\n/g, '\n').split('\n'));
  return loaded;
}

const int = (rng: Random, n: number) => Math.floor(rng() * n);
const pick = <T>(rng: Random, list: readonly T[]): T => list[int(rng, list.length)];

type Segment =
  | { kind: 'gap'; lines: string[] }
  | { kind: 'hunk'; hunk: ChangeHunk; lines: string[]; state: 'applied' | 'undone' | 'typed'; line: number; touched: boolean };

export interface ReviewSummary {
  cases: number;
  hunks: number;
  undone: number;
  typed: number;
  refusedEdited: number;
  failures: string[];
}

/** A random run of whole lines holding every line that differs between the texts, as the editor reads it. */
export function regionAround(before: string, after: string, rng: Random): ChangedRegion {
  const a = linesWithEnds(before);
  const b = linesWithEnds(after);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) {
    head++;
  }
  let tail = 0;
  while (tail < Math.min(a.length, b.length) - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) {
    tail++;
  }
  const firstLine = head - int(rng, Math.min(head, 6) + 1);
  const outside = tail - int(rng, Math.min(tail, 6) + 1);
  return {
    firstLine,
    before: a.slice(firstLine, a.length - outside).join(''),
    after: b.slice(firstLine, b.length - outside).join(''),
    above: firstLine > 0 ? b[firstLine - 1] : undefined,
    below: outside > 0 ? b[b.length - outside] : undefined,
  };
}

/** One file slice and its apply: `before` and `after` texts. */
function makeApply(rng: Random): { before: string; after: string } {
  const all = pick(rng, sources());
  const length = 40 + int(rng, 360);
  const start = int(rng, Math.max(1, all.length - length));
  const slice = all.slice(start, start + length);
  const eol = rng() < 0.3 ? '\r\n' : '\n';
  const lastNewline = rng() < 0.8;
  const join = (lines: string[]) => lines.join(eol) + (lastNewline && lines.length > 0 ? eol : '');
  const places = 1 + int(rng, 8);
  const after: string[] = [];
  let i = 0;
  for (let k = 0; k < places && i < slice.length; k++) {
    const at = i + 2 + int(rng, Math.max(1, Math.floor(slice.length / places)));
    if (at >= slice.length) {
      break;
    }
    after.push(...slice.slice(i, at));
    const removed = int(rng, 4);
    const added = removed === 0 ? 1 + int(rng, 3) : int(rng, 4);
    for (let n = 0; n < added; n++) {
      // New lines: a changed copy of a line here, or a copy of any line of the slice (repeats make places ambiguous).
      after.push(rng() < 0.5 ? `${slice[Math.min(at + n, slice.length - 1)]} /* changed ${k}.${n} */` : pick(rng, slice));
    }
    i = at + removed;
  }
  after.push(...slice.slice(i));
  return { before: join(slice), after: join(after) };
}

function segmentsOf(after: string, hunks: ChangeHunk[]): Segment[] {
  const lines = after === '' ? [] : after.split(/(?<=\n)/);
  const segments: Segment[] = [];
  let at = 0;
  for (const hunk of hunks) {
    segments.push({ kind: 'gap', lines: lines.slice(at, hunk.newStart) });
    segments.push({ kind: 'hunk', hunk, lines: [...hunk.newLines], state: 'applied', line: hunk.newStart, touched: false });
    at = hunk.newStart + hunk.newLines.length;
  }
  segments.push({ kind: 'gap', lines: lines.slice(at) });
  return segments;
}

const textOf = (segments: Segment[]) => segments.map((s) => s.lines.join('')).join('');

function startOf(segments: Segment[], index: number): number {
  let line = 0;
  for (let k = 0; k < index; k++) {
    line += segments[k].lines.length;
  }
  return line;
}

/** Follows every hunk through one change, as the editor's change events do. */
function follow(segments: Segment[], change: LineChange): void {
  for (const s of segments) {
    if (s.kind === 'hunk') {
      const moved = followChanges(s.line, s.lines.length, [change]);
      s.line = moved.line;
      s.touched ||= moved.touched;
    }
  }
}

const content = (line: string) => line.replace(/\r?\n$/, '');

/** Typing between hunks: inside a gap, never its first or last line (the lines around a hunk stay). */
function typeBetween(rng: Random, segments: Segment[], eol: string): boolean {
  const gaps = segments.map((s, k) => [s, k] as const).filter(([s]) => s.kind === 'gap' && s.lines.length >= 4);
  if (gaps.length === 0) {
    return false;
  }
  const [gap, k] = pick(rng, gaps);
  const base = startOf(segments, k);
  const i = 1 + int(rng, gap.lines.length - 2);
  const kind = int(rng, 4);
  if (kind === 0) {
    const col = int(rng, content(gap.lines[i]).length + 1);
    follow(segments, lineChange(base + i, col, base + i, col, 'typed'));
    gap.lines[i] = `${gap.lines[i].slice(0, col)}typed${gap.lines[i].slice(col)}`;
  } else if (kind === 1) {
    const added = Array.from({ length: 1 + int(rng, 3) }, (_, n) => `new line ${n}${eol}`);
    follow(segments, lineChange(base + i, 0, base + i, 0, added.join('')));
    gap.lines.splice(i, 0, ...added);
  } else if (kind === 2) {
    const count = 1 + int(rng, gap.lines.length - 1 - i);
    follow(segments, lineChange(base + i, 0, base + i + count, 0, ''));
    gap.lines.splice(i, count);
  } else if (i + 1 < gap.lines.length - 1) {
    // Joins line i and the next.
    const col = content(gap.lines[i]).length;
    follow(segments, lineChange(base + i, col, base + i + 1, 0, ''));
    gap.lines.splice(i, 2, content(gap.lines[i]) + gap.lines[i + 1]);
  } else {
    return false;
  }
  return true;
}

/** One case; returns failure messages (empty when every property held). */
export function runCase(seed: number, index: number, summary: ReviewSummary): string[] {
  const rng = seededRandom(seed * 100_003 + index);
  const { before, after } = makeApply(rng);
  const eol = before.includes('\r\n') ? '\r\n' : '\n';
  const hunks = changeHunks(before, after);
  summary.hunks += hunks.length;
  const failures: string[] = [];
  const segments = segmentsOf(after, hunks);
  if (textOf(segments) !== after) {
    return ['the hunks do not rebuild the text after the apply'];
  }
  const rebuilt = hunks.reduceRight(
    (lines, h) => (lines.splice(h.oldStart, h.oldLines.length, ...h.newLines), lines),
    before.split(/(?<=\n)/),
  );
  if (rebuilt.join('') !== after) {
    failures.push('the hunks applied to the text before do not give the text after');
  }
  // The editor reads only a run of lines around the edit (appliedEdits.ts): any run holding every
  // changed line, with the lines just around it, gives the same hunks.
  const region = regionAround(before, after, rng);
  if (JSON.stringify(regionHunks(region)) !== JSON.stringify(hunks)) {
    failures.push(`the hunks of the lines from ${region.firstLine} are not those of the whole texts`);
  }
  const hunkSegments = segments.filter((s): s is Extract<Segment, { kind: 'hunk' }> => s.kind === 'hunk');
  const order = hunkSegments.map((s) => s).sort(() => rng() - 0.5);
  for (const s of order) {
    for (let t = int(rng, 3); t > 0; t--) {
      summary.typed += typeBetween(rng, segments, eol) ? 1 : 0;
    }
    const roll = rng();
    const at = startOf(segments, segments.indexOf(s));
    if (roll < 0.15 && s.lines.length > 0) {
      // The user types in the hunk: at the start of one of its lines, or at its end.
      const k = int(rng, s.lines.length);
      const col = rng() < 0.5 ? 0 : content(s.lines[k]).length;
      follow(segments, lineChange(at + k, col, at + k, col, '/*mine*/'));
      s.lines[k] = `${s.lines[k].slice(0, col)}/*mine*/${s.lines[k].slice(col)}`;
      s.state = 'typed';
      const text = textOf(segments);
      if (restoreEdit(s.hunk, text, s.line, !s.touched) !== undefined) {
        failures.push(`a hunk typed in at line ${at + k} was found for Undo`);
      }
      summary.refusedEdited++;
    } else if (roll < 0.75) {
      const text = textOf(segments);
      const edit = restoreEdit(s.hunk, text, s.line, !s.touched);
      if (!edit || edit.line !== at) {
        failures.push(`Undo of the hunk at line ${at} ${edit ? `went to line ${edit.line}` : 'did not find it'} (followed to ${s.line})`);
        break;
      }
      const [start, end] = [text.slice(0, edit.start), text.slice(edit.end)];
      const endLine = edit.line + s.lines.length;
      const lastLength =
        s.lines.length > 0 && !s.lines[s.lines.length - 1].endsWith('\n') ? content(s.lines[s.lines.length - 1]).length : 0;
      follow(
        segments,
        lastLength > 0
          ? lineChange(edit.line, 0, endLine - 1, lastLength, edit.newText)
          : lineChange(edit.line, 0, endLine, 0, edit.newText),
      );
      s.lines = [...s.hunk.oldLines];
      s.state = 'undone';
      summary.undone++;
      if (start + edit.newText + end !== textOf(segments)) {
        failures.push(`Undo of the hunk at line ${at} did not give the expected text`);
      }
    }
  }
  return failures;
}

export function runReviewProperty(options: { cases: number; seed: number }): ReviewSummary {
  const summary: ReviewSummary = { cases: options.cases, hunks: 0, undone: 0, typed: 0, refusedEdited: 0, failures: [] };
  for (let index = 0; index < options.cases && summary.failures.length < 10; index++) {
    for (const message of runCase(options.seed, index, summary)) {
      summary.failures.push(`seed ${options.seed} case ${index}: ${message}`);
    }
  }
  return summary;
}
