import { browser } from 'wxt/browser';
import type { OptionsPlace } from './options-place';

/**
 * Opens the extension's options page, at `place` where a notice names one: the tab already open
 * (in any window, brought to the front), else a new one.
 */
export function openOptions(place?: OptionsPlace): void {
  // A second press while the first is on its way opens no second tab.
  if (opening) return;
  opening = goToOptions(place)
    .catch(() => {
      // Only where there is no extension runtime (a page opened on its own): nothing to open.
    })
    .finally(() => (opening = undefined));
}

let opening: Promise<void> | undefined;

async function goToOptions(place: OptionsPlace | undefined): Promise<void> {
  const page = browser.runtime.getURL('/options.html');
  const url = place ? `${page}#${place}` : page;
  const open = await openOptionsTab(page).catch(() => undefined);
  try {
    if (open) {
      // Only the part after `#` changes: the page goes to the place without loading again.
      await browser.tabs.update(open.tabId, place ? { active: true, url } : { active: true });
      await browser.windows.update(open.windowId, { focused: true });
      return;
    }
  } catch {
    // The tab closed meanwhile: a new one opens below.
  }
  // A tab of the extension's own page opens in a window of the person's profile, even from a
  // private window's panel (the extension's pages live there).
  if (!place) return browser.runtime.openOptionsPage();
  await browser.tabs.create({ url });
}

/** The options page open in a tab, where one is (`openOptionsPage` finds one only in the current window). */
async function openOptionsTab(page: string): Promise<{ tabId: number; windowId: number } | undefined> {
  const contexts = await browser.runtime.getContexts({ contextTypes: ['TAB'] });
  const open = contexts.find((context) => context.documentUrl?.split(/[?#]/)[0] === page && context.tabId >= 0);
  return open && { tabId: open.tabId, windowId: open.windowId };
}
