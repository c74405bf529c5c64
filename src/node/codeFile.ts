// A plain code block applied to a file on disk: the CLI's `apply FILE --snippet` and the MCP server's
// `code` input both call this one function, so they give the same outcome, message, writing and
// `--json` object. Core's applySnippet places it (tree-sitter grammars from dist/grammars, read on first
// use); a missing file is created from code without placeholders, as a block with an empty SEARCH would.
import { applyEdits, type ApplyOptions, type ApplyResult, applySnippet, isPlaceholderLine, type SnippetOptions } from '../core';
import { grammarFiles } from './grammarFiles';
import { languageIdFor } from './paths';
import { prepareForRun } from './runLength';
import { createTextFile, type ReadOnlyPolicy, readTextFile, refuseReadOnly, writeTextFile } from './textFile';

/** The code cannot be applied to that path at all (a missing file and a code block with placeholders). */
export class CodeFileError extends Error {}

/**
 * Applies `code` to the file at `target` (named `fileName` in messages) and writes the result unless
 * `dryRun` (a file marked read-only is refused unless the policy forces, dry run or not); `options` are the caller's (--max-candidates, --auto-apply-above; a long-running caller's
 * documentKey, so that core keeps the file's parse tree for the next code block).
 */
export async function applyCodeToFile(
  target: string,
  fileName: string,
  code: string,
  options: ApplyOptions & Pick<SnippetOptions, 'documentKey'>,
  { dryRun, readOnly }: { dryRun: boolean; readOnly: ReadOnlyPolicy },
): Promise<ApplyResult> {
  const file = readTextFile(target);
  if (file) {
    refuseReadOnly(file, fileName, readOnly);
  }
  const languageId = languageIdFor(target);
  const settings: ApplyOptions & Pick<SnippetOptions, 'documentKey'> = { ...options, fileName, languageId };
  let result: ApplyResult;
  if (!file) {
    if (code.split('\n').some((line) => isPlaceholderLine(line, { languageId, fileName }))) {
      throw new CodeFileError(`file not found: ${fileName} (a code block creates a file only from code without placeholders)`);
    }
    result = applyEdits('', [{ index: 1, search: '', replace: code, sourceLine: 1 }], settings);
  } else {
    const run = prepareForRun(file.text.length, 1);
    result = await applySnippet(file.text, { code, languageId, fileName }, { ...settings, ...run, grammars: grammarFiles() });
  }
  if (result.status === 'applied' && !dryRun && result.content !== undefined) {
    if (!file) {
      createTextFile(target, result.content);
    } else if (result.content !== file.text) {
      writeTextFile(file, result.content, fileName);
    }
  }
  return result;
}
