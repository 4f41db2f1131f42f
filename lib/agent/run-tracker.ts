import type { Engine } from '../engines/engine';
import { createAfterRunsEnd } from './after-runs-end';
import { createTabCounts } from './tab-counts';

/**
 * The runs going on with the engine, and what waits for them all to end. A run that loaded the
 * engine with `hold` keeps it until it gives its hold back, and a reply counts while it streams or
 * waits for its turn. While any goes on, a model on the GPU is not replaced (the swap waits), an
 * engine replaced is not let go, and a new description of the engine waits: a run goes on with the
 * engine it loaded, and the status says so until it ends.
 */
export function createRunTracker() {
  let replying = 0;
  let holding = 0;
  // Which tabs' runs hold the engine: a tab whose load waits for them is told which.
  const holdingTabs = createTabCounts();
  const afterRunsEnd = createAfterRunsEnd();

  const busy = (): boolean => replying > 0 || holding > 0;

  /** Once no run goes on, lets go what waited for that; call it after anything that may end the last run. */
  const settle = (): void => {
    if (busy()) return;
    afterRunsEnd.release();
  };

  return {
    busy,
    settle,
    /** Whether a reply streams or waits for its turn: the status says "generating" while one does. */
    get replying(): boolean {
      return replying > 0;
    },
    replyStarts(): void {
      replying += 1;
    },
    /** The caller says what the reply's end changes, then calls `settle`. */
    replyEnds(): void {
      replying -= 1;
    },
    /**
     * `tabId`'s run holds the engine; it takes its hold in the same turn it gets the engine, so no
     * swap comes between. The function gives the hold back, once.
     */
    hold(tabId: number | undefined): () => void {
      let released = false;
      holding += 1;
      holdingTabs.add(tabId);
      return () => {
        if (released) return;
        released = true;
        holding -= 1;
        holdingTabs.remove(tabId);
        settle();
      };
    },
    /** The tabs whose runs hold the engine, the longest-held first. */
    holdingTabs: (): number[] => holdingTabs.tabs(),
    /** An engine that holds nothing shared is let go once the runs still using it end. */
    unloadAfterRuns(engine: Engine): void {
      afterRunsEnd.unloadAfterRuns(engine);
    },
    /** Resolves once no run goes on; meanwhile `swapWaits` (the tabs waiting say so). */
    untilRunsEnd(): Promise<void> {
      return afterRunsEnd.untilRunsEnd();
    },
    get swapWaits(): boolean {
      return afterRunsEnd.swapWaits;
    },
    /** Calls `tell` once no run goes on, in place of what was to be called before (none where undefined). */
    whenRunsEnd(tell: (() => void) | undefined): void {
      afterRunsEnd.whenRunsEnd(tell);
    },
  };
}

export type RunTracker = ReturnType<typeof createRunTracker>;
