// applySnippet: a plain code block (one declaration, a lazy snippet with placeholder lines, or the whole
// file) applied to a document by structure (issue 20). The block and the document are read by tree-sitter
// where a grammar is shipped (else by the indentation and brace outline), the plan (decide/snippetPlan.ts)
// says which lines of the document each part replaces, and those become ordinary SEARCH/REPLACE blocks
// (SEARCH the document's own lines, REPLACE the block's, with a line hint) run through the engine as one
// atomic batch: the outcome, the writing in the file's style, the message and one undo step are the blocks'.
// A part the plan cannot place is refused with the same outcome kinds (ambiguous with every place, not
// found with the closest text).

import { pythonIndentProblem } from '../decide/pythonIndent';
import type { ApplyOptions, ApplyResult, BlockOutcome, Candidate, LineRange, SearchReplaceBlock, TextEdit } from '../types';
import { isPlaceholderLine } from '../formats/placeholders';
import { type Decl, type Outline, outlineText, walkDecls } from '../match/structure/outline';
import { grammarFor, type GrammarSpec } from '../match/structure/languages';
import { type GrammarSource, type KeptParse, parseOutline, parseOutlineKept, prepareGrammar } from '../match/structure/treeSitter';
import { planSnippet, type SnippetPlan } from '../decide/snippetPlan';
import { straightenCurlyQuotes } from '../write/curlyQuotes';
import { keepFileQuoteStyle } from '../decide/snippetQuotes';
import { auditCodeBlock, type AuditFailure, RULE_TEXT } from '../decide/audit/codeBlockAudit';
import { isConfigFile, listDecls, unshownTopDecls } from '../decide/audit/wholeFile';
import {
  type ClosedBlock,
  closeAfterLastPlaceholder,
  closesDeclarations,
  openAfterPlaceholders,
  opensDeclarations,
} from '../decide/snippetClosers';
import { sketchReason } from '../decide/snippetSketch';
import type { PlannedEdit, Refusal, SnippetPart } from '../decide/snippetTypes';
import { markAmbiguous, markInvalid, undecided } from '../decide/outcome';
import { alignEqual } from '../write/align';
import { formatCodeBlockMessage } from '../report/message';
import { applyBlocksAsync } from '../engine';
import type { ConfigFormat, KeptKeys, KeyChange } from '../config/types';
import { applyConfigSnippet, configFormatFor } from './configSnippet';

export type { GrammarSource };

export interface SnippetInput {
  code: string;
  languageId?: string;
  fileName?: string;
}

export type SnippetOptions = ApplyOptions & {
  grammars?: GrammarSource;
  /**
   * Names the document (a URI, an absolute path) for a caller that applies to it again: its parse tree is
   * kept, and the next apply reparses only the lines that changed. Without it nothing is kept.
   */
  documentKey?: string;
};

/** What the code block did, part by part (in the result of applySnippet, beside the blocks' outcomes). */
export interface SnippetReport {
  /** Who read the structure: a tree-sitter grammar ('typescript', 'python', ...) or 'outline'. */
  reader: string;
  /** The block covered the file and was written as a rewrite. */
  wholeFile: boolean;
  /**
   * Each part: what it is, what it did, which engine block carried it (1-based), where: the result's lines
   * it wrote (1-based); a part that wrote none is 'removed', at the file's lines it removed.
   */
  parts: Array<{ what: string; action: SnippetPart['action'] | 'removed'; block: number; range?: LineRange }>;
  /** A whole-file rewrite's removed declarations (original lines). */
  removed: Array<{ what: string } & LineRange>;
  /** Why the structure was read by the outline although the language has a grammar (it could not be loaded). */
  grammarProblem?: string;
  /** A configuration file's code block, merged by key (issue 26): what it set and added, and the keys it kept. */
  config?: { format: ConfigFormat; changes: KeyChange[]; kept: KeptKeys[] };
}

export interface SnippetResult extends ApplyResult {
  snippet: SnippetReport;
}

/** Lines of context kept around each changed stretch in the blocks made from a plan. */
const CONTEXT_LINES = 2;

const splitLines = (text: string): string[] => text.split(/\r?\n/);

/** The block's lines without a final empty line (the code's closing line break). */
function snippetLinesOf(code: string): string[] {
  const lines = splitLines(code.replace(/^\uFEFF/, ''));
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') {
    lines.pop();
  }
  while (lines.length > 0 && lines[0].trim() === '') {
    lines.shift();
  }
  return lines;
}

/** The lines with their common indentation removed. */
function dedent(lines: readonly string[]): string[] {
  let common: string | undefined;
  for (const line of lines) {
    if (line.trim() === '') {
      continue;
    }
    const lead = /^[ \t]*/.exec(line)?.[0] ?? '';
    if (common === undefined || !lead.startsWith(common)) {
      let k = 0;
      while (common !== undefined && k < common.length && k < lead.length && common[k] === lead[k]) {
        k++;
      }
      common = common === undefined ? lead : common.slice(0, k);
    }
  }
  return common ? lines.map((l) => (l.startsWith(common) ? l.slice(common.length) : l.trimStart())) : [...lines];
}

function shiftDecls(decls: Decl[], by: number): Decl[] {
  for (const { decl: outer } of walkDecls(decls)) {
    // An overload group's signatures and implementation are declarations of their own, beside the group.
    const parts = outer.overloads ? [...outer.overloads.signatures, outer.overloads.implementation] : [];
    for (const decl of [outer, ...parts]) {
      decl.start += by;
      decl.lead += by;
      decl.end += by;
      if (decl.interior) {
        decl.interior = { start: decl.interior.start + by, end: decl.interior.end + by };
      }
    }
  }
  return decls;
}

/** The block read by the grammar; members alone (methods without their class) are read inside a wrapper when that reads better. */
function readSnippet(grammar: GrammarSpec, lines: readonly string[], placeholders: readonly boolean[]): Outline {
  const parseable = lines.map((l, i) => (placeholders[i] ? (/^[ \t]*/.exec(l)?.[0] ?? '') + grammar.placeholderStandIn : l));
  // A PHP method shown without `<?php` is read after one (else it is HTML text), its lines counted from the block's.
  const prelude =
    grammar.snippetPrelude && !parseable.some((l) => grammar.snippetPrelude?.present.test(l)) ? [grammar.snippetPrelude.line] : [];
  const plain = parseOutline(grammar, [...prelude, ...parseable].join('\n'));
  if (prelude.length > 0) {
    shiftDecls(plain.decls, -prelude.length);
    plain.firstError = plain.firstError === undefined ? undefined : Math.max(0, plain.firstError - prelude.length);
  }
  if (!grammar.memberWrapper || plain.errors === 0) {
    return plain;
  }
  const wrapped = parseOutline(grammar, [...prelude, grammar.memberWrapper.open, ...parseable, grammar.memberWrapper.close].join('\n'));
  const wrapper = wrapped.decls.length === 1 ? wrapped.decls[0] : undefined;
  if (wrapper && wrapped.errors < plain.errors && wrapper.children.length > 0) {
    return { decls: shiftDecls(wrapper.children, -1 - prelude.length), reader: wrapped.reader, errors: wrapped.errors };
  }
  return plain;
}

/** A placeholder line in a declaration's comments is no part of them: the comments start below it. */
function trimPlaceholderLeads(decls: Decl[], placeholders: readonly boolean[]): void {
  for (const { decl } of walkDecls(decls)) {
    for (let i = decl.start - 1; i >= decl.lead; i--) {
      if (placeholders[i]) {
        decl.lead = i + 1;
        break;
      }
    }
  }
}

function snippetOutlineReaderIsPython(snippet: SnippetInput, options: SnippetOptions): boolean {
  return grammarFor(snippet.languageId ?? options.languageId, snippet.fileName ?? options.fileName)?.id === 'python';
}

interface Readers {
  /** The file, read by the grammar or the outline; only read, never changed (a keyed read is the kept outline itself). */
  read: (text: string, lines: readonly string[]) => Outline;
  /** The planned result, read by the same reader (a grammar reparses the file's tree incrementally); only read, never changed. */
  readResult: (result: ResultText) => Outline;
  readSnippet: (lines: readonly string[], placeholders: readonly boolean[]) => Outline;
  /** Frees a tree kept for readResult. */
  release: () => void;
  problem?: string;
}

/**
 * Above this many characters the file's structure is read by the indentation outline, not a grammar: a
 * tree takes about 25 times its text in memory and a parse of a 9 MB file with errors ran for 20 s (issue 28).
 * 2M characters is some 50,000 lines of ordinary code, far past the files people edit by hand.
 */
export const GRAMMAR_TEXT_LIMIT = 2_000_000;

async function readersFor(snippet: SnippetInput, options: SnippetOptions, documentLength: number): Promise<Readers> {
  const outline: Readers = {
    read: (_text, lines) => outlineText(lines),
    readResult: (result) => outlineText(result.lines),
    readSnippet: (lines) => outlineText(lines),
    release: () => undefined,
  };
  const grammar = grammarFor(snippet.languageId ?? options.languageId, snippet.fileName ?? options.fileName);
  if (!grammar) {
    return outline;
  }
  if (documentLength > GRAMMAR_TEXT_LIMIT) {
    return {
      ...outline,
      problem: `the file has over ${GRAMMAR_TEXT_LIMIT.toLocaleString('en-US')} characters, more than a ${grammar.id} parse is run on`,
    };
  }
  if (!options.grammars) {
    return { ...outline, problem: `no grammar source was given for ${grammar.id}` };
  }
  try {
    await prepareGrammar(grammar, options.grammars);
  } catch (error) {
    return { ...outline, problem: error instanceof Error ? error.message : String(error) };
  }
  const key = options.documentKey;
  if (key !== undefined) {
    // The result's tree is the file's kept tree reparsed; it stays kept for the next apply to this document.
    return {
      read: (text) => parseOutline(grammar, text, key, { readOnly: true }),
      readResult: (result) =>
        parseOutline(grammar, result.text, key, {
          editOf: result.editOf,
          readOnly: true,
          ...(result.editOf ? { lines: result.lines } : {}),
        }),
      readSnippet: (lines, placeholders) => readSnippet(grammar, lines, placeholders),
      release: () => undefined,
    };
  }
  let kept: KeptParse | undefined;
  return {
    read: (text) => {
      kept?.release();
      kept = parseOutlineKept(grammar, text);
      return kept.outline;
    },
    readResult: ({ text }) => {
      if (!kept) {
        return parseOutline(grammar, text);
      }
      const reparsed = kept.reparse(text);
      kept = undefined;
      return reparsed;
    },
    readSnippet: (lines, placeholders) => readSnippet(grammar, lines, placeholders),
    release: () => {
      kept?.release();
      kept = undefined;
    },
  };
}

/** Applies a plain code block to a document: the same ApplyResult (status, blocks with outcomes, edits, message) as applyBlocks. */
export async function applySnippet(documentText: string, snippet: SnippetInput, options: SnippetOptions = {}): Promise<SnippetResult> {
  // A configuration file (package.json, tsconfig.json, a workflow, Cargo.toml, .env) is merged by key.
  const configFormat = configFormatFor(snippet, options);
  if (configFormat) {
    return applyConfigSnippet(documentText, snippet, options, configFormat);
  }
  return applySnippetWith(documentText, snippet, options);
}

/** A fault put into the plan on purpose (tests): the audit must refuse what it makes. */
export type PlanFault = (plan: SnippetPlan & { kind: 'edits' }, fileLines: readonly string[]) => void;

/**
 * applySnippet for tests and the bench (not exported from core): a fault put into the plan before the
 * audit, or (`audit: false`) the plan's result unchecked, to measure what the audit costs and catches.
 */
export async function applySnippetWith(
  documentText: string,
  snippet: SnippetInput,
  options: SnippetOptions = {},
  fault?: PlanFault,
  audit = true,
): Promise<SnippetResult> {
  const readers = await readersFor(snippet, options, documentText.length);
  try {
    return await applyRead(documentText, snippet, options, readers, fault, audit);
  } finally {
    readers.release();
  }
}

/** Markdown and plain text, where curly quotes are typography. */
function isProse(context: { languageId?: string; fileName?: string }): boolean {
  return ['markdown', 'mdx', 'plaintext'].includes(context.languageId ?? '') || /\.(md|mdx|markdown|txt)$/i.test(context.fileName ?? '');
}

/** The block's lines, which of them are placeholders, and its outline (closed after a last placeholder that leaves declarations open). */
function readBlock(
  snippet: SnippetInput,
  options: SnippetOptions,
  readers: Readers,
  context: { languageId?: string; fileName?: string },
  documentText: string,
  fileLines: readonly string[],
) {
  // Python reads indentation, so a method shown at its class's depth is moved to the left to parse; other
  // languages keep the block's indentation as written (a common lead of mixed tabs and spaces is no level).
  const python = snippetOutlineReaderIsPython(snippet, options);
  let snippetLines = python ? dedent(snippetLinesOf(snippet.code)) : snippetLinesOf(snippet.code);
  if (!isProse(context)) {
    // Quotes a chat "smartened" (`log(“saving”)`) are straight unless the file has them; a file line re-quoted is that line.
    snippetLines = snippetLines.map((line) => straightenCurlyQuotes(line, (ch) => documentText.includes(ch)));
    snippetLines = options.preserveQuoteStyle === false ? snippetLines : keepFileQuoteStyle(snippetLines, fileLines, context);
  }
  let placeholders = snippetLines.map((l) => isPlaceholderLine(l, context));
  let snippetOutline = readers.readSnippet(snippetLines, placeholders);
  let implied: ClosedBlock['implied'] | undefined;
  // A last placeholder that leaves the class (and its namespace) open stands for the rest, braces included.
  const closed = snippetOutline.errors > 0 ? closeAfterLastPlaceholder(snippetLines, placeholders) : undefined;
  const closedOutline = closed && readers.readSnippet(closed.lines, closed.placeholders);
  if (closed && closedOutline && closesDeclarations(closedOutline, closed.implied)) {
    ({ lines: snippetLines, placeholders } = closed);
    snippetOutline = closedOutline;
    implied = closed.implied;
  }
  trimPlaceholderLeads(snippetOutline.decls, placeholders);
  return { snippetLines, placeholders, snippetOutline, implied };
}

/** The block read with the openings its placeholders stand for, when lines after one close what they never opened. */
function readOpenings(
  block: ReturnType<typeof readBlock>,
  file: { lines: readonly string[]; outline: Outline },
  readers: Readers,
): ReturnType<typeof readBlock> {
  const opened = block.snippetOutline.errors > 0 ? openAfterPlaceholders(block.snippetLines, block.placeholders, file) : undefined;
  const openedOutline = opened && readers.readSnippet(opened.lines, opened.placeholders);
  if (!opened || !openedOutline || !opensDeclarations(openedOutline, opened)) {
    return block;
  }
  trimPlaceholderLeads(openedOutline.decls, opened.placeholders);
  return { snippetLines: opened.lines, placeholders: opened.placeholders, snippetOutline: openedOutline, implied: opened.implied };
}

async function applyRead(
  documentText: string,
  snippet: SnippetInput,
  options: SnippetOptions,
  readers: Readers,
  fault: PlanFault | undefined,
  audit: boolean,
): Promise<SnippetResult> {
  const fileName = options.fileName ?? snippet.fileName ?? 'the file';
  const context = { languageId: snippet.languageId ?? options.languageId, fileName: snippet.fileName ?? options.fileName };
  const text = documentText.replace(/\r\n/g, '\n');
  const fileLines = splitLines(text);
  const fileOutline = readers.read(text, fileLines);
  const read = readBlock(snippet, options, readers, context, documentText, fileLines);
  const { snippetLines, placeholders, snippetOutline, implied } = readOpenings(read, { lines: fileLines, outline: fileOutline }, readers);
  const report: SnippetReport = { reader: fileOutline.reader, wholeFile: false, parts: [], removed: [] };
  if (readers.problem) {
    report.grammarProblem = readers.problem;
  }
  if (snippetLines.length === 0 || placeholders.every(Boolean)) {
    return refused(documentText, fileLines, { status: 'invalid', what: 'the code block', reason: 'it holds no code' }, fileName, report);
  }
  const uncertain = uncertainPlaceholder(snippetLines, placeholders, fileLines);
  if (uncertain !== undefined) {
    // A comment with an ellipsis that is no placeholder ("... same checks, but also map 4 to hint ...")
    // asks for code the block does not show: written as it stands, it would replace that code.
    const reason = `line ${uncertain + 1} of the block (${JSON.stringify(snippetLines[uncertain].trim())}) leaves code out but does not say that the file's code stays there; write the code it stands for, or a plain placeholder (\`// ... existing code ...\`)`;
    return refused(documentText, fileLines, { status: 'invalid', what: 'the code block', reason }, fileName, report);
  }
  const sketch = sketchReason({ lines: fileLines, outline: fileOutline }, { lines: snippetLines, placeholders, outline: snippetOutline });
  if (sketch !== undefined) {
    return refused(documentText, fileLines, { status: 'invalid', what: 'the code block', reason: sketch }, fileName, report);
  }
  if (snippetOutline.errors > 0 && fileOutline.errors === 0) {
    // Where the block does not parse, its declarations' extents are guesses: refuse rather than place a guess.
    const line = (snippetOutline.firstError ?? 0) + 1;
    const reason = `it does not parse as ${snippetOutline.reader} (a syntax error near line ${line} of the code block: ${JSON.stringify(snippetLines[line - 1]?.trim() ?? '')}), so its declarations cannot be told apart; re-send it with each declaration complete (from its first line to its last), or as SEARCH/REPLACE blocks`;
    return refused(documentText, fileLines, { status: 'invalid', what: 'the code block', reason }, fileName, report);
  }
  const indentProblem = snippetOutline.reader === 'python' ? pythonIndentProblem(snippetLines, placeholders) : undefined;
  if (indentProblem !== undefined && pythonIndentProblem(fileLines, []) === undefined) {
    // tree-sitter reads such a line without an error, as a statement of an outer scope: the outline would be a guess.
    const reason = `${indentProblem.reason}; re-send it with each declaration complete and indented as the file is, or as SEARCH/REPLACE blocks`;
    return refused(documentText, fileLines, { status: 'invalid', what: 'the code block', reason }, fileName, report);
  }
  const config = isConfigFile(context.languageId, context.fileName);
  const plan = planSnippet(
    { lines: fileLines, outline: fileOutline, config },
    { lines: snippetLines, placeholders, outline: snippetOutline, implied },
  );
  if (plan.kind === 'refused') {
    // Without a declaration, a line of the file or a near miss, a code block has no structure to place it by.
    const structureless = snippetOutline.decls.length === 0 ? noStructureReason(snippetOutline.reader) : undefined;
    return refused(documentText, fileLines, plan.refusal, fileName, report, options, structureless);
  }
  fault?.(plan, fileLines);
  report.wholeFile = plan.wholeFile;
  report.removed = plan.removed.map((r) => ({ what: r.what, startLine: r.start + 1, endLine: r.end }));
  const made = blocksFrom(fileLines, plan.edits);
  if (made.blocks.length === 0) {
    const first = Math.min(...plan.found.map((f) => f.start));
    const last = Math.max(...plan.found.map((f) => f.end));
    return unchanged(fileName, report, { startLine: first + 1, endLine: Math.max(first + 1, last) });
  }
  const result = await applyBlocksAsync(documentText, made.blocks, options);
  if (audit && result.status === 'applied' && result.content !== undefined) {
    // Nothing is written unless the independent audit passes the result (decide/audit/codeBlockAudit.ts).
    const resultText = resultTextOf(documentText, text, fileLines, result.content, result.edits);
    const failure = auditCodeBlock({
      fileLines,
      blockLines: snippetLines,
      placeholders,
      resultLines: resultText.lines,
      fileOutline,
      blockOutline: snippetOutline,
      resultOutline: readers.readResult(resultText),
      wholeFile: plan.wholeFile,
      config,
    });
    if (failure) {
      return refused(documentText, fileLines, auditRefusal(failure), fileName, report);
    }
  }
  recordParts(result.blocks, plan, made, report);
  const kept = plan.wholeFile ? [] : keptByPartialTop(fileLines, fileOutline, snippetLines, snippetOutline, placeholders);
  if (kept.length > 0 && result.blocks.length > 0) {
    result.blocks[0].notes.push(`kept ${listDecls(kept)}: the block did not show ${kept.length === 1 ? 'it' : 'them'}`);
  }
  result.message = formatCodeBlockMessage({
    fileName,
    status: result.status,
    blocks: result.blocks,
    parts: report.parts,
    removed: report.removed,
    ...(kept.length > 0 ? { kept: listDecls(kept) } : {}),
  });
  return { ...result, snippet: report };
}

/**
 * The planned result as the audit reads it: its text (line breaks as \n), its lines, and how the text came
 * from the file's when known (then the lines are the text split at \n: it has no carriage return).
 */
interface ResultText {
  text: string;
  lines: string[];
  editOf?: { base: string; edits: readonly TextEdit[] };
}

/**
 * The engine's result for the audit. For a file without carriage returns and edits without them (the
 * usual case) its lines are the file's own line strings around the edited stretches, split again: the
 * result's text is never read whole, and an unchanged line is the file's very string. The engine's
 * content is a concatenation of the file's text and the edits; reading it whole copies it (a new flat
 * string of 400 KB costs V8 over a millisecond), and splitting it makes a new string of every line.
 * Otherwise (or when the edits do not make a text of the content's length, or two of them start at one
 * place, where their order would be a guess) the content is split. The editor applies the edits, not the
 * content, so the audit reads what is written there; comparing each stretch with the content would read
 * it whole again.
 */
function resultTextOf(
  documentText: string,
  text: string,
  fileLines: readonly string[],
  content: string,
  edits: readonly TextEdit[],
): ResultText {
  const split = (): ResultText => {
    const resultText = content.replace(/\r\n/g, '\n');
    return { text: resultText, lines: splitLines(resultText) };
  };
  if (text !== documentText || text.includes('\r') || edits.some((e) => e.newText.includes('\r'))) {
    return split();
  }
  // The result's lines in runs: the file's untouched lines as slices of its own array, each edited
  // stretch split again.
  const runs: string[][] = [];
  let line = 0;
  let lineStart = 0;
  let length = text.length;
  let i = 0;
  const lineEnd = (): number => lineStart + fileLines[line].length;
  while (i < edits.length) {
    if (line >= fileLines.length) {
      return split();
    }
    // The untouched lines before the first edit of this stretch, then the stretch: from the start of the
    // line holding that edit to the end of the line holding the last edit that starts on the lines it spans.
    const untouched = line;
    while (line < fileLines.length - 1 && lineEnd() < edits[i].start) {
      lineStart = lineEnd() + 1;
      line++;
    }
    runs.push(fileLines.slice(untouched, line));
    let stretch = '';
    let copied = lineStart;
    do {
      const edit = edits[i];
      // Two insertions at one place could be read in either order: the content says which.
      const again = i > 0 && edit.start <= edits[i - 1].start;
      if (again || edit.start < copied || edit.end < edit.start || edit.end > text.length) {
        return split();
      }
      stretch += text.slice(copied, edit.start) + edit.newText;
      copied = edit.end;
      length += edit.newText.length - (edit.end - edit.start);
      while (line < fileLines.length - 1 && lineEnd() < edit.end) {
        lineStart = lineEnd() + 1;
        line++;
      }
      i++;
    } while (i < edits.length && edits[i].start <= lineEnd());
    runs.push(splitLines(stretch + text.slice(copied, lineEnd())));
    lineStart = lineEnd() + 1;
    line++;
  }
  runs.push(fileLines.slice(line));
  // concat is several times faster than flat() here; an argument per run is safe below V8's limit.
  const lines = runs.length < 30_000 ? ([] as string[]).concat(...runs) : runs.flat();
  // The edits are the engine's account of the content: a content of another length is read as it is.
  return length === content.length ? { text: content, lines, editOf: { base: text, edits } } : split();
}

/** Each part in the report and as a note of the engine block that carried it; a rewrite's removals as a note. */
function recordParts(
  blocks: BlockOutcome[],
  plan: SnippetPlan & { kind: 'edits' },
  made: { blocks: readonly SearchReplaceBlock[]; partsOf: readonly number[][] },
  report: SnippetReport,
): void {
  const written = partRanges(plan.edits);
  const stretches = writtenStretches(blocks, made.blocks);
  const listed = new Set<number>();
  for (const outcome of blocks) {
    const parts = made.partsOf[outcome.index - 1];
    outcome.notes.unshift(...parts.map((p) => partPhrase(plan.parts[p], written.has(p))));
    for (const p of parts) {
      const part = plan.parts[p];
      // A rewrite's part is every changed stretch (the engine's blocks); any other part is listed once,
      // at the lines it wrote (two overloads of one name are two parts, each with its lines). A part
      // that wrote no line removed its lines: it is named as removed, at the file's lines it removed.
      const range = part.action === 'rewritten' ? stretches.get(outcome.index) : written.get(p);
      if (part.action === 'rewritten' || !listed.has(p)) {
        listed.add(p);
        const removed = part.action !== 'rewritten' && !range && part.fileEnd > part.fileStart;
        report.parts.push(
          removed
            ? { what: part.what, action: 'removed', block: outcome.index, range: { startLine: part.fileStart + 1, endLine: part.fileEnd } }
            : { what: part.what, action: part.action, block: outcome.index, ...(range ? { range } : {}) },
        );
      }
    }
  }
  if (plan.wholeFile && report.removed.length > 0 && blocks.length > 0) {
    blocks[0].notes.push(`the rewrite ${report.removed.map((r) => `removed lines ${r.startLine}-${r.endLine}: ${r.what}`).join(', ')}`);
  }
}

/**
 * A block without placeholders that starts at the file's first line and shows some of its top-level
 * declarations is a partial edit (decide/audit/wholeFile.ts): the top-level declarations it omits were
 * kept, and the message says so.
 */
function keptByPartialTop(
  fileLines: readonly string[],
  fileOutline: Outline,
  snippetLines: readonly string[],
  snippetOutline: Outline,
  placeholders: readonly boolean[],
): Decl[] {
  const first = (lines: readonly string[]) => lines.find((l) => l.trim() !== '')?.trim();
  if (placeholders.some(Boolean) || snippetOutline.decls.length === 0 || first(fileLines) !== first(snippetLines)) {
    return [];
  }
  return unshownTopDecls(fileOutline.decls, snippetOutline.decls);
}

/** A failed audit as the code block's refusal: the rule, why, and the closest places. */
function auditRefusal(failure: AuditFailure): Refusal {
  return {
    status: 'invalid',
    what: 'the code block',
    reason: `the planned result breaks the rule that ${RULE_TEXT[failure.rule]}: ${failure.reason}; nothing was changed. Re-send the code block with each declaration you change complete and placeholder lines (\`// ... existing code ...\`) for the code you leave out, or the change as SEARCH/REPLACE blocks`,
  };
}

/** The lines of the new text each part wrote (1-based, blank separators left out), from the plan's sorted edits. */
function partRanges(edits: readonly PlannedEdit[]): Map<number, LineRange> {
  const ranges = new Map<number, LineRange>();
  let shift = 0;
  for (const edit of edits) {
    let first = 0;
    let last = edit.lines.length;
    while (first < last && edit.lines[first].trim() === '') {
      first++;
    }
    while (last > first && edit.lines[last - 1].trim() === '') {
      last--;
    }
    const start = edit.start + shift;
    shift += edit.lines.length - (edit.end - edit.start);
    if (last > first) {
      const range = { startLine: start + first + 1, endLine: start + last };
      const known = ranges.get(edit.part);
      ranges.set(
        edit.part,
        known ? { startLine: Math.min(known.startLine, range.startLine), endLine: Math.max(known.endLine, range.endLine) } : range,
      );
    }
  }
  return ranges;
}

/** What a part did, as a note of the block that carried it. */
function partPhrase(part: SnippetPart, wrote: boolean): string {
  if (part.action === 'rewritten') {
    return 'part of the rewrite of the whole file';
  }
  return wrote || part.fileEnd === part.fileStart ? `${part.action} ${part.what}` : `removed ${part.what}`;
}

/**
 * The result's lines each engine block wrote (by block index): its place in the file shifted by what the
 * blocks before it added or removed. The blocks of one code block never overlap.
 */
function writtenStretches(blocks: readonly BlockOutcome[], made: readonly SearchReplaceBlock[]): Map<number, LineRange> {
  const out = new Map<number, LineRange>();
  let shift = 0;
  const placed = blocks.filter((b) => b.range).sort((a, b) => a.range!.startLine - b.range!.startLine);
  for (const outcome of placed) {
    const { startLine, endLine } = outcome.range!;
    const replace = made[outcome.index - 1]?.replace ?? '';
    const wrote = replace === '' ? 0 : replace.split('\n').length;
    out.set(outcome.index, { startLine: startLine + shift, endLine: startLine + shift + Math.max(wrote, 1) - 1 });
    shift += wrote - (endLine - startLine + 1);
  }
  return out;
}

/** The plan's edits as SEARCH/REPLACE blocks: each changed stretch (found by aligning lines) with a little context, near ones joined. */
function blocksFrom(fileLines: readonly string[], edits: readonly PlannedEdit[]): { blocks: SearchReplaceBlock[]; partsOf: number[][] } {
  // Changed stretches: [start, end) of the file -> new lines, with the parts they came from.
  const hunks: Array<{ start: number; end: number; lines: string[]; parts: number[] }> = [];
  for (const edit of edits) {
    const old = fileLines.slice(edit.start, edit.end);
    const pairs = alignEqual(old, edit.lines);
    let i = 0;
    let j = 0;
    for (const [a, b] of [...pairs, [old.length, edit.lines.length] as [number, number]]) {
      if (a > i || b > j) {
        hunks.push({ start: edit.start + i, end: edit.start + a, lines: edit.lines.slice(j, b), parts: [edit.part] });
      }
      i = a + 1;
      j = b + 1;
    }
  }
  const groups: Array<{ start: number; end: number; lines: string[]; parts: number[] }> = [];
  for (const hunk of hunks) {
    const last = groups[groups.length - 1];
    if (last && hunk.start - last.end <= 2 * CONTEXT_LINES) {
      last.lines.push(...fileLines.slice(last.end, hunk.start), ...hunk.lines);
      last.end = hunk.end;
      last.parts.push(...hunk.parts.filter((p) => !last.parts.includes(p)));
    } else {
      groups.push({ ...hunk, lines: [...hunk.lines], parts: [...hunk.parts] });
    }
  }
  const blocks: SearchReplaceBlock[] = [];
  const partsOf: number[][] = [];
  const emptyFile = fileLines.every((l) => l === '');
  for (const group of groups) {
    const from = emptyFile ? 0 : Math.max(0, group.start - CONTEXT_LINES);
    const to = emptyFile ? fileLines.length : Math.min(fileLines.length, group.end + CONTEXT_LINES);
    const search = emptyFile ? '' : fileLines.slice(from, to).join('\n');
    const replace = emptyFile
      ? group.lines.join('\n')
      : [...fileLines.slice(from, group.start), ...group.lines, ...fileLines.slice(group.end, to)].join('\n');
    const index = blocks.length + 1;
    blocks.push({ index, search, replace, sourceLine: index, ...(emptyFile ? {} : { startLine: from + 1 }) });
    partsOf.push(group.parts);
  }
  return { blocks, partsOf };
}

function lineStartsOf(text: string): number[] {
  const starts: number[] = [];
  let offset = 0;
  for (const line of text.split('\n')) {
    starts.push(offset);
    offset += line.length + 1;
  }
  return starts;
}

function candidateFor(fileLines: readonly string[], lineStarts: readonly number[], place: { start: number; end: number }): Candidate {
  const end = Math.max(place.end, place.start + 1);
  const text = fileLines.slice(place.start, end).join('\n');
  return {
    startLine: place.start + 1,
    endLine: end,
    score: 1,
    text,
    start: lineStarts[place.start],
    end: lineStarts[place.start] + text.length,
  };
}

/** The outcome of a part the plan could not place, in the blocks' terms (one block: the code block). */
async function refused(
  documentText: string,
  fileLines: readonly string[],
  refusal: Refusal,
  fileName: string,
  report: SnippetReport,
  options: SnippetOptions = {},
  structureless?: string,
): Promise<SnippetResult> {
  const outcome: BlockOutcome = undecided(1);
  const reason = `${refusal.what}: ${refusal.reason}`;
  if (refusal.status === 'ambiguous') {
    const starts = lineStartsOf(documentText);
    markAmbiguous(
      outcome,
      'exact',
      (refusal.places ?? []).map((p) => candidateFor(fileLines, starts, p)),
    );
    outcome.notes.push(reason);
  } else if (refusal.status === 'not_found') {
    outcome.candidates = await nearMisses(documentText, fileLines, refusal.searchLines ?? [], options);
    if (outcome.candidates.length === 0 && structureless) {
      refusal = { status: 'invalid', what: 'the code block', reason: structureless };
      markInvalid(outcome, structureless);
    } else {
      outcome.notes.push(reason);
    }
  } else {
    markInvalid(outcome, reason);
  }
  const status = outcome.status === 'held_back' || outcome.status === 'applied' ? 'invalid' : outcome.status;
  return {
    status,
    edits: [],
    blocks: [outcome],
    message: formatCodeBlockMessage({ fileName, status, blocks: [outcome], parts: [], removed: [], refusal }),
    snippet: report,
  };
}

function noStructureReason(reader: string): string {
  const read = reader === 'outline' ? 'the outline (this language has no grammar here)' : `the ${reader} grammar`;
  return `it shows no declaration that ${read} can read, and none of its lines is in the file or near one, so nothing tells where it goes; re-send it with lines of the file around the change (copied exactly), or as SEARCH/REPLACE blocks`;
}

/** The file's text closest to some lines of the block, ranked, as the engine finds them for a SEARCH it misses. */
async function nearMisses(
  documentText: string,
  fileLines: readonly string[],
  lines: readonly string[],
  options: SnippetOptions,
): Promise<Candidate[]> {
  const search = lines.filter((l) => l.trim() !== '').join('\n');
  if (search === '') {
    return [];
  }
  const probe = await applyBlocksAsync(documentText, [{ index: 1, search, replace: `${search}\n\u0000`, sourceLine: 1 }], {
    maxCandidates: options.maxCandidates,
    minScore: options.minScore,
    autoApplyNormalized: false,
  });
  const [outcome] = probe.blocks;
  if (outcome.range && outcome.status !== 'not_found') {
    return [candidateFor(fileLines, lineStartsOf(documentText), { start: outcome.range.startLine - 1, end: outcome.range.endLine })];
  }
  return outcome.candidates;
}

/** A block that changes nothing: every part it shows is already in the file. */
function unchanged(fileName: string, report: SnippetReport, at: LineRange): SnippetResult {
  const outcome: BlockOutcome = undecided(1);
  outcome.alreadyApplied = at;
  outcome.notes.push('the file already holds every line the code block shows: nothing to change');
  return {
    status: 'not_found',
    edits: [],
    blocks: [outcome],
    message: formatCodeBlockMessage({ fileName, status: 'not_found', blocks: [outcome], parts: [], removed: [], unchanged: at }),
    snippet: report,
  };
}

/** A comment line of the block, not a placeholder and not a line of the file, that leaves code out with an ellipsis: its index. */
function uncertainPlaceholder(
  lines: readonly string[],
  placeholders: readonly boolean[],
  fileLines: readonly string[],
): number | undefined {
  // The file is read only for the few comment lines with an ellipsis, and then once for all of them: a
  // set of every trimmed file line costs a 50 MB file seconds and hundreds of megabytes.
  const asking = lines.flatMap((line, i) =>
    !placeholders[i] && /^(\/\/|#|\/\*|<!--|--)/.test(line.trim()) && /\.\.\.|\u2026/.test(line) ? [i] : [],
  );
  if (asking.length === 0) {
    return undefined;
  }
  const texts = new Set(asking.map((i) => lines[i].trim()));
  const inFile = new Set(fileLines.flatMap((l) => (texts.has(l.trim()) ? [l.trim()] : [])));
  return asking.find((i) => !inFile.has(lines[i].trim()));
}
