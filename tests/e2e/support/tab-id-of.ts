import type { Page } from 'playwright-core';
import { currentServiceWorker } from './launch-extension';

/** The one extension API this helper calls inside the service worker. */
interface ChromeTabsGlobal {
  chrome: { tabs: { query(filter: object): Promise<Array<{ id?: number }>> } };
}

/**
 * The browser's tab id of a Playwright page, asked of the service worker: the page is brought to
 * the front and the worker reads the active tab (without the "tabs" permission it sees no URLs).
 */
export async function tabIdOf(page: Page): Promise<number> {
  await page.bringToFront();
  const worker = await currentServiceWorker(page.context());
  const tabId = await worker.evaluate(async () => {
    const { chrome } = globalThis as unknown as ChromeTabsGlobal;
    const [tab] = await chrome.tabs.query({ active: true, lastFocusedWindow: true });
    return tab?.id;
  });
  if (tabId === undefined) throw new Error('The service worker found no active tab.');
  return tabId;
}
