/** A pass should leave the page free to take a key press well within 100 ms. */
const targetPassMs = 25;

/**
 * How much the next pass does (characters rendered, cards drawn), learned from one that did
 * `done` in `elapsedMs`: halfway towards what fits in 25 ms, at most twice `current`, between
 * `fewest` and `most`. A pass that did less than `fewest` says little about the rate: `current`
 * stays. Machines differ tenfold (a fast laptop, a busy two-core one), so no fixed size fits.
 */
export function learnPassSize(current: number, done: number, elapsedMs: number, { fewest, most }: { fewest: number; most: number }): number {
  if (done < fewest) return current;
  const fitting = (done / Math.max(elapsedMs, 1)) * targetPassMs;
  const next = Math.min(current * 2, (current + fitting) / 2);
  return Math.round(Math.min(most, Math.max(fewest, next)));
}
