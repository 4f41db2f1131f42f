import { browser } from 'wxt/browser';
import { originOf } from '../text/origin-of';
import { inspectorPort } from '../messaging/inspector-protocol';
import { acceptChannels } from '../messaging/port-channel';
import { handleBackgroundMessages, type MessageSender } from '../messaging/runtime-messaging';
import { requestTabTools } from './request-tab-tools';
import type { ReportSender } from './report-sender';
import type { TabToolRegistry } from './tab-tool-registry';
import { serveInspector } from './serve-inspector';
import { resetTitles, showAgentOffSites, showToolCount } from './show-tool-count';
import { followSettings } from '../settings';
import type { BackgroundTabEvents, TabEvents } from '../service-worker/tab-events';
import { openTabIds } from '../service-worker/open-tab-ids';
import { namedDocument } from '../service-worker/named-document';

/**
 * Wires the registry into the background: frames report and leave, tabs close, inspectors
 * connect, the badge follows. Listeners are added at once (a waking worker must hear the event
 * that woke it); then the saved tabs are read back and their frames asked to report again.
 * Tab events are heard while the registry keeps a tab (see `TabEvents`): a page that reports tools
 * starts the worker itself. A tab whose page took back its tools is kept (the panel shows its
 * address) until it closes or loads another page.
 */
export function wireToolRegistry(registry: TabToolRegistry, { navigations, tabRemovals }: BackgroundTabEvents): void {
  const both: TabEvents[] = [navigations, tabRemovals];
  handleBackgroundMessages({
    'tools-report': async (report, sender) => {
      const frame = reportSender(sender);
      if (!frame) return null;
      for (const events of both) events.needed();
      await registry.report(frame, report);
      // A check that read the registry before this report was kept is out of date.
      for (const events of both) events.needed();
      return null;
    },
    'frame-gone': async (_data, sender) => {
      if (sender.tab?.id !== undefined && sender.frameId !== undefined) await registry.frameGone(sender.tab.id, sender.frameId, sender.documentId);
      return null;
    },
  });
  navigations.listen(
    browser.webNavigation.onCommitted,
    ({ tabId, frameId, timeStamp, documentId }) => void registry.documentCommitted(tabId, frameId, timeStamp, documentId),
  );
  // A page that fails to load gets Chrome's error page, a new document Chrome tells no onCommitted
  // of: the tools of the page before go with it. A navigation cancelled before it committed (a
  // download, a 204 answer) names no document, and the page stays.
  navigations.listen(browser.webNavigation.onErrorOccurred, ({ tabId, frameId, timeStamp, documentId }) => {
    const document = namedDocument(documentId);
    if (document) void registry.documentCommitted(tabId, frameId, timeStamp, document);
  });
  tabRemovals.listen(browser.tabs.onRemoved, (tabId) => void registry.removeTab(tabId));
  tabRemovals.listen(browser.tabs.onReplaced, (_addedTabId, removedTabId) => void registry.removeTab(removedTabId));
  for (const events of both) events.neededWhile(async () => (await registry.tabIds()).length > 0);
  registry.onChange(showToolCount);
  // The last tab kept may have left.
  registry.onChange(() => both.forEach((events) => events.recheck()));
  void resetTitles().catch(() => undefined);
  followSettings((settings) => showAgentOffSites(settings.disabledSites));
  acceptChannels(inspectorPort, (channel) => serveInspector(registry, channel));
  rereadSavedTabs(registry).catch((error: unknown) => console.error('Reading the saved tabs’ tools again failed:', error));
}

/** Longest tab title kept: enough to tell tabs apart in a list. */
const tabTitleLimit = 200;

/** Only content scripts (in a tab, in a frame) report tools, and only from the page the tab shows. */
function reportSender(sender: MessageSender): ReportSender | undefined {
  const tabId = sender.tab?.id;
  const lifecycle = (sender as { documentLifecycle?: string }).documentLifecycle;
  if (lifecycle !== undefined && lifecycle !== 'active') return undefined;
  if (tabId === undefined || sender.frameId === undefined || !sender.url) return undefined;
  const origin = sender.origin ?? originOf(sender.url) ?? 'null';
  return {
    tabId,
    frameId: sender.frameId,
    url: sender.url,
    origin,
    ...(sender.tab?.url ? { tabUrl: sender.tab.url } : {}),
    // The browser tells the tab's title to its content script's messages only (the extension asks
    // for no "tabs" permission): kept for naming the tab. A page's words, so never more than a line.
    ...(sender.tab?.title ? { tabTitle: sender.tab.title.slice(0, tabTitleLimit) } : {}),
    ...(sender.documentId ? { documentId: sender.documentId } : {}),
  };
}

async function rereadSavedTabs(registry: TabToolRegistry): Promise<void> {
  const saved = await registry.tabIds();
  if (saved.length === 0) return;
  const open = new Set(await openTabIds());
  for (const tabId of saved) {
    if (!open.has(tabId)) {
      await registry.removeTab(tabId);
      continue;
    }
    requestTabTools(tabId);
  }
}
