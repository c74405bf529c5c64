// Line alignment (longest common subsequence) between two lists of lines. Used to tell which REPLACE
// lines stand unchanged from SEARCH, and which file lines a fuzzy or user-chosen region pairs with.

/** Above this many DP cells the middle (after common prefix/suffix) is left unaligned. */
const MAX_CELLS = 4_000_000;

/** alignLines for lines compared by their exact text, via integer ids (no comparison calls per DP cell). */
export function alignEqual(a: readonly string[], b: readonly string[]): Array<[number, number]> {
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
  return alignIds(x, y);
}

/** LCS on integer ids: the same result as alignLines with ===, without a call per DP cell. */
function alignIds(a: Int32Array, b: Int32Array): Array<[number, number]> {
  const head: Array<[number, number]> = [];
  let lo = 0;
  while (lo < a.length && lo < b.length && a[lo] === b[lo]) {
    head.push([lo, lo]);
    lo++;
  }
  let ea = a.length;
  let eb = b.length;
  const tail: Array<[number, number]> = [];
  while (ea > lo && eb > lo && a[ea - 1] === b[eb - 1]) {
    ea--;
    eb--;
    tail.push([ea, eb]);
  }
  tail.reverse();
  if (ea === lo || eb === lo) {
    return head.concat(tail);
  }
  // Lines found on one side only cannot be in the LCS: run the table on the rest (a rewritten stretch
  // with a few shared lines such as "}" stays small).
  const inA = new Set<number>();
  for (let i = lo; i < ea; i++) {
    inA.add(a[i]);
  }
  const inB = new Set<number>();
  for (let j = lo; j < eb; j++) {
    inB.add(b[j]);
  }
  const ka: number[] = [];
  for (let i = lo; i < ea; i++) {
    if (inB.has(a[i])) {
      ka.push(i);
    }
  }
  const kb: number[] = [];
  for (let j = lo; j < eb; j++) {
    if (inA.has(b[j])) {
      kb.push(j);
    }
  }
  if (ka.length === 0 || ka.length * kb.length > MAX_CELLS) {
    return head.concat(tail);
  }
  const middle = lcsTable(
    Int32Array.from(ka, (i) => a[i]),
    Int32Array.from(kb, (j) => b[j]),
  ).map(([i, j]) => [ka[i], kb[j]] as [number, number]);
  return head.concat(middle, tail);
}

function lcsTable(a: Int32Array, b: Int32Array): Array<[number, number]> {
  const n = a.length;
  const m = b.length;
  const w = m + 1;
  const table = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    const ai = a[i];
    const row = i * w;
    const next = row + w;
    for (let j = m - 1; j >= 0; j--) {
      if (ai === b[j]) {
        table[row + j] = table[next + j + 1] + 1;
      } else {
        const down = table[next + j];
        const right = table[row + j + 1];
        table[row + j] = down > right ? down : right;
      }
    }
  }
  const out: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j] && table[i * w + j] === table[(i + 1) * w + j + 1] + 1) {
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

/** Index pairs [i, j] with a[i] ~ b[j], increasing in both, of maximal length. */
export function alignLines<A, B>(a: ArrayLike<A>, b: ArrayLike<B>, equal: (x: A, y: B) => boolean): Array<[number, number]> {
  const head: Array<[number, number]> = [];
  let lo = 0;
  while (lo < a.length && lo < b.length && equal(a[lo], b[lo])) {
    head.push([lo, lo]);
    lo++;
  }
  let ea = a.length;
  let eb = b.length;
  const tail: Array<[number, number]> = [];
  while (ea > lo && eb > lo && equal(a[ea - 1], b[eb - 1])) {
    ea--;
    eb--;
    tail.push([ea, eb]);
  }
  tail.reverse();
  const n = ea - lo;
  const m = eb - lo;
  if (n === 0 || m === 0 || n * m > MAX_CELLS) {
    return head.concat(tail);
  }

  // table[i][j] = LCS length of a[lo+i..ea) and b[lo+j..eb), stored row-major in one array.
  const w = m + 1;
  const table = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      table[i * w + j] = equal(a[lo + i], b[lo + j])
        ? table[(i + 1) * w + j + 1] + 1
        : Math.max(table[(i + 1) * w + j], table[i * w + j + 1]);
    }
  }
  const middle: Array<[number, number]> = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (equal(a[lo + i], b[lo + j]) && table[i * w + j] === table[(i + 1) * w + j + 1] + 1) {
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
