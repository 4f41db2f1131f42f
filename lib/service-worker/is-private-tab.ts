import { browser } from 'wxt/browser';

/**
 * Whether a tab is in a private (incognito) window, where nothing of a visit may outlast the
 * window: no trace, no site written into the settings. Chrome tells a tab's `incognito` without
 * the `tabs` permission. A tab that cannot be read (closed meanwhile) counts as private: taken for
 * an ordinary tab by mistake, a private visit would be kept, while the other mistake only leaves
 * a run of a tab that is gone unrecorded.
 */
export async function isPrivateTab(tabId: number): Promise<boolean> {
  try {
    return (await browser.tabs.get(tabId)).incognito;
  } catch {
    return true;
  }
}
