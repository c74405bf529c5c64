// A small line diff (longest common subsequence) for hovers: how a block's SEARCH differs from a candidate.

export type DiffLine = { kind: ' ' | '-' | '+'; text: string };

/** Lines only in `a` are '-', lines only in `b` are '+'. Falls back to "all removed, all added" for huge inputs. */
export function diffLines(a: readonly string[], b: readonly string[], maxCells = 250_000): DiffLine[] {
  const n = a.length;
  const m = b.length;
  if (n * m > maxCells) {
    return [...a.map((text) => ({ kind: '-' as const, text })), ...b.map((text) => ({ kind: '+' as const, text }))];
  }
  // lcs[i][j] = length of the LCS of a[i..] and b[j..]
  const lcs: Uint32Array[] = [];
  for (let i = 0; i <= n; i++) {
    lcs.push(new Uint32Array(m + 1));
  }
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      out.push({ kind: ' ', text: a[i] });
      i++;
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
      out.push({ kind: '-', text: a[i++] });
    } else {
      out.push({ kind: '+', text: b[j++] });
    }
  }
  while (i < n) {
    out.push({ kind: '-', text: a[i++] });
  }
  while (j < m) {
    out.push({ kind: '+', text: b[j++] });
  }
  return out;
}

/** Renders a diff as unified-diff lines ("- x", "+ y", "  z"). */
export function renderDiff(lines: readonly DiffLine[]): string {
  return lines.map((l) => `${l.kind} ${l.text}`).join('\n');
}
