// Renders a real edit (two versions of one file) as the code blocks chat models write for it. The change
// must lie inside one or two declarations of the new file (read with the product's own structure reader:
// tree-sitter where a grammar exists, else the indentation outline); each shape below is one case, and
// every case expects the new file byte for byte.
//   decl      the changed declarations alone, as indented in the file
//   dedented  the same, moved to column 0
//   skeleton  inside their enclosing declarations, the rest elided by `// ... existing code ...`
//   elided    the whole file, every declaration the change leaves alone elided
//   beside    a new declaration with the neighbour it follows (or precedes)
import * as path from 'node:path';
import { type Decl, type Outline, outlineText } from '../../src/core/match/structure/outline';
import { GRAMMARS, grammarFor } from '../../src/core/match/structure/languages';
import { parseOutline, prepareGrammar } from '../../src/core/match/structure/treeSitter';
import { languageIdFor } from '../../src/node/paths';
import { testGrammars } from '../shared/grammars';
import { type Hunk, lineHunks } from './lineDiff';

export type Shape = 'decl' | 'dedented' | 'skeleton' | 'elided' | 'beside';

export interface RenderedBlock {
  shape: Shape;
  /** The model's answer: one fenced code block. */
  block: string;
}

export interface RenderedChange {
  /** What the change touches, e.g. "method Foo.bar (changed)". */
  what: string;
  blocks: RenderedBlock[];
}

/** The language a corpus counts a file under (the extension's family). */
export function languageOf(file: string): string {
  const ext = path.extname(file).slice(1).toLowerCase();
  const families: Record<string, string> = {
    mjs: 'js',
    cjs: 'js',
    jsx: 'js',
    mts: 'ts',
    cts: 'ts',
    tsx: 'ts',
    hpp: 'cpp',
    cc: 'cpp',
    cxx: 'cpp',
    h: 'cpp',
    mm: 'objc',
    m: 'objc',
    podspec: 'rb',
    rake: 'rb',
    gemspec: 'rb',
    bash: 'sh',
    kts: 'kt',
    pyi: 'py',
  };
  return families[ext] ?? ext;
}

const FENCE_TAGS: Record<string, string> = {
  js: 'javascript',
  ts: 'typescript',
  py: 'python',
  rb: 'ruby',
  rs: 'rust',
  cs: 'csharp',
  kt: 'kotlin',
  objc: 'objectivec',
  sh: 'bash',
};

/** The comment a placeholder line is written in, for the file's language. */
export function placeholderFor(file: string, indent: string): string {
  const lang = languageOf(file);
  const text = '... existing code ...';
  if (['py', 'rb', 'sh', 'pl', 'r', 'ps1', 'coffee', 'ex', 'exs', 'gyp', 'gypi'].includes(lang)) {
    return `${indent}# ${text}`;
  }
  if (lang === 'css') {
    return `${indent}/* ${text} */`;
  }
  if (['html', 'xml', 'vue', 'svelte', 'md'].includes(lang)) {
    return `${indent}<!-- ${text} -->`;
  }
  if (['sql', 'lua', 'hs'].includes(lang)) {
    return `${indent}-- ${text}`;
  }
  return `${indent}// ${text}`;
}

/** The declarations of a text, read the way applySnippet reads the file. */
export async function outlineOf(text: string, file: string): Promise<Outline> {
  // SCSS and Less have no grammar of their own in the product: their rules are read with the CSS grammar here.
  const grammar = grammarFor(languageIdFor(file), file) ?? (/\.(scss|less)$/.test(file) ? GRAMMARS.css : undefined);
  if (grammar) {
    await prepareGrammar(grammar, testGrammars);
    return parseOutline(grammar, text);
  }
  return outlineText(text.split('\n'));
}

interface Located {
  decl: Decl;
  parents: Decl[];
}

/** The innermost declaration holding lines [from, to) (an empty range: holding the line `from` strictly inside). */
function innermost(decls: readonly Decl[], from: number, to: number, parents: Decl[] = []): Located | undefined {
  for (const decl of decls) {
    const inside = to > from ? decl.lead <= from && to - 1 <= decl.end : decl.lead < from && from <= decl.end;
    if (inside) {
      const deeper = innermost(decl.children, from, to, [...parents, decl]);
      // A field alone is rarely what a model rewrites: the change is read as its container's.
      if (deeper && deeper.decl.family !== 'value') {
        return deeper;
      }
      return { decl, parents };
    }
  }
  return undefined;
}

const pathOf = (l: Located) => [...l.parents, l.decl].map((d) => `${d.kind} ${d.name}`).join(' > ');

function find(decls: readonly Decl[], wanted: string, parents: Decl[] = []): Located[] {
  const found: Located[] = [];
  for (const decl of decls) {
    const here = { decl, parents };
    if (pathOf(here) === wanted) {
      found.push(here);
    }
    found.push(...find(decl.children, wanted, [...parents, decl]));
  }
  return found;
}

const blank = (line: string) => line.trim() === '';
const indentOf = (line: string) => /^\s*/.exec(line)?.[0] ?? '';

function fence(file: string, lines: readonly string[]): string {
  const lang = languageOf(file);
  const tag = FENCE_TAGS[lang] ?? lang;
  const ticks = lines.some((l) => l.trimStart().startsWith('```')) ? '````' : '```';
  return `${ticks}${tag}\n${lines.join('\n')}\n${ticks}\n`;
}

interface Target extends Located {
  added: boolean;
}

/**
 * The declarations the edit changes, or why it is not a case: every hunk must lie inside one of at most two
 * declarations of the new file that the old file has under the same name (or that the edit adds whole).
 */
function targetsOf(hunks: readonly Hunk[], before: Outline, after: Outline, b: readonly string[]): Target[] | string {
  const targets: Target[] = [];
  for (const h of hunks) {
    const inAfter = innermost(after.decls, h.bStart, h.bEnd);
    if (!inAfter) {
      return 'a change outside every declaration';
    }
    const name = pathOf(inAfter);
    const inBefore = find(before.decls, name);
    const existing = targets.find((t) => pathOf(t) === name && t.decl.start === inAfter.decl.start);
    if (existing) {
      continue;
    }
    if (inBefore.length > 0) {
      targets.push({ ...inAfter, added: false });
      continue;
    }
    // A declaration the old file lacks: added whole (the hunk is the declaration, blank lines at most besides).
    const { decl } = inAfter;
    const addedWhole = h.aStart === h.aEnd && h.bStart <= decl.lead && decl.end < h.bEnd;
    const rest = [...b.slice(h.bStart, decl.lead), ...b.slice(decl.end + 1, h.bEnd)];
    if (!addedWhole || !rest.every(blank)) {
      return `${name} is new, or renamed, and the change is more than adding it`;
    }
    targets.push({ ...inAfter, added: true });
  }
  // A target inside another target is the outer one's change.
  const outer = targets.filter((t) => !targets.some((o) => o !== t && t.parents.includes(o.decl)));
  if (outer.length === 0 || outer.length > 2) {
    return `the change touches ${outer.length} declarations`;
  }
  // Every old line the edit removes lies in the old declaration of the same name.
  for (const h of hunks) {
    if (h.aEnd === h.aStart) {
      continue;
    }
    const holders = outer.filter((t) => !t.added).flatMap((t) => find(before.decls, pathOf(t)));
    if (!holders.some((l) => l.decl.lead <= h.aStart && h.aEnd - 1 <= l.decl.end)) {
      return 'the old lines of a hunk lie outside the declaration';
    }
  }
  return outer.sort((x, y) => x.decl.lead - y.decl.lead);
}

/** Lines of the file, with everything but the targets (and their enclosing declarations' headers and closers) elided. */
function elide(
  b: readonly string[],
  after: Outline,
  targets: readonly Target[],
  file: string,
  keepLooseLines: boolean,
): string[] | undefined {
  const out: string[] = [];
  let ok = true;
  const placeholder = (indent: string) => {
    // Blank lines between two placeholders go with them: one placeholder stands for the whole run.
    let k = out.length - 1;
    while (k >= 0 && blank(out[k])) {
      k--;
    }
    if (k >= 0 && out[k].trim() === placeholderFor(file, '').trim()) {
      out.length = k + 1;
      return;
    }
    out.push(placeholderFor(file, indent));
  };
  const gap = (from: number, to: number) => {
    const lines = b.slice(from, to);
    if (keepLooseLines) {
      out.push(...lines);
    } else if (lines.some((l) => !blank(l))) {
      placeholder(indentOf(lines.find((l) => !blank(l)) ?? ''));
    }
  };
  const level = (decls: readonly Decl[], from: number, to: number) => {
    let cursor = from;
    for (const decl of decls) {
      gap(cursor, decl.lead);
      const target = targets.find((t) => t.decl === decl);
      const holds = targets.some((t) => t.parents.includes(decl));
      if (target) {
        out.push(...b.slice(decl.lead, decl.end + 1));
      } else if (holds) {
        if (!decl.interior) {
          ok = false;
          return;
        }
        out.push(...b.slice(keepLooseLines ? decl.lead : decl.start, decl.interior.start));
        level(decl.children, decl.interior.start, decl.interior.end);
        out.push(...b.slice(decl.interior.end, decl.end + 1));
      } else {
        placeholder(indentOf(b[decl.start]));
      }
      cursor = decl.end + 1;
    }
    gap(cursor, to);
  };
  level(after.decls, 0, b.length);
  if (!ok) {
    return undefined;
  }
  while (out.length > 0 && blank(out[out.length - 1])) {
    out.pop();
  }
  while (out.length > 0 && blank(out[0])) {
    out.shift();
  }
  return out;
}

/** The declarations' own lines, with what lies between them kept when blank, else elided. */
function alone(b: readonly string[], targets: readonly Target[], file: string): string[] {
  const out = b.slice(targets[0].decl.lead, targets[0].decl.end + 1);
  if (targets.length === 2) {
    const between = b.slice(targets[0].decl.end + 1, targets[1].decl.lead);
    out.push(...(between.every(blank) ? between : ['', placeholderFor(file, indentOf(b[targets[1].decl.start])), '']));
    out.push(...b.slice(targets[1].decl.lead, targets[1].decl.end + 1));
  }
  return out;
}

function dedent(lines: readonly string[]): string[] | undefined {
  const indents = lines.filter((l) => !blank(l)).map((l) => indentOf(l));
  const common = indents.reduce((a, c) => (c.startsWith(a) ? a : a.startsWith(c) ? c : ''), indents[0] ?? '');
  if (common === '') {
    return undefined;
  }
  return lines.map((l) => (l.startsWith(common) ? l.slice(common.length) : l.trimStart()));
}

/** The new declaration with the sibling declaration it follows (or, when first, precedes). */
function beside(b: readonly string[], after: Outline, target: Target): string[] | undefined {
  const siblings = target.parents.length > 0 ? target.parents[target.parents.length - 1].children : after.decls;
  const at = siblings.indexOf(target.decl);
  const before = siblings[at - 1];
  const next = siblings[at + 1];
  if (before) {
    return b.slice(before.lead, target.decl.end + 1);
  }
  return next ? b.slice(target.decl.lead, next.end + 1) : undefined;
}

/** The code blocks for one real edit, or why it is not a case. */
export async function renderChange(beforeText: string, afterText: string, file: string): Promise<RenderedChange | string> {
  // A CRLF file is read as LF (a model writes its block with \n); the result must keep the file's CRLF.
  const crlf = (t: string) => t.includes('\r\n') && !/(^|[^\r])\n/.test(t);
  if (crlf(beforeText) && crlf(afterText)) {
    return renderChange(beforeText.replace(/\r\n/g, '\n'), afterText.replace(/\r\n/g, '\n'), file);
  }
  if (beforeText.includes('\r') || afterText.includes('\r')) {
    return 'mixed line ends';
  }
  const a = beforeText.split('\n');
  const b = afterText.split('\n');
  const hunks = lineHunks(a, b);
  if (!hunks || hunks.length === 0) {
    return hunks ? 'no change' : 'the change is too large to compare';
  }
  const [before, after] = [await outlineOf(beforeText, file), await outlineOf(afterText, file)];
  const targets = targetsOf(hunks, before, after, b);
  if (typeof targets === 'string') {
    return targets;
  }
  const blocks: RenderedBlock[] = [];
  const add = (shape: Shape, lines: readonly string[] | undefined) => {
    if (lines && lines.length > 0 && !blocks.some((x) => x.block === fence(file, lines))) {
      blocks.push({ shape, block: fence(file, lines) });
    }
  };
  const added = targets.some((t) => t.added);
  const sameParent = targets.every((t) => t.parents[t.parents.length - 1] === targets[0].parents[targets[0].parents.length - 1]);
  if (!added && sameParent) {
    const lines = alone(b, targets, file);
    add('decl', lines);
    add('dedented', dedent(lines));
  }
  if (added && targets.length === 1) {
    add('beside', beside(b, after, targets[0]));
  }
  add('skeleton', elide(b, after, targets, file, false));
  add('elided', elide(b, after, targets, file, true));
  const what = targets
    .map((t) => `${t.parents.map((p) => `${p.name}.`).join('')}${t.decl.kind} ${t.decl.name}${t.added ? ' (added)' : ''}`)
    .join(', ');
  return { what, blocks };
}

export interface PartialChange {
  /** The new file: the real one, or the old one with only the release's hunks inside one declaration applied. */
  after: string;
  rendered: RenderedChange;
  /** How many of the release's hunks this change applies, of how many. */
  hunks?: { applied: number; of: number };
}

/**
 * The cases of one file's change between two releases. When the release changed more than two declarations,
 * each declaration's own hunks make a change of their own (at most `most` of them): the old file with
 * those hunks alone applied, a state of the file its authors went through or could have.
 */
export async function renderReleaseChange(
  beforeText: string,
  afterText: string,
  file: string,
  most = 2,
): Promise<PartialChange[] | string> {
  const whole = await renderChange(beforeText, afterText, file);
  if (typeof whole !== 'string') {
    return [{ after: afterText, rendered: whole }];
  }
  if (!/outside every declaration|touches \d+ declarations/.test(whole)) {
    return whole;
  }
  const eol = beforeText.includes('\r\n') ? '\r\n' : '\n';
  const a = beforeText.split('\n');
  const b = afterText.split('\n');
  const hunks = lineHunks(a, b) ?? [];
  const withHunks = (chosen: readonly Hunk[]) => {
    const lines = [...a];
    for (const h of [...chosen].sort((x, y) => y.aStart - x.aStart)) {
      lines.splice(h.aStart, h.aEnd - h.aStart, ...b.slice(h.bStart, h.bEnd));
    }
    return lines.join('\n');
  };
  // Each hunk alone names its declaration; the hunks of one declaration go together.
  const groups = new Map<string, Hunk[]>();
  for (const h of hunks) {
    const alone = await renderChange(beforeText, withHunks([h]), file);
    if (typeof alone !== 'string' && !alone.what.includes(', ')) {
      groups.set(alone.what, [...(groups.get(alone.what) ?? []), h]);
    }
  }
  const changes: PartialChange[] = [];
  for (const group of [...groups.values()].sort((x, y) => y.length - x.length)) {
    if (changes.length >= most) {
      break;
    }
    const after = withHunks(group);
    const rendered = await renderChange(beforeText, after, file);
    if (typeof rendered !== 'string' && (eol === '\n' || !/(^|[^\r])\n/.test(after))) {
      changes.push({ after, rendered, hunks: { applied: group.length, of: hunks.length } });
    }
  }
  return changes.length > 0 ? changes : whole;
}
