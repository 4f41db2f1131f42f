import { browser } from 'wxt/browser';
import type { OptionsPlace } from './options-place';

/**
 * Opens the extension's options page, at `place` where a notice names one: the tab already open
 * (in any window, brought to the front), else a new one.
 */
export function openOptions(place?: OptionsPlace): void {
  void goToOptions(place).catch(() => {
    // Only where there is no extension runtime (a page opened on its own): nothing to open.
  });
}

async function goToOptions(place: OptionsPlace | undefined): Promise<void> {
  const page = browser.runtime.getURL('/options.html');
  const url = place ? `${page}#${place}` : page;
  const open = await openOptionsTab(page);
  if (!open) {
    // Chrome's own way, which opens it in a window of the person's profile, even from a private one.
    if (!place) return browser.runtime.openOptionsPage();
    await browser.tabs.create({ url });
    return;
  }
  // Only the part after `#` changes: the page goes to the place without loading again.
  await browser.tabs.update(open.tabId, place ? { active: true, url } : { active: true });
  await browser.windows.update(open.windowId, { focused: true });
}

/** The options page open in a tab, where one is (`openOptionsPage` finds one only in the current window). */
async function openOptionsTab(page: string): Promise<{ tabId: number; windowId: number } | undefined> {
  const contexts = await browser.runtime.getContexts({ contextTypes: ['TAB'] });
  const open = contexts.find((context) => context.documentUrl?.split(/[?#]/)[0] === page && context.tabId >= 0);
  return open && { tabId: open.tabId, windowId: open.windowId };
}
