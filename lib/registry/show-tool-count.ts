import { browser } from 'wxt/browser';
import { agentOffOn } from '../settings';
import { plural } from '../text/plural';
import { siteOfReport } from './report-site';
import type { TabTools } from './types';


// What each tab's badge says: its tool count, or that a call waits for the person's answer there;
// nothing on a site where the agent is off, whose tools no model is shown. The icon's title says
// the same in words.
const tabs = new Map<number, { count: number; origin: string }>();
const asking = new Set<number>();
let offSites: readonly string[] = [];

/**
 * The toolbar badge shows how many tools the tab offers (nothing when none): by name, as the
 * panel and the model count them, a tool two frames offer once (see `toolsForAgent`).
 */
export function showToolCount(tabId: number, tabTools: TabTools | undefined): void {
  const count = new Set(tabTools?.tools.map((tool) => tool.name)).size;
  if (count === 0) tabs.delete(tabId);
  else tabs.set(tabId, { count, origin: siteOfReport(tabTools!) });
  showBadge(tabId);
}

/**
 * While a call waits for the person's yes or no, the tab's badge says so ("?", in red) instead of
 * its tool count: they may have gone on to another tab, and the panel follows them there.
 */
export function showAsking(tabId: number, waits: boolean): void {
  if (waits && !asking.has(tabId)) {
    asking.add(tabId);
    keepTitledTabs();
  } else if (!waits && asking.delete(tabId)) {
    keepTitledTabs();
  }
  showBadge(tabId);
}

/** Where the tabs whose title says a call waits are kept, for the next worker to put back. */
const titledTabsKey = 'titledTabs';

function keepTitledTabs(): void {
  browser.storage.session.set({ [titledTabsKey]: [...asking] }).catch(() => undefined);
}

/**
 * A worker that starts knows of no call waiting (a run does not outlive its worker), but Chrome
 * keeps a tab's title until the tab closes: a title an earlier worker left saying a call waits
 * there is put back to the manifest's. Only those tabs are touched (kept in session storage as
 * they are marked): a worker starts often, and a browser may have hundreds of tabs.
 */
export async function resetTitles(): Promise<void> {
  const stored = (await browser.storage.session.get(titledTabsKey))[titledTabsKey];
  const marked = Array.isArray(stored) ? stored.filter((id): id is number => Number.isInteger(id)) : [];
  if (marked.length === 0) return;
  const title = defaultTitle();
  for (const tabId of marked) if (!asking.has(tabId)) setTitle(tabId, title);
  keepTitledTabs();
}

/** The sites where the person turned the agent off changed: their tabs count no tools. */
export function showAgentOffSites(disabledSites: readonly string[]): void {
  offSites = disabledSites;
  for (const tabId of tabs.keys()) showBadge(tabId);
}

/** The badge, and the title that says what it means when the pointer rests on the icon. */
function showBadge(tabId: number): void {
  const tab = tabs.get(tabId);
  const off = tab !== undefined && agentOffOn(offSites, tab.origin);
  const count = tab && !off ? tab.count : 0;
  const waits = asking.has(tabId);
  const text = waits ? '?' : count === 0 ? '' : count > 999 ? '999+' : String(count);
  // The tab may have closed meanwhile: nothing to show then.
  browser.action.setBadgeText({ tabId, text }).catch(() => undefined);
  if (text) browser.action.setBadgeBackgroundColor({ tabId, color: waits ? '#c5221f' : '#1a73e8' }).catch(() => undefined);
  if (waits) setTitle(tabId, 'The WebMCP agent waits for your answer in this tab');
  else if (count > 0) setTitle(tabId, `${defaultTitle()}: ${plural(count, 'WebMCP tool')} on this page`);
  else setTitle(tabId, off ? `${defaultTitle()} (turned off on this site)` : defaultTitle());
}

function setTitle(tabId: number, title: string): void {
  browser.action.setTitle({ tabId, title }).catch(() => undefined);
}

/** The action's title as the manifest gives it (`wxt.config.ts`), put back once nothing waits. */
function defaultTitle(): string {
  return browser.runtime.getManifest().action?.default_title ?? '';
}
