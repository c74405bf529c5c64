// The one entry point every way in (paste, clipboard, CodeLens, chat, tool, CLI) uses to find edits in
// text: SEARCH/REPLACE blocks, a unified diff or an apply_patch patch. When a text holds more than one
// format, the one whose first marker comes first wins (a diff of a file that contains SEARCH/REPLACE
// markers stays a diff; blocks whose content quotes a diff stay blocks).
import { BlockParseError, firstBlockOffset, parseBlocks } from './parser';
import { type FileChange, findPatch, parsePatch, type PatchFormat } from './patchParser';
import type { SearchReplaceBlock } from '../types';

export type EditFormat = 'search-replace' | PatchFormat;

export interface ParsedEdits {
  format: EditFormat;
  /** Every edit as a block (patch hunks included), in input order. */
  blocks: SearchReplaceBlock[];
  /** For patches: what happens to each file (adds, deletes and moves included). */
  files?: FileChange[];
}

/** The format of the edits in `text`, or undefined when it holds none. */
export function detectEditFormat(text: string): EditFormat | undefined {
  const blocks = firstBlockOffset(text);
  const patch = findPatch(text);
  if (patch && (blocks === undefined || patch.offset < blocks)) {
    return patch.format;
  }
  return blocks === undefined ? undefined : 'search-replace';
}

/** True when the text holds SEARCH/REPLACE blocks, a unified diff or an apply_patch patch. */
export function containsEdits(text: string): boolean {
  return detectEditFormat(text) !== undefined;
}

/** Human name of a format, for messages. */
export function formatName(format: EditFormat): string {
  return format === 'search-replace' ? 'SEARCH/REPLACE blocks' : format === 'unified-diff' ? 'unified diff' : 'apply_patch patch';
}

/**
 * Parses whatever edits `text` holds. Blocks are [] when there are none. Throws BlockParseError for
 * malformed input (naming the block or hunk, the line and what was expected).
 */
export function parseEdits(text: string): ParsedEdits {
  const format = detectEditFormat(text);
  if (format === undefined) {
    return { format: 'search-replace', blocks: [] };
  }
  if (format === 'search-replace') {
    return { format, blocks: parseBlocks(text) };
  }
  const patch = parsePatch(text);
  const files = patch?.files ?? [];
  return { format, blocks: files.flatMap((f) => f.blocks).sort((a, b) => a.index - b.index), files };
}

/**
 * The blocks of parsed edits for the flows that change file contents only (editor, chat, tool, CLI
 * apply): a patch that deletes or renames a file is refused with a message saying where it applies
 * (the whole-patch ways in: core/batch/wholePatch.ts).
 */
export function editBlocks(edits: ParsedEdits): SearchReplaceBlock[] {
  for (const file of edits.files ?? []) {
    const what =
      file.kind === 'delete' ? `deletes ${file.path}` : file.moveTo !== undefined ? `moves ${file.path} to ${file.moveTo}` : undefined;
    if (what !== undefined) {
      const next = file.blocks[0]?.index ?? 1;
      throw new BlockParseError({
        block: next,
        line: file.sourceLine,
        expected: 'changes to file contents',
        message:
          `Patch (line ${file.sourceLine}): the ${formatName(edits.format)} ${what}; a patch that deletes or moves files applies as a whole, to every file it names (all files or none): ` +
          'give it to `resilient-apply patch`, to `@apply` or its CodeLens, or to the language model tool as "patch" without "filePath"; or drop that file from the patch.',
      });
    }
  }
  return edits.blocks;
}

/**
 * True when applying the edits deletes or moves a file: they cannot be applied block by block to open
 * documents, only as a whole patch (files created and deleted, all or nothing).
 */
export function hasFileOperations(edits: ParsedEdits): boolean {
  return (edits.files ?? []).some((f) => f.kind === 'delete' || f.moveTo !== undefined);
}
