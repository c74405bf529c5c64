// Blank lines a code block leaves out where the file has them, kept (issue 25).

import type { Decl } from '../match/structure/outline';

/** Blank lines at the start (dir 1) or end (dir -1) of a body's interior. */
function edgeBlanks(lines: readonly string[], interior: { start: number; end: number }, dir: 1 | -1): number {
  let count = 0;
  for (let i = dir === 1 ? interior.start : interior.end - 1; i >= interior.start && i < interior.end && lines[i].trim() === ''; i += dir) {
    count++;
  }
  return count;
}

/**
 * A declaration shown whole over the file's keeps the blank lines the file has inside its braces, right
 * after the first line and before the last, when the block has none there: a model drops them when it
 * shows a namespace or class around the one member it changes, never to remove them.
 */
export function keepEdgeBlanks(
  lines: string[],
  shown: Decl,
  target: Decl,
  snippetLines: readonly string[],
  fileLines: readonly string[],
): void {
  if (!shown.interior || !target.interior || shown.interior.end <= shown.interior.start) {
    return;
  }
  const tail = edgeBlanks(fileLines, target.interior, -1);
  if (tail > 0 && tail < target.interior.end - target.interior.start && edgeBlanks(snippetLines, shown.interior, -1) === 0) {
    lines.splice(shown.interior.end - shown.lead, 0, ...new Array<string>(tail).fill(''));
  }
  const head = edgeBlanks(fileLines, target.interior, 1);
  if (head > 0 && head < target.interior.end - target.interior.start && edgeBlanks(snippetLines, shown.interior, 1) === 0) {
    lines.splice(shown.interior.start - shown.lead, 0, ...new Array<string>(head).fill(''));
  }
}
