// The audit's own line diff (issue 25): which lines of the file a planned result keeps, found without the
// write side's aligner (write/align.ts) so that a fault there cannot vouch for itself. Lines are equal when
// they are equal byte for byte (the write side keeps every unchanged line so). Common head and tail first,
// then Myers' O((N+M)D) diff on the middle, which stays small for an edit inside a file.

/** Past this many differing lines the middle is too different to audit line by line. */
export const MAX_AUDIT_DIFFERENCES = 2_000;

/** The inverse of keptLines: for each line of the result, the file line it keeps, or -1 for a written line. */
export function fileLineOf(kept: Int32Array, resultLength: number): Int32Array {
  const fromFile = new Int32Array(resultLength).fill(-1);
  for (let line = 0; line < kept.length; line++) {
    if (kept[line] >= 0) {
      fromFile[kept[line]] = line;
    }
  }
  return fromFile;
}

/**
 * For each line of `before`, the index of the line of `after` it is kept as, or -1 when `after` lacks it;
 * undefined when more than MAX_AUDIT_DIFFERENCES lines differ.
 */
export function keptLines(before: readonly string[], after: readonly string[]): Int32Array | undefined {
  // Several rules ask for the same pair (the file and the planned result): computed once.
  const cached = keptCache.get(after);
  if (cached && cached.before === before) {
    return cached.kept;
  }
  const kept = diffKept(before, after);
  keptCache.set(after, { before, kept });
  return kept;
}

const keptCache = new WeakMap<readonly string[], { before: readonly string[]; kept: Int32Array | undefined }>();

/** How many lines two texts share at their start (head) and, before those, at their end (tail). */
export function sharedEnds(before: readonly string[], after: readonly string[]): { head: number; tail: number } {
  const cached = endsCache.get(after);
  if (cached && cached.before === before) {
    return cached.ends;
  }
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) {
    head++;
  }
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) {
    tail++;
  }
  const ends = { head, tail };
  endsCache.set(after, { before, ends });
  return ends;
}

const endsCache = new WeakMap<readonly string[], { before: readonly string[]; ends: { head: number; tail: number } }>();

function diffKept(before: readonly string[], after: readonly string[]): Int32Array | undefined {
  const kept = new Int32Array(before.length).fill(-1);
  const { head, tail } = sharedEnds(before, after);
  for (let i = 0; i < head; i++) {
    kept[i] = i;
  }
  for (let i = 0; i < tail; i++) {
    kept[before.length - 1 - i] = after.length - 1 - i;
  }
  const a = before.slice(head, before.length - tail);
  const b = after.slice(head, after.length - tail);
  const pairs = myersPairs(a, b);
  if (pairs === undefined) {
    return undefined;
  }
  for (const [i, j] of pairs) {
    kept[head + i] = head + j;
  }
  return kept;
}

/** The equal lines of a shortest edit script between `a` and `b`, as [index in a, index in b]. */
function myersPairs(a: readonly string[], b: readonly string[]): Array<[number, number]> | undefined {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0) {
    return [];
  }
  const max = Math.min(n + m, MAX_AUDIT_DIFFERENCES);
  const offset = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[offset + k - 1] < v[offset + k + 1]) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[offset + k] = x;
      if (x >= n && y >= m) {
        return backtrack(trace, a, b, d, k);
      }
    }
  }
  return undefined;
}

/** Walks the saved frontiers back from (n, m) and collects the diagonal moves (equal lines). */
function backtrack(
  trace: readonly Int32Array[],
  a: readonly string[],
  b: readonly string[],
  last: number,
  lastK: number,
): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  let x = a.length;
  let y = b.length;
  let k = lastK;
  for (let d = last; d > 0; d--) {
    // trace[d] holds v for k in [-d-1, d+1] of the frontier before step d, at index k + d + 1.
    const frontier = trace[d];
    const at = (kk: number): number => frontier[kk + d + 1];
    const down = k === -d || (k !== d && at(k - 1) < at(k + 1));
    const previousK = down ? k + 1 : k - 1;
    const previousX = at(previousK);
    const previousY = previousX - previousK;
    const startX = down ? previousX : previousX + 1;
    const startY = startX - k;
    while (x > startX && y > startY) {
      x--;
      y--;
      pairs.push([x, y]);
    }
    x = previousX;
    y = previousY;
    k = previousK;
  }
  while (x > 0 && y > 0) {
    x--;
    y--;
    pairs.push([x, y]);
  }
  return pairs.reverse();
}
