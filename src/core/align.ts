// Line alignment (longest common subsequence) between two lists of lines. Used to tell which REPLACE
// lines stand unchanged from SEARCH, and which file lines a fuzzy or user-chosen region pairs with.

/** Above this many DP cells the middle (after common prefix/suffix) is left unaligned. */
const MAX_CELLS = 4_000_000;

/** Index pairs [i, j] with a[i] ~ b[j], increasing in both, of maximal length. */
export function alignLines<A, B>(
  a: readonly A[],
  b: readonly B[],
  equal: (x: A, y: B) => boolean,
): Array<[number, number]> {
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
  if (n === 0 || m === 0 || n * m > MAX_CELLS) return head.concat(tail);

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
