import { requestInFront } from './request-in-front';

/**
 * What was typed, unsent, in the other tabs this panel followed: words meant for one page must not
 * follow the panel to another site, where Enter would send them, and are there again on the way back.
 * So is a request the background refused there after the panel left, with its refusal. `keep` is
 * told the draft such a request leaves in its tab (see `keepDraftsStored` for the followed tab's).
 */
export function createTabDrafts(keep: (tabId: number, draft: string) => void = () => {}) {
  const otherTabsDrafts = new Map<number, string>();
  const refusals = new Map<number, string>();
  return {
    /** Keeps `draft` for the tab the panel leaves; answers the draft kept for the tab it turns to. */
    turn(fromTabId: number, toTabId: number, draft: string): string {
      if (draft !== '') otherTabsDrafts.set(fromTabId, draft);
      const kept = otherTabsDrafts.get(toTabId) ?? '';
      otherTabsDrafts.delete(toTabId);
      return kept;
    },
    /** A request for `tabId`, a tab the panel left, came back: in front of what was typed there, with the refusal where one came. */
    putBack(tabId: number, request: string, refusal?: string): void {
      const draft = requestInFront(request, otherTabsDrafts.get(tabId) ?? '');
      otherTabsDrafts.set(tabId, draft);
      keep(tabId, draft);
      if (refusal !== undefined) refusals.set(tabId, refusal);
    },
    /** Chrome gave a tab the panel left a new id (a tab discarded to save memory): what it kept there goes with it. */
    tabReplaced(removedTabId: number, addedTabId: number): void {
      for (const kept of [otherTabsDrafts, refusals]) {
        const value = kept.get(removedTabId);
        kept.delete(removedTabId);
        if (value !== undefined) kept.set(addedTabId, value);
      }
    },
    /** The refusal to show on turning back to `tabId`, once. */
    takeRefusal(tabId: number): string | undefined {
      const refusal = refusals.get(tabId);
      refusals.delete(tabId);
      return refusal;
    },
  };
}

export type TabDrafts = ReturnType<typeof createTabDrafts>;
