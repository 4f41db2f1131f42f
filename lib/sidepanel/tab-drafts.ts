/**
 * What was typed, unsent, in the other tabs this panel followed: words meant for one page must not
 * follow the panel to another site, where Enter would send them, and are there again on the way back.
 */
export function createTabDrafts() {
  const otherTabsDrafts = new Map<number, string>();
  return {
    /** Keeps `draft` for the tab the panel leaves; answers the draft kept for the tab it turns to. */
    turn(fromTabId: number, toTabId: number, draft: string): string {
      if (draft !== '') otherTabsDrafts.set(fromTabId, draft);
      const kept = otherTabsDrafts.get(toTabId) ?? '';
      otherTabsDrafts.delete(toTabId);
      return kept;
    },
  };
}

export type TabDrafts = ReturnType<typeof createTabDrafts>;
