// The code-block property (issue 20): take real files (test/property/fixtures and the repository's own
// src/), make a real edit inside one declaration (a line removed, duplicated, copied in from elsewhere in
// the file, or a word renamed), render the edited file as a code block in a random shape (the declaration
// alone, the declaration inside its enclosing one between placeholder lines, the whole file), and apply
// it to the original. The apply must reproduce the edit exactly or refuse; it must never remove a
// declaration the block does not show, and never write a placeholder line.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { applySnippetWith } from '../../src/core/batch/snippet';
import { isPlaceholderLine } from '../../src/core/formats/placeholders';
import { type Decl, outlineText, walkDecls } from '../../src/core/match/structure/outline';
import { grammarFor } from '../../src/core/match/structure/languages';
import { parseOutline, prepareGrammar } from '../../src/core/match/structure/treeSitter';
import { seededRandom, type Random } from '../shared/seededRandom';
import { testGrammars } from '../shared/grammars';

const ROOT = path.resolve(__dirname, '..', '..', '..');

export interface SourceFile {
  name: string;
  text: string;
}

/** The fixtures and the repository's own TypeScript sources. */
export function snippetSources(): SourceFile[] {
  const files: SourceFile[] = [];
  const fixtures = path.join(ROOT, 'test', 'property', 'fixtures');
  for (const name of fs.readdirSync(fixtures)) {
    files.push({ name, text: fs.readFileSync(path.join(fixtures, name), 'utf8') });
  }
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        walk(full);
      } else if (entry.name.endsWith('.ts')) {
        files.push({ name: path.relative(ROOT, full), text: fs.readFileSync(full, 'utf8') });
      }
    }
  };
  walk(path.join(ROOT, 'src'));
  return files;
}

type Shape = 'declaration' | 'placeholders' | 'whole';
type Edit = 'remove' | 'duplicate' | 'copy-in' | 'rename';

export interface SnippetSummary {
  cases: number;
  applied: number;
  refused: Record<string, number>;
  skipped: number;
  byShape: Record<string, number>;
  failures: Array<{ index: number; message: string }>;
}

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];

async function outlineOf(file: SourceFile, text: string): Promise<Decl[]> {
  const grammar = grammarFor(undefined, file.name);
  if (!grammar) {
    return outlineText(text.split('\n')).decls;
  }
  await prepareGrammar(grammar, testGrammars);
  return parseOutline(grammar, text).decls;
}

/** A real edit inside the body of `decl`: the new lines of the file, and how many lines the declaration grew by. */
function editInside(
  random: Random,
  lines: string[],
  decl: Decl,
): { lines: string[]; delta: number; edit: Edit; besideItsCopy?: boolean } | undefined {
  const body = decl.interior;
  if (!body || body.end - body.start < 1) {
    return undefined;
  }
  const filled: number[] = [];
  for (let i = body.start; i < body.end; i++) {
    if (lines[i].trim() !== '' && !decl.children.some((c) => i >= c.lead && i <= c.end)) {
      filled.push(i);
    }
  }
  if (filled.length === 0) {
    return undefined;
  }
  const at = pick(random, filled);
  const edit = pick<Edit>(random, ['remove', 'duplicate', 'copy-in', 'rename']);
  const out = [...lines];
  switch (edit) {
    case 'remove':
      out.splice(at, 1);
      return { lines: out, delta: -1, edit };
    case 'duplicate':
      out.splice(at, 0, lines[at]);
      return { lines: out, delta: 1, edit };
    case 'copy-in': {
      const other = pick(
        random,
        lines.filter((l) => l.trim() !== ''),
      );
      const lead = /^[ \t]*/.exec(lines[at])?.[0] ?? '';
      out.splice(at + 1, 0, lead + other.trim());
      // A copy of the line above or below it (blank lines between do not count: the audit reads past them):
      // shown as the block's last (or first) line, it reads as that line of the file shown for context as
      // much as a line added, so a refusal is as right as the edit.
      let below = at + 1;
      while (below < lines.length && lines[below].trim() === '') {
        below++;
      }
      const besideItsCopy = [lines[at], lines[below]].some((l) => l?.trim() === other.trim());
      return { lines: out, delta: 1, edit, besideItsCopy };
    }
    case 'rename': {
      const words = [...lines[at].matchAll(/\b[A-Za-z_]\w{2,}\b/g)];
      if (words.length === 0) {
        return undefined;
      }
      const word = pick(random, words);
      out[at] = lines[at].slice(0, word.index) + `${word[0]}Renamed` + lines[at].slice((word.index ?? 0) + word[0].length);
      return { lines: out, delta: 0, edit };
    }
  }
}

function placeholderFor(name: string): string {
  return /\.(py|pl|yaml|yml|sh|rb)$|Makefile$/.test(name) ? '# ... existing code ...' : '// ... existing code ...';
}

/** The edited file rendered as a code block of the given shape. */
function render(shape: Shape, file: SourceFile, edited: string[], decl: Decl, parent: Decl | undefined, delta: number): string {
  if (shape === 'whole') {
    return edited.join('\n');
  }
  const own = edited.slice(decl.lead, decl.end + 1 + delta);
  if (shape === 'declaration' || !parent?.interior) {
    return shape === 'declaration' ? own.join('\n') : [placeholderFor(file.name), ...own, placeholderFor(file.name)].join('\n');
  }
  // The enclosing declaration's first and last lines (above and below the edit, so unchanged), placeholders around.
  const lead = /^[ \t]*/.exec(edited[decl.start])?.[0] ?? '';
  const header = edited.slice(parent.start, parent.interior.start);
  const footer = edited.slice(parent.interior.end + delta, parent.end + 1 + delta);
  return [...header, lead + placeholderFor(file.name), ...own, lead + placeholderFor(file.name), ...footer].join('\n');
}

function declPaths(decls: readonly Decl[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const { decl, parents } of walkDecls(decls)) {
    const key = [...parents.map((p) => p.name), decl.name].join('.');
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Files whose ' and " strings are the same strings (no JSX in the sources). */
const DELIMITER_FREE = /\.(ts|js|py)$/;

/**
 * The line with its strings delimited by `quote`, when that surely means the same (written apart from the
 * product's rule, and narrower): strings of letters, digits and `_./@:-` only, and no quote, backslash,
 * backtick, `/`, `#` or `<` left outside them. Else the line as it is.
 */
function redelimit(line: string, quote: '"' | "'"): string {
  const plain = /'[\w./@:-]*'|"[\w./@:-]*"/g;
  const rest = line.replace(plain, '');
  if (/['"\\`/#<]/.test(rest) || rest === line) {
    return line;
  }
  return line.replace(plain, (s) => quote + s.slice(1, -1) + quote);
}

/** The block's lines redelimited, but for those inside a template literal, block comment or triple-quoted string (counted naively). */
function redelimitBlock(lines: readonly string[], quote: '"' | "'"): string[] {
  let ticks = 0;
  let triples = 0;
  let comment = false;
  return lines.map((line) => {
    const inside = ticks % 2 === 1 || triples % 2 === 1 || comment;
    ticks += (line.match(/`/g) ?? []).length;
    triples += (line.match(/"""|'''/g) ?? []).length;
    const opens = line.lastIndexOf('/*');
    const closes = line.lastIndexOf('*/');
    comment = opens > closes || (comment && closes < 0);
    return inside ? line : redelimit(line, quote);
  });
}

/**
 * Whether a result that is not the edit differs from it only on lines the file does not have, each
 * written as the drifted block wrote it: new lines are the model's, and keep its quotes unless every
 * line it repeated says which the file uses.
 */
function sameUpToNewLinesQuotes(content: string, expected: string, fileLines: readonly string[], quote: '"' | "'"): boolean {
  const a = content.split('\n');
  const b = expected.split('\n');
  const file = new Set(fileLines);
  return a.length === b.length && a.every((line, k) => line === b[k] || (!file.has(b[k]) && line === redelimit(b[k], quote)));
}

/** How a refusal by the audit (decide/audit/codeBlockAudit.ts) reads. */
const AUDIT_REFUSAL = 'the planned result breaks the rule that';

/** One case: undefined when it holds (or was skipped: `skipped` says so), else what went wrong. */
export async function runSnippetCase(
  sources: readonly SourceFile[],
  seed: number,
  index: number,
): Promise<{ outcome: 'applied' | 'skipped' | string; shape?: Shape; failure?: string }> {
  const random = seededRandom(seed * 1_000_003 + index);
  const file = pick(random, sources);
  const lines = file.text.split('\n');
  const decls = await outlineOf(file, file.text);
  const all = [...walkDecls(decls)].filter(({ decl }) => decl.interior && decl.interior.end > decl.interior.start);
  if (all.length === 0) {
    return { outcome: 'skipped' };
  }
  const { decl, parents } = pick(random, all);
  const edit = editInside(random, lines, decl);
  if (!edit) {
    return { outcome: 'skipped' };
  }
  const shape = pick<Shape>(random, ['declaration', 'placeholders', 'whole']);
  const rendered = render(shape, file, edit.lines, decl, parents[parents.length - 1], edit.delta);
  // A model's quote drift, drawn after every other choice so a seed's cases stay what they were.
  const drift = DELIMITER_FREE.test(file.name) && random() < 1 / 3 ? pick(random, ['"', "'"] as const) : undefined;
  const code = drift ? redelimitBlock(rendered.split('\n'), drift).join('\n') : rendered;
  const expected = edit.lines.join('\n');
  const options = { grammars: testGrammars, fileName: file.name };
  const result = await applySnippetWith(file.text, { code, fileName: file.name }, options);
  const where = `${file.name}, ${edit.edit} in ${decl.kind} ${decl.name} (line ${decl.start + 1}), shape ${shape}${drift ? `, strings re-quoted with ${drift}` : ''}`;
  if (result.status !== 'applied') {
    if (!result.message.includes(AUDIT_REFUSAL)) {
      return { outcome: result.status, shape };
    }
    // The audit as oracle: what it refused, applied unchecked, must not be the edit itself.
    const unchecked = await applySnippetWith(file.text, { code, fileName: file.name }, options, undefined, false);
    if (unchecked.content === expected && !edit.besideItsCopy) {
      return { outcome: 'audit', shape, failure: `${where}: the audit refused the exact edit: ${result.message}` };
    }
    return { outcome: 'audit', shape };
  }
  const content = result.content ?? '';
  const context = { fileName: file.name };
  const written = content.split('\n').filter((l) => isPlaceholderLine(l, context)).length;
  const before = lines.filter((l) => isPlaceholderLine(l, context)).length;
  if (written > before) {
    return { outcome: 'applied', shape, failure: `${where}: a placeholder line was written` };
  }
  if (content !== expected && !(drift && sameUpToNewLinesQuotes(content, expected, lines, drift))) {
    if (shape !== 'whole') {
      const after = declPaths(await outlineOf(file, content));
      for (const [key, count] of declPaths(decls)) {
        if ((after.get(key) ?? 0) < count && !(edit.edit === 'rename' && key.endsWith(decl.name))) {
          return { outcome: 'applied', shape, failure: `${where}: ${key} was removed although the block does not show it` };
        }
      }
    }
    const a = content.split('\n');
    const b = expected.split('\n');
    let k = 0;
    while (k < a.length && a[k] === b[k]) {
      k++;
    }
    return {
      outcome: 'applied',
      shape,
      failure: `${where}: applied, but not the edit; first difference at line ${k + 1}: got ${JSON.stringify(a[k])}, wanted ${JSON.stringify(b[k])}`,
    };
  }
  return { outcome: 'applied', shape };
}

export async function runSnippetProperty(options: { cases: number; seed: number; maxFailures?: number }): Promise<SnippetSummary> {
  const sources = snippetSources();
  const summary: SnippetSummary = { cases: 0, applied: 0, refused: {}, skipped: 0, byShape: {}, failures: [] };
  for (let index = 0; index < options.cases; index++) {
    summary.cases++;
    const result = await runSnippetCase(sources, options.seed, index);
    if (result.shape) {
      summary.byShape[result.shape] = (summary.byShape[result.shape] ?? 0) + 1;
    }
    if (result.failure) {
      summary.failures.push({ index, message: result.failure });
      if (summary.failures.length >= (options.maxFailures ?? 20)) {
        break;
      }
    } else if (result.outcome === 'skipped') {
      summary.skipped++;
    } else if (result.outcome === 'applied') {
      summary.applied++;
    } else {
      summary.refused[result.outcome] = (summary.refused[result.outcome] ?? 0) + 1;
    }
  }
  return summary;
}
