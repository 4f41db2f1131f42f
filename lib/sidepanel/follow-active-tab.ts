import { browser } from 'wxt/browser';

interface BrowserEvent<Listener> {
  addListener(listener: Listener): void;
  removeListener(listener: Listener): void;
}

type ActivatedListener = (info: { tabId: number; windowId: number }) => void;
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
  };
  windows: { getCurrent(): Promise<{ id?: number }> };
}

/**
 * Calls `onTab` with the active tab of the panel's window, again whenever another tab is activated
 * there, and when the active tab finishes loading a page (its session changes with the page).
 * Returns a function that stops following.
 */
export function followActiveTab(onTab: (tabId: number) => void, source: ActiveTabSource = browser): () => void {
  let windowId: number | undefined;
  let stopped = false;
  const onActivated: ActivatedListener = (info) => {
    if (!stopped && info.windowId === windowId) onTab(info.tabId);
  };
  const onUpdated: UpdatedListener = (tabId, change, tab) => {
    const loaded = change.status === 'complete' || change.url !== undefined;
    if (!stopped && loaded && tab.active && tab.windowId === windowId) onTab(tabId);
  };
  source.tabs.onActivated.addListener(onActivated);
  source.tabs.onUpdated.addListener(onUpdated);

  void (async () => {
    const window = await source.windows.getCurrent();
    if (window.id === undefined || stopped) return;
    windowId = window.id;
    const [tab] = await source.tabs.query({ active: true, windowId: window.id });
    if (tab?.id !== undefined && !stopped) onTab(tab.id);
  })().catch(() => {
    // No window (the panel is closing): there is nothing to follow.
  });

  return () => {
    stopped = true;
    source.tabs.onActivated.removeListener(onActivated);
    source.tabs.onUpdated.removeListener(onUpdated);
  };
}
