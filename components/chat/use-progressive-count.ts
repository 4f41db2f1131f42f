import { useEffect, useState } from 'preact/hooks';

// About what a slow laptop lexes, sanitizes and lays out in a frame or two.
const charactersPerPass = 16_000;

/**
 * How many of `blocks` to render now. Blocks already rendered stay (the last one is rendered again,
 * as it may have grown); new ones are added up to a budget of characters per pass, and the next
 * pass follows after the browser has painted, so a 1 MB reply appears over a few frames instead
 * of freezing the panel while it renders.
 */
export function useProgressiveCount(blocks: ReadonlyArray<{ raw: string }>): number {
  const [rendered, setRendered] = useState(0);
  let count = Math.max(0, Math.min(rendered, blocks.length) - 1);
  let spent = 0;
  while (count < blocks.length) {
    const length = blocks[count]?.raw.length ?? 0;
    if (spent > 0 && spent + length > charactersPerPass) break;
    spent += length;
    count += 1;
  }
  useEffect(() => {
    if (count !== rendered) setRendered(count);
  }, [count, rendered]);
  return count;
}
