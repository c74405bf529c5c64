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
  return alignIndices(a.length, b.length, (i, j) => equal(a[i], b[j]), maxCells);
}

/**
 * alignLines for two id sequences compared with ===. The comparison is one call per cell of the table
 * (through equal and an index wrapper it was two, most of the cost while describing a near miss runs cold).
 */
function alignIds(a: Int32Array, b: Int32Array, maxCells: number): Pairs {
  return alignIndices(a.length, b.length, (i, j) => a[i] === b[j], maxCells);
}

/**
 * Index pairs [i, j] (i < n, j < m) with same(i, j), increasing in both, of maximal length: equal heads
 * and tails are paired as they are, the middle by its longest common subsequence when its table has at
 * most maxCells cells (else left unpaired).
 */
function alignIndices(n0: number, m0: number, same: (i: number, j: number) => boolean, maxCells: number): Pairs {
  const head: Pairs = [];
  let lo = 0;
  while (lo < n0 && lo < m0 && same(lo, lo)) {
    head.push([lo, lo]);
    lo++;
  }
  let ea = n0;
  let eb = m0;
  const tail: Pairs = [];
  while (ea > lo && eb > lo && same(ea - 1, eb - 1)) {
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
  return head.concat(lcsPairs(lo, n, m, same), tail);
}

/** The LCS of elements [lo, lo + n) and [lo, lo + m) of two sequences, given whether element i of one equals element j of the other. */
function lcsPairs(lo: number, n: number, m: number, same: (i: number, j: number) => boolean): Pairs {
  // table[i * w + j] = LCS length of the suffixes from lo + i and from lo + j, row-major in one array.
  const w = m + 1;
  const table = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    const row = i * w;
    const next = row + w;
    for (let j = m - 1; j >= 0; j--) {
      if (same(lo + i, lo + j)) {
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
    if (table[i * w + j] === table[(i + 1) * w + j + 1] + 1 && same(lo + i, lo + j)) {
      out.push([lo + i, lo + j]);
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
