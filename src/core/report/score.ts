// How a similarity score is shown, everywhere: the LLM-facing message, the CLI, chat, CodeLens, hovers
// and the log. Always rounded DOWN: a near miss must never look better than it is, and only a perfect
// match shows as 1.00 / 100%.

/** Whole hundredths of a score in 0..1, rounded down, 100 only for a perfect match. */
function hundredths(score: number): number {
  if (score >= 1) {
    return 100;
  }
  // The epsilon keeps 0.29 (stored as 0.28999...) at 29.
  return Math.min(99, Math.floor(Math.max(0, score) * 100 + 1e-9));
}

/** "0.92": two decimals, as the message and the log show scores. */
export function formatScore(score: number): string {
  return (hundredths(score) / 100).toFixed(2);
}

/** "92%": a whole percentage, as chat and the editor show scores. */
export function formatPercent(score: number): string {
  return `${hundredths(score)}%`;
}
