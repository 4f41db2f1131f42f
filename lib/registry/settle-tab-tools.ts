/** How a tab's tool changes are watched: returns a function that stops watching. */
export type TabToolsSubscription = (listener: (tabId: number) => void) => () => void;

/**
 * The longest a settle waits, however the tools keep changing: two or three frames that report
 * in turn (an ad frame's refused tools count too) never leave the tab quiet for long, and the run,
 * with the engine it holds, must go on with the tools as they are.
 */
export const settleCeilingMs = 1500;

export interface SettleOptions {
  firstChangeMs?: number;
  quietMs?: number;
  ceilingMs?: number;
  /** The run's signal: a Stop ends the wait at once. */
  signal?: AbortSignal;
}

/**
 * After a tool ran, the page may swap its tools (a product page offers add_to_cart), and the
 * content script reports it a moment later. Resolves after that report has gone quiet, or after
 * a short while when none comes, so the next step (of a live run or a replay) reads the tools the
 * page offers now; at the latest after `ceilingMs`, or as soon as `signal` aborts.
 */
export function settleTabTools(subscribe: TabToolsSubscription, tabId: number, options: SettleOptions = {}): Promise<void> {
  const { firstChangeMs = 300, quietMs = 60, ceilingMs = settleCeilingMs, signal } = options;
  if (signal?.aborted) return Promise.resolve();
  return new Promise((resolve) => {
    let timer = setTimeout(done, firstChangeMs);
    const ceiling = setTimeout(done, ceilingMs);
    const unsubscribe = subscribe((changed) => {
      if (changed !== tabId) return;
      clearTimeout(timer);
      timer = setTimeout(done, quietMs);
    });
    signal?.addEventListener('abort', done, { once: true });
    function done() {
      clearTimeout(timer);
      clearTimeout(ceiling);
      signal?.removeEventListener('abort', done);
      unsubscribe();
      resolve();
    }
  });
}
