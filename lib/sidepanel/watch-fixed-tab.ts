import { browser } from 'wxt/browser';
import type { BrowserEvent } from '../service-worker/tab-events';
import type { ReplacedListener } from './follow-active-tab';

/** The slice of the tabs API a panel fixed to one tab watches it with. */
export interface FixedTabSource {
  tabs: {
    get(tabId: number): Promise<unknown>;
    onRemoved: BrowserEvent<(tabId: number) => void>;
    onReplaced: BrowserEvent<ReplacedListener>;
  };
}

/**
 * Watches the tab a panel opened as a page (`sidepanel.html?tabId=N`) is fixed to: `replaced` when
 * Chrome gives it a new id (a discarded tab, a prerendered page; its chat goes with it), `closed`
 * when it closes, or is gone already as the page opens. Returns a function that stops watching.
 */
export function watchFixedTab(
  tabId: number,
  { replaced, closed }: { replaced: (removedTabId: number, addedTabId: number) => void; closed: (tabId: number) => void },
  source: FixedTabSource = browser,
): () => void {
  let current = tabId;
  const onRemoved = (removedTabId: number) => {
    if (removedTabId === current) closed(removedTabId);
  };
  const onReplaced = (addedTabId: number, removedTabId: number) => {
    if (removedTabId !== current) return;
    current = addedTabId;
    replaced(removedTabId, addedTabId);
  };
  source.tabs.onRemoved.addListener(onRemoved);
  source.tabs.onReplaced.addListener(onReplaced);
  source.tabs.get(tabId).catch(() => {
    if (current === tabId) closed(tabId);
  });
  return () => {
    source.tabs.onRemoved.removeListener(onRemoved);
    source.tabs.onReplaced.removeListener(onReplaced);
  };
}
