// A plain code block (one declaration, a lazy snippet with `// ... existing code ...`, the whole file)
// against a live document: core's applySnippet places it by structure and returns the blocks' outcome
// model (status, per-part outcomes, edits, the one LLM-facing message); this file reads the document,
// loads nothing until the first code block (the grammars come through the GrammarSource), and applies
// the result as ONE WorkspaceEdit, matched again first if the document changed meanwhile.
import * as vscode from 'vscode';
import {
  applyCodeFile,
  applySnippet,
  type CodeFile,
  type CodeFileResult,
  type GrammarSource,
  type SnippetInput,
  type SnippetResult,
} from '../../core';
import type { ApplyOutcome, BatchPlan, MatchedPart } from '../applyService';
import { rangesAfterEdits, type Feedback } from '../feedback';
import type { Log } from '../log';
import { engineOptions } from '../settings';
import { applyEdit } from '../review/appliedEdits';

/** A code block matched against one live document. Offsets in `result` are valid only for `version`. */
export interface SnippetMatch {
  uri: vscode.Uri;
  /** Workspace-relative path (or untitled name) used in messages. */
  label: string;
  document: vscode.TextDocument;
  version: number;
  /** The document text applySnippet saw. */
  text: string;
  code: string;
  result: SnippetResult;
  ms: number;
}

/** "replaced method total, inserted function discount" from a result's parts. */
export function partsPhrase(result: SnippetResult): string {
  const parts = result.snippet.parts.map((p) => (p.action === 'rewritten' ? 'rewrote the whole file' : `${p.action} ${p.what}`));
  const unique = [...new Set(parts)];
  return unique.join(', ');
}

/** The status bar line of an applied code block: "Applied the code block to src/cart.ts: replaced method total". */
export function snippetSummary(matches: readonly SnippetMatch[]): string {
  return matches
    .map((m) => {
      const parts = partsPhrase(m.result);
      return `Applied the code block to ${m.label}${parts ? `: ${parts}` : ''}`;
    })
    .join('; ');
}

/** A dry-run plan holding code-block matches, so the shared edit building and reporting serve them too. */
export function snippetPlan(matches: readonly SnippetMatch[]): BatchPlan {
  const parts: MatchedPart[] = matches.map((m) => ({
    uri: m.uri,
    label: m.label,
    document: m.document,
    version: m.version,
    text: m.text,
    blocks: [],
    choices: {},
    result: m.result,
    ms: m.ms,
  }));
  return { parts, newFiles: [], problems: [], blockCount: parts.length };
}

/**
 * Two code blocks for the same document whose edits touch the same text (or insert at the same point):
 * their indexes in `matches`, else undefined. Edits of one document, each decided on the same text, compose
 * into one WorkspaceEdit only when they are disjoint; otherwise one would be written over the other.
 */
export function overlappingMatches(matches: readonly SnippetMatch[]): [number, number] | undefined {
  const spans = matches.flatMap((m, i) => m.result.edits.map((e) => ({ uri: m.uri.toString(), start: e.start, end: e.end, i })));
  spans.sort((a, b) => a.uri.localeCompare(b.uri) || a.start - b.start || a.end - b.end);
  for (let k = 1; k < spans.length; k++) {
    const [a, b] = [spans[k - 1], spans[k]];
    if (a.uri === b.uri && a.i !== b.i && (b.start < a.end || b.start === a.start)) {
      return [Math.min(a.i, b.i), Math.max(a.i, b.i)];
    }
  }
  return undefined;
}

export class SnippetApplier {
  constructor(
    private readonly grammars: GrammarSource,
    private readonly log: Log,
    private readonly feedback: Feedback,
  ) {}

  /** Places `code` in the document's current text (a dry run): the file's language picks the grammar. */
  async match(document: vscode.TextDocument, label: string, code: string, source: string): Promise<SnippetMatch> {
    const text = document.getText();
    const version = document.version;
    const snippet: SnippetInput = { code, languageId: document.languageId, fileName: label };
    const t0 = performance.now();
    // The URI names the document for core's tree cache: a second match of the same text (Preview, then
    // Apply from chat) reuses the outline, and a match after an edit reparses only what changed.
    const result = await applySnippet(text, snippet, {
      ...engineOptions(document, label),
      grammars: this.grammars,
      documentKey: document.uri.toString(),
    });
    const ms = performance.now() - t0;
    const parts = partsPhrase(result);
    this.log.info(
      `[${source}] code block -> ${label}: ${result.status}${parts ? ` (${parts})` : ''}, read by ${result.snippet.reader}` +
        `${result.snippet.grammarProblem ? ` (grammar: ${result.snippet.grammarProblem})` : ''} in ${ms.toFixed(1)} ms (v${version})`,
    );
    return { uri: document.uri, label, document, version, text, code, result, ms };
  }

  /**
   * A whole answer's changes to one file (issue 28), run in the answer's order on the file's evolving
   * text: `document` undefined for a file that does not exist yet. Nothing is written.
   */
  async runCodeFile(document: vscode.TextDocument | undefined, label: string, file: CodeFile, source: string): Promise<CodeFileResult> {
    const t0 = performance.now();
    const options = document
      ? { ...engineOptions(document, label), grammars: this.grammars, documentKey: document.uri.toString() }
      : { fileName: label, grammars: this.grammars };
    const result = await applyCodeFile(document?.getText(), file, options);
    this.log.info(
      `[${source}] answer -> ${label}: ${result.status}, ${file.steps.length} step(s) in ${(performance.now() - t0).toFixed(1)} ms`,
    );
    return result;
  }

  /** After an apply (its outcome's plan): shows each document's changed lines and highlights them. */
  async reveal(plan: BatchPlan | undefined): Promise<void> {
    for (const part of plan?.parts ?? []) {
      if (part.result.edits.length > 0 && !part.document.isClosed) {
        await this.feedback.reveal(part.document, rangesAfterEdits(part.document, part.result.edits));
      }
    }
  }

  /**
   * Applies matched code blocks as ONE WorkspaceEdit. A document that changed since its dry run is matched
   * again on its live text first (offsets from an older version are never used); a code block that no
   * longer places is refused with its message, and nothing is applied.
   */
  async commit(matches: readonly SnippetMatch[], source: string): Promise<ApplyOutcome> {
    let current = [...matches];
    for (let attempt = 0; attempt < 3; attempt++) {
      const fresh: SnippetMatch[] = [];
      for (const m of current) {
        if (m.document.isClosed) {
          return { status: 'refused', summary: `${m.label} was closed; nothing was applied.` };
        }
        fresh.push(m.document.version === m.version ? m : await this.match(m.document, m.label, m.code, `${source}:rematch`));
      }
      const failed = fresh.find((m) => m.result.status !== 'applied');
      if (failed) {
        const summary = `Nothing was applied: ${failed.label} changed and the code block no longer places. ${failed.result.message}`;
        this.log.warn(`[${source}] ${summary}`);
        return { status: 'refused', summary, plan: snippetPlan(fresh) };
      }
      const overlap = overlappingMatches(fresh);
      if (overlap) {
        const summary = `Nothing was applied: code blocks ${overlap[0] + 1} and ${overlap[1] + 1} change the same lines of ${fresh[overlap[0]].label}, so they cannot apply as one edit; apply them one at a time.`;
        this.log.warn(`[${source}] ${summary}`);
        return { status: 'refused', summary, plan: snippetPlan(fresh) };
      }
      // Checked synchronously with building the edit: nothing can change the documents in between.
      if (fresh.some((m) => m.document.isClosed || m.document.version !== m.version)) {
        current = fresh;
        continue;
      }
      const plan = snippetPlan(fresh);
      const edit = new vscode.WorkspaceEdit();
      for (const m of fresh) {
        for (const e of m.result.edits) {
          edit.replace(m.uri, new vscode.Range(m.document.positionAt(e.start), m.document.positionAt(e.end)), e.newText);
        }
      }
      const before = new Map(fresh.map((m) => [m.uri.toString(), m.text]));
      if (await applyEdit(edit)) {
        const summary = snippetSummary(fresh);
        this.log.info(`[${source}] ${summary}`);
        this.feedback.status(`$(check) ${summary}`);
        for (const m of fresh) {
          this.feedback.flashRanges(m.uri, rangesAfterEdits(m.document, m.result.edits));
        }
        return { status: 'applied', summary, plan, before };
      }
      this.log.warn(`[${source}] VS Code rejected the edit (a document changed in flight); matching again`);
      current = fresh.map((m) => ({ ...m, version: -1 }));
    }
    return { status: 'refused', summary: 'Nothing was applied: the document kept changing while applying. Try again.' };
  }
}
