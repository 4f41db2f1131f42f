import { browser } from 'wxt/browser';
import type { BrowserEvent } from '../service-worker/tab-events';

type ActivatedListener = (info: { tabId: number; windowId: number }) => void;
export type ReplacedListener = (addedTabId: number, removedTabId: number) => void;
type UpdatedListener = (
  tabId: number,
  change: { status?: string; url?: string },
  tab: { windowId: number; active: boolean },
) => void;

/** The slice of the tabs and windows APIs the panel follows its tab with. */
export interface ActiveTabSource {
  tabs: {
    query(query: { active: true; windowId: number }): Promise<Array<{ id?: number }>>;
    onActivated: BrowserEvent<ActivatedListener>;
    onUpdated: BrowserEvent<UpdatedListener>;
    onReplaced: BrowserEvent<ReplacedListener>;
  };
  windows: { getCurrent(): Promise<{ id?: number }> };
}

/**
 * Calls `turned` with the active tab of the panel's window, again whenever another tab is activated
 * there, and when another tab is found active as its page loads (an activation missed); `replaced`
 * whenever Chrome gives a tab a new id (a tab discarded to save memory, a prerendered page), the one
 * followed or one left, which is the same tab still. Returns a function that stops following.
 */
export function followActiveTab(
  { turned, replaced }: { turned: (tabId: number) => void; replaced: (removedTabId: number, addedTabId: number) => void },
  source: ActiveTabSource = browser,
): () => void {
  let windowId: number | undefined;
  let followed: number | undefined;
  let stopped = false;
  const follow = (tabId: number): void => {
    followed = tabId;
    turned(tabId);
  };
  const onActivated: ActivatedListener = (info) => {
    if (!stopped && info.windowId === windowId) follow(info.tabId);
  };
  const onUpdated: UpdatedListener = (tabId, change, tab) => {
    // Not for the tab followed already: Chrome says "loading", then "complete", for an address
    // the page rewrites itself too (a hash, history.replaceState, on every scroll for some), with
    // no address to tell them apart, and asking each time would wake the worker a resting panel
    // lets sleep. A new document there is the background's to tell: it wakes the panel with a
    // snapshot once the page has loaded, and whenever its tools change.
    const loaded = change.status === 'complete' || change.url !== undefined;
    if (!stopped && loaded && tab.active && tab.windowId === windowId && tabId !== followed) follow(tabId);
  };
  const onReplaced: ReplacedListener = (addedTabId, removedTabId) => {
    if (stopped) return;
    if (removedTabId === followed) followed = addedTabId;
    replaced(removedTabId, addedTabId);
  };
  source.tabs.onActivated.addListener(onActivated);
  source.tabs.onUpdated.addListener(onUpdated);
  source.tabs.onReplaced.addListener(onReplaced);

  void (async () => {
    const window = await source.windows.getCurrent();
    if (window.id === undefined || stopped) return;
    windowId = window.id;
    const [tab] = await source.tabs.query({ active: true, windowId: window.id });
    // A tab activated while the question went on is newer than its answer.
    if (tab?.id !== undefined && !stopped && followed === undefined) follow(tab.id);
  })().catch(() => {
    // No window (the panel is closing): there is nothing to follow.
  });

  return () => {
    stopped = true;
    source.tabs.onActivated.removeListener(onActivated);
    source.tabs.onUpdated.removeListener(onUpdated);
    source.tabs.onReplaced.removeListener(onReplaced);
  };
}
