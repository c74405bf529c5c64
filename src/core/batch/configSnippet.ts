// A code block for a configuration file (package.json, tsconfig.json, settings.json, a workflow, Cargo.toml,
// .env: config/configFormats.ts) merged by key instead of placed by structure (issue 26), and its result
// written in the code blocks' terms (status, one block outcome, edits, message), so every surface that
// applies a code block (CLI, MCP, the tool, @apply, the CodeLens, the clipboard) shows and writes it the
// same way, as one edit.

import type { ApplyResult, BlockOutcome, Candidate, LineRange, TextEdit } from '../types';
import { lastStartAtOrBefore } from '../match/lines';
import { markAmbiguous, markApplied, markInvalid, undecided } from '../decide/outcome';
import { formatConfigMessage, formatKeyPath } from '../report/configMessage';
import { configFormatOf } from '../config/configFormats';
import type { ConfigFormat, ConfigMerge, ConfigMergeResult, KeptKeys, KeyChange } from '../config/types';

/**
 * The merge of each format, loaded on first use: each is its own module, so the parsers (jsonc-parser,
 * yaml, smol-toml) stay out of everything that does not merge a configuration. A format without an entry
 * is placed by structure, as a code block of any other file is.
 */
const CONFIG_MERGES: Readonly<Partial<Record<ConfigFormat, () => Promise<ConfigMerge>>>> = {
  json: () => import('../config/json').then((m) => m.mergeJson),
  jsonc: () => import('../config/json').then((m) => m.mergeJsonc),
  yaml: () => import('../config/yaml').then((module) => module.mergeYaml),
  toml: () => import('../config/toml').then((module) => module.mergeToml),
  env: () => import('../config/lineFormats').then((module) => module.mergeEnv),
  ini: () => import('../config/lineFormats').then((module) => module.mergeIni),
  editorconfig: () => import('../config/lineFormats').then((module) => module.mergeEditorconfig),
  properties: () => import('../config/lineFormats').then((module) => module.mergeProperties),
};

/** What applySnippet's result (snippet.ts SnippetResult) holds for a configuration file; snippet.ts imports this file. */
export interface ConfigSnippetResult extends ApplyResult {
  snippet: {
    reader: string;
    wholeFile: boolean;
    parts: Array<{ what: string; action: 'changed' | 'inserted'; block: number; range?: LineRange }>;
    removed: Array<{ what: string } & LineRange>;
    config?: { format: ConfigFormat; changes: KeyChange[]; kept: KeptKeys[] };
  };
}

interface CodeOf {
  code: string;
  fileName?: string;
  languageId?: string;
}
type Named = { fileName?: string; languageId?: string };

/** The merge for this code block's file, when it is a configuration file whose format has one. */
export function configFormatFor(snippet: Omit<CodeOf, 'code'>, options: Named): ConfigFormat | undefined {
  const format = configFormatOf(options.fileName ?? snippet.fileName, options.languageId ?? snippet.languageId);
  return format && CONFIG_MERGES[format] ? format : undefined;
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    starts.push(i + 1);
  }
  return starts;
}

/** 1-based line of `offset`. */
function lineAt(starts: readonly number[], offset: number): number {
  return lastStartAtOrBefore(starts, starts.length - 1, offset) + 1;
}

function placeCandidate(text: string, starts: readonly number[], line: number, path: ReadonlyArray<string | number>): Candidate {
  const start = starts[line - 1] ?? 0;
  const next = starts[line] ?? text.length + 1;
  const end = Math.max(start, next - 1 - (text[next - 2] === '\r' ? 1 : 0));
  return { startLine: line, endLine: line, score: 1, text: text.slice(start, end), start, end, note: formatKeyPath(path) };
}

/** The merge's result as a code block's result: applied with its edits, already there, or refused. */
export function configResult(documentText: string, format: ConfigFormat, merged: ConfigMergeResult, fileName: string): ConfigSnippetResult {
  const outcome: BlockOutcome = undecided(1);
  const report: ConfigSnippetResult['snippet'] = { reader: format, wholeFile: false, parts: [], removed: [] };
  const message = formatConfigMessage({ fileName, outcome: merged });
  if (merged.kind === 'refused') {
    if (merged.reason === 'ambiguous' && merged.places) {
      const starts = lineStartsOf(documentText);
      markAmbiguous(
        outcome,
        'exact',
        merged.places.map((p) => placeCandidate(documentText, starts, p.line, p.path)),
      );
      outcome.notes.push(merged.message);
    } else {
      markInvalid(outcome, merged.message);
    }
    const status = outcome.status === 'ambiguous' ? 'ambiguous' : 'invalid';
    return { status, edits: [], blocks: [outcome], message, snippet: report };
  }
  report.config = { format, changes: merged.changes, kept: merged.kept };
  for (const change of merged.changes.filter((c) => c.action === 'set' || c.action === 'added')) {
    report.parts.push({
      what: `key ${formatKeyPath(change.path)}`,
      action: change.action === 'set' ? 'changed' : 'inserted',
      block: 1,
      range: { startLine: change.line, endLine: change.line },
    });
  }
  if (merged.edits.length === 0) {
    const lines = merged.changes.map((c) => c.line);
    const at: LineRange = { startLine: Math.min(...lines, 1), endLine: Math.max(...lines, 1) };
    outcome.alreadyApplied = at;
    outcome.notes.push('the file already holds every key the snippet shows: nothing to change');
    return { status: 'not_found', edits: [], blocks: [outcome], message, snippet: report };
  }
  const starts = lineStartsOf(documentText);
  const edits: TextEdit[] = merged.edits.map((e) => ({ start: e.offset, end: e.offset + e.length, newText: e.content }));
  const first = lineAt(starts, edits[0].start);
  const last = lineAt(starts, Math.max(...edits.map((e) => e.end)));
  markApplied(outcome, 'exact', { startLine: first, endLine: Math.max(first, last) }, 1);
  outcome.notes.push(...report.parts.map((p) => `${p.action} ${p.what}`));
  return { status: 'applied', content: merged.text, edits, blocks: [outcome], message, snippet: report };
}

/** Merges the code block into the configuration file by key (`format` from configFormatFor). */
export async function applyConfigSnippet(
  documentText: string,
  snippet: CodeOf,
  options: Named,
  format: ConfigFormat,
): Promise<ConfigSnippetResult> {
  const load = CONFIG_MERGES[format];
  const fileName = options.fileName ?? snippet.fileName ?? 'the file';
  if (!load) {
    throw new Error(`no merge for ${format}`);
  }
  const merge = await load();
  let merged: ConfigMergeResult;
  try {
    merged = merge(documentText, snippet.code);
  } catch (error) {
    // A merge that throws is a bug; the file stays as it was and the message says what happened.
    merged = {
      kind: 'refused',
      reason: 'audit',
      message: `the ${format} merge failed (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  return configResult(documentText, format, merged, fileName);
}
