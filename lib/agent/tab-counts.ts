/**
 * How many of something (loads, replies, holds) each tab has going on. A panel only asks whether
 * its tab has any, so a tab at none is let go, and `size` counts the tabs, not the things.
 */
export function createTabCounts() {
  const counts = new Map<number, number>();
  const change = (tabId: number | undefined, by: 1 | -1): void => {
    if (tabId === undefined) return;
    const left = (counts.get(tabId) ?? 0) + by;
    if (left > 0) counts.set(tabId, left);
    else counts.delete(tabId);
  };
  return {
    add: (tabId: number | undefined): void => change(tabId, 1),
    remove: (tabId: number | undefined): void => change(tabId, -1),
    has: (tabId: number): boolean => counts.has(tabId),
    get size(): number {
      return counts.size;
    },
    /** The tabs that have any, the one that has had them longest first. */
    tabs: (): number[] => [...counts.keys()],
  };
}
