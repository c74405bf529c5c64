// Where a decided block goes and what it writes there: a Target (decide/batchView.ts) becomes a
// Placement, the REPLACE lines written in the file's own style (transform.ts) over working lines [start, end).

import { type SearchReplaceBlock } from '../types';
import { type LineView, splitBlockLines } from '../match/lines';
import { type Occurrence, type SearchSpec } from '../match/tiers';
import { type BatchView, isEmptySearch, type Target } from '../decide/batchView';
import { buildReplacement, relateRegion, type ReplacementLine } from './transform';

/** What placing a block reads of the batch: what its decision read, and which characters the working text holds. */
export interface PlacementView extends BatchView {
  fileHas(ch: string): boolean;
}

/** Where a block goes in the working text and what it writes there. */
export interface Placement {
  /** Working lines [start, end) replaced. */
  start: number;
  end: number;
  lines: ReplacementLine[];
  /** REPLACE was empty: the lines go away entirely, line breaks included. */
  remove: boolean;
  /** Whole-document fill of an empty file (empty SEARCH): the content ends with a line break. */
  fill?: boolean;
}

export function replaceLinesOf(block: SearchReplaceBlock): string[] {
  return splitBlockLines(block.replace);
}

/** The lines a decided block writes at its target. */
export function placeTarget(batch: PlacementView, block: SearchReplaceBlock, target: Target): Placement {
  switch (target.kind) {
    case 'occurrence':
      return placeOccurrence(batch, block, target.occurrence);
    case 'region':
      return placeLooseRegion(batch, block, target.spec, target.start, target.end);
    case 'fill': {
      const lines = block.replace === '' ? [] : replaceLinesOf(block).map((text) => ({ text }));
      return { start: 0, end: batch.working.count, lines, remove: false, fill: true };
    }
    case 'pieces':
      return placePieces(batch, block, target.parts);
  }
}

/**
 * SEARCH's pieces (between placeholders) each replaced by its REPLACE piece, and the file's lines between
 * them written back as they are: one placement from the first piece to the last.
 */
function placePieces(
  batch: PlacementView,
  block: SearchReplaceBlock,
  parts: ReadonlyArray<{ occurrence: Occurrence; replace: readonly string[] }>,
): Placement {
  const start = parts[0].occurrence.start;
  const end = parts[parts.length - 1].occurrence.end;
  const lines: ReplacementLine[] = [];
  let at = start;
  for (const part of parts) {
    for (let f = at; f < part.occurrence.start; f++) {
      lines.push({ text: batch.working.line(f), fileLine: f - start });
    }
    const piece = part.replace.length === 0 ? { lines: [] } : placeOccurrence(batch, block, part.occurrence, part.replace);
    const offset = part.occurrence.start - start;
    for (const line of piece.lines) {
      lines.push(line.fileLine === undefined ? line : { text: line.text, fileLine: line.fileLine + offset });
    }
    at = part.occurrence.end;
  }
  return { start, end, lines, remove: lines.length === 0 };
}

/** The REPLACE lines written into an occurrence found by tiers 1-9. */
function placeOccurrence(batch: PlacementView, block: SearchReplaceBlock, occ: Occurrence, replaceLines?: readonly string[]): Placement {
  const doc = batch.working;
  const fileLines: string[] = [];
  for (let i = occ.start; i < occ.end; i++) {
    fileLines.push(doc.line(i));
  }
  return placeRegion(
    batch,
    block,
    occ.start,
    occ.end,
    {
      fileLines,
      searchLines: occ.searchLines,
      pairs: occ.searchLines.map((_, k) => [k, k] as const),
      indent: occ.indent,
      lineNumbersStripped: occ.lineNumbersStripped,
      restoredTags: occ.restoredTags,
    },
    replaceLines,
  );
}

export function regionLines(batch: PlacementView, s: number, e: number): string[] {
  const doc = batch.working;
  const fileLines: string[] = [];
  for (let i = s; i < e; i++) {
    fileLines.push(doc.line(i));
  }
  return fileLines;
}

/**
 * Why a fuzzy region cannot take the block automatically: the lines SEARCH pairs with are indented by
 * no one relation (see indent.ts). Undefined when one relation fits.
 */
export function looseIndentConflict(
  batch: PlacementView,
  block: SearchReplaceBlock,
  spec: SearchSpec,
  s: number,
  e: number,
): string | undefined {
  if (isEmptySearch(block.search)) {
    return undefined;
  }
  const rel = relateRegion(spec.lines, regionLines(batch, s, e));
  if (rel.indent) {
    return undefined;
  }
  return indentDisagreement(
    batch,
    rel.disagree.map((f) => s + f),
  );
}

function indentDisagreement(batch: BatchView, lines: readonly number[]): string {
  const numbers = lines.map((l) => batch.range(l, l + 1).startLine);
  const which = numbers.length === 1 ? `line ${numbers[0]}` : `lines ${numbers.join(', ')}`;
  return `the indentation of ${which} disagrees with SEARCH's: no single indentation shift or rescale maps SEARCH onto these lines`;
}

/**
 * The REPLACE lines written into a region that is not a tier 1-9 occurrence (fuzzy or chosen). The
 * indentation relation is the one every paired line follows, else (a place the user chose) the one
 * most of them follow.
 */
function placeLooseRegion(batch: PlacementView, block: SearchReplaceBlock, spec: SearchSpec, s: number, e: number): Placement {
  const fileLines = regionLines(batch, s, e);
  const searchLines = isEmptySearch(block.search) ? [] : spec.lines;
  const rel = relateRegion(searchLines, fileLines);
  return placeRegion(batch, block, s, e, {
    fileLines,
    searchLines,
    pairs: rel.pairs,
    indent: rel.indent ?? rel.bestIndent,
    lineNumbersStripped: false,
    restoredTags: [],
  });
}

function placeRegion(
  batch: PlacementView,
  block: SearchReplaceBlock,
  s: number,
  e: number,
  rel: Omit<Parameters<typeof buildReplacement>[0], 'replaceLines' | 'keepTrailingWhitespace' | 'preserveQuoteStyle'>,
  /** The REPLACE lines when not the block's own (a piece of it; [''] is one blank line, not an empty REPLACE). */
  replaceLines?: readonly string[],
): Placement {
  if (replaceLines === undefined && block.replace === '') {
    return { start: s, end: e, lines: [], remove: true };
  }
  const lines = buildReplacement({
    ...rel,
    replaceLines: replaceLines ?? replaceLinesOf(block),
    keepTrailingWhitespace: batch.settings.markdown,
    preserveQuoteStyle: batch.settings.preserveQuoteStyle,
    fileHas: (ch) => batch.fileHas(ch),
  });
  return { start: s, end: e, lines, remove: false };
}

export function joinPlacement(doc: LineView, p: Placement, fileEol: '\n' | '\r\n'): string {
  const regionLen = p.end - p.start;
  const eol = doc.eol(p.start) || fileEol;
  let out = '';
  for (let i = 0; i < p.lines.length; i++) {
    const line = p.lines[i];
    out += line.text;
    if (i === p.lines.length - 1) {
      break;
    }
    // A line written back unchanged keeps its own line break (mixed-EOL files stay as they were),
    // except the region's last line, whose break lies outside the replaced range.
    const f = line.fileLine;
    out += f !== undefined && f < regionLen - 1 ? doc.eol(p.start + f) : eol;
  }
  return out;
}
