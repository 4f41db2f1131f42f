/**
 * A tool's ranking score as the inspector's preview and the trace viewer show it, so that one
 * ranking reads the same in both: whole where it is whole (the documented scorer counts words),
 * else to two decimals.
 */
export function formatScore(score: number): string {
  return Number.isInteger(score) ? String(score) : score.toFixed(2);
}
