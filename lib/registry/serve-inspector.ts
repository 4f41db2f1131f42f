import { browser } from 'wxt/browser';
import type { Channel } from '../messaging/port-channel';
import { errorMessage } from '../messaging/error-message';
import type { InspectorEvent, InspectorRequest } from '../messaging/inspector-protocol';
import { lookAgainInTab } from './look-again-in-tab';
import { runTabTool } from './execute-tab-tool';
import { readLoadedPageResult } from './read-loaded-page-result';
import type { TabToolRegistry } from './tab-tool-registry';
import type { ToolRun } from './tool-output-from-result';
import type { PageResult } from '../webmcp/read-page-result';
import { originOf } from '../text/origin-of';
import { keepServiceWorkerAwake } from '../service-worker/keep-awake';
import { pageScriptAnswers } from './page-script-answers';
import { closedPageKind } from './closed-page-kind';
import type { TabTools } from './types';

export interface InspectorServices {
  /** The result the page a form loaded in a tab's top frame gives; by default, `readLoadedPageResult`. */
  readLoadedPageResult?: (tabId: number, formDocumentId: string) => Promise<PageResult | undefined>;
  /** Holds the service worker awake until the function it returns is called; by default, `keepServiceWorkerAwake`. */
  keepAwake?: () => () => void;
  /** Whether the extension's content script runs in the tab's page; by default, `pageScriptAnswers`. */
  pageScriptAnswers?: (tabId: number) => Promise<boolean>;
}

const defaultServices: Required<InspectorServices> = {
  readLoadedPageResult: (tabId, formDocumentId) => readLoadedPageResult(tabId, { formDocumentId }),
  keepAwake: keepServiceWorkerAwake,
  pageScriptAnswers: async (tabId) => (await closedToExtensions(tabId)) || pageScriptAnswers(tabId),
};

/**
 * Whether the tab's page has an address that keeps every extension out (a browser page,
 * about:blank, data:, and any file, since the address cannot tell whether the person allowed
 * files): no reload opens it, so the inspector takes it as answering, and asks for none.
 */
async function closedToExtensions(tabId: number): Promise<boolean> {
  const url = (await browser.webNavigation.getFrame({ tabId, frameId: 0 }).catch(() => null))?.url;
  return url !== undefined && closedPageKind(url) !== undefined;
}

/** What the inspector's runs by hand share. */
interface HandRuns {
  registry: TabToolRegistry;
  channel: Channel<InspectorEvent, InspectorRequest>;
  services: Required<InspectorServices>;
  /** The runs waiting for their tool, by the panel's id for each. */
  running: Map<string, AbortController>;
}

/**
 * One devtools inspector: it watches one tab (the tools now, then every change) and runs tools
 * there by hand. Closing the inspector stops its runs. A form run that posts to its result page
 * is followed by what that page gives, as the agent's card shows it.
 */
export function serveInspector(
  registry: TabToolRegistry,
  channel: Channel<InspectorEvent, InspectorRequest>,
  services: InspectorServices = {},
): void {
  const runs: HandRuns = { registry, channel, services: { ...defaultServices, ...services }, running: new Map() };
  let inspectedTabId: number | undefined;
  // Only the answer about the latest listing is told: an earlier page's may come after it.
  let listings = 0;
  const postListing = (tabId: number, tabTools: TabTools | undefined) => {
    channel.post({ type: 'tab-tools', tabId, tabTools: tabTools ?? null });
    const listing = (listings += 1);
    // A tab the registry holds nothing of may show a page the extension never reached (the panel
    // then says to reload it); one it holds a listing of, even an empty one, reported it.
    if (tabTools) return;
    void runs.services.pageScriptAnswers(tabId).then(
      (answers) => {
        if (listing === listings && inspectedTabId === tabId) channel.post({ type: 'page-script', tabId, answers });
      },
      () => {},
    );
  };
  const stopWatching = registry.onChange((tabId, tabTools) => {
    if (tabId === inspectedTabId) postListing(tabId, tabTools);
  });
  channel.onMessage((request) => {
    switch (request.type) {
      case 'inspect':
        inspectedTabId = request.tabId;
        lookAgainInTab(registry, request.tabId).catch(() => undefined);
        void registry.get(request.tabId).then((tabTools) => {
          if (inspectedTabId === request.tabId) postListing(request.tabId, tabTools);
        });
        return;
      case 'run-tool':
        if (inspectedTabId !== undefined) void runByHand(runs, inspectedTabId, request);
        return;
      case 'cancel-run':
        runs.running.get(request.runId)?.abort(new DOMException('Stopped by hand.', 'AbortError'));
        return;
    }
  });
  channel.onDisconnect(() => {
    stopWatching();
    for (const controller of runs.running.values()) controller.abort(new DOMException('The inspector closed.', 'AbortError'));
  });
}

/**
 * Runs a tool as the inspector asked and posts its result. The service worker is held awake until
 * the result is posted: a tool may take minutes, and no message comes meanwhile to keep it.
 */
async function runByHand({ registry, channel, services, running }: HandRuns, tabId: number, request: Extract<InspectorRequest, { type: 'run-tool' }>): Promise<void> {
  const controller = new AbortController();
  running.set(request.runId, controller);
  const release = services.keepAwake();
  try {
    const started = performance.now();
    const tool = (await registry.get(tabId))?.tools.find(
      (candidate) => candidate.name === request.name && candidate.frameId === (request.frameId ?? candidate.frameId),
    );
    // Stopped, or a call that could not be sent at all (arguments nested past what a message carries): said apart.
    const { output, ...besideOutput } = await runTabTool(registry, tabId, request.name, request.args, runOptions(request, controller.signal)).catch(
      (error: unknown): ToolRun => ({
        output: { text: controller.signal.aborted ? 'Stopped before the tool answered.' : `The call did not reach the tool: ${errorMessage(error)}`, isError: true },
      }),
    );
    // Only the inspector checks a result (its structuredContent, or that it was left out) against the tool's output schema, and only where it has one.
    const structured = tool?.outputSchema ? besideOutput : {};
    channel.post({ type: 'run-result', runId: request.runId, output, ...structured, durationMs: Math.round(performance.now() - started) });
    // Only a tool of the top frame whose page went before it answered, and only where the browser
    // names documents: else the tool's own page, answering before the new one commits, would pass
    // for the next. A form's next page may give its result (its JSON-LD); a script's says only where
    // the tab went, as any page may carry JSON-LD of its own.
    const pageWent = tool?.frameId === 0 && output.noAnswer === true;
    if (!pageWent || tool.documentId === undefined) return;
    const loaded = await services.readLoadedPageResult(tabId, tool.documentId);
    // The tool's own site, as the agent's card shows it: another site's page says nothing of it.
    if (!loaded || originOf(loaded.url) !== tool.origin) return;
    const byScript = tool.source !== 'declarative';
    const pageResult = byScript ? { url: loaded.url, ...(loaded.title ? { title: loaded.title } : {}) } : loaded;
    channel.post({ type: 'run-page-result', runId: request.runId, pageResult, ...(byScript ? { byScript } : {}) });
  } finally {
    running.delete(request.runId);
    release();
  }
}

/** How the tool is run: stopped by `signal`, with the panel's time limit, in the frame and document the panel names. */
function runOptions(request: Extract<InspectorRequest, { type: 'run-tool' }>, signal: AbortSignal) {
  return {
    signal,
    ...(request.timeoutMs ? { timeoutMs: request.timeoutMs } : {}),
    ...(request.frameId === undefined ? {} : { frameId: request.frameId }),
    ...(request.documentId === undefined ? {} : { documentId: request.documentId }),
  };
}
