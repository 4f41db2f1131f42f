import type { EngineStatus } from './session-state';

type AskingElsewhere = { tabId: number; name?: string; more?: number } | undefined;

/** What telling panels of other tabs' questions needs: which tabs have panels, who asks, and how to redraw one. */
export interface AskingNewsHost {
  panels: ReadonlyMap<number, unknown>;
  waitingTabs: { askingElsewhere(tabId: number): AskingElsewhere };
  engines: { statusFor(tabId: number): EngineStatus };
  resendSnapshot(tabId: number): void;
  publishEngineStatus(): void;
}

/**
 * A tab's panel says where another tab's request waits for the person's answer ("A request in
 * “Mug shop” waits for your answer"). What each tab's last snapshot said is kept, so that a run
 * beginning or ending to wait redraws only the panels whose words change (not for a private
 * window's tab, nor a second question of one run).
 */
export function createAskingNews({ panels, waitingTabs, engines, resendSnapshot, publishEngineStatus }: AskingNewsHost) {
  const shown = new Map<number, string>();
  const changedFor = (tabId: number) => shown.get(tabId) !== JSON.stringify(waitingTabs.askingElsewhere(tabId));
  return {
    /** What a snapshot of the tab says of other tabs' questions, kept to compare with later. */
    askingElsewhere(tabId: number): AskingElsewhere {
      const asking = waitingTabs.askingElsewhere(tabId);
      shown.set(tabId, JSON.stringify(asking));
      return asking;
    },
    /** A run in `askingTabId` began or ended waiting for the person's answer. */
    askingChanged(askingTabId: number): void {
      for (const tabId of panels.keys()) if (tabId !== askingTabId && changedFor(tabId)) resendSnapshot(tabId);
    },
    /**
     * The tab's own title is known: another tab of the same page is no longer named by it (see
     * `createWaitingTabNames`), so what its panel says of the others is said again where it changes.
     */
    ownTitleKnown(tabId: number): void {
      if (!panels.has(tabId)) return;
      if (shown.has(tabId) && changedFor(tabId)) resendSnapshot(tabId);
      if (engines.statusFor(tabId).waitingForTab !== undefined) publishEngineStatus();
    },
    forget(tabId: number): void {
      shown.delete(tabId);
    },
  };
}
