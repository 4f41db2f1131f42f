import { browser } from 'wxt/browser';
import type { TabTools } from './types';

/** The toolbar badge shows how many tools the tab offers (nothing when none). */
export function showToolCount(tabId: number, tabTools: TabTools | undefined): void {
  const count = tabTools?.tools.length ?? 0;
  const text = count === 0 ? '' : count > 999 ? '999+' : String(count);
  // The tab may have closed meanwhile: nothing to show then.
  browser.action.setBadgeText({ tabId, text }).catch(() => undefined);
  if (count > 0) browser.action.setBadgeBackgroundColor({ tabId, color: '#1a73e8' }).catch(() => undefined);
}
