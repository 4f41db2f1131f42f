import { createEngine } from '../engines/create-engine';
import { engineLabel, engineLabels } from '../engines/engine-labels';
import type { Engine } from '../engines/engine';
import { modelKeptMs, type Settings } from '../settings';
import { createEngineDescription } from './engine-description';
import { createEngineHolds } from './engine-holds';
import { createEngineSwaps } from './engine-swaps';
import { createStatusPublisher } from './engine-status-publisher';
import { createLoadFailure } from './load-failure';
import { createReplyStatus } from './reply-status';
import { createRunTracker } from './run-tracker';
import type { EngineStatus } from './session-state';
import { createSharedLoad } from './shared-load';
import { createSwapWait } from './swap-wait';
import { createTabEngineNews, statusForTab } from './tab-engine-news';
import { createTabReports } from './tab-reports';

/**
 * Holds the one engine the extension runs (a model on the GPU is shared by every tab) and its
 * status for the panels. Changing the engine or model in the settings swaps it on the next run.
 * `changed` is called whenever the status may have changed; each panel reads its own with `statusFor`.
 * `hooks.loadStopped`: a load was stopped, or one nobody asked for failed, and none goes on: the
 * status says no more than "idle", where it said what the first request downloads.
 */
export function createEngineHost(changed: () => void, create: (settings: Settings) => Engine = createEngine, hooks: { loadStopped?: () => void } = {}) {
  const shared = createStatusPublisher(changed, { engineId: 'webllm', engineLabel: engineLabels.webllm, model: '', state: 'idle' });
  const runs = createRunTracker();
  const news = createTabEngineNews();
  const loads = createSharedLoad(shared);
  const swaps = createEngineSwaps(runs, create, modelUnloaded);
  const withReplyStatus = createReplyStatus({ shared, runs, news });
  // The model the settings asked for ('' for the default) when a load last wrote the status.
  let statusRequestedModel: string | undefined;
  const description = createEngineDescription({ shared, runs, news }, () => statusRequestedModel);
  const loadFailed = createLoadFailure({ shared, loads });
  const waitForSwap = createSwapWait({ shared, runs, news });
  const holds = createEngineHolds({ shared, runs });
  const reports = createTabReports({ shared, news });
  // Loads nobody asked for (`quiet`, see `createLoadAhead`) under way: the settings each loads with, and its own stop.
  const unasked = new Map<AbortController, Settings>();

  /** A swap let go of `engine`'s model: whoever asked for the next may have stopped waiting, and loads it later. */
  function modelUnloaded(engine: Engine): void {
    const { model, state } = shared.status;
    if (model === engine.modelId && (state === 'ready' || state === 'generating')) {
      news.speeds.clear();
      // The load of the next one follows at once, as a rule: "Loads on your next request" would only flicker.
      shared.settle({ state: 'idle' });
    }
  }

  /** What a tab's panel was told of its own replies: its failure, its speed, whether its run answered. */
  function forget(tabId: number): void {
    news.replyFailures.delete(tabId);
    news.speeds.delete(tabId);
    news.answering.delete(tabId);
    news.replyBegun.delete(tabId);
  }

  return {
    get status(): EngineStatus {
      return shared.status;
    },
    /**
     * The status as `tabId`'s panel shows it (see `statusForTab`). While it waits, `waitingForTab`
     * is the tab it waits for, where one is known: the sessions name it (see
     * `createWaitingTabNames`), and the panel offers to go there.
     */
    statusFor(tabId: number): EngineStatus {
      const described = description.deferred();
      return statusForTab(tabId, shared.status, news, { swapWaits: runs.swapWaits, holdingTabs: runs.holdingTabs(), ...(described ? { described } : {}) });
    },
    describe: description.describe,
    /**
     * Loads the engine the settings name. With `hold`, the run keeps it from being replaced until
     * it calls `release` with the engine this returned (another tab's new model waits for that).
     * `tabId`: the tab asking, told apart in `statusFor` while it waits for such a run. `quiet`: a
     * failure leaves the status as it was.
     */
    async load(settings: Settings, given: AbortSignal, options: { hold?: boolean; tabId?: number; quiet?: boolean } = {}): Promise<Engine | { error: string }> {
      const { tabId } = options;
      const unasking = options.quiet ? new AbortController() : undefined;
      if (unasking) unasked.set(unasking, settings);
      const signal = unasking ? AbortSignal.any([given, unasking.signal]) : given;
      const name = { engineId: settings.engine, engineLabel: engineLabel(settings) };
      description.loadsWith(settings);
      // The tab asks again: its panel follows this load, and its next replies, from here.
      const failureShown = tabId !== undefined && news.replyFailures.has(tabId);
      if (tabId !== undefined) forget(tabId);
      let release: (() => void) | undefined;
      let loading = false;
      try {
        const got = await waitForSwap(tabId, swaps.engineFor(settings, signal, options.hold ? { tabId } : undefined));
        const { engine } = got;
        release = got.release;
        loading = true;
        statusRequestedModel = settings.model;
        await loads.load(engine, settings, name, signal, failureShown);
        // The engine may only know which model it picked for this machine once it has loaded. It
        // may be replying to another tab already (the same model, loaded before). A reply follows
        // at once, which the panels hear of instead.
        shared.settle({ state: runs.replying ? 'generating' : 'ready', model: engine.modelId, progress: undefined, progressText: undefined, stalled: undefined });
        const loaded = withReplyStatus(engine, tabId);
        if (release) holds.keep(loaded, release);
        return loaded;
      } catch (error) {
        // A failure puts its error in the status (a Stop leaves the status to others), before the
        // engine is let go: settings changed meanwhile are described as that run ends, over it.
        if (!signal.aborted) statusRequestedModel = settings.model;
        // A load nobody asked for (see `createLoadAhead`) fails without a word: the status goes back
        // to what it was, and the next request loads, and tells, again.
        if (options.quiet && !signal.aborted) {
          release?.();
          if (loading) loads.stopped();
          // Its failure may have removed stored files (unreadable ones): the next request downloads them.
          if (loading && shared.status.state === 'idle') hooks.loadStopped?.();
          return { error: 'The model could not load.' };
        }
        let failed: { error: string };
        try {
          failed = loadFailed(error, name, signal, loading);
        } finally {
          release?.();
        }
        // A load stopped part way left the status without what the first request downloads (now
        // less, or nothing): the panels are told it afresh, unless another load goes on.
        if (signal.aborted && loading && shared.status.state === 'idle') hooks.loadStopped?.();
        return failed;
      } finally {
        if (unasking) unasked.delete(unasking);
      }
    },
    release: holds.release,
    /** The settings changed: a model kept loaded after its last use stays as long as they now say. */
    settingsChanged(settings: Settings): void {
      swaps.current?.keepLoadedFor?.(modelKeptMs(settings));
      // A model loaded ahead that the settings no longer name would only hold the GPU: it stops
      // (a run that holds it goes on with it, and needs it loaded).
      if (runs.busy()) return;
      for (const [controller, loading] of unasked) if (loading.engine !== settings.engine || loading.model !== settings.model) controller.abort();
    },
    /** The tab closed: what its panel was told of the engine (its failure, its speed) goes with it. */
    tabClosed: forget,
    reportError: reports.reportError,
    reportUsage: reports.reportUsage,
  };
}

export type EngineHost = ReturnType<typeof createEngineHost>;
