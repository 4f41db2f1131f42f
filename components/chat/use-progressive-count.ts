import { useEffect, useLayoutEffect, useState } from 'preact/hooks';
import { learnPassSize } from '@/components/shared/learn-pass-size';

const passBounds = { fewest: 1_000, most: 64_000 };

/**
 * Characters of Markdown this machine renders (lexed, sanitized, put in the page) in one pass.
 * It starts low and follows what passes actually cost: a fast laptop and a busy two-core
 * machine differ tenfold, and one fixed budget froze the slow one for 150 ms a pass.
 */
let charactersPerPass = 4_000;

/** Characters of Markdown one pass renders on this machine, as learned so far. */
export function charactersPerPassNow(): number {
  return charactersPerPass;
}

/**
 * How many of `blocks` to render now. Blocks already rendered stay (the last one is rendered again,
 * as it may have grown); new ones are added up to the budget of characters per pass, and the next
 * pass follows after the browser has painted, so a 1 MB reply appears over a few frames instead
 * of freezing the panel while it renders. Each pass adds at least one new block, however large:
 * a block over the budget would otherwise never fit beside the one rendered again.
 */
export function useProgressiveCount(blocks: ReadonlyArray<{ raw: string }>): number {
  const passStarted = performance.now();
  const [rendered, setRendered] = useState(0);
  const firstNew = Math.min(rendered, blocks.length);
  let count = Math.max(0, firstNew - 1);
  let spent = 0;
  while (count < blocks.length) {
    const length = blocks[count]?.raw.length ?? 0;
    if (count > firstNew && spent + length > charactersPerPass) break;
    spent += length;
    count += 1;
  }
  const added = count > rendered;
  // Runs once the blocks of this pass are in the page: what they cost tunes the next pass.
  useLayoutEffect(() => {
    if (added) charactersPerPass = learnPassSize(charactersPerPass, spent, performance.now() - passStarted, passBounds);
  }, [count, blocks]);
  useEffect(() => {
    if (count !== rendered) setRendered(count);
  }, [count, rendered]);
  return count;
}
