// Line differences for the real-edit corpora: the hunks that turn one version of a file into the next, and
// a compact form of them (what the committed npm corpus stores instead of the whole new file).

/** Lines [aStart, aEnd) of the old text became lines [bStart, bEnd) of the new one. */
export interface Hunk {
  aStart: number;
  aEnd: number;
  bStart: number;
  bEnd: number;
}

/** One stored edit: at old line `at`, `remove` lines were replaced by `insert`. */
export type CompactEdit = [at: number, remove: number, insert: string[]];

/** The hunks between two line lists (a longest common subsequence); undefined when the middle is too large to compare. */
export function lineHunks(a: readonly string[], b: readonly string[], maxCells = 4_000_000): Hunk[] | undefined {
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) {
    head++;
  }
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) {
    tail++;
  }
  const midA = a.slice(head, a.length - tail);
  const midB = b.slice(head, b.length - tail);
  if (midA.length === 0 && midB.length === 0) {
    return [];
  }
  if ((midA.length + 1) * (midB.length + 1) > maxCells) {
    return undefined;
  }
  // lcs[i][j]: the common subsequence length of midA[i..] and midB[j..].
  const width = midB.length + 1;
  const lcs = new Uint32Array((midA.length + 1) * width);
  for (let i = midA.length - 1; i >= 0; i--) {
    for (let j = midB.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        midA[i] === midB[j] ? lcs[(i + 1) * width + j + 1] + 1 : Math.max(lcs[(i + 1) * width + j], lcs[i * width + j + 1]);
    }
  }
  const hunks: Hunk[] = [];
  let i = 0;
  let j = 0;
  let open: Hunk | undefined;
  const close = () => {
    if (open) {
      open.aEnd = head + i;
      open.bEnd = head + j;
      hunks.push(open);
      open = undefined;
    }
  };
  while (i < midA.length || j < midB.length) {
    if (i < midA.length && j < midB.length && midA[i] === midB[j]) {
      close();
      i++;
      j++;
      continue;
    }
    open ??= { aStart: head + i, aEnd: 0, bStart: head + j, bEnd: 0 };
    if (j >= midB.length || (i < midA.length && lcs[(i + 1) * width + j] >= lcs[i * width + j + 1])) {
      i++;
    } else {
      j++;
    }
  }
  close();
  return hunks;
}

/** The stored form of the hunks. */
export function compactEdits(hunks: readonly Hunk[], b: readonly string[]): CompactEdit[] {
  return hunks.map((h) => [h.aStart, h.aEnd - h.aStart, b.slice(h.bStart, h.bEnd)]);
}

/** The new text from the old one and its stored edits. */
export function applyCompactEdits(before: string, edits: readonly CompactEdit[]): string {
  const lines = before.split('\n');
  for (const [at, remove, insert] of [...edits].sort((x, y) => y[0] - x[0])) {
    lines.splice(at, remove, ...insert);
  }
  return lines.join('\n');
}
