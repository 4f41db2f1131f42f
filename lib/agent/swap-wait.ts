import type { StatusPublisher } from './engine-status-publisher';
import type { RunTracker } from './run-tracker';
import type { TabEngineNews } from './tab-engine-news';

interface SwapWaitParts {
  shared: StatusPublisher;
  runs: RunTracker;
  news: TabEngineNews;
}

/**
 * A tab's load waits for the swap to the engine its settings name, which may wait for other tabs'
 * runs to end: while it does, that tab's panel says so (see `statusForTab`).
 */
export function createSwapWait({ shared, runs, news }: SwapWaitParts) {
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
