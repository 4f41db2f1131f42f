import type { ToolOutput } from '@webmcp-agents/chat';
import { siteOfReport } from '../registry/report-site';
import { settleTabTools } from '../registry/settle-tab-tools';
import type { AgentSessionsBackground } from './agent-sessions-background';
import type { AgentWorld } from './agent-world';
import { isAllowableSite } from './approval-policy';
import type { EngineHost } from './engine-host';
import type { ModelPreviews } from './model-previews';

const defaultApprovalWaitMs = 5 * 60_000;

/** What the tabs' sessions share besides the background: the one engine, its previews, and the store of their conversations. */
export interface SessionsWorldParts {
  engines: EngineHost;
  previews: ModelPreviews;
  store: { urgent(): void; schedule(): void };
  /** Tells every panel the engine's status as its tab sees it. */
  publishEngineStatus(): void;
  /** A run in `tabId` began or ended waiting for the person's answer: the other tabs' panels say so. */
  askingChanged(tabId: number): void;
}

/**
 * The world every tab's session runs in: the background's settings, tabs and recorder, with the
 * engine every tab shares. One for all the sessions, so each run asks the same engine host.
 */
export function createSessionsWorld(background: AgentSessionsBackground, { engines, previews, store, publishEngineStatus, askingChanged }: SessionsWorldParts): AgentWorld {
  return {
    loadSettings: background.loadSettings,
    getTabTools: background.getTabTools,
    pageAddress: async (tabId) => (await background.topFrame?.(tabId).catch(() => undefined))?.url,
    pageLoading: async (tabId) => (await background.tabLoading?.(tabId).catch(() => false)) ?? false,
    settleTools: (tabId, signal, firstChangeMs) => settleTabTools(background.onTabToolsChanged, tabId, { signal, firstChangeMs }),
    executeTabTool: (...args): Promise<ToolOutput> => background.executeTabTool(...args),
    ...(background.readLoadedPageResult ? { readLoadedPageResult: background.readLoadedPageResult } : {}),
    // A run keeps its engine until it ends (`releaseEngine`), so another tab's new model waits for it.
    loadEngine: (settings, tabId, signal) =>
      engines
        .load(settings, signal, { hold: true, tabId })
        .then((loaded) => {
          // The model the server picked, where the settings left it to the server: a worker started later names it before it loads.
          if (!('error' in loaded) && settings.engine === 'openai' && settings.model === '') void background.serverModels?.remember(settings, loaded.modelId);
          return loaded;
        })
        .finally(() => previews.clear()),
    releaseEngine: (engine) => engines.release(engine),
    reportUsage: (tabId, usage) => engines.reportUsage(tabId, usage),
    reportEngineError: (tabId, message, hint, code) => engines.reportError(tabId, message, hint, code),
    scorerFor: background.scorerFor,
    isSiteAllowed: (tabId) => siteAllowed(background, tabId),
    allowSite: (tabId, site) => allowSite(background, tabId, site),
    isPrivateTab: background.isPrivateTab,
    recorder: background.recorder,
    keepAwake: () => background.keepAwake?.() ?? (() => {}),
    showAsking: (tabId, waits) => {
      background.showAsking?.(tabId, waits);
      // A tab waiting for this run says whether it waits for the person's answer here.
      publishEngineStatus();
      askingChanged(tabId);
    },
    approvalWaitMs: background.approvalWaitMs ?? defaultApprovalWaitMs,
    takeTab: (tabId) => background.tabDrivers?.take(tabId, 'agent') ?? { release: () => {} },
    // The conversation is saved after the trace, so it never shows a step the trace lacks.
    persist: (urgent) => (urgent ? void Promise.resolve(background.recorder.flush?.()).finally(store.urgent) : store.schedule()),
  };
}

async function siteAllowed(background: AgentSessionsBackground, tabId: number): Promise<boolean> {
  const [settings, tools] = await Promise.all([background.loadSettings(), background.getTabTools(tabId)]);
  const site = tools && siteOfReport(tools);
  return Boolean(site && settings.allowedSites.includes(site));
}

/** Allows `judged`, the site the question was asked on, where the tab is still on it: a page gone elsewhere as the person answered gets nothing. */
async function allowSite(background: AgentSessionsBackground, tabId: number, judged: string): Promise<void> {
  const tools = await background.getTabTools(tabId);
  const settings = await background.loadSettings();
  const site = tools && siteOfReport(tools);
  if (site === judged && isAllowableSite(site) && !settings.allowedSites.includes(site)) {
    // Added to the list as it is when written: another change may have come meanwhile.
    await background.updateSettings(({ allowedSites }) => (allowedSites.includes(site) ? {} : { allowedSites: [...allowedSites, site] }));
  }
}
