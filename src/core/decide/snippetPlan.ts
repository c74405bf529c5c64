// Where each part of a code block goes in a file, decided by structure (issue 20). A code block is one
// declaration, several, a lazy snippet whose placeholder lines ("// ... existing code ...") stand for the
// file's code between the parts it shows, or the whole file. Each declaration it shows is found in the file
// by its name (and kind, and parameters for overloads) within the declaration its context lines give; one
// the file lacks is inserted beside the one next to it in the block. The plan is a list of line edits
// against the file; refusals name the places instead: a name that fits more than one declaration, a part
// that has no place. Nothing the block does not show is removed, except by a whole-file rewrite, whose
// removals the plan lists. Line numbers here are 0-based.

import { type Decl, describeDecl, walkDecls } from '../match/structure/outline';
import { similarity } from '../match/fuzzy/similarity';
import { blockStyle, indentStyle, leadOf, reindent } from './snippetIndent';
import { mergeScope } from './snippetScope';
import { rewriteAllowed } from './audit/wholeFile';
import {
  childLead,
  type FileView,
  mayStandFor,
  type PlannedEdit,
  PlanRefusal,
  type RemovedDecl,
  type ScopeContext,
  type SnippetPart,
  type SnippetPlan,
  type SnippetView,
} from './snippetTypes';

export type { FileView, PlannedEdit, RemovedDecl, SnippetPart, SnippetPlan, SnippetView };

const normalise = (line: string): string => line.trim().replace(/\s+/g, ' ');

/** Key a declaration is known by across the block and the file: its enclosing names and its own. */
function declPath(decl: Decl, parents: readonly Decl[]): string {
  return [...parents.map((p) => p.name), decl.name].join('.');
}

/** The file's non-blank lines outside any top-level declaration (imports, statements). */
function looseTopLines(lines: readonly string[], decls: readonly Decl[]): string[] {
  const inside = new Uint8Array(lines.length);
  for (const d of decls) {
    inside.fill(1, d.lead, d.end + 1);
  }
  return lines.filter((l, i) => inside[i] === 0 && l.trim() !== '').map(normalise);
}

function firstAndLast(lines: readonly string[]): [string, string] | undefined {
  const filled = lines.filter((l) => l.trim() !== '');
  return filled.length === 0 ? undefined : [normalise(filled[0]), normalise(filled[filled.length - 1])];
}

/**
 * The block shows a declaration of the file without the doc comment the file has right above it: a model leaves a doc comment out for brevity, and a declaration replaced on its own keeps
 * it, so the block is read declaration by declaration, not as a rewrite that would drop them.
 */
function showsWithoutLeads(file: FileView, blockTop: readonly Decl[]): boolean {
  const bare = new Set(blockTop.filter((d) => d.lead === d.start).map((d) => d.name));
  const documented = (d: Decl) => file.lines.slice(d.lead, d.start).some((l) => DOC_COMMENT.test(l));
  return file.outline.decls.some((d) => d.lead < d.start && bare.has(d.name) && documented(d));
}

/** A comment line (not a decorator or an attribute, which a rewrite that leaves them out means to drop). */
const DOC_COMMENT = /^\s*(\/\/|\/\*|\*|#(?!\[)|--|"""|''')/;

/**
 * A block without placeholders covers the file (a rewrite) under the strict rule (decide/audit/wholeFile.ts):
 * it shows every top-level declaration of the file and most of its other top-level lines; a file without
 * declarations, when the block has its first and last lines and half its length. Never a configuration file.
 */
export function coversFile(file: FileView, snippet: SnippetView): boolean {
  const top = file.outline.decls;
  if (
    !rewriteAllowed({
      fileTop: top,
      blockTop: snippet.outline.decls,
      placeholders: snippet.placeholders.some(Boolean),
      config: file.config ?? false,
    })
  ) {
    return false;
  }
  if (showsWithoutLeads(file, snippet.outline.decls)) {
    return false;
  }
  const fileEnds = firstAndLast(file.lines);
  const snippetEnds = firstAndLast(snippet.lines);
  if (!fileEnds || !snippetEnds) {
    return fileEnds === undefined;
  }
  if (top.length === 0) {
    const filled = file.lines.filter((l) => l.trim() !== '').length;
    const shownLines = snippet.lines.filter((l) => l.trim() !== '').length;
    return filled >= 3 && shownLines * 2 >= filled && fileEnds[0] === snippetEnds[0] && fileEnds[1] === snippetEnds[1];
  }
  const loose = looseTopLines(file.lines, top);
  if (loose.length === 0) {
    return true;
  }
  const snippetLines = new Set(snippet.lines.map(normalise));
  return loose.filter((l) => snippetLines.has(l)).length * 2 >= loose.length;
}

/** Declarations of the file a rewrite would remove: those whose enclosing names and name the block does not show. */
function removedBy(file: FileView, snippet: SnippetView): RemovedDecl[] {
  const kept = new Set<string>();
  for (const { decl, parents } of walkDecls(snippet.outline.decls)) {
    kept.add(declPath(decl, parents));
  }
  const removed: RemovedDecl[] = [];
  for (const { decl, parents } of walkDecls(file.outline.decls)) {
    if (!kept.has(declPath(decl, parents)) && !parents.some((p) => removed.some((r) => r.start === p.lead && r.end === p.end + 1))) {
      const owner = parents.length > 0 ? ` of ${describeDecl(parents[parents.length - 1])}` : '';
      removed.push({ what: `${describeDecl(decl)}${owner}`, start: decl.lead, end: decl.end + 1 });
    }
  }
  return removed;
}

/** Plans the block against the file: a rewrite when it covers the file, else part by part. */
export function planSnippet(file: FileView, snippet: SnippetView): SnippetPlan {
  if (coversFile(file, snippet)) {
    const fileStyle = indentStyle(file.lines);
    const lines = reindent(snippet.lines, '', '', blockStyle(snippet.lines, file.lines, fileStyle), fileStyle);
    // The file's last line break stays as it is (the block's lines have none after them).
    const end = file.lines.length > 1 && file.lines[file.lines.length - 1] === '' ? file.lines.length - 1 : file.lines.length;
    // Blank lines the file starts with stay when the block starts with code (a block never shows them).
    let start = 0;
    while (start < end && file.lines[start].trim() === '' && (snippet.lines[0] ?? '').trim() !== '') {
      start++;
    }
    return {
      kind: 'edits',
      edits: [{ start, end, lines, part: 0 }],
      parts: [{ action: 'rewritten', what: 'the whole file', fileStart: 0, fileEnd: end }],
      wholeFile: true,
      removed: removedBy(file, snippet),
      found: [{ start: 0, end }],
    };
  }
  const fileStyle = indentStyle(file.lines);
  const context: ScopeContext = {
    file,
    snippet,
    fileStyle,
    // A placeholder's indentation is no level of the block's (`  # ... existing code ...` above a method at four).
    snippetStyle: blockStyle(
      snippet.lines.map((line, i) => (snippet.placeholders[i] ? '' : line)),
      file.lines,
      fileStyle,
    ),
    edits: [],
    parts: [],
    found: [],
  };
  try {
    planTop(context);
  } catch (error) {
    if (error instanceof PlanRefusal) {
      return { kind: 'refused', refusal: error.refusal };
    }
    throw error;
  }
  if (context.edits.length === 0 && context.found.length === 0) {
    return {
      kind: 'refused',
      refusal: {
        status: 'not_found',
        what: 'the code block',
        reason: 'it shows no declaration and no line of the file, so there is nowhere to put it',
        searchLines: snippet.lines.filter((_, i) => !snippet.placeholders[i]),
      },
    };
  }
  const edits = context.edits.sort((a, b) => a.start - b.start || a.end - b.end);
  for (let i = 1; i < edits.length; i++) {
    if (edits[i].start < edits[i - 1].end) {
      throw new Error(`snippet plan: edits overlap at line ${edits[i].start + 1}`);
    }
  }
  return { kind: 'edits', edits, parts: context.parts, wholeFile: false, removed: [], found: context.found };
}

/**
 * The block's top level. Its declarations are looked up among the file's top-level ones; one found only
 * deeper (a method shown without its class) makes that declaration's body the scope, when every such
 * lookup agrees on it.
 */
function planTop(context: ScopeContext): void {
  const { file, snippet } = context;
  const fileTop = file.outline.decls;
  const owners = new Set<Decl>();
  let anyTop = false;
  for (const shown of snippet.outline.decls) {
    // A constructor shown alone is never its class (Java, C#: the same name at the top level).
    const tops = fileTop.filter((d) => d.name === shown.name && mayStandFor(shown, d));
    // A class shown alone is the class, not its constructor of the same name (C#, Java, C++): of the
    // declarations so named, those of the shown one's family, when there are any.
    const named = [...walkDecls(fileTop)].filter(({ decl, parents }) => decl.name === shown.name && parents.length > 0);
    const sameFamily = named.filter(({ decl }) => decl.family === shown.family);
    const deeper = sameFamily.length > 0 ? sameFamily : named.filter(({ decl }) => mayStandFor(shown, decl));
    if (tops.length > 0 && (deeper.length === 0 || closerAtTop(context, shown, tops, deeper))) {
      anyTop = true;
      continue;
    }
    for (const { parents } of deeper) {
      owners.add(parents[parents.length - 1]);
    }
  }
  if (owners.size > 0) {
    const [owner] = owners;
    if (anyTop || owners.size > 1 || !owner.interior) {
      refuseSpread(context);
    }
    mergeScope(context, {
      file: { start: owner.interior.start, end: owner.interior.end, decls: owner.children, owner },
      snippet: { start: 0, end: snippet.lines.length, decls: snippet.outline.decls },
      bounded: false,
      indent: { from: leadOf(firstFilled(snippet.lines, snippet.placeholders)), to: childLead(context, owner) },
    });
    return;
  }
  mergeScope(context, {
    file: { start: 0, end: file.lines.length, decls: fileTop },
    snippet: { start: 0, end: snippet.lines.length, decls: snippet.outline.decls },
    // The file's top and end are no lines the block shows: what it has before the block's first line of the
    // file, or after its last, stays (an SCSS rule shown last, without a placeholder after it, had replaced
    // every rule to the end of the file).
    bounded: false,
    indent: { from: leadOf(firstFilled(snippet.lines, snippet.placeholders)), to: '' },
  });
}

/** How much a file declaration looks like the one the block shows: the same parameters, then the text's likeness. */
function likeness(context: ScopeContext, shown: Decl, decl: Decl): number {
  const text = (lines: readonly string[], d: Decl) =>
    lines
      .slice(d.start, d.end + 1)
      .map((l) => l.trim())
      .join('\n');
  const params = shown.params !== undefined && shown.params === decl.params ? 1 : 0;
  return (params + similarity(text(context.snippet.lines, shown), text(context.file.lines, decl))) / 2;
}

/** A likeness this much above the other depth's tells a module function from a method of the same name. */
const DEPTH_MARGIN = 0.15;

/**
 * A name declared both at the top level and inside a declaration (a module function `describe(item)` and a
 * method `Shelf.describe(self)`): the top level when its declaration is clearly the likelier, the inner one
 * when that is; when neither stands out, a function is refused and any other declaration is the top-level one.
 */
function closerAtTop(
  context: ScopeContext,
  shown: Decl,
  tops: readonly Decl[],
  deeper: ReadonlyArray<{ decl: Decl; parents: readonly Decl[] }>,
): boolean {
  const best = (decls: readonly Decl[]) => Math.max(...decls.map((d) => likeness(context, shown, d)));
  const top = best(tops);
  const inner = best(deeper.map((d) => d.decl));
  if (Math.abs(top - inner) < DEPTH_MARGIN && shown.family !== 'callable') {
    // A rule or a type shown alone is the top-level one (a CSS rule over its copy in `@media`).
    return true;
  }
  if (Math.abs(top - inner) < DEPTH_MARGIN) {
    throw new PlanRefusal({
      status: 'ambiguous',
      what: describeDecl(shown),
      reason: `${shown.name} is declared at the top level and inside ${deeper.map((d) => describeDecl(d.parents[d.parents.length - 1])).join(', ')}, and the code block does not show which one it means; show the enclosing declaration (e.g. its class header) or keep the parameters as the file has them`,
      places: [...tops, ...deeper.map((d) => d.decl)].map((d) => ({ start: d.lead, end: d.end + 1 })).sort((a, b) => a.start - b.start),
    });
  }
  return top > inner;
}

export function firstFilled(lines: readonly string[], placeholders: readonly boolean[]): string {
  return lines.find((l, i) => l.trim() !== '' && !placeholders[i]) ?? '';
}

/** Declarations shown without their enclosing one, found in different ones of the file: ask for the context. */
function refuseSpread(context: ScopeContext): never {
  const places: Array<{ start: number; end: number }> = [];
  for (const shown of context.snippet.outline.decls) {
    for (const { decl } of walkDecls(context.file.outline.decls)) {
      if (decl.name === shown.name) {
        places.push({ start: decl.lead, end: decl.end + 1 });
      }
    }
  }
  throw new PlanRefusal({
    status: 'ambiguous',
    what: context.snippet.outline.decls.map(describeDecl).join(', '),
    reason:
      'the declarations it shows belong to different enclosing declarations of the file (or to none), and the code block does not show which; add the enclosing lines (e.g. `class Cart {` ... `}`)',
    places,
  });
}
