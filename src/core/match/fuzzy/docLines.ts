// The full scorer's view of lines: SEARCH's bigrams as dense ids, each document line's normalised text
// and ids worked out on first use (DocLineCache), and the cache of line-to-line similarities (SimTable).
// Shared by the parts of the score (windowBag.ts, aligner.ts, evidence.ts), so below all of them.

import { type LineSource } from '../lineSource';
import { type Budget } from './budget';
import { LINE_START, normalizeLine } from './lineText';
import { PairIds } from './pairIds';

/** Largest SEARCH (in lines) whose similarity caches are dense rows. */
const DENSE_SIM_LIMIT = 1024;

/**
 * Cached similarities of document lines to SEARCH lines (NaN: not computed). Each document line
 * that needs a cache gets a row; rows of ordinary blocks live in one growing array (allocating a
 * typed array per line costs more than the similarities it saves), huge blocks use a sparse map,
 * as the banded alignment touches only a few cells of each row.
 */
export class SimTable {
  private dense: Float32Array;
  private readonly sparse: Map<number, number> | undefined;
  private rows = 0;

  constructor(private readonly n: number) {
    if (n <= DENSE_SIM_LIMIT) {
      this.dense = new Float32Array(n * 64).fill(NaN);
    } else {
      this.dense = new Float32Array(0);
      this.sparse = new Map();
    }
  }

  newRow(): number {
    const row = this.rows++;
    if (!this.sparse && this.rows * this.n > this.dense.length) {
      const grown = new Float32Array(this.dense.length * 2).fill(NaN);
      grown.set(this.dense);
      this.dense = grown;
    }
    return row;
  }

  get(row: number, i: number): number {
    return this.sparse ? (this.sparse.get(row * this.n + i) ?? NaN) : this.dense[row * this.n + i];
  }

  set(row: number, i: number, v: number): void {
    if (this.sparse) {
      this.sparse.set(row * this.n + i, v);
    } else {
      this.dense[row * this.n + i] = v;
    }
  }
}

/** What the full scorer knows about one non-blank document line (computed on first use). */
export interface DocLine {
  norm: string;
  /** Dense ids of the line's bigrams (-1: a bigram SEARCH does not have). */
  ids: Int32Array;
  /** Id of the (line start, first character) bigram. */
  startId: number;
  /** SimTable row: similarity to SEARCH line i. */
  simRow: number;
  /** SimTable row: this line joined with the next, against SEARCH line i (-1: none yet). */
  fusedDocRow: number;
  /** SimTable row: SEARCH lines i-1 and i joined, against this line, at index i (-1: none yet). */
  fusedSearchRow: number;
}

/** SEARCH's bigrams as dense ids (only bigrams SEARCH has get one: any other is never in common) and its bag. */
export interface SearchBigrams {
  ids: PairIds;
  /** Per SEARCH line: its bigrams' ids. */
  searchIds: Int32Array[];
  /** Per id: how often SEARCH has it (line-start bigrams included). */
  bagCount: Int32Array;
  /** Bigrams in SEARCH's bag. */
  bagSize: number;
}

export function searchBigrams(search: readonly string[]): SearchBigrams {
  const ids = new PairIds();
  const searchIds = search.map((line) => {
    const out = new Int32Array(Math.max(0, line.length - 1));
    for (let i = 0; i < out.length; i++) {
      out[i] = ids.intern(line.charCodeAt(i), line.charCodeAt(i + 1));
    }
    return out;
  });
  const startIds = search.map((line) => ids.intern(LINE_START, line.charCodeAt(0)));
  const bagCount = new Int32Array(ids.size);
  let bagSize = 0;
  for (let i = 0; i < search.length; i++) {
    const lineIds = searchIds[i];
    for (let p = 0; p < lineIds.length; p++) {
      bagCount[lineIds[p]]++;
    }
    bagCount[startIds[i]]++;
    bagSize += searchIds[i].length + 1;
  }
  return { ids, searchIds, bagCount, bagSize };
}

/**
 * The scorer's view of the non-blank document lines, each worked out on first use and kept:
 * normalised text (normalizeLine) and bigram ids (DocLine).
 */
export class DocLineCache {
  private readonly norms = new Map<number, string>();
  private readonly lines = new Map<number, DocLine>();

  constructor(
    private readonly doc: LineSource,
    private readonly nonBlank: Int32Array,
    private readonly ids: PairIds,
    private readonly sims: SimTable,
    /** SEARCH's line count. */
    private readonly n: number,
    private readonly budget: Budget,
  ) {}

  norm(j: number): string {
    let s = this.norms.get(j);
    if (s === undefined) {
      s = normalizeLine(this.doc.line(this.nonBlank[j]));
      this.norms.set(j, s);
      this.budget.spend(s.length);
    }
    return s;
  }

  line(j: number): DocLine {
    let info = this.lines.get(j);
    if (info === undefined) {
      const norm = this.norm(j);
      const ids = new Int32Array(Math.max(0, norm.length - 1));
      const table = this.ids;
      for (let i = 0; i < ids.length; i++) {
        ids[i] = table.get(norm.charCodeAt(i), norm.charCodeAt(i + 1));
      }
      info = {
        norm,
        ids,
        startId: this.ids.get(LINE_START, norm.charCodeAt(0)),
        simRow: this.sims.newRow(),
        fusedDocRow: -1,
        fusedSearchRow: -1,
      };
      this.lines.set(j, info);
      this.budget.spend(norm.length + Math.min(this.n, DENSE_SIM_LIMIT));
    }
    return info;
  }
}
