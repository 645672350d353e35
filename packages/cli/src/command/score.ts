/**
 * Search scores as people read them. BM25 scores of a large index are often tiny (`0.0000041`)
 * and their digits past the third say nothing a reader can use; the JSON output keeps the exact
 * number, the human-readable lines print this.
 */

/**
 * A score in at most 3 significant digits: fixed notation from 0.001 up to 1e6 (`0.812`, `12.3`,
 * `4100`), exponent notation outside it (`4.10e-6`), `0` for zero, and `NaN` / `Infinity` as
 * JavaScript writes them. Monotone: a higher score never prints as a lower number.
 */
export function formatScore(score: number): string {
  if (!Number.isFinite(score)) return String(score);
  if (score === 0) return "0";
  const magnitude = Math.abs(score);
  if (magnitude >= 0.001 && magnitude < 1e6) return String(Number(score.toPrecision(3)));
  return score.toExponential(2);
}
