import { browser } from 'wxt/browser';

/**
 * Brings a tab to the front, and its window, with the side panel open there: the panel follows its
 * window's active tab, so it then shows that tab's run (and the question it may be waiting on).
 * Call it in the person's click: Chrome opens a panel only in answer to one.
 */
export async function showTab(tabId: number): Promise<void> {
  openPanelIn(tabId);
  try {
    const tab = await browser.tabs.update(tabId, { active: true });
    if (tab?.windowId !== undefined) await browser.windows.update(tab.windowId, { focused: true });
  } catch {
    // The tab closed meanwhile: its run ended with it, and so does the wait this panel showed.
  }
}

/**
 * Chrome keeps a side panel open per window: a tab of another window has none until it is opened,
 * before any await, while the click still counts. Where one is open already nothing changes; a
 * Chrome that refuses, or has no `sidePanel.open`, leaves the tab shown without.
 */
function openPanelIn(tabId: number): void {
  try {
    browser.sidePanel?.open?.({ tabId }).catch(() => {});
  } catch {
    // Refused at once: the tab is still brought forward.
  }
}
