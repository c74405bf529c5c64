// The data of planning a code block (snippetPlan.ts): the block and the file as read, the parts and the
// edits a plan makes, and a refusal. Line numbers are 0-based.

import { type Decl, type Outline } from '../match/structure/outline';
import { type IndentStyle, leadOf } from './snippetIndent';

/** The code block as read: its lines (placeholders marked), its declarations. */
export interface SnippetView {
  lines: readonly string[];
  placeholders: readonly boolean[];
  outline: Outline;
  /** Lines the block left out and its reading put in (the closing braces a last placeholder stands for). */
  implied?: readonly boolean[];
}

export interface FileView {
  lines: readonly string[];
  outline: Outline;
  /** A configuration file (JSON, YAML, TOML): a block of it is never a whole-file rewrite (decide/audit/wholeFile.ts). */
  config?: boolean;
}

/** What a part of the block did (or would do). */
export interface SnippetPart {
  action: 'replaced' | 'inserted' | 'changed' | 'rewritten';
  /** "method addItem", "lines 3-4", "the whole file". */
  what: string;
  /** The file's lines it replaces, [start, end); start === end for an insertion before line start. */
  fileStart: number;
  fileEnd: number;
}

export interface PlannedEdit {
  /** File lines [start, end) replaced by `lines`. */
  start: number;
  end: number;
  lines: string[];
  /** Index into SnippetPlan.parts. */
  part: number;
}

export interface Refusal {
  status: 'ambiguous' | 'not_found' | 'invalid';
  /** What the block shows that could not be placed: "method addItem". */
  what: string;
  /** Why, in a sentence. */
  reason: string;
  /** ambiguous: every place (file lines [start, end)). */
  places?: Array<{ start: number; end: number }>;
  /** not_found: the block's lines to look for near misses in the file. */
  searchLines?: string[];
  /** ambiguous at one place: the block's lines may change the file's there or be added beside them. */
  twoReadings?: boolean;
}

export interface RemovedDecl {
  what: string;
  start: number;
  end: number;
}

export type SnippetPlan =
  | {
      kind: 'edits';
      edits: PlannedEdit[];
      parts: SnippetPart[];
      wholeFile: boolean;
      removed: RemovedDecl[];
      /** File lines [start, end) the block was found at: with no edits, where the file already holds it. */
      found: Array<{ start: number; end: number }>;
    }
  | { kind: 'refused'; refusal: Refusal };

/** Thrown inside the planner to stop at the first part that cannot be placed. */
export class PlanRefusal extends Error {
  constructor(readonly refusal: Refusal) {
    super(refusal.reason);
  }
}

/** The state of one plan: both texts, their indentation styles, and the edits made so far. */
export interface ScopeContext {
  file: FileView;
  snippet: SnippetView;
  fileStyle: IndentStyle;
  snippetStyle: IndentStyle;
  edits: PlannedEdit[];
  parts: SnippetPart[];
  /** File lines [start, end) the block's declarations and lines were found at (changed or not). */
  found: Array<{ start: number; end: number }>;
}

/** The indentation of the members of a file declaration: its first member's, else one level below its header. */
export function childLead(context: Pick<ScopeContext, 'file' | 'fileStyle'>, owner: Decl): string {
  const interior = owner.interior;
  if (interior) {
    for (let i = interior.start; i < interior.end; i++) {
      const line = context.file.lines[i];
      if (line.trim() !== '') {
        return leadOf(line);
      }
    }
  }
  const header = leadOf(context.file.lines[owner.start]);
  return header + (context.fileStyle.tabs ? '\t' : ' '.repeat(context.fileStyle.unit));
}

/** Whether a declaration the block shows may be the file's `decl`: a callable is no type (a constructor is not its class). */
export function mayStandFor(shown: Decl, decl: Decl): boolean {
  const families = new Set([shown.family, decl.family]);
  return !(families.has('callable') && families.has('type'));
}

/**
 * The block's indentation of a declaration's members: its first member line's, or a placeholder's indented
 * under the header and less deep than that line when it is no declaration (`  // ... existing code ...` above
 * a continuation line at four). A placeholder at the header's depth or left of it (Copilot's column-0 ones)
 * says nothing.
 */
export function memberLead(context: ScopeContext, shown: Decl): string {
  const interior = shown.interior;
  const header = leadOf(context.snippet.lines[shown.start]);
  let placeholder: string | undefined;
  for (let i = interior?.start ?? 0; interior && i < interior.end; i++) {
    const line = context.snippet.lines[i];
    if (line.trim() === '') {
      continue;
    }
    const lead = leadOf(line);
    if (!context.snippet.placeholders[i]) {
      // A member declaration sets the depth of members itself (a placeholder two columns left of a method is
      // the model's slip, not a level).
      const member = shown.children.some((c) => c.lead === i || c.start === i);
      return !member && placeholder !== undefined && placeholder.length < lead.length && lead.startsWith(placeholder) ? placeholder : lead;
    }
    if (placeholder === undefined && lead.length > header.length && lead.startsWith(header)) {
      placeholder = lead;
    }
  }
  return placeholder ?? header + (context.snippetStyle.tabs ? '\t' : ' '.repeat(context.snippetStyle.unit));
}

/** File or block lines [from, to), 0-based, as a message says them: "line 4", "lines 4-9". */
export function lineSpan(from: number, to: number): string {
  return to - from <= 1 ? `line ${from + 1}` : `lines ${from + 1}-${to}`;
}
