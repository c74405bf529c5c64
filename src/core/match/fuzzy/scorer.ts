// Scoring a window: the full score of a region of non-blank document lines against SEARCH, from its
// parts (windowBag.ts, aligner.ts, evidence.ts). What the stages after the prefilter rank windows by;
// a file of its own so they see one scorer, not its parts.

import { type LineSource } from '../lineSource';
import { LineAligner } from './aligner';
import { type Budget } from './budget';
import { DocLineCache, searchBigrams, SimTable } from './docLines';
import { ExactEvidence } from './evidence';
import { type ExactLines } from './exactLines';
import { WindowBag } from './windowBag';

/** Windows whose text Dice is below this are aligned without slack (see WindowScorer.score). */
const TIGHT_BAND_BELOW = 0.6;

/** How much of the gap between look-alike similarity and 1 the share of exactly equal lines closes. */
const EXACT_WEIGHT = 0.5;

/**
 * Full score of a window of non-blank document lines [a, b) against the non-blank SEARCH lines:
 * the mean of whole-window bigram Dice and an in-order line alignment that also lets one SEARCH
 * line stand for two document lines (fused) and the reverse (split), raised by the share of
 * lines that are exactly SEARCH's.
 */
export class WindowScorer {
  private readonly bag: WindowBag;
  private readonly aligner: LineAligner;
  private readonly evidence: ExactEvidence;
  private readonly lines: DocLineCache;
  /** Non-blank document lines. */
  readonly M: number;

  constructor(doc: LineSource, nonBlank: Int32Array, search: readonly string[], searchKeys: readonly string[], budget: Budget) {
    const sims = new SimTable(search.length);
    const bigrams = searchBigrams(search);
    const lines = new DocLineCache(doc, nonBlank, bigrams.ids, sims, search.length, budget);
    this.lines = lines;
    this.M = nonBlank.length;
    this.bag = new WindowBag(bigrams, lines, budget);
    this.aligner = new LineAligner(search, bigrams.searchIds, bigrams.ids.size, sims, lines, budget);
    this.evidence = new ExactEvidence(search, searchKeys, nonBlank.length, lines, this.aligner, budget);
    // Preparing SEARCH is linear in its size and always completes; it still counts against the cap.
    let chars = 0;
    for (const line of search) {
      chars += line.length + 1;
    }
    budget.used += 3 * chars;
  }

  score(a: number, b: number): number {
    const text = this.bag.textDice(a, b);
    // A window whose text is far from SEARCH is a decoy: align it on the tightest band, which
    // still credits every line that matches in order, at a fraction of the comparisons.
    const look = (text + this.aligner.lineAlignment(a, b, text >= TIGHT_BAND_BELOW ? 1 : 0)) / 2;
    // Lines equal to SEARCH lines are proof, not resemblance: the share of lines that are exactly
    // SEARCH's closes half of what look-alike similarity leaves open.
    const exact = this.evidence.exactShare(a, b);
    return look + EXACT_WEIGHT * exact * (1 - look);
  }

  /** Non-blank document line j, trimmed, inner spaces collapsed. */
  norm(j: number): string {
    return this.lines.norm(j);
  }

  /** See ExactEvidence.exactShare. */
  exactShare(a: number, b: number): number {
    return this.evidence.exactShare(a, b);
  }

  /** See ExactEvidence.realign. */
  realign(a: number, b: number): { start: number; end: number } | undefined {
    return this.evidence.realign(a, b);
  }

  /** See ExactEvidence.knowKeys. */
  knowKeys(found: { lines: readonly number[]; keys: readonly number[] }, exact: ExactLines): void {
    this.evidence.knowKeys(found, exact);
  }

  /** See ExactEvidence.pairs. */
  pairs(i: number, j: number): boolean {
    return this.evidence.pairs(i, j);
  }

  /** See ExactEvidence.equal. */
  equal(i: number, j: number): 'no' | 'punctuation' | 'evidence' {
    return this.evidence.equal(i, j);
  }

  /** See ExactEvidence.hasEvidence. */
  hasEvidence(j: number): boolean {
    return this.evidence.hasEvidence(j);
  }

  /** See ExactEvidence.settle. */
  settle(a: number, b: number): { start: number; end: number } | undefined {
    return this.evidence.settle(a, b);
  }
}
