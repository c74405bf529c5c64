// Line alignment (longest common subsequence) between two lists of lines: the one LCS of the engine.
// Used to tell which REPLACE lines stand unchanged from SEARCH, which file lines a fuzzy or user-chosen
// region pairs with, and to describe how SEARCH differs from a candidate (lineDiff.ts).

/** Above this many DP cells the middle (after common prefix/suffix) is left unaligned. */
const MAX_CELLS = 4_000_000;

type Pairs = Array<[number, number]>;

/** alignLines for lines compared by their exact text; `maxCells` bounds the table (the middle is left unaligned above it). */
export function alignEqual(a: readonly string[], b: readonly string[], maxCells = MAX_CELLS): Pairs {
  const ids = new Map<string, number>();
  const idOf = (s: string) => {
    let id = ids.get(s);
    if (id === undefined) {
      id = ids.size;
      ids.set(s, id);
    }
    return id;
  };
  const x = Int32Array.from(a, idOf);
  const y = Int32Array.from(b, idOf);
  // The common head and tail pair up as they stand (usually most of a block); only the middle needs a table.
  let lo = 0;
  while (lo < x.length && lo < y.length && x[lo] === y[lo]) {
    lo++;
  }
  let ex = x.length;
  let ey = y.length;
  while (ex > lo && ey > lo && x[ex - 1] === y[ey - 1]) {
    ex--;
    ey--;
  }
  const pairs: Pairs = [];
  for (let i = 0; i < lo; i++) {
    pairs.push([i, i]);
  }
  if (ex > lo && ey > lo) {
    // Lines found on one side only cannot be in the LCS: run the table on the rest (a rewritten stretch
    // with a few shared lines such as "}" stays small).
    const midX = x.subarray(lo, ex);
    const midY = y.subarray(lo, ey);
    const inX = new Set(midX);
    const inY = new Set(midY);
    const kx = indicesWhere(midX, (id) => inY.has(id));
    const ky = indicesWhere(midY, (id) => inX.has(id));
    const idsX = Int32Array.from(kx, (i) => midX[i]);
    const idsY = Int32Array.from(ky, (j) => midY[j]);
    for (const [i, j] of alignIds(idsX, idsY, maxCells)) {
      pairs.push([lo + kx[i], lo + ky[j]]);
    }
  }
  for (let k = 0; ex + k < x.length; k++) {
    pairs.push([ex + k, ey + k]);
  }
  return pairs;
}

function indicesWhere(ids: Int32Array, keep: (id: number) => boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < ids.length; i++) {
    if (keep(ids[i])) {
      out.push(i);
    }
  }
  return out;
}

/** Index pairs [i, j] with a[i] ~ b[j], increasing in both, of maximal length. */
export function alignLines<A, B>(a: ArrayLike<A>, b: ArrayLike<B>, equal: (x: A, y: B) => boolean, maxCells = MAX_CELLS): Pairs {
  const head: Pairs = [];
  let lo = 0;
  while (lo < a.length && lo < b.length && equal(a[lo], b[lo])) {
    head.push([lo, lo]);
    lo++;
  }
  let ea = a.length;
  let eb = b.length;
  const tail: Pairs = [];
  while (ea > lo && eb > lo && equal(a[ea - 1], b[eb - 1])) {
    ea--;
    eb--;
    tail.push([ea, eb]);
  }
  tail.reverse();
  const n = ea - lo;
  const m = eb - lo;
  if (n === 0 || m === 0 || n * m > maxCells) {
    return head.concat(tail);
  }
  const middle = lcsPairs(n, m, (i, j) => equal(a[lo + i], b[lo + j])).map(([i, j]) => [lo + i, lo + j] as [number, number]);
  return head.concat(middle, tail);
}

/**
 * alignLines for two id sequences compared with ===, the same pairs, with the comparisons written
 * inline: the generic version calls a closure (that calls another) for every cell of the table, which
 * is most of its cost while the code is cold (describing a near miss runs it once or twice per call).
 */
function alignIds(a: Int32Array, b: Int32Array, maxCells: number): Pairs {
  const head: Pairs = [];
  let lo = 0;
  while (lo < a.length && lo < b.length && a[lo] === b[lo]) {
    head.push([lo, lo]);
    lo++;
  }
  let ea = a.length;
  let eb = b.length;
  const tail: Pairs = [];
  while (ea > lo && eb > lo && a[ea - 1] === b[eb - 1]) {
    ea--;
    eb--;
    tail.push([ea, eb]);
  }
  tail.reverse();
  const n = ea - lo;
  const m = eb - lo;
  if (n === 0 || m === 0 || n * m > maxCells) {
    return head.concat(tail);
  }
  const x = a.subarray(lo, ea);
  const y = b.subarray(lo, eb);
  // As lcsPairs: table[i * w + j] = LCS length of the suffixes from i and from j.
  const w = m + 1;
  const table = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    const row = i * w;
    const next = row + w;
    const xi = x[i];
    for (let j = m - 1; j >= 0; j--) {
      if (xi === y[j]) {
        table[row + j] = table[next + j + 1] + 1;
      } else {
        const down = table[next + j];
        const right = table[row + j + 1];
        table[row + j] = down > right ? down : right;
      }
    }
  }
  const middle: Pairs = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (table[i * w + j] === table[(i + 1) * w + j + 1] + 1 && x[i] === y[j]) {
      middle.push([lo + i, lo + j]);
      i++;
      j++;
    } else if (table[(i + 1) * w + j] >= table[i * w + j + 1]) {
      i++;
    } else {
      j++;
    }
  }
  return head.concat(middle, tail);
}

/** The LCS of two sequences of lengths n and m, given whether element i of one equals element j of the other. */
function lcsPairs(n: number, m: number, same: (i: number, j: number) => boolean): Pairs {
  // table[i * w + j] = LCS length of the suffixes from i and from j, row-major in one array.
  const w = m + 1;
  const table = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    const row = i * w;
    const next = row + w;
    for (let j = m - 1; j >= 0; j--) {
      if (same(i, j)) {
        table[row + j] = table[next + j + 1] + 1;
      } else {
        const down = table[next + j];
        const right = table[row + j + 1];
        table[row + j] = down > right ? down : right;
      }
    }
  }
  const out: Pairs = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (table[i * w + j] === table[(i + 1) * w + j + 1] + 1 && same(i, j)) {
      out.push([i, j]);
      i++;
      j++;
    } else if (table[(i + 1) * w + j] >= table[i * w + j + 1]) {
      i++;
    } else {
      j++;
    }
  }
  return out;
}
