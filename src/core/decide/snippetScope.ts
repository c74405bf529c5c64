// One scope of a code block merged into the matching scope of the file (the top level, or the body of a
// declaration both show). The block's scope is read as units: declarations, placeholder lines and other
// lines; so is the file's. Declarations pair by name; other lines pair where their text is the same (in
// order, between the declarations that paired). What lies between two paired units is a gap: a gap of the
// block with a placeholder keeps the file's lines there (lines the block adds go next to the unit they
// follow, or precede); a gap without one, in a scope that uses placeholders, says exactly what stands
// there, so the file's other lines in it are replaced. The file's declarations are never removed.

import { type Decl, describeDecl } from '../match/structure/outline';
import { similarity } from '../match/fuzzy/similarity';
import { columnsOf, leadOf, reindent } from './snippetIndent';
import { keepEdgeBlanks } from './snippetBlanks';
import { movedDepths } from './snippetDepths';
import { ENDS_FLOW, refuseChangedBesidePlaceholder } from './snippetEdgeLines';
import { childLead, lineSpan, mayStandFor, memberLead, PlanRefusal, type ScopeContext, type SnippetPart } from './snippetTypes';

export interface Scope {
  file: { start: number; end: number; decls: readonly Decl[]; owner?: Decl };
  snippet: { start: number; end: number; decls: readonly Decl[] };
  /** The scope's two ends are where the block's ends are (a body both show, a top level with placeholders). */
  bounded: boolean;
  /** The block's indentation of this scope's members, and the file's. */
  indent: { from: string; to: string };
}

type DeclUnit = { type: 'decl'; decl: Decl; start: number; end: number };
type Unit = DeclUnit | { type: 'line' | 'placeholder'; start: number; end: number };

/** A changed line this similar to the file's line beside a paired unit is read as that line, changed. */
const EDGE_PAIR_SCORE = 0.6;
/** A line that ends by opening a bracket: a header of a block of its own. */
const OPENS_BLOCK = /[{([]\s*$/;

function unitsOf(lines: readonly string[], start: number, end: number, decls: readonly Decl[], placeholders?: readonly boolean[]): Unit[] {
  const units: Unit[] = [];
  const byLead = new Map(decls.map((d) => [d.lead, d]));
  for (let i = start; i < end; i++) {
    const decl = byLead.get(i);
    if (decl) {
      units.push({ type: 'decl', decl, start: i, end: decl.end + 1 });
      i = decl.end;
    } else if (placeholders?.[i]) {
      units.push({ type: 'placeholder', start: i, end: i + 1 });
    } else if (lines[i].trim() !== '') {
      units.push({ type: 'line', start: i, end: i + 1 });
    }
  }
  return units;
}

/** The file declaration among `candidates` that `shown` is: by name, then family, kind and parameters. Refuses two or more. */
export function findDecl(shown: Decl, candidates: readonly Decl[]): Decl | undefined {
  let found = candidates.filter((d) => d.name === shown.name && mayStandFor(shown, d));
  const narrow = (keep: (d: Decl) => boolean) => {
    const kept = found.filter(keep);
    if (kept.length > 0) {
      found = kept;
    }
  };
  if (found.length > 1) {
    narrow((d) => d.family === shown.family);
    narrow((d) => d.kind === shown.kind);
    narrow((d) => d.params === shown.params);
  }
  if (found.length > 1) {
    // Overloads (constructors, methods) are told apart by their parameter lists only: one the file does not
    // have is no reason to pick one, nor to replace them all.
    const byParams =
      shown.params !== undefined && found.every((d) => d.params !== undefined)
        ? ' by its parameter list: none of them has the parameters it shows; show the parameter list of the one to change as the file has it, or the lines around it'
        : '; show the enclosing declaration or the lines around it';
    throw new PlanRefusal({
      status: 'ambiguous',
      what: describeDecl(shown),
      reason: `${shown.name} is declared ${found.length} times here, and the code block does not show which one it means${byParams}`,
      places: found.map((d) => ({ start: d.lead, end: d.end + 1 })),
    });
  }
  return found[0];
}

/**
 * The file's declarations a block's declaration may be: an overload group counts as one, except for a lone
 * signature the block shows, which is one of the group's signatures (or its implementation).
 */
function overloadCandidates(shown: Decl, fUnits: readonly Unit[]): Decl[] {
  return fUnits.flatMap((f) => {
    if (f.type !== 'decl') {
      return [];
    }
    const group = f.decl.overloads;
    return shown.signature && group ? [...group.signatures, group.implementation] : [f.decl];
  });
}

function isOverloadOf(part: Decl, group: Decl): boolean {
  return group.overloads !== undefined && (group.overloads.implementation === part || group.overloads.signatures.includes(part));
}

/**
 * Which lines of the file a block's declaration replaces: a group shown whole (or a function gaining its
 * first overloads) replaces the whole group; an implementation shown alone replaces only the group's
 * implementation, so the signatures the block does not show stay.
 */
function overloadPart(shown: Decl, target: Decl, found: Decl): Decl {
  if (found !== target) {
    return found;
  }
  return target.overloads && !shown.overloads ? target.overloads.implementation : target;
}

/** Indexes of the longest increasing run of `values` (the declarations that keep the file's order). */
function increasingRun(values: readonly number[]): Set<number> {
  const tails: number[] = [];
  const previous: number[] = new Array<number>(values.length).fill(-1);
  for (let i = 0; i < values.length; i++) {
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (values[tails[mid]] < values[i]) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    previous[i] = lo > 0 ? tails[lo - 1] : -1;
    tails[lo] = i;
  }
  const run = new Set<number>();
  for (let i = tails.length > 0 ? tails[tails.length - 1] : -1; i >= 0; i = previous[i]) {
    run.add(i);
  }
  return run;
}

/** A line with a word or a number in it: a `}` or `);` alone says nothing about where it stands. */
const telling = (line: string): boolean => /[\p{L}\p{N}]/u.test(line);

/**
 * Pairs of equal lines between two runs of units. Anchors are the telling lines that stand once in each run
 * (kept in order); from each anchor the pairing extends over the equal lines next to it on both sides. A line
 * found only elsewhere (a `}` or `};` of some later declaration, a `border-radius` of another rule) pairs
 * with nothing: paired, it would make the block's new lines a spelled-out gap that replaced the file's lines
 * up to it.
 */
function pairLines(context: ScopeContext, s: readonly Unit[], f: readonly Unit[]): Array<[number, number]> {
  const keyOf = (units: readonly Unit[], lines: readonly string[]) =>
    units.map((u) => (u.type === 'line' ? lines[u.start].trim().replace(/\s+/g, ' ') : undefined));
  const sKeys = keyOf(s, context.snippet.lines);
  const fKeys = keyOf(f, context.file.lines);
  const where = (keys: ReadonlyArray<string | undefined>) => {
    const at = new Map<string, number[]>();
    keys.forEach((k, i) => {
      if (k !== undefined) {
        at.set(k, [...(at.get(k) ?? []), i]);
      }
    });
    return at;
  };
  const sAt = where(sKeys);
  const fAt = where(fKeys);
  const candidates: Array<[number, number]> = [];
  sKeys.forEach((k, i) => {
    const js = k === undefined ? undefined : fAt.get(k);
    if (k !== undefined && telling(k) && sAt.get(k)?.length === 1 && js?.length === 1) {
      candidates.push([i, js[0]]);
    }
  });
  const run = increasingRun(candidates.map((c) => c[1]));
  const anchors = candidates.filter((_, k) => run.has(k));
  const paired = new Map<number, number>(anchors);
  const equal = (i: number, j: number) => sKeys[i] !== undefined && sKeys[i] === fKeys[j];
  // The last pair so far: an extension backwards stays after it, one forwards before the next anchor.
  let last: [number, number] = [-1, -1];
  anchors.forEach(([i0, j0], k) => {
    for (let i = i0 - 1, j = j0 - 1; i > last[0] && j > last[1] && equal(i, j); i--, j--) {
      paired.set(i, j);
    }
    const [nextI, nextJ] = anchors[k + 1] ?? [s.length, f.length];
    last = [i0, j0];
    for (let i = i0 + 1, j = j0 + 1; i < nextI && j < nextJ && equal(i, j); i++, j++) {
      paired.set(i, j);
      last = [i, j];
    }
  });
  return [...paired].sort((a, b) => a[0] - b[0]);
}

/** Merges one scope of the block into the file's, adding edits (and parts) to the context. */
export function mergeScope(context: ScopeContext, scope: Scope): void {
  const { snippet, file } = context;
  const sUnits = unitsOf(snippet.lines, scope.snippet.start, scope.snippet.end, scope.snippet.decls, snippet.placeholders);
  const fUnits = unitsOf(file.lines, scope.file.start, scope.file.end, scope.file.decls);
  const explicit = sUnits.some((u) => u.type === 'placeholder');
  // Declarations pair by name; those that keep the file's order anchor the gaps.
  const declPairs: Array<[number, number]> = [];
  /** What each paired declaration of the block replaces: the file's declaration, or a part of its overload group. */
  const placements: Decl[] = [];
  const used = new Map<Decl, Decl>();
  sUnits.forEach((u, i) => {
    if (u.type !== 'decl') {
      return;
    }
    const found = findDecl(u.decl, overloadCandidates(u.decl, fUnits));
    if (!found) {
      return;
    }
    const unit = fUnits.find((f): f is DeclUnit => f.type === 'decl' && (f.decl === found || isOverloadOf(found, f.decl)));
    const target = unit?.decl ?? found;
    placements.push(overloadPart(u.decl, target, found));
    const twice = used.get(target);
    if (twice) {
      throw new PlanRefusal({
        status: 'invalid',
        what: describeDecl(u.decl),
        reason: `the code block shows ${describeDecl(u.decl)} twice (lines ${twice.start + 1} and ${u.decl.start + 1} of the code block); show it once`,
      });
    }
    used.set(target, u.decl);
    declPairs.push([i, fUnits.findIndex((f) => f.type === 'decl' && f.decl === target)]);
  });
  const inOrder = increasingRun(declPairs.map((p) => p[1]));
  const anchors: Array<[number, number]> = [];
  declPairs.forEach((pair, k) => {
    const [si] = pair;
    context.found.push({ start: placements[k].lead, end: placements[k].end + 1 });
    placeDecl(context, (sUnits[si] as { decl: Decl }).decl, placements[k], scope);
    if (inOrder.has(k)) {
      anchors.push(pair);
    }
  });
  // Between anchoring declarations, equal lines anchor too.
  const all: Array<[number, number]> = [];
  let previous: [number, number] = [-1, -1];
  for (const anchor of [...anchors, [sUnits.length, fUnits.length] as [number, number]]) {
    const s = sUnits.slice(previous[0] + 1, anchor[0]);
    const f = fUnits.slice(previous[1] + 1, anchor[1]);
    for (const [i, j] of pairLines(context, s, f)) {
      all.push([previous[0] + 1 + i, previous[1] + 1 + j]);
      context.found.push({ start: f[j].start, end: f[j].end });
    }
    if (anchor[0] < sUnits.length) {
      all.push(anchor);
    }
    previous = anchor;
  }
  const lines = all
    .filter(([i, j]) => sUnits[i].type === 'line' && fUnits[j].type === 'line')
    .map(([i, j]) => [sUnits[i].start, fUnits[j].start] as [number, number]);
  for (const { from, to, written } of movedDepths(context, lines, scope.indent)) {
    addEdit(context, { action: 'changed', what: lineSpan(from, to), fileStart: from, fileEnd: to }, from, to, written);
  }
  const unplaced = new Set(declPairs.filter((_, k) => !inOrder.has(k)).map((p) => p[0]));
  let left: [number, number] = [-1, -1];
  for (const right of [...all, [sUnits.length, fUnits.length] as [number, number]]) {
    const s = sUnits.slice(left[0] + 1, right[0]).filter((_, k) => !unplaced.has(left[0] + 1 + k));
    const f = fUnits.slice(left[1] + 1, right[1]);
    const whole = s.length === right[0] - left[0] - 1 && left[0] >= 0 && right[0] < sUnits.length;
    mergeGap(context, scope, explicit, {
      s,
      f,
      leftEnd: left[1] >= 0 ? fUnits[left[1]].end : undefined,
      rightStart: right[1] < fUnits.length ? fUnits[right[1]].start : undefined,
      ...(whole ? { between: { start: sUnits[left[0]].end, end: sUnits[right[0]].start } } : {}),
      ...(left[0] >= 0 ? { leftPair: [firstLine(sUnits[left[0]]), firstLine(fUnits[left[1]])] as [number, number] } : {}),
      ...(right[0] < sUnits.length ? { rightPair: [firstLine(sUnits[right[0]]), firstLine(fUnits[right[1]])] as [number, number] } : {}),
    });
    left = right;
  }
}

interface Gap {
  /** The block's units between two paired units, and the file's. */
  s: Unit[];
  f: Unit[];
  /** File line after the left paired unit, and of the right one; undefined at an end of the scope. */
  leftEnd?: number;
  rightStart?: number;
  /** The block's lines between the two paired units, when both are units and the gap holds every unit between. */
  between?: { start: number; end: number };
  /** The first lines (the block's, the file's) of the paired units on each side. */
  leftPair?: [number, number];
  rightPair?: [number, number];
}

/** A unit's first line of code: a declaration's own first line, below its comments. */
const firstLine = (unit: Unit): number => (unit.type === 'decl' ? unit.decl.start : unit.start);

/**
 * The scope with the indentation of the paired lines beside an insertion: at the top level the file's base
 * is no declaration's (functions indented in an HTML `<script>`), so new lines follow their neighbour.
 */
function besidePair(context: ScopeContext, scope: Scope, pair: [number, number] | undefined): Scope {
  if (scope.file.owner || !pair) {
    return scope;
  }
  return { ...scope, indent: { from: leadOf(context.snippet.lines[pair[0]]), to: leadOf(context.file.lines[pair[1]]) } };
}

/** A line that starts by closing a bracket (`}`, `});`, `]`): the end of a block of its own. */
const CLOSES_BLOCK = /^\s*[})\]]/;

/**
 * At the top level, after the block's last paired line: the file's lines to its end are all inside what that
 * line opens (deeper, or closing it), and so are the block's. The file ends where the block does, so the
 * block spells out what stands there (`if __name__ == "__main__":` and its body, last in the file); where the
 * file goes on past that (another SCSS rule), what follows is not the block's.
 */
function endsInsideLastPaired(context: ScopeContext, scope: Scope, gap: Gap): boolean {
  if (scope.file.owner || gap.rightStart !== undefined || gap.leftEnd === undefined || !gap.leftPair || gap.s.length === 0) {
    return false;
  }
  const inside = (lines: readonly string[], from: number, to: number, at: number): boolean => {
    const depth = columnsOf(leadOf(lines[at]));
    return lines.slice(from, to).every((line) => {
      const own = columnsOf(leadOf(line));
      return line.trim() === '' || own > depth || (own === depth && CLOSES_BLOCK.test(line));
    });
  };
  const [mine, theirs] = gap.leftPair;
  return (
    inside(context.file.lines, gap.leftEnd, scope.file.end, theirs) &&
    inside(context.snippet.lines, gap.s[0].start, gap.s[gap.s.length - 1].end, mine)
  );
}

/** What the block says between two paired units, made into edits. */
function mergeGap(context: ScopeContext, scope: Scope, explicit: boolean, gap: Gap): void {
  const { s, f } = gap;
  const start = gap.leftEnd ?? scope.file.start;
  const end = gap.rightStart ?? scope.file.end;
  const holes = s.flatMap((u, i) => (u.type === 'placeholder' ? [i] : []));
  if (s.length === 0 && !scope.file.owner && (gap.leftEnd === undefined || gap.rightStart === undefined)) {
    // The block starts (or ends) at a line of the file: what the file has before (or after) it, the block
    // does not show, so it stays (`<!DOCTYPE html>` above a `<head>` block).
    return;
  }
  const leftReal = gap.leftEnd !== undefined || scope.bounded;
  const rightReal = gap.rightStart !== undefined || scope.bounded || endsInsideLastPaired(context, scope, gap);
  if (holes.length === 0 && explicit && leftReal && rightReal && !f.some((u) => u.type === 'decl')) {
    // A gap the block spells out: its lines replace the file's.
    if (s.length === 0 && f.length === 0) {
      return;
    }
    if (gap.between && gap.leftEnd !== undefined && gap.rightStart !== undefined) {
      // Between two paired units the block spells out every line, its blank lines at the edges too.
      const { leftEnd: from, rightStart: to } = gap;
      const shown = context.snippet.lines.slice(gap.between.start, gap.between.end);
      const lines = reindent(shown, scope.indent.from, scope.indent.to, context.snippetStyle, context.fileStyle);
      if (!sameLines(fillBlanks(context, lines, to), context.file.lines.slice(from, to))) {
        const action = f.length === 0 ? 'inserted' : 'changed';
        const what = f.length === 0 ? `${lineSpan(s[0].start, s[s.length - 1].end)} of the code block` : lineSpan(from, to);
        addEdit(context, { action, what, fileStart: from, fileEnd: to }, from, to, lines);
      }
      return;
    }
    if (f.length === 0) {
      insertUnits(context, scope, s, start, 'after');
      return;
    }
    const from = f.length > 0 ? f[0].start : start;
    const to = f.length > 0 ? f[f.length - 1].end : from;
    const lines = s.length > 0 ? blockLines(context, scope, s) : [];
    if (
      s.length > 0 &&
      gap.leftEnd !== undefined &&
      blankAbove(context.snippet.lines, s[0].start) &&
      !blankAbove(context.file.lines, from)
    ) {
      // The blank line the block puts between the paired line and the lines it changes stays with them.
      lines.unshift('');
    }
    if (!sameLines(lines, context.file.lines.slice(from, to))) {
      addEdit(context, { action: 'changed', what: lineSpan(from, to), fileStart: from, fileEnd: to }, from, to, lines);
    }
    return;
  }
  const pre = holes.length > 0 ? s.slice(0, holes[0]) : s;
  const post = holes.length > 0 ? s.slice(holes[holes.length - 1] + 1) : [];
  const middle = holes.length > 0 ? s.slice(holes[0], holes[holes.length - 1]).filter((u) => u.type !== 'placeholder') : [];
  if (middle.length > 0) {
    throw new PlanRefusal({
      status: 'not_found',
      what: `line ${middle[0].start + 1} of the code block`,
      reason: `lines ${middle[0].start + 1}-${middle[middle.length - 1].end} of the code block stand between two placeholders and are not in the file, so nothing tells where they go; show a line of the file next to them`,
      searchLines: context.snippet.lines.slice(middle[0].start, middle[middle.length - 1].end),
    });
  }
  const besidePlaceholder = holes.length > 0;
  const owned = scope.file.owner !== undefined;
  const { rest: leftRest, after } = pairEdge(context, scope, pre, f, 'left', start, false, {
    besidePlaceholder,
    anchored: gap.leftEnd !== undefined || owned,
  });
  const { rest: postRest, before } = pairEdge(context, scope, post, f, 'right', end, false, {
    besidePlaceholder,
    anchored: gap.rightStart !== undefined || owned,
  });
  if (holes.length === 0) {
    // No placeholder: the block's last lines that are the gap's last lines (a `});` closing what both show)
    // stay the file's; the new lines go after the unit they follow, else before the one they precede.
    const preRest = leftRest.length > 0 ? pairEdge(context, scope, leftRest, f, 'right', end, true).rest : leftRest;
    if (preRest.length > 0) {
      if (gap.leftEnd !== undefined) {
        insertUnits(context, besidePair(context, scope, gap.leftPair), preRest, after, 'after');
      } else if (gap.rightStart !== undefined) {
        insertUnits(context, besidePair(context, scope, gap.rightPair), preRest, before, 'before');
      } else {
        refuseUnanchored(context, preRest);
      }
    }
    return;
  }
  if (leftRest.length > 0) {
    insertUnits(context, besidePair(context, scope, gap.leftPair), leftRest, after, 'after');
  }
  if (postRest.length > 0) {
    insertUnits(context, besidePair(context, scope, gap.rightPair), postRest, before, 'before');
  }
}

/**
 * Lines of the block beside a paired unit that read as the file's line there, changed. Returns what is left,
 * and where. A block of lines whose opening line differs from the file's (`test('adds zero', () => {` beside
 * the file's `test('adds', () => {`) is a new block, not that one changed, unless the line after the opening
 * one is the file's line after it too: its lines join the file rather than take the file's block.
 */
function pairEdge(
  context: ScopeContext,
  scope: Scope,
  units: Unit[],
  f: readonly Unit[],
  side: 'left' | 'right',
  at: number,
  exactOnly = false,
  edge: { besidePlaceholder?: boolean; anchored?: boolean } = {},
): { rest: Unit[]; after: number; before: number } {
  const order = side === 'left' ? f : [...f].reverse();
  const inward = side === 'left' ? units : [...units].reverse();
  const text = (lines: readonly string[], unit: Unit | undefined) => (unit ? lines[unit.start].trim().replace(/\s+/g, ' ') : '');
  const mineOf = (unit: Unit | undefined) => text(context.snippet.lines, unit);
  const theirsOf = (unit: Unit | undefined) => text(context.file.lines, unit);
  const alike = (unit: Unit | undefined, fileUnit: Unit | undefined): boolean =>
    unit?.type === 'line' && fileUnit?.type === 'line' && similarity(mineOf(unit), theirsOf(fileUnit)) >= EDGE_PAIR_SCORE;
  const same = (unit: Unit | undefined, fileUnit: Unit | undefined): boolean =>
    unit?.type === 'line' && fileUnit?.type === 'line' && mineOf(unit) === theirsOf(fileUnit);
  let paired = 0;
  // From the right, closing lines are met before their opening ones: how many lines were paired before each.
  const closers: number[] = [];
  for (let k = 0; k < order.length && k < inward.length; k++) {
    const unit = inward[k];
    const fileUnit = order[k];
    // Between a paired unit and a line both have next, a line stands for the file's line there, however much
    // it changed (a `background-image` url replaced in an SCSS rule).
    const sandwiched = edge.anchored && unit.type === 'line' && fileUnit.type === 'line' && same(inward[k + 1], order[k + 1]);
    // A last `return` (or `throw`) for the file's last one: a line after it would never run.
    const lastFlow = side === 'right' && k === 0 && ENDS_FLOW.test(mineOf(unit)) && ENDS_FLOW.test(theirsOf(fileUnit));
    if (exactOnly ? !same(unit, fileUnit) : !alike(unit, fileUnit) && !sandwiched && !lastFlow) {
      break;
    }
    const mine = context.snippet.lines[unit.start];
    if (side === 'right' && CLOSES_BLOCK.test(mine)) {
      closers.push(paired);
    }
    if (OPENS_BLOCK.test(mine) && !same(unit, fileUnit)) {
      // The line below the opening one, in the block and in the file.
      const below =
        side === 'left' ? inward[k + 1] === undefined || same(inward[k + 1], order[k + 1]) : k === 0 || same(inward[k - 1], order[k - 1]);
      if (!below) {
        paired = side === 'right' ? (closers.pop() ?? paired) : paired;
        break;
      }
    } else if (side === 'right' && OPENS_BLOCK.test(mine)) {
      closers.pop();
    }
    paired++;
  }
  if (edge.besidePlaceholder) {
    refuseChangedBesidePlaceholder(context, side, inward, order, paired, same);
  }
  let position = at;
  for (let k = 0; k < paired; k++) {
    const unit = inward[k];
    const fileUnit = order[k];
    const [line] = reindent(
      [context.snippet.lines[unit.start]],
      scope.indent.from,
      scope.indent.to,
      context.snippetStyle,
      context.fileStyle,
    );
    if (line !== context.file.lines[fileUnit.start]) {
      addEdit(
        context,
        { action: 'changed', what: lineSpan(fileUnit.start, fileUnit.end), fileStart: fileUnit.start, fileEnd: fileUnit.end },
        fileUnit.start,
        fileUnit.end,
        [line],
      );
    }
    position = side === 'left' ? fileUnit.end : fileUnit.start;
  }
  const rest = side === 'left' ? units.slice(paired) : units.slice(0, units.length - paired);
  return { rest, after: side === 'left' ? position : at, before: side === 'right' ? position : at };
}

function refuseUnanchored(context: ScopeContext, units: readonly Unit[]): never {
  const first = units[0];
  const last = units[units.length - 1];
  throw new PlanRefusal({
    status: 'not_found',
    what: first.type === 'decl' ? describeDecl(first.decl) : `${lineSpan(first.start, last.end)} of the code block`,
    reason:
      'nothing the code block shows is in the file, so nothing tells where this goes; show the declaration it follows (or precedes), or put a placeholder line (`// ... existing code ...`) on the side where the file goes on',
    searchLines: context.snippet.lines.slice(first.start, last.end),
  });
}

/** The block's lines of some units, re-indented for the scope. */
function blockLines(context: ScopeContext, scope: Scope, units: readonly Unit[]): string[] {
  const lines = context.snippet.lines
    .slice(units[0].start, units[units.length - 1].end)
    .filter((_, i) => !context.snippet.placeholders[units[0].start + i]);
  return reindent(lines, scope.indent.from, scope.indent.to, context.snippetStyle, context.fileStyle);
}

/**
 * Blank lines the file usually puts between the declarations of a scope: the run right after each one (a
 * doc comment set off by its own blank line, as commander writes JSDoc, does not count twice). Fields among
 * fields count apart: a class's fields stand closer together than its methods; with no two fields to tell,
 * a new field keeps the blank lines the block gives it (`fallback`).
 */
function usualGap(context: ScopeContext, scope: Scope, fields: boolean, fallback: number | undefined): number {
  const counts = new Map<number, number>();
  const decls = scope.file.decls;
  for (let i = 1; i < decls.length; i++) {
    if (fields !== (decls[i - 1].family === 'value' && decls[i].family === 'value')) {
      continue;
    }
    let blanks = 0;
    for (let l = decls[i - 1].end + 1; l < decls[i].lead && context.file.lines[l].trim() === ''; l++) {
      blanks++;
    }
    counts.set(blanks, (counts.get(blanks) ?? 0) + 1);
  }
  if (counts.size === 0 && fields && fallback !== undefined) {
    return fallback;
  }
  let best = scope.file.owner ? 1 : context.file.outline.reader === 'python' ? 2 : 1;
  let bestCount = 0;
  for (const [blanks, count] of counts) {
    if (count > bestCount) {
      best = blanks;
      bestCount = count;
    }
  }
  return best;
}

/** Blank lines of the block directly above (-1) or below (1) its line `at`, before a line of code (not a placeholder or an end). */
function blanksAround(context: ScopeContext, at: number, step: 1 | -1): number {
  const { lines, placeholders } = context.snippet;
  let count = 0;
  let i = at + step;
  while (i >= 0 && i < lines.length && lines[i].trim() === '') {
    count++;
    i += step;
  }
  return i >= 0 && i < lines.length && !placeholders[i] ? count : 0;
}

/** Blank lines of the block directly above (-1) or below (1) its line `at`, whatever stands beyond them (0 at the block's end). */
function blankRun(lines: readonly string[], at: number, step: 1 | -1): number {
  let count = 0;
  let i = at + step;
  while (i >= 0 && i < lines.length && lines[i].trim() === '') {
    count++;
    i += step;
  }
  return i >= 0 && i < lines.length ? count : 0;
}

/** New units of the block inserted at file line `at`, after or before the unit beside them, with the scope's blank lines. */
function insertUnits(context: ScopeContext, scope: Scope, units: readonly Unit[], at: number, side: 'after' | 'before'): void {
  const fileLines = context.file.lines;
  const lines = blockLines(context, scope, units);
  const hasDecl = units.some((u) => u.type === 'decl');
  const atScopeStart = at <= scope.file.start;
  const atScopeEnd = at >= scope.file.end;
  if (atScopeEnd && !scope.file.owner) {
    // At the end of the file: above its last line break (the empty last line), not after it.
    while (at > scope.file.start && fileLines[at - 1].trim() === '') {
      at--;
    }
  }
  // Declarations get the scope's usual blank lines; other lines the blank lines the block has on the side
  // they join the file (a CSS rule the block sets off by a blank line after the rule it follows).
  const joinAbove = (side === 'after' && !atScopeStart) || (side === 'before' && atScopeEnd);
  const blockBlanks = joinAbove ? blanksAround(context, units[0].start, -1) : blanksAround(context, units[units.length - 1].end - 1, 1);
  const fields = units.every((u) => u.type === 'decl' && u.decl.family === 'value');
  // Beside a line that is no declaration (the `</script>` or `});` closing what holds them), the block's count.
  const neighbour = joinAbove ? at - 1 : at;
  const besideDecl = atScopeStart || atScopeEnd || scope.file.decls.some((d) => d.lead <= neighbour && neighbour <= d.end);
  const usual = hasDecl && besideDecl ? usualGap(context, scope, fields, blockBlanks) : blockBlanks;
  // On the other side, the blank lines the block has there (after a placeholder, say), where the file has none.
  const otherBlock = joinAbove
    ? blankRun(context.snippet.lines, units[units.length - 1].end - 1, 1)
    : blankRun(context.snippet.lines, units[0].start, -1);
  const fileHasBlank = joinAbove ? at < fileLines.length && fileLines[at].trim() === '' : at > 0 && fileLines[at - 1].trim() === '';
  const otherEdge = joinAbove ? atScopeEnd : atScopeStart;
  const other = otherBlock > 0 && !fileHasBlank && !otherEdge ? (hasDecl ? usualGap(context, scope, fields, otherBlock) : otherBlock) : 0;
  const above = new Array<string>(joinAbove ? usual : other).fill('');
  const below = new Array<string>(joinAbove ? other : usual).fill('');
  const decls = units.filter((u): u is Extract<Unit, { type: 'decl' }> => u.type === 'decl');
  const what =
    decls.length > 0
      ? decls.map((u) => describeOwned(u.decl, scope)).join(', ')
      : `${lineSpan(units[0].start, units[units.length - 1].end)} of the code block`;
  addEdit(context, { action: 'inserted', what, fileStart: at, fileEnd: at }, at, at, [...above, ...lines, ...below]);
}

const blankAbove = (lines: readonly string[], line: number): boolean => line > 0 && lines[line - 1].trim() === '';

/** Export and visibility words that open a declaration's first line (`export default`, Rust's `pub(crate)`). */
const LEADING_MODIFIERS = /^(export\s+(default\s+)?|pub(\([^)]*\))?\s+)/;

/**
 * The first line of a declaration as the block writes it, with the file's export or visibility word when
 * the block has none (`class Cart {` for `export class Cart {`): models drop it when they show a class for
 * context, and writing their line as it stands would unexport the declaration.
 */
function headerLine(written: string, fileLine: string): string {
  const modifiers = LEADING_MODIFIERS.exec(fileLine.trimStart())?.[0];
  const body = written.trimStart();
  if (modifiers === undefined || LEADING_MODIFIERS.test(body) || body === '') {
    return written;
  }
  return written.slice(0, written.length - body.length) + modifiers + body;
}

/** A declaration the block shows that is the file's `target`: replaced, or merged when the block shows only part of it. */
function placeDecl(context: ScopeContext, shown: Decl, target: Decl, scope: Scope): void {
  const { snippet, file } = context;
  const holes = snippet.placeholders.slice(shown.start, shown.end + 1).some(Boolean);
  // A function's locals (`let sum = 0`, an inner helper) are its body, not members the block left out: a
  // function shown whole, without placeholders, replaces the file's whole.
  const hides = shown.family !== 'callable' && target.children.some((c) => !shown.children.some((s) => s.name === c.name));
  const from = shown.lead < shown.start ? target.lead : target.start;
  if (!holes && !hides) {
    const lines = reindent(
      snippet.lines.slice(shown.lead, shown.end + 1),
      leadOf(snippet.lines[shown.start]),
      leadOf(file.lines[target.start]),
      context.snippetStyle,
      context.fileStyle,
    );
    lines[shown.start - shown.lead] = headerLine(lines[shown.start - shown.lead], file.lines[target.start]);
    keepEdgeBlanks(lines, shown, target, snippet.lines, file.lines);
    if (!sameLines(lines, file.lines.slice(from, target.end + 1))) {
      addEdit(
        context,
        { action: 'replaced', what: describeOwned(shown, scope), fileStart: from, fileEnd: target.end + 1 },
        from,
        target.end + 1,
        lines,
      );
    }
    return;
  }
  if (!shown.interior || !target.interior) {
    throw new PlanRefusal({
      status: 'invalid',
      what: describeDecl(shown),
      reason: `the code block shows only part of ${describeDecl(shown)} (placeholders or left-out members) but its body could not be read line by line in ${shown.interior ? 'the file' : 'the code block'}; show it whole`,
    });
  }
  if (!holes) {
    refuseDroppedBetweenUnchanged(context, shown, target);
  }
  const indent = { from: leadOf(snippet.lines[shown.start]), to: leadOf(file.lines[target.start]) };
  const stretch = (sFrom: number, sTo: number, fFrom: number, fTo: number, what: string) => {
    if (sTo > sFrom && snippet.implied?.slice(sFrom, sTo).every(Boolean)) {
      // Closing lines the block left to its last placeholder: the file's stay as they are.
      return;
    }
    const lines = reindent(snippet.lines.slice(sFrom, sTo), indent.from, indent.to, context.snippetStyle, context.fileStyle);
    if (sFrom === shown.start && lines.length > 0) {
      lines[0] = headerLine(lines[0], file.lines[target.start]);
    }
    if (!sameLines(lines, file.lines.slice(fFrom, fTo))) {
      addEdit(context, { action: 'changed', what, fileStart: fFrom, fileEnd: fTo }, fFrom, fTo, lines);
    }
  };
  if (shown.lead < shown.start) {
    stretch(shown.lead, shown.start, target.lead, target.start, `the comments above ${describeDecl(shown)}`);
  }
  stretch(
    shown.start,
    shown.interior.start,
    target.start,
    target.interior.start,
    `the first line${shown.interior.start - shown.start > 1 ? 's' : ''} of ${describeDecl(shown)}`,
  );
  mergeScope(context, {
    file: { start: target.interior.start, end: target.interior.end, decls: target.children, owner: target },
    snippet: { start: shown.interior.start, end: shown.interior.end, decls: shown.children },
    bounded: holes,
    indent: { from: memberLead(context, shown), to: childLead(context, target) },
  });
  stretch(shown.interior.end, shown.end + 1, target.interior.end, target.end + 1, `the last line of ${describeDecl(shown)}`);
}

/**
 * A declaration shown whole without a placeholder keeps the members it leaves out: the block shows the ones
 * it changes. But a member left out between two the block shows next to each other, both unchanged, reads
 * as removed (the block copies the body and skips it: Polly's constructor dropped for a primary one), and
 * the file's declarations are never removed: refused, naming the member, so the block says which it means.
 */
function refuseDroppedBetweenUnchanged(context: ScopeContext, shown: Decl, target: Decl): void {
  const { snippet, file } = context;
  const text = (lines: readonly string[], d: Decl) =>
    lines
      .slice(d.lead, d.end + 1)
      .map((l) => l.trim())
      .filter((l) => l !== '')
      .join('\n');
  const once = (decls: readonly Decl[], name: string) => {
    const named = decls.filter((d) => d.name === name);
    return named.length === 1 ? named[0] : undefined;
  };
  const shownAt = (d: Decl | undefined) => {
    const mine = d && once(shown.children, d.name);
    return mine && once(target.children, d.name) === d && text(snippet.lines, mine) === text(file.lines, d)
      ? shown.children.indexOf(mine)
      : undefined;
  };
  const isShown = (d: Decl) => shown.children.some((s) => s.name === d.name);
  const members = target.children;
  for (let k = 0; k < members.length; k++) {
    if (isShown(members[k])) {
      continue;
    }
    let next = k;
    while (next < members.length && !isShown(members[next])) {
      next++;
    }
    const before = shownAt(members[k - 1]);
    const after = shownAt(members[next]);
    if (before !== undefined && after === before + 1) {
      const left = members.slice(k, next);
      throw new PlanRefusal({
        status: 'invalid',
        what: left.map(describeDecl).join(', '),
        reason:
          `the code block shows ${describeDecl(shown)} without a placeholder but leaves out ${left
            .map((d) => `${describeDecl(d)} (${lineSpan(d.lead, d.end + 1)})`)
            .join(', ')}, ` +
          `between ${describeDecl(members[k - 1])} and ${describeDecl(members[next])}, which it shows unchanged next to each other. ` +
          'A declaration the block does not show is never removed, so whether it should stay is not clear: to keep it, put a placeholder line (`// ... existing code ...`) where it stands; to remove it, send a SEARCH/REPLACE block that deletes it',
        places: left.map((d) => ({ start: d.lead, end: d.end + 1 })),
      });
    }
    k = next;
  }
}

function describeOwned(decl: Decl, scope: Scope): string {
  return scope.file.owner ? `${describeDecl(decl)} of ${describeDecl(scope.file.owner)}` : describeDecl(decl);
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, i) => line === b[i]);
}

function addEdit(context: ScopeContext, part: SnippetPart, start: number, end: number, lines: string[]): void {
  context.parts.push(part);
  context.edits.push({ start, end, lines: fillBlanks(context, lines, end), part: context.parts.length - 1 });
}

/**
 * In a file whose blank lines inside bodies keep the indentation (an editor that leaves it), a blank line
 * written there gets the indentation of the line below it (in `lines`, else the file's line `next`).
 */
function fillBlanks(context: ScopeContext, lines: string[], next: number): string[] {
  if (!context.fileStyle.indentedBlanks) {
    return lines;
  }
  let below = leadOf(context.file.lines[next] ?? '');
  const filled = [...lines];
  for (let i = filled.length - 1; i >= 0; i--) {
    if (filled[i].trim() === '') {
      filled[i] = below;
    } else {
      below = leadOf(filled[i]);
    }
  }
  return filled;
}
