import { browser } from 'wxt/browser';
import { scorerFor } from '../agent/scorer-for';
import { keepServiceWorkerAwake } from '../service-worker/keep-awake';
import { isPrivateTab } from '../service-worker/is-private-tab';
import { openTabIds } from '../service-worker/open-tab-ids';
import { executeTabTool, getTabTools, onTabToolsChanged } from '../registry';
import { loadSettings } from '../settings';
import { getTraceStore } from './get-trace-store';
import { announceReplayTabsChanged } from './viewer-news';
import { settleTabTools } from '../registry/settle-tab-tools';
import { answerExtensionPages } from '../messaging/extension-page-requests';
import { acceptNamedChannels } from '../messaging/port-channel';
import {
  isTraceMessage,
  replayClientMessageSchema,
  traceReplayPortName,
  type ReplayClientMessage,
  type ReplayServerMessage,
} from './trace-protocol';
import { createTraceService } from './trace-service';
import type { TabDrivers } from '../service-worker/tab-drivers';

/**
 * Background: answers the trace viewer's requests and runs its replays in a tab, through the
 * tool registry. Only the extension's own pages are answered, never a page or a content script.
 * `tabDrivers`: shared with the agent, so a replay never runs in a tab where the agent does.
 */
export function setupTraceService(tabDrivers: TabDrivers): void {
  const service = createTraceService({
    store: getTraceStore,
    getTabTools,
    executeTabTool,
    settleTools: (tabId, signal) => settleTabTools((listener) => onTabToolsChanged((changed) => listener(changed)), tabId, { signal }),
    listTabIds: openTabIds,
    pageAddress: async (tabId) => (await browser.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => undefined))?.url,
    isPrivateTab,
    scorer: async () => scorerFor(await loadSettings()),
    toolTimeoutMs: async () => (await loadSettings()).toolTimeoutSeconds * 1000,
    consent: async () => {
      const settings = await loadSettings();
      return { askEveryCall: settings.confirmation === 'ask-always', disabledSites: settings.disabledSites };
    },
    keepAwake: keepServiceWorkerAwake,
    tabDrivers,
  });
  answerExtensionPages(isTraceMessage, (message) => service.handle(message), {
    ok: false,
    error: { name: 'TraceAccessError', message: 'Only the extension may read traces.' },
  });

  acceptNamedChannels<ReplayServerMessage, ReplayClientMessage>(traceReplayPortName, replayClientMessageSchema, (channel) =>
    service.connectReplay({
      post: (message) => channel.post(message),
      onMessage: (listener) => channel.onMessage(listener),
      onDisconnect: (listener) => channel.onDisconnect(listener),
    }),
  );
  // An open viewer's list of tabs to replay in follows the pages as they load, leave and close.
  onTabToolsChanged(() => announceReplayTabsChanged());
}
