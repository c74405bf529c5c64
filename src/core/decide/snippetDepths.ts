// Lines a code block shares with the file but sets at another depth among their neighbours (issue 25): a
// JSX `<ul>` the block nests one level deeper inside a new `{empty ? (...) : (` keeps its text, so it pairs
// with the file's `<ul>`, but kept as the file has it, it would stand outside what now holds it. Where the
// block's step from the previous shared line differs from the result's, the line is the block's, re-indented
// for the scope. Only between texts indented alike (same tabs or spaces, same width a level): otherwise
// steps differ by the indentation's width alone, and the file's own lines are kept.

import { columnsOf, leadOf, reindent, TAB_COLUMNS } from './snippetIndent';
import type { ScopeContext } from './snippetTypes';

/**
 * For pairs of equal lines (block line, file line), in order, the runs of file lines [from, to) to write again
 * at the block's depth: each line as the block sets it, re-indented from the scope's block lead to its file lead.
 */
export function movedDepths(
  context: Pick<ScopeContext, 'snippet' | 'file' | 'snippetStyle' | 'fileStyle'>,
  pairs: ReadonlyArray<[number, number]>,
  indent: { from: string; to: string },
): Array<{ from: number; to: number; written: string[] }> {
  const { snippetStyle, fileStyle } = context;
  if (snippetStyle.tabs !== fileStyle.tabs || snippetStyle.mixed || fileStyle.mixed || snippetStyle.unit !== fileStyle.unit) {
    return [];
  }
  const moved: Array<{ fileLine: number; line: string }> = [];
  let previous: { at: number; block: number; result: number } | undefined;
  for (const [s, f] of pairs) {
    if (previous && context.snippet.placeholders.slice(previous.at, s).some(Boolean)) {
      // A placeholder between: the block says nothing of the depths of what it stands for.
      previous = undefined;
    }
    const [mapped] = reindent([context.snippet.lines[s]], indent.from, indent.to, snippetStyle, fileStyle);
    const block = columnsOf(leadOf(mapped));
    let result = columnsOf(leadOf(context.file.lines[f]));
    if (previous && block - previous.block !== result - previous.result) {
      result = previous.result + (block - previous.block);
      moved.push({ fileLine: f, line: result === block ? mapped : shiftTo(mapped, result) });
    }
    previous = { at: s, block, result };
  }
  const runs: Array<{ from: number; to: number; written: string[] }> = [];
  for (const { fileLine, line } of moved) {
    const last = runs[runs.length - 1];
    if (last && last.to === fileLine) {
      last.to++;
      last.written.push(line);
    } else {
      runs.push({ from: fileLine, to: fileLine + 1, written: [line] });
    }
  }
  return runs;
}

/** The line with its indentation set to `columns`, in its own characters (tabs where it has tabs). */
function shiftTo(line: string, columns: number): string {
  const lead = leadOf(line);
  const text = line.slice(lead.length);
  if (lead.includes('\t')) {
    const tabs = Math.floor(columns / TAB_COLUMNS);
    return '\t'.repeat(tabs) + ' '.repeat(columns - tabs * TAB_COLUMNS) + text;
  }
  return ' '.repeat(Math.max(0, columns)) + text;
}
