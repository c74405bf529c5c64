// Generative property test of what the engine writes (issue 13), on real source text.
//
// A case: a file F (a slice of TypeScript/JavaScript from node_modules, or a fixture: Python, Markdown,
// tab-indented C, a Makefile, Perl indented "\t    ", YAML, TypeScript with typographic quotes inside
// string literals), a region of it, an edit E of the region (replace/insert/delete lines, change a
// token) giving the expected file F', and a normalising perturbation P that stands for the model's view
// (indent shift, rescale, tabs <-> spaces, CRLF, trailing spaces, curly <-> straight quotes, dashes/NBSP/
// ellipsis/zero-width, line-number prefixes, spacing between tokens; one to three composed).
// Property: applyBlocks(F, SEARCH = P(region), REPLACE = P(E(region))) gives F' byte for byte whenever
// the file determines P. For spacing between tokens: lines E keeps come back as F has them; lines E
// changed or added keep the model's spacing, so they are compared token for token with indentation.
// Inverse: SEARCH with inconsistent indentation (two depths collapsed, or their order swapped) or a
// changed token is never applied.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { applyBlocks } from '../../src/core/engine';
import { foldQuotes, foldUnicode, isBlank, leadingWhitespace, tokenKey } from '../../src/core/match/normalize';
import { columns, renderColumns } from '../../src/core/match/indent';
import { type Random, seededRandom } from '../shared/seededRandom';

const ROOT = path.resolve(__dirname, '../../..');

export interface Source {
  name: string;
  lines: string[];
  /** The file's tab width (where it mixes tabs and spaces, e.g. Perl at 8). */
  tabWidth: number;
  markdown: boolean;
}

let sources: Source[] | undefined;

export function loadSources(): Source[] {
  if (sources) {
    return sources;
  }
  const out: Source[] = [];
  const add = (rel: string, tabWidth = 4) => {
    const file = path.join(ROOT, rel);
    if (!fs.existsSync(file)) {
      return;
    }
    const lines = fs.readFileSync(file, 'utf8').replace(/\r\n/g, '\n').split('\n');
    if (lines[lines.length - 1] === '') {
      lines.pop();
    }
    out.push({ name: rel, lines, tabWidth, markdown: rel.endsWith('.md') });
  };
  add('node_modules/typescript/lib/lib.es5.d.ts');
  add('node_modules/typescript/lib/lib.es2015.core.d.ts');
  add('node_modules/typescript/lib/lib.dom.d.ts');
  add('node_modules/mocha/lib/runner.js');
  add('node_modules/js-yaml/dist/js-yaml.js');
  add('node_modules/diff/lib/index.js');
  const fixtures = path.join(ROOT, 'test/property/fixtures');
  for (const name of fs.readdirSync(fixtures).sort()) {
    add(`test/property/fixtures/${name}`, name.endsWith('.pl') ? 8 : 4);
  }
  sources = out;
  return out;
}

// ---- random numbers -------------------------------------------------------------------------------

export type Rng = Random;

const int = (rng: Rng, n: number) => Math.floor(rng() * n);
const pick = <T>(rng: Rng, list: readonly T[]): T => list[int(rng, list.length)];

// ---- perturbations --------------------------------------------------------------------------------

/** A normalising perturbation: a function on lines (applied to SEARCH and REPLACE alike). */
interface Perturbation {
  name: string;
  /** Maps one line; `index` is the line's position in the block (for line-number prefixes). */
  line?: (line: string, index: number) => string;
  /** Spacing between tokens: changed/new lines are compared token for token. */
  spacing?: boolean;
  crlfFile?: boolean;
  crlfBlock?: boolean;
}

function mapLead(line: string, f: (lead: string) => string): string {
  if (isBlank(line)) {
    return line;
  }
  const lead = leadingWhitespace(line);
  return f(lead) + line.slice(lead.length);
}

function mapBody(line: string, f: (body: string) => string): string {
  const lead = leadingWhitespace(line);
  return lead + f(line.slice(lead.length));
}

interface CaseContext {
  rng: Rng;
  source: Source;
  /** Leads of the region's non-blank lines (what SEARCH shows of the indentation). */
  leads: string[];
  /** Leads of the non-blank lines E writes (what REPLACE must carry over). */
  newLeads: string[];
  text: string;
}

function gcd(a: number, b: number): number {
  while (b) {
    [a, b] = [b, a % b];
  }
  return a;
}

function curlyQuotes(line: string): string {
  let double = false;
  let out = '';
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (ch === '"') {
      out += double ? '\u201D' : '\u201C';
      double = !double;
    } else if (ch === "'") {
      out += '\u2019';
    } else {
      out += ch;
    }
  }
  return out;
}

/**
 * Perturbations the case's file determines, or undefined when this kind does not apply. An indentation
 * perturbation is determined when the region itself shows it: it changes some region line the way it
 * changes the new lines (a rescale needs two distinct depths), and it is one-to-one.
 */
function makePerturbation(kind: string, ctx: CaseContext): Perturbation | undefined {
  const p = perturbation(kind, ctx);
  if (!p || !p.line || !INDENT_KINDS.has(kind)) {
    return p;
  }
  const map = (lead: string) => leadingWhitespace(p.line!(lead + 'x', 0));
  const all = [...new Set([...ctx.leads, ...ctx.newLeads])];
  if (new Set(all.map(map)).size !== all.length) {
    return undefined;
  }
  const visible = ctx.leads.some((l) => map(l) !== l);
  if (!visible && ctx.newLeads.some((l) => map(l) !== l)) {
    return undefined;
  }
  return p;
}

function perturbation(kind: string, ctx: CaseContext): Perturbation | undefined {
  const { rng, source, leads } = ctx;
  const hasTabs = leads.some((l) => l.includes('\t'));
  const mixed = leads.some((l) => l.includes('\t') && l.includes(' ')) || (hasTabs && leads.some((l) => l.length > 0 && !l.includes('\t')));
  switch (kind) {
    case 'shift-add': {
      const prefix = pick(rng, ['  ', '    ', '\t', ' ']);
      return { name: `shift-add ${JSON.stringify(prefix)}`, line: (l) => mapLead(l, (lead) => prefix + lead) };
    }
    case 'shift-remove': {
      // The prefix every line carries, new lines included (else the removal is no one shift).
      const all = [...leads, ...ctx.newLeads];
      let common = all[0];
      for (const l of all) {
        while (!l.startsWith(common)) {
          common = common.slice(0, -1);
        }
      }
      if (common === '') {
        return undefined;
      }
      const cut = 1 + int(rng, common.length);
      return { name: `shift-remove ${cut}`, line: (l) => mapLead(l, (lead) => lead.slice(cut)) };
    }
    case 'rescale': {
      if (hasTabs) {
        return undefined;
      }
      const depths = [...new Set(leads.map((l) => l.length))];
      if (depths.length < 2) {
        return undefined;
      }
      const unit = depths.reduce((a, b) => gcd(a, b), 0);
      if (![2, 4, 8].includes(unit)) {
        return undefined;
      }
      if (ctx.newLeads.some((l) => l.includes('\t') || l.length % unit !== 0)) {
        return undefined;
      }
      const to = pick(
        rng,
        [2, 4, 8].filter((u) => u !== unit),
      );
      return { name: `rescale ${unit}->${to}`, line: (l) => mapLead(l, (lead) => ' '.repeat((lead.length / unit) * to)) };
    }
    case 'tabs-to-spaces': {
      if (!hasTabs) {
        return undefined;
      }
      const width = mixed ? source.tabWidth : pick(rng, [2, 4, 8]);
      return { name: `tabs-to-spaces ${width}`, line: (l) => mapLead(l, (lead) => ' '.repeat(columns(lead, width))) };
    }
    case 'spaces-to-tabs': {
      if (!leads.some((l) => l.includes(' '))) {
        return undefined;
      }
      const width = pick(rng, [2, 4, 8]);
      const from = source.tabWidth;
      // Only when the new tabs cannot be confused with ones already there.
      if (hasTabs && width !== from) {
        return undefined;
      }
      return { name: `spaces-to-tabs ${width}`, line: (l) => mapLead(l, (lead) => renderColumns(columns(lead, from), width, true)) };
    }
    case 'crlf-file':
      return { name: 'crlf-file', crlfFile: true };
    case 'crlf-block':
      return { name: 'crlf-block', crlfBlock: true };
    case 'trailing': {
      if (source.markdown) {
        return undefined;
      }
      const mode = int(rng, 2);
      const pad = pick(rng, [' ', '  ', '\t']);
      return mode === 0
        ? { name: 'trailing-strip', line: (l) => l.replace(/[ \t]+$/, '') }
        : { name: `trailing-add ${JSON.stringify(pad)}`, line: (l) => (isBlank(l) ? l : l + pad) };
    }
    case 'straight-quotes': {
      if (!/[\u2018\u2019\u201A\u201B\u2039\u203A\u201C\u201D\u201E\u201F\u00AB\u00BB]/.test(ctx.text)) {
        return undefined;
      }
      return {
        name: 'straight-quotes',
        line: (l) => l.replace(/[\u2018\u2019\u201A\u201B\u2039\u203A]/g, "'").replace(/[\u201C\u201D\u201E\u201F\u00AB\u00BB]/g, '"'),
      };
    }
    case 'curly-quotes': {
      if (!/["']/.test(ctx.text)) {
        return undefined;
      }
      return { name: 'curly-quotes', line: (l) => mapBody(l, curlyQuotes) };
    }
    case 'unicode': {
      if (!/[\u2013\u2014\u00A0\u202F\u2026\u200B]/.test(ctx.text)) {
        return undefined;
      }
      return {
        name: 'unicode',
        line: (l) =>
          l
            .replace(/[\u2013\u2014]/g, '-')
            .replace(/[\u00A0\u202F]/g, ' ')
            .replace(/\u2026/g, '...')
            .replace(/\u200B/g, ''),
      };
    }
    case 'line-numbers': {
      const start = 1 + int(rng, 500);
      const style = int(rng, 4);
      const fmt = (n: number) =>
        style === 0 ? `${n} | ` : style === 1 ? `${n}: ` : style === 2 ? `${String(n).padStart(6)}\t` : `${n}\u2192`;
      return { name: `line-numbers ${style}`, line: (l, i) => fmt(start + i) + l };
    }
    case 'spacing': {
      const mode = int(rng, 3);
      const f =
        mode === 0
          ? (b: string) => b.replace(/([,;]) (?=\S)/g, '$1')
          : mode === 1
            ? (b: string) => b.replace(/\((?=\S)/g, '( ').replace(/(?<=\S)\)/g, ' )')
            : (b: string) => b.replace(/(?<=\S) {2,}(?=\S)/g, ' ').replace(/(?<=[\w)\]]) ?= ?(?=[\w(["'])/g, ' = ');
      return { name: `spacing ${mode}`, spacing: true, line: (l) => mapBody(l, f) };
    }
  }
  return undefined;
}

const KINDS = [
  'none',
  'shift-add',
  'shift-remove',
  'rescale',
  'tabs-to-spaces',
  'spaces-to-tabs',
  'crlf-file',
  'crlf-block',
  'trailing',
  'straight-quotes',
  'curly-quotes',
  'unicode',
  'line-numbers',
  'spacing',
];
/** Perturbations that change indentation; at most one per case (they do not compose determinately). */
const INDENT_KINDS = new Set(['shift-add', 'shift-remove', 'rescale', 'tabs-to-spaces', 'spaces-to-tabs']);

// ---- edits ----------------------------------------------------------------------------------------

let fresh = 0;

/** The region after the edit, and which of its lines E kept (index into the old region, or -1). */
interface Edited {
  lines: string[];
  keptFrom: number[];
  description: string;
}

function deeper(lead: string, source: Source, leads: readonly string[]): string {
  const tabs = leads.some((l) => l.includes('\t'));
  if (tabs && leads.every((l) => /^\t*$/.test(l))) {
    return lead + '\t';
  }
  const depths = leads.map((l) => columns(l, source.tabWidth)).filter((d) => d > 0);
  const unit = depths.length ? depths.reduce((a, b) => gcd(a, b), 0) : 4;
  const step = [2, 4, 8].includes(unit) ? unit : 4;
  return renderColumns(columns(lead, source.tabWidth) + step, source.tabWidth, tabs);
}

function newStatement(rng: Rng): string {
  fresh++;
  return pick(rng, [`zqNew${fresh}(alpha, beta);`, `zq_value_${fresh} = compute(gamma)`, `zqItem${fresh}: 42`, `zqcall ${fresh} delta`]);
}

function edit(rng: Rng, region: readonly string[], source: Source): Edited | undefined {
  let lines = region.map((text, i) => ({ text, from: i }));
  const steps = 1 + int(rng, 2);
  const what: string[] = [];
  const leadNear = (i: number) => {
    for (let k = Math.min(i, lines.length - 1); k >= 0; k--) {
      if (!isBlank(lines[k].text)) {
        return leadingWhitespace(lines[k].text);
      }
    }
    for (let k = i; k < lines.length; k++) {
      if (!isBlank(lines[k].text)) {
        return leadingWhitespace(lines[k].text);
      }
    }
    return '';
  };
  const leads = region.filter((l) => !isBlank(l)).map(leadingWhitespace);
  for (let s = 0; s < steps; s++) {
    const op = int(rng, 4);
    if (op === 0) {
      // change a token: a word of 3+ letters gets a suffix (the line stays recognisably the same)
      const candidates = lines.map((l, i) => ({ l, i })).filter(({ l }) => /[A-Za-z_]\w{2,}/.test(l.text.trimStart()));
      if (candidates.length === 0) {
        continue;
      }
      const { l, i } = pick(rng, candidates);
      const lead = leadingWhitespace(l.text);
      const body = l.text.slice(lead.length);
      const words = [...body.matchAll(/(?<![\w$\u0080-\uFFFF])[A-Za-z_]\w{2,}(?![\w$\u0080-\uFFFF])/g)];
      if (words.length === 0) {
        continue;
      }
      const w = pick(rng, words);
      const at = w.index!;
      lines[i] = { text: lead + body.slice(0, at) + `${w[0]}Zq${int(rng, 90) + 10}` + body.slice(at + w[0].length), from: -1 };
      what.push(`token ${i}`);
    } else if (op === 1) {
      // replace a line with a new statement at the same depth
      const i = int(rng, lines.length);
      if (isBlank(lines[i].text)) {
        continue;
      }
      lines[i] = { text: leadingWhitespace(lines[i].text) + newStatement(rng), from: -1 };
      what.push(`replace ${i}`);
    } else if (op === 2) {
      // insert one or two lines after line i, at its depth or one level deeper
      const i = int(rng, lines.length);
      let lead = leadNear(i);
      if (int(rng, 3) === 0) {
        lead = deeper(lead, source, leads);
      }
      const add = Array.from({ length: 1 + int(rng, 2) }, () => ({ text: lead + newStatement(rng), from: -1 }));
      lines = [...lines.slice(0, i + 1), ...add, ...lines.slice(i + 1)];
      what.push(`insert ${i}`);
    } else if (lines.length > 2) {
      const i = 1 + int(rng, lines.length - 2);
      lines = [...lines.slice(0, i), ...lines.slice(i + 1)];
      what.push(`delete ${i}`);
    }
  }
  if (what.length === 0) {
    return undefined;
  }
  const out = lines.map((l) => l.text);
  if (out.join('\n') === region.join('\n')) {
    return undefined;
  }
  return { lines: out, keptFrom: lines.map((l) => l.from), description: what.join(', ') };
}

// ---- cases ----------------------------------------------------------------------------------------

const key9 = (line: string) => tokenKey(foldUnicode(foldQuotes(line)));

/** Whether the region's coarsest key (tier 9) occurs only at `start`. */
function uniqueRegion(lines: readonly string[], start: number, len: number): boolean {
  const keys = lines.map(key9);
  const want = keys.slice(start, start + len);
  for (let s = 0; s + len <= lines.length; s++) {
    if (s === start || keys[s] !== want[0]) {
      continue;
    }
    let same = true;
    for (let k = 1; k < len && same; k++) {
      if (keys[s + k] !== want[k]) {
        same = false;
      }
    }
    if (same) {
      return false;
    }
  }
  return true;
}

export interface CaseResult {
  kind: 'checked' | 'skipped';
  property?: 'round-trip' | 'inconsistent-indent' | 'changed-token';
  /** Kinds of perturbation in a round-trip case. */
  perturbations?: string[];
  failure?: string;
}

/** One generated case from (seed, index): deterministic, so a failure is reproduced from the two numbers. */
export function runCase(seed: number, index: number): CaseResult {
  const rng = seededRandom((seed * 1_000_003) ^ (index * 2_654_435_761));
  fresh = index * 10;
  const all = loadSources();
  // Half the cases on the fixtures: they hold the tabs, quotes and punctuation the perturbations act on.
  const fixtures = all.filter((src) => src.name.startsWith('test/'));
  const source = rng() < 0.5 ? pick(rng, fixtures) : pick(rng, all);
  // A slice of up to 160 lines keeps each case cheap; the region lies inside it.
  const sliceStart = source.lines.length > 160 ? int(rng, source.lines.length - 160) : 0;
  const file = source.lines.slice(sliceStart, sliceStart + 160);
  const len = 2 + int(rng, 7);
  if (file.length < len + 1) {
    return { kind: 'skipped' };
  }
  const start = int(rng, file.length - len + 1);
  const region = file.slice(start, start + len);
  if (isBlank(region[0]) || isBlank(region[len - 1]) || region.filter((l) => !isBlank(l)).length < 2) {
    return { kind: 'skipped' };
  }
  if (region.some((l) => l.length > 400)) {
    return { kind: 'skipped' };
  }
  if (!uniqueRegion(file, start, len)) {
    return { kind: 'skipped' };
  }

  const mode = rng();
  if (mode < 0.12) {
    return inconsistentIndentCase(rng, file, start, region, source);
  }
  if (mode < 0.18) {
    return changedTokenCase(rng, file, start, region, source);
  }

  const e = edit(rng, region, source);
  if (!e) {
    return { kind: 'skipped' };
  }
  const leadsOf = (lines: readonly string[]) => lines.filter((l) => !isBlank(l)).map(leadingWhitespace);
  const ctx: CaseContext = { rng, source, leads: leadsOf(region), newLeads: leadsOf(e.lines), text: region.join('\n') };
  const ps: Perturbation[] = [];
  const count = 1 + int(rng, 3);
  const used = new Set<string>();
  for (let k = 0; k < count; k++) {
    const kind = pick(rng, KINDS);
    if (kind === 'none' || used.has(kind)) {
      continue;
    }
    if (INDENT_KINDS.has(kind) && [...used].some((u) => INDENT_KINDS.has(u))) {
      continue;
    }
    if ((kind === 'straight-quotes' && used.has('curly-quotes')) || (kind === 'curly-quotes' && used.has('straight-quotes'))) {
      continue;
    }
    used.add(kind);
    const p = makePerturbation(kind, ctx);
    if (p) {
      ps.push(p);
    }
  }
  // Line-number prefixes go last (a numbered view of the already-normalised text).
  ps.sort((a, b) => Number(a.name.startsWith('line-numbers')) - Number(b.name.startsWith('line-numbers')));
  // A line-number prefix in front of a line that itself starts like one is not determined.
  if (ps.some((p) => p.name.startsWith('line-numbers')) && [...region, ...e.lines].some((l) => /^[ \t]*\d/.test(l))) {
    return { kind: 'skipped' };
  }
  const view = (lines: readonly string[]) => lines.map((l, i) => ps.reduce((acc, p) => (p.line ? p.line(acc, i) : acc), l));
  const crlfFile = ps.some((p) => p.crlfFile);
  const blockEol = ps.some((p) => p.crlfBlock) ? '\r\n' : '\n';
  const eol = crlfFile ? '\r\n' : '\n';
  const search = view(region).join(blockEol);
  const replace = e.lines.length ? view(e.lines).join(blockEol) : '';
  const doc = file.join(eol) + eol;
  const expectedLines = [...file.slice(0, start), ...e.lines, ...file.slice(start + len)];
  const expected = expectedLines.length ? expectedLines.join(eol) + eol : '';
  const names = ps.map((p) => p.name).join(' + ') || 'none';
  const perturbations = ps.length ? ps.map((p) => p.name.split(' ')[0]) : ['none'];
  const describe = () =>
    `source ${source.name} (slice at line ${sliceStart + 1}), region lines ${start + 1}-${start + len}, edit [${e.description}], P [${names}]`;

  let result;
  try {
    result = applyBlocks(doc, [{ index: 1, sourceLine: 1, search, replace }], { languageId: source.markdown ? 'markdown' : undefined });
  } catch (error) {
    return { kind: 'checked', property: 'round-trip', perturbations, failure: `${describe()}: threw ${String(error)}` };
  }
  if (result.status !== 'applied') {
    return {
      kind: 'checked',
      property: 'round-trip',
      perturbations,
      failure: `${describe()}: ${result.status}: ${result.message}\nSEARCH: ${JSON.stringify(search)}\nREPLACE: ${JSON.stringify(replace)}`,
    };
  }
  const got = result.content!;
  if (ps.some((p) => p.spacing)) {
    const gotLines = got.split(eol);
    const wantLines = expected.split(eol);
    if (gotLines.length !== wantLines.length) {
      return {
        kind: 'checked',
        property: 'round-trip',
        perturbations,
        failure: `${describe()}: line count ${gotLines.length} != ${wantLines.length}`,
      };
    }
    for (let i = 0; i < wantLines.length; i++) {
      const inRegion = i >= start && i < start + e.lines.length;
      const kept = !inRegion || e.keptFrom[i - start] >= 0;
      const ok = kept
        ? gotLines[i] === wantLines[i]
        : leadingWhitespace(gotLines[i]) === leadingWhitespace(wantLines[i]) && key9(gotLines[i]) === key9(wantLines[i]);
      if (!ok) {
        return {
          kind: 'checked',
          property: 'round-trip',
          perturbations,
          failure: `${describe()}: line ${i + 1}: got ${JSON.stringify(gotLines[i])}, want ${JSON.stringify(wantLines[i])}`,
        };
      }
    }
    return { kind: 'checked', property: 'round-trip', perturbations };
  }
  if (got !== expected) {
    return { kind: 'checked', property: 'round-trip', perturbations, failure: `${describe()}:\n${firstDifference(got, expected)}` };
  }
  return { kind: 'checked', property: 'round-trip', perturbations };
}

function firstDifference(got: string, want: string): string {
  const g = got.split('\n');
  const w = want.split('\n');
  for (let i = 0; i < Math.max(g.length, w.length); i++) {
    if (g[i] !== w[i]) {
      return `line ${i + 1}: got ${JSON.stringify(g[i])}, want ${JSON.stringify(w[i])}`;
    }
  }
  return 'texts differ';
}

/** SEARCH with two different depths collapsed into one, or their order swapped: never applied. */
function inconsistentIndentCase(rng: Rng, file: readonly string[], start: number, region: readonly string[], source: Source): CaseResult {
  const rows = region.map((l, i) => ({ i, lead: leadingWhitespace(l) })).filter(({ i }) => !isBlank(region[i]));
  const width = source.tabWidth;
  const a = pick(rng, rows);
  const others = rows.filter((r) => columns(r.lead, width) !== columns(a.lead, width));
  if (others.length === 0) {
    return { kind: 'skipped' };
  }
  const b = pick(rng, others);
  const search = [...region];
  const swap = int(rng, 2) === 1;
  search[a.i] = b.lead + region[a.i].slice(a.lead.length);
  if (swap) {
    search[b.i] = a.lead + region[b.i].slice(b.lead.length);
  }
  const result = applyBlocks(file.join('\n') + '\n', [{ index: 1, sourceLine: 1, search: search.join('\n'), replace: 'zqReplaced();' }]);
  const what = `source ${source.name}, region ${start + 1}-${start + region.length}, line ${a.i + 1} given the indentation of line ${b.i + 1}${swap ? ' and vice versa' : ''}`;
  if (result.status === 'applied') {
    return { kind: 'checked', property: 'inconsistent-indent', failure: `${what}: applied at tier ${result.blocks[0].tier}` };
  }
  return { kind: 'checked', property: 'inconsistent-indent' };
}

/** SEARCH with one token changed: never applied. */
function changedTokenCase(rng: Rng, file: readonly string[], start: number, region: readonly string[], source: Source): CaseResult {
  const rows = region.map((l, i) => ({ l, i })).filter(({ l }) => /[A-Za-z_]\w{2,}/.test(l));
  if (rows.length === 0) {
    return { kind: 'skipped' };
  }
  const { l, i } = pick(rng, rows);
  const search = [...region];
  search[i] = l.replace(/[A-Za-z_]\w{2,}/, (w) => `${w}Qz`);
  const result = applyBlocks(file.join('\n') + '\n', [{ index: 1, sourceLine: 1, search: search.join('\n'), replace: 'zqReplaced();' }]);
  if (result.status === 'applied') {
    return {
      kind: 'checked',
      property: 'changed-token',
      failure: `source ${source.name}, region ${start + 1}-${start + region.length}, token changed on line ${i + 1}: applied at tier ${result.blocks[0].tier}`,
    };
  }
  return { kind: 'checked', property: 'changed-token' };
}

export interface RunSummary {
  cases: number;
  checked: number;
  skipped: number;
  byProperty: Record<string, number>;
  /** Round-trip cases per perturbation kind (a case may compose several). */
  byPerturbation: Record<string, number>;
  failures: Array<{ index: number; message: string }>;
}

export function runProperty(options: { cases: number; seed: number; maxFailures?: number }): RunSummary {
  const summary: RunSummary = { cases: options.cases, checked: 0, skipped: 0, byProperty: {}, byPerturbation: {}, failures: [] };
  for (let i = 0; i < options.cases; i++) {
    const r = runCase(options.seed, i);
    if (r.kind === 'skipped') {
      summary.skipped++;
      continue;
    }
    summary.checked++;
    summary.byProperty[r.property!] = (summary.byProperty[r.property!] ?? 0) + 1;
    for (const p of r.perturbations ?? []) {
      summary.byPerturbation[p] = (summary.byPerturbation[p] ?? 0) + 1;
    }
    if (r.failure) {
      summary.failures.push({ index: i, message: r.failure });
      if (summary.failures.length >= (options.maxFailures ?? 20)) {
        break;
      }
    }
  }
  return summary;
}
