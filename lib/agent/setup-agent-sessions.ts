import { browser } from 'wxt/browser';
import { executeTabTool, lookAgainInTab, getTabTools, onTabToolsChanged, pageScriptAnswers, readLoadedPageResult, showAsking } from '../registry';
import { loadSettings, updateSettings, watchSettings } from '../settings';
import { namedDocument } from '../service-worker/named-document';
import type { TraceRecorder } from '../traces/trace-recorder';
import { tellExtensionPages } from '../messaging/background-broadcast';
import { lazySchema } from '../messaging/lazy-schema';
import { acceptChannels, acceptNamedChannels } from '../messaging/port-channel';
import { z } from 'zod';
import { agentPortName, type PanelWake, type SessionMessage } from './agent-port-protocol';
import { createAgentSessions } from './agent-sessions';
import { navigationByPerson } from './navigation-by-person';
import { modelLoadPort, modelStatusPort, modelTrialPort, type ModelLoading } from './model-load-port';
import { serveModelLoad } from './serve-model-load';
import { serveModelStatus, type FollowedStatus } from './serve-model-status';
import { keepServiceWorkerAwake } from '../service-worker/keep-awake';
import { isPrivateTab } from '../service-worker/is-private-tab';
import { openTabIds } from '../service-worker/open-tab-ids';
import { previewPromptApi } from '../engines/prompt-api/prompt-api-engine';
import { previewWebLlm } from '../engines/webllm/preview-webllm';
import { scorerFor } from './scorer-for';
import { createServerModelMemory } from './server-model-memory';
import type { TabDrivers } from '../service-worker/tab-drivers';
import { createTabsWithChatsNote, forgetTabsWithChats, takeTabsWithChats } from './chats-across-update';
import { draftPrefix, storedDraftsOfTabs } from './stored-drafts';
import { hearModelsChanged } from './models-changed-message';
import type { BackgroundTabEvents, TabEvents } from '../service-worker/tab-events';

/**
 * Wires the agent sessions to the extension: panel ports, the tool registry, tab life.
 * `tabDrivers`: shared with the trace viewer's replays, so a run never starts in a tab a replay drives.
 * Navigations are heard while a panel is open or a run goes on; tab removals, while a tab also has a
 * chat or a draft (see `BackgroundTabEvents`).
 */
export function setupAgentSessions(recorder: TraceRecorder, tabDrivers: TabDrivers, tabEvents: BackgroundTabEvents): void {
  const { navigations, tabRemovals } = tabEvents;
  const both: TabEvents[] = [navigations, tabRemovals];
  const sessions = createAgentSessions({
    loadSettings,
    updateSettings,
    getTabTools,
    onTabToolsChanged: (listener) => onTabToolsChanged((tabId) => listener(tabId)),
    pageAnswers: pageScriptAnswers,
    askPageAgain: (tabId) => void lookAgainInTab(tabId).catch(() => undefined),
    topFrame: async (tabId) => (await browser.webNavigation.getFrame({ tabId, frameId: 0 })) ?? (await ownPageIn(tabId)),
    tabLoading: async (tabId) => (await browser.tabs.get(tabId)).status === 'loading',
    tabAsleep: async (tabId) => (await browser.tabs.get(tabId)).discarded,
    previewWebLlm: (model) => previewWebLlm(model),
    previewPromptApi: () => previewPromptApi(),
    serverModels: createServerModelMemory(browser.storage.session),
    reloadTab: (tabId) => browser.tabs.reload(tabId),
    isPrivateTab,
    executeTabTool,
    readLoadedPageResult: (tabId, documentId) => readLoadedPageResult(tabId, { documentId }),
    showAsking,
    scorerFor,
    recorder,
    // A run's end may take the last reason to hear navigations with it: they are asked again then.
    keepAwake: () => {
      const release = keepServiceWorkerAwake();
      return () => {
        release();
        navigations.recheck();
      };
    },
    wakePanels: createPanelWaker(),
    noteTabsWithChats: createTabsWithChatsNote(isPrivateTab),
    tabDrivers,
  });
  // Only the extension's own pages may drive the agent; never a content script or a page.
  // The sessions check every message themselves and answer a malformed one: no second check here.
  acceptNamedChannels<SessionMessage, unknown>(agentPortName, lazySchema(() => z.unknown()), (channel) => {
    for (const events of both) events.needed();
    channel.onDisconnect(() => both.forEach((events) => events.recheck()));
    sessions.connect({
      postMessage: (message) => channel.post(message),
      onMessage: (listener) => channel.onMessage(listener),
      onDisconnect: (listener) => channel.onDisconnect(listener),
    });
  });
  // The options page's "Download now" and WebLLM's "Try it": each goes on while its port is open.
  acceptChannels(modelLoadPort, (channel) => void serveModelLoad(channel, sessions.loadForOptions));
  acceptChannels(modelTrialPort, (channel) => void serveModelLoad(channel, sessions.loadForOptions, { trial: true }));
  // The options page shows a load another page began, as it goes.
  acceptChannels(modelStatusPort, (channel) => serveModelStatus(channel, sessions.engineStatus));
  tellLoadsBeginning(sessions.engineStatus);
  onTabToolsChanged((tabId: number) => sessions.toolsChanged(tabId));
  watchSettings((settings) => sessions.settingsChanged(settings));
  hearModelsChanged(() => sessions.modelsChanged());
  hearNavigations(sessions, navigations);
  navigations.neededWhile(() => sessions.needsNavigations());
  navigations.neededWhile(panelPageOpen);
  // The panel keeps each tab's unsent request (see the panel's `keepDraftsStored`): it goes with its tab.
  const drafts = storedDraftsOfTabs(browser.storage.session);
  void drafts.keepOnlyOpenTabs(openTabIds).catch(() => {});
  tabRemovals.listen(browser.tabs.onRemoved, (tabId) => {
    sessions.tabClosed(tabId);
    void drafts.tabClosed(tabId).catch(() => {});
  });
  tabRemovals.listen(browser.tabs.onReplaced, (addedTabId, removedTabId) => {
    sessions.tabReplaced(removedTabId, addedTabId).catch((error: unknown) => console.error('Moving a chat to its tab’s new id failed:', error));
    void drafts.tabReplaced(removedTabId, addedTabId).catch(() => {});
  });
  tabRemovals.neededWhile(() => sessions.keepTabs());
  tabRemovals.neededWhile(panelPageOpen);
  tabRemovals.neededWhile(() => anyDraft(browser.storage.session));
  // Chrome cleared every chat with session storage: the tabs still open that had one say so.
  browser.runtime.onInstalled.addListener(({ reason, previousVersion }) => {
    if (reason !== 'update') return;
    const cause = previousVersion === browser.runtime.getManifest().version ? 'reload' : 'update';
    // The tabs told so keep a note: their panels say it until the tab closes.
    tabRemovals.needed();
    void (async () => {
      const [hadChats, open] = await Promise.all([takeTabsWithChats(), openTabIds()]);
      const openIds = new Set(open);
      await sessions.chatsEnded(hadChats.filter((tabId) => openIds.has(tabId)), cause);
    })()
      .catch(() => {})
      .finally(() => tabRemovals.recheck());
  });
  // Tab numbers of the last browser session name nothing now.
  browser.runtime.onStartup.addListener(() => void forgetTabsWithChats().catch(() => {}));
}

/** Tells the extension's pages as each load of a model begins (see `modelLoadingSchema`). */
function tellLoadsBeginning(engine: FollowedStatus): void {
  let loading = false;
  engine.watchStatus(() => {
    const was = loading;
    loading = engine.status().state === 'loading';
    if (loading && !was) tellExtensionPages({ type: 'model-loading' } satisfies ModelLoading);
  });
}

/** Tells the sessions of their tabs' top-frame navigations. */
function hearNavigations(sessions: Pick<ReturnType<typeof createAgentSessions>, 'navigated' | 'pageLoaded'>, navigations: TabEvents): void {
  // A new document in the tab ends its run: the tools the model was using are gone. Same-document
  // navigations (a hash or history change in a single-page app) keep the page and its tools.
  navigations.listen(browser.webNavigation.onCommitted, (details) => {
    if (details.frameId === 0) sessions.navigated(details.tabId, details.documentId, navigationByPerson(details));
  });
  navigations.listen(browser.webNavigation.onCompleted, ({ tabId, frameId }) => {
    if (frameId === 0) sessions.pageLoaded(tabId);
  });
  // A page that fails to load (offline, a mistyped host) gets Chrome's error page and no onCompleted:
  // its panels must still stop describing the page before. That error page is a new document, and
  // Chrome tells no onCommitted of it, so it ends a run here. A navigation cancelled before it
  // committed (a download, a 204 answer) names no document: the page and its run stay.
  navigations.listen(browser.webNavigation.onErrorOccurred, ({ tabId, frameId, documentId }) => {
    if (frameId !== 0) return;
    const document = namedDocument(documentId);
    if (document) sessions.navigated(tabId, document);
    sessions.pageLoaded(tabId);
  });
}

/**
 * Whether the side panel is open somewhere (or its page shown in a tab): resting, it waits for the
 * worker to tell it that its tab loaded a new page.
 */
async function panelPageOpen(): Promise<boolean> {
  const panelPage = browser.runtime.getURL('/sidepanel.html');
  const contexts = await browser.runtime.getContexts({ contextTypes: ['SIDE_PANEL', 'TAB'] });
  return contexts.some((context) => context.contextType === 'SIDE_PANEL' || context.documentUrl?.split(/[?#]/)[0] === panelPage);
}

/**
 * Whether a tab keeps a request typed and not sent. A Chrome older than 130 keeps none (it cannot
 * list storage's keys, see `storedDraftsBudget`).
 */
async function anyDraft(area: { getKeys?: () => Promise<string[]> }): Promise<boolean> {
  if (typeof area.getKeys !== 'function') return false;
  return (await area.getKeys()).some((key) => key.startsWith(draftPrefix));
}

/**
 * The extension's own page a tab shows (its options, its trace viewer), of which webNavigation
 * tells nothing: its address says no extension works there. One just opened (from the panel's
 * Trace or Options, as the panel follows the tab there) has no document running yet: the tab says
 * where it goes, the extension's own addresses being the ones it is told without the tabs permission.
 */
async function ownPageIn(tabId: number): Promise<{ url: string } | null> {
  const [own] = await browser.runtime.getContexts({ contextTypes: ['TAB'], tabIds: [tabId] }).catch(() => []);
  if (own?.documentUrl) return { url: own.documentUrl };
  const tab = await browser.tabs.get(tabId).catch(() => undefined);
  const address = tab?.pendingUrl ?? tab?.url;
  return address?.startsWith(browser.runtime.getURL('/')) ? { url: address } : null;
}

/**
 * Sends `PanelWake` to the extension's pages, at most once a second for each tab: a resting panel
 * needs one word to connect, and the snapshot it then gets is built after every change since.
 */
function createPanelWaker(): (tabId?: number) => void {
  const lastSent = new Map<number | undefined, number>();
  return (tabId) => {
    const now = Date.now();
    if (now - (lastSent.get(tabId) ?? Number.NEGATIVE_INFINITY) < 1_000) return;
    if (lastSent.size >= 1_000) lastSent.clear();
    lastSent.set(tabId, now);
    const message: PanelWake = tabId === undefined ? { type: 'panel-wake' } : { type: 'panel-wake', tabId };
    tellExtensionPages(message);
  };
}
