import type { EngineHostParts } from './engine-host-parts';

/**
 * A tab's load waits for the swap to the engine its settings name, which may wait for other tabs'
 * runs to end: while it does, that tab's panel says so (see `statusForTab`).
 */
export function createSwapWait({ shared, runs, news }: EngineHostParts) {
  /** `tabId`'s load waits for `swap`, which may wait for other tabs' runs: its panel says so meanwhile. */
  return async function waitForSwap<T>(tabId: number | undefined, swap: Promise<T>): Promise<T> {
    if (tabId === undefined) return swap;
    news.waitingForSwap.add(tabId);
    // The swap began waiting as this tab's load began: its panel says so now.
    if (runs.swapWaits) shared.publishNow();
    try {
      return await swap;
    } finally {
      news.waitingForSwap.remove(tabId);
      if (runs.swapWaits) shared.publishNow();
    }
  };
}
