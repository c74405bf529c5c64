// A whole chat answer as one set of file changes: SEARCH/REPLACE blocks for several files (each named by
// the path line before it or before its fence, as aider writes them), unified diffs and apply_patch
// patches, in any mix. parseEdits (edits.ts) reads one format per text, the one whose first marker comes
// first, which suits an edit of one document; `resilient-apply patch` and the MCP apply_patch tool take a
// whole answer, where every edit counts and all of them apply as one batch.
// Which format owns a line is decided in reading order, so that quoted edits stay content: a block runs
// from its SEARCH marker to its REPLACE marker (a diff inside it is its text), a unified diff over its
// header, hunk and blank lines (a marker line it quotes is its context), an apply_patch section to its
// `*** End Patch`. Each parser then reads its own lines, the others' lines masked, positions kept.
// Plain fenced code blocks (a whole file, a declaration, a lazy snippet), each naming its file the ways
// chat models write it (codeBlocks.ts), are the answer's code blocks when no edit format owns their lines.
import { type CodeBlock, findCodeBlocks } from './codeBlocks';
import type { EditFormat } from './edits';
import { blockEndLine, findPathBefore, firstBlockOffset, parseBlocks } from './parser';
import { type FileChange, findPatch, parsePatch } from './patchParser';

export interface ParsedAnswer {
  /** The formats present, in the order they first appear. */
  formats: EditFormat[];
  /**
   * Every file change in input order: the patch sections as parsePatch reads them, and one `update` per
   * SEARCH/REPLACE block (path undefined when no line names its file). When formats mix, blocks and
   * hunks are numbered 1.. across the whole answer.
   */
  files: FileChange[];
  /** The plain code blocks, in input order, numbered 1.. among themselves (issue 28). */
  codeBlocks: AnswerCodeBlock[];
}

/** A plain code block of an answer: its code, the file it names (if any) and where it is. */
export interface AnswerCodeBlock extends CodeBlock {
  /** 1-based number among the answer's code blocks. */
  index: number;
}

type Owner = 'block' | 'patch';

/** What a line owned by the other format becomes: not blank, not a path, no marker, ends a hunk. */
const MASKED = '\u00b7';

const END_PATCH = /^[ \t]*\*\*\* End Patch[ \t]*$/;
// Lines a unified diff is made of: hunk lines, hunk and file headers, git's extended headers.
const DIFF_HEADER = /^(?:--- |\+\+\+ |@@|diff --git )/;
const DIFF_LINE =
  /^(?:[ +\-\\]|@@|diff --git |index |(?:new|deleted) file mode |old mode |new mode |(?:dis)?similarity index |rename (?:from|to) |copy (?:from|to) |Binary files |GIT binary patch)/;

/** The edits of a whole answer, or undefined when it holds none. Throws BlockParseError on malformed edits. */
export function parseAnswer(text: string): ParsedAnswer | undefined {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const owners = ownership(lines);
  const hasBlocks = owners.includes('block');
  const hasPatch = owners.includes('patch');
  const codeBlocks = answerCodeBlocks(lines, owners);
  if (!hasBlocks && !hasPatch) {
    return codeBlocks.length > 0 ? { formats: [], files: [], codeBlocks } : undefined;
  }
  // A text of one format goes to its parser whole, exactly as before answers could mix them.
  const patchLines = hasBlocks ? masked(lines, owners, 'patch') : lines;
  const blocks = hasBlocks ? parseBlocks(hasPatch ? masked(lines, owners, 'block').join('\n') : text) : [];
  const patch = hasPatch ? parsePatch(hasBlocks ? patchLines.join('\n') : text) : undefined;

  const files: FileChange[] = [...(patch?.files ?? [])];
  for (const file of files) {
    if (file.path === undefined) {
      nameHeaderlessDiff(file, patchLines);
    }
  }
  for (const block of blocks) {
    files.push({ kind: 'update', path: block.filePath, blocks: [block], sourceLine: block.sourceLine });
  }
  files.sort((a, b) => a.sourceLine - b.sourceLine);
  if (hasBlocks && hasPatch) {
    let index = 0;
    for (const block of files.flatMap((f) => f.blocks).sort((a, b) => a.sourceLine - b.sourceLine)) {
      block.index = ++index;
    }
  }
  const formats: EditFormat[] = [];
  for (const file of files) {
    const format: EditFormat = file.blocks[0] ? (file.blocks[0].hunk?.format ?? 'search-replace') : (patch?.format ?? 'unified-diff');
    if (!formats.includes(format)) {
      formats.push(format);
    }
  }
  return { formats, files, codeBlocks };
}

/**
 * The code blocks no edit owns a line of: a fence around SEARCH/REPLACE blocks or a diff is their
 * wrapping, not code. Owned lines are masked first, so that a fence quoted inside a block cannot pair
 * with one outside it.
 */
function answerCodeBlocks(lines: readonly string[], owners: readonly (Owner | undefined)[]): AnswerCodeBlock[] {
  const text = owners.some((o) => o !== undefined)
    ? lines.map((l, i) => (owners[i] === undefined ? l : MASKED)).join('\n')
    : lines.join('\n');
  return findCodeBlocks(text)
    .filter((block) => !owners.slice(block.fenceLine, block.closeLine - 1).some((o) => o !== undefined))
    .map((block, i) => ({ ...block, index: i + 1 }));
}

/** Which format owns each line (undefined: prose, paths, fences), decided in reading order. */
function ownership(lines: readonly string[]): (Owner | undefined)[] {
  const owners: (Owner | undefined)[] = new Array<Owner | undefined>(lines.length).fill(undefined);
  let pos = 0;
  while (pos < lines.length) {
    const rest = pos === 0 ? lines.join('\n') : lines.slice(pos).join('\n');
    const blockOffset = firstBlockOffset(rest);
    const patch = findPatch(rest);
    const blockLine = blockOffset === undefined ? undefined : pos + lineOf(rest, blockOffset);
    const patchLine = patch === undefined ? undefined : pos + lineOf(rest, patch.offset);
    let owner: Owner;
    let start: number;
    let end: number;
    if (blockLine !== undefined && (patchLine === undefined || blockLine <= patchLine)) {
      [owner, start] = ['block', blockLine];
      end = blockEndLine(lines, start) ?? lines.length - 1;
    } else if (patchLine !== undefined) {
      [owner, start] = ['patch', patchLine];
      end = patch!.format === 'apply-patch' ? applyPatchEnd(lines, start) : diffEnd(lines, start);
    } else {
      break;
    }
    owners.fill(owner, start, end + 1);
    pos = end + 1;
  }
  return owners;
}

/** 0-based line of a character offset. */
function lineOf(text: string, offset: number): number {
  let line = 0;
  for (let at = text.indexOf('\n'); at !== -1 && at < offset; at = text.indexOf('\n', at + 1)) {
    line++;
  }
  return line;
}

function applyPatchEnd(lines: readonly string[], start: number): number {
  for (let j = start + 1; j < lines.length; j++) {
    if (END_PATCH.test(lines[j])) {
      return j;
    }
  }
  return lines.length - 1;
}

/**
 * The last line of the unified diff starting at `start`: its lines up to a blank line, and on after
 * blank lines only where another file or hunk header follows. A hunk line after a blank line may still
 * be read by the patch parser (a model's hunk may lose the space of an empty context line): lines no
 * format owns stay in both texts; but a list item or an indented block after the diff is not its text.
 */
function diffEnd(lines: readonly string[], start: number): number {
  let end = start;
  for (let j = start + 1; j < lines.length; j++) {
    const line = lines[j];
    if (line.trim() === '') {
      continue;
    }
    const afterBlank = j > end + 1;
    if (!(afterBlank ? DIFF_HEADER : DIFF_LINE).test(line)) {
      break;
    }
    end = j;
  }
  return end;
}

function masked(lines: readonly string[], owners: readonly (Owner | undefined)[], keep: Owner): string[] {
  return lines.map((line, i) => (owners[i] === undefined || owners[i] === keep ? line : MASKED));
}

/** Hunks without a file header take the path named on the line before them (or before their fence), as blocks do. */
function nameHeaderlessDiff(file: FileChange, lines: readonly string[]): void {
  const named = findPathBefore(lines, file.sourceLine - 1, 0);
  if (named === undefined) {
    return;
  }
  file.path = named;
  for (const block of file.blocks) {
    block.filePath = named;
  }
}
