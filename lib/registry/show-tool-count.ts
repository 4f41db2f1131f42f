import { browser } from 'wxt/browser';
import type { TabTools } from './types';

/** The action's title, as the manifest gives it (`wxt.config.ts`). */
const defaultTitle = 'Open the WebMCP agent';

// What each tab's badge says: its tool count, or that a call waits for the person's answer there.
const toolCounts = new Map<number, number>();
const asking = new Set<number>();

/** The toolbar badge shows how many tools the tab offers (nothing when none). */
export function showToolCount(tabId: number, tabTools: TabTools | undefined): void {
  const count = tabTools?.tools.length ?? 0;
  if (count === 0) toolCounts.delete(tabId);
  else toolCounts.set(tabId, count);
  showBadge(tabId);
}

/**
 * While a call waits for the person's yes or no, the tab's badge says so ("?", in red) instead of
 * its tool count: they may have gone on to another tab, and the panel follows them there.
 */
export function showAsking(tabId: number, waits: boolean): void {
  if (waits) asking.add(tabId);
  else asking.delete(tabId);
  showBadge(tabId);
}

function showBadge(tabId: number): void {
  const count = toolCounts.get(tabId) ?? 0;
  const waits = asking.has(tabId);
  const text = waits ? '?' : count === 0 ? '' : count > 999 ? '999+' : String(count);
  // The tab may have closed meanwhile: nothing to show then.
  browser.action.setBadgeText({ tabId, text }).catch(() => undefined);
  if (text) browser.action.setBadgeBackgroundColor({ tabId, color: waits ? '#c5221f' : '#1a73e8' }).catch(() => undefined);
  browser.action.setTitle({ tabId, title: waits ? 'The WebMCP agent waits for your answer in this tab' : defaultTitle }).catch(() => undefined);
}
