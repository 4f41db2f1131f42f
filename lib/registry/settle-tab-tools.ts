/** How a tab's tool changes are watched: returns a function that stops watching. */
export type TabToolsSubscription = (listener: (tabId: number) => void) => () => void;

/**
 * After a tool ran, the page may swap its tools (a product page offers add_to_cart), and the
 * content script reports it a moment later. Resolves after that report has gone quiet, or after
 * a short while when none comes, so a replayed step reads the tools the page offers now.
 */
export function settleTabTools(subscribe: TabToolsSubscription, tabId: number, { firstChangeMs = 300, quietMs = 60 } = {}): Promise<void> {
  return new Promise((resolve) => {
    let timer = setTimeout(done, firstChangeMs);
    const unsubscribe = subscribe((changed) => {
      if (changed !== tabId) return;
      clearTimeout(timer);
      timer = setTimeout(done, quietMs);
    });
    function done() {
      unsubscribe();
      resolve();
    }
  });
}
