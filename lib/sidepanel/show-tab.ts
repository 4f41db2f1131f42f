import { browser } from 'wxt/browser';

/**
 * Brings a tab to the front, and its window: the panel follows its window's active tab, so it then
 * shows that tab's run (and the question it may be waiting on).
 */
export async function showTab(tabId: number): Promise<void> {
  try {
    const tab = await browser.tabs.update(tabId, { active: true });
    if (tab?.windowId !== undefined) await browser.windows.update(tab.windowId, { focused: true });
  } catch {
    // The tab closed meanwhile: its run ended with it, and so does the wait this panel showed.
  }
}
