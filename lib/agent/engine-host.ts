import { raceAbort, type LanguageModel, type ModelUsage } from '@webmcp-agents/local-agent';
import { createEngine } from '../engines/create-engine';
import { engineLabel, engineLabels } from '../engines/engine-labels';
import { EngineError, type Engine } from '../engines/engine';
import type { ReplyTurns } from '../engines/reply-turns';
import { usageFigure } from '../engines/usage-figure';
import type { WebLlmPreview } from '../engines/webllm/preview-webllm';
import { errorMessage } from '../messaging/error-message';
import type { Settings } from '../settings';
import type { EngineStatus } from './session-state';
import { waitingWords } from './waiting-words';

/**
 * Holds the one engine the extension runs (a model on the GPU is shared by every tab) and its
 * status for the panels. Changing the engine or model in the settings swaps it on the next run.
 * `changed` is called whenever the status may have changed; each panel reads its own with `statusFor`.
 */
export function createEngineHost(changed: () => void, create: (settings: Settings) => Engine = createEngine) {
  /** The engine made for the settings last used, with the model those settings asked for ('' for the default). */
  let current: { key: string; engine: Engine; requestedModel: string } | undefined;
  let status: EngineStatus = { engineId: 'webllm', engineLabel: engineLabels.webllm, model: '', state: 'idle' };
  let lastProgressAt = 0;
  let pending: ReturnType<typeof setTimeout> | undefined;

  const publishNow = () => {
    clearTimeout(pending);
    pending = undefined;
    lastProgressAt = Date.now();
    changed();
  };
  const setStatus = (change: Partial<EngineStatus>, force = true) => {
    status = { ...status, ...change };
    // Progress callbacks can come hundreds of times a second; the panel needs a few. A held
    // update goes out when its 100 ms are up, so the last word before a quiet phase is never lost.
    const wait = 100 - (Date.now() - lastProgressAt);
    if (force || wait <= 0) publishNow();
    else pending ??= setTimeout(publishNow, wait);
  };

  // A model on the GPU (`holdsGpu`, WebLLM's) being replaced must go before the next one loads, but
  // not under a run another tab is going through (a reply, or a tool between two replies): the new
  // load waits for those runs to end. Another engine holds nothing shared, and is let go once they have.
  // Tabs whose load waits for a swap, counted per tab (see `statusFor`).
  const waitingTabs = new Map<number, number>();
  // A swap waits for the runs still going (the tabs waiting say so, see `statusFor`).
  const waitingForRuns = () => idleWaiters.length > 0;
  const retire = async (engine: Engine): Promise<void> => {
    if (!engine.holdsGpu && busy()) return void retired.push(engine);
    if (busy()) await new Promise<void>((resolve) => idleWaiters.push(resolve));
    await engine.unload?.().catch(() => {});
    // Its model is gone: whoever asked for the next may have stopped waiting, and loads it later.
    if (status.model === engine.modelId && (status.state === 'ready' || status.state === 'generating')) {
      speeds.clear();
      setStatus({ state: 'idle' });
    }
  };
  const waitFor = async <T>(tabId: number | undefined, task: Promise<T>): Promise<T> => {
    if (tabId === undefined) return task;
    count(waitingTabs, tabId, 1);
    // The swap began waiting as this tab's load began: its panel says so now.
    if (waitingForRuns()) publishNow();
    try {
      return await task;
    } finally {
      count(waitingTabs, tabId, -1);
      if (waitingForRuns()) publishNow();
    }
  };

  // One swap at a time, for every tab: whoever asks meanwhile waits for it, and a Stop ends only
  // that tab's wait, never the swap, so no load ever starts under a reply still streaming.
  let swapping: Promise<void> | undefined;
  // `held`: the run takes its hold in the same turn it gets the engine, so no swap comes between.
  const engineFor = async (settings: Settings, signal: AbortSignal, held: boolean): Promise<Engine> => {
    // Everything an engine reads when it is made; a change makes a new one on the next run.
    const key = JSON.stringify([settings.engine, settings.model, settings.temperature, settings.constrainedDecoding, settings.openaiBaseUrl]);
    while (swapping) await raceAbort(swapping, signal);
    if (current?.key === key) {
      if (held) running += 1;
      return current.engine;
    }
    const previous = current?.engine;
    // Only a different model frees the GPU; the same one under new settings stays loaded, for the
    // next engine of that id to take over (see `holdsGpu`). The default ('') is the same model only
    // where it was asked for before: which model it stands for is found out by loading. Other
    // engines hold nothing shared (Chrome's model keeps a session per engine): let go.
    const sameModel = current?.requestedModel === settings.model || (settings.model !== '' && previous?.modelId === settings.model);
    const keepLoaded = previous?.holdsGpu === true && previous.id === settings.engine && sameModel;
    const swap = (async () => {
      if (previous && !keepLoaded) await retire(previous);
      current = { key, engine: create(settings), requestedModel: settings.model };
    })();
    const settled = swap.then(
      () => undefined,
      () => undefined,
    );
    swapping = settled;
    void settled.then(() => {
      if (swapping === settled) swapping = undefined;
    });
    await raceAbort(swap, signal);
    // Another swap may have begun meanwhile: the engine is then had again, from its end.
    if (swapping !== undefined && swapping !== settled) return engineFor(settings, signal, held);
    if (held) running += 1;
    return current!.engine;
  };

  // Several tabs may have a reply on the way; the status says "generating" while any does.
  let replying = 0;
  // Loads going on, each tab's own: they share the one engine's, and its progress.
  let loads = 0;
  let quiet: ReturnType<typeof watchQuietLoad> | undefined;
  // Runs going on with the engine they loaded (see `hold`), replies or not.
  let running = 0;
  const busy = () => replying > 0 || running > 0;
  const holds = new WeakMap<Engine, () => void>();
  // Which tabs' runs hold the engine: a tab whose load waits for them is told which (see `statusFor`).
  const holdingTabs = new Map<number, number>();
  // The hold `engineFor` took for `tabId`'s run, given back once.
  const releaseOnce = (tabId: number | undefined): (() => void) => {
    let released = false;
    count(holdingTabs, tabId, 1);
    return () => {
      if (released) return;
      released = true;
      running -= 1;
      count(holdingTabs, tabId, -1);
      whenIdle();
    };
  };
  // An engine replaced while another tab's run still uses it is let go once no run does.
  const retired: Engine[] = [];
  const idleWaiters: Array<() => void> = [];
  // The settings changed to another engine while a run used this one: told once no run does.
  let describeWhenIdle: (() => void) | undefined;
  const whenIdle = () => {
    if (busy()) return;
    for (const engine of retired.splice(0)) void engine.unload?.().catch(() => {});
    for (const resume of idleWaiters.splice(0)) resume();
    const describeNow = describeWhenIdle;
    describeWhenIdle = undefined;
    describeNow?.();
  };
  // Which tabs have a reply on the way: the others' panels say the model is ready, not generating.
  const replyingTabs = new Map<number, number>();
  // Which tabs' replies wait for their turn (an engine with `replyTurns`) while another tab's goes on,
  // and the turns each waits for; the tab whose reply has a turn, where a tab asked for it.
  const waitingForTurnTabs = new Map<number, number>();
  const turnsWaitedFor = new Map<number, ReplyTurns>();
  const turnHolders = new Map<ReplyTurns, number>();
  // Each tab's last reply speed: a panel shows its own tab's, not whichever tab's reply ended last.
  const speeds = new Map<number, number>();
  // A reply that failed (the server answered 500, the GPU was lost) is the news of the tab that
  // asked, with what to do about it; the other tabs' panels go on saying what the engine does.
  const replyFailures = new Map<number, { error: string; hint?: string }>();
  // The engine answers again: what a reply before said of it no longer holds.
  const forgetReplyFailures = () => {
    if (replyFailures.size === 0) return;
    replyFailures.clear();
    publishNow();
  };
  const waitForTurn = async (turns: ReplyTurns | undefined, tabId: number | undefined, signal: AbortSignal): Promise<(() => void) | undefined> => {
    if (!turns) return () => {};
    if (tabId === undefined || !turns.busy) return turns.take(signal);
    count(waitingForTurnTabs, tabId, 1);
    turnsWaitedFor.set(tabId, turns);
    publishNow();
    try {
      return await turns.take(signal);
    } finally {
      count(waitingForTurnTabs, tabId, -1);
      if (!waitingForTurnTabs.has(tabId)) turnsWaitedFor.delete(tabId);
    }
  };
  const withGeneratingStatus = (engine: Engine, tabId: number | undefined): Engine => {
    // The model as loaded for this run: a later load (another tab's run) may swap the engine's own.
    const loaded = engine.model;
    const model: LanguageModel = {
      async *stream(request) {
        replying += 1;
        try {
          // The engine takes the turn again, at once (see `createReplyTurns`).
          const turns = engine.replyTurns;
          const passOn = await waitForTurn(turns, tabId, request.signal);
          if (!passOn) return;
          // The tab that has the turn, for the panels of the tabs waiting for it.
          const holdsTurn = turns !== undefined && tabId !== undefined && !turnHolders.has(turns);
          if (holdsTurn) turnHolders.set(turns, tabId);
          count(replyingTabs, tabId, 1);
          // Generating already for another tab: this tab's panel is told all the same.
          if (status.state === 'ready') setStatus({ state: 'generating' });
          else publishNow();
          try {
            yield* loaded.stream(request);
            if (!request.signal.aborted) forgetReplyFailures();
          } finally {
            count(replyingTabs, tabId, -1);
            if (holdsTurn) turnHolders.delete(turns);
            passOn();
          }
        } finally {
          replying -= 1;
          // The tab's panel hears that its reply ended, or its wait did (a Stop), whatever the others do.
          if (replying === 0 && status.state === 'generating') setStatus({ state: 'ready' });
          else publishNow();
          whenIdle();
        }
      },
    };
    // The engine's other fields are getters that read its state: they stay live through the prototype.
    return Object.create(engine, { model: { value: model } }) as Engine;
  };

  return {
    get status(): EngineStatus {
      return status;
    },
    /**
     * The status as `tabId`'s panel shows it: the shared one, except while that tab's request
     * waits for another tab's run to end before its model can replace the one loaded, or its reply
     * waits for another tab's, and that the model generates only for the tabs it is replying to
     * (the others see it ready). The speed is the tab's own, and so is a reply that failed there.
     * While it waits, `waitingForTab` is the tab it waits for, where one is known: the sessions name
     * it (see `createAgentSessions`), and the panel offers to go there.
     */
    statusFor(tabId: number): EngineStatus {
      const own: EngineStatus = { ...status, tokensPerSecond: speeds.get(tabId) };
      const noProgress = { progress: undefined, tokensPerSecond: undefined };
      if (waitingForRuns() && waitingTabs.has(tabId)) {
        // Where several runs hold it the load waits for them all; the first is the one named.
        const other = [...holdingTabs.keys()].find((holding) => holding !== tabId);
        return { ...own, ...noProgress, state: 'loading', progressText: waitingWords('run'), ...(other === undefined ? {} : { waitingForTab: other }) };
      }
      // Another tab loading the model already loaded does not stop this tab's reply, nor its wait.
      const inUse = status.state === 'loading' || status.state === 'ready' || status.state === 'generating';
      if (inUse && waitingForTurnTabs.has(tabId)) {
        const turns = turnsWaitedFor.get(tabId);
        const other = turns && turnHolders.get(turns);
        return { ...own, ...noProgress, state: 'generating', progressText: waitingWords('reply'), ...(other === undefined ? {} : { waitingForTab: other }) };
      }
      if (inUse && replyingTabs.has(tabId)) return { ...own, state: 'generating', progress: undefined, progressText: undefined };
      // A load going on, or an engine that cannot load, is every tab's news; a failed reply, its tab's own.
      const failure = replyFailures.get(tabId);
      if (failure && status.state !== 'loading' && status.state !== 'error') {
        return { ...own, state: 'error', ...failure, errorDuring: 'reply', tokensPerSecond: undefined };
      }
      if (status.state === 'generating' && replyingTabs.size > 0) return { ...own, state: 'ready' };
      return own;
    },
    /**
     * The status before the engine loads: its name, and where known (`preview`) the model the
     * first request loads, what it downloads, or why it cannot run here at all.
     */
    describe(settings: Settings, preview?: WebLlmPreview): void {
      // The settings say now what a description held for the run's end would have said.
      describeWhenIdle = undefined;
      // The engine in use is the one the settings name (a server at the same address): its status stands.
      const label = engineLabel(settings);
      if (status.state !== 'idle' && status.engineId === settings.engine && status.engineLabel === label && status.errorDuring !== 'check') return;
      // A run goes on with the engine it loaded: the status says so until it ends.
      if (busy()) {
        describeWhenIdle = () => {
          this.describe(settings, preview);
          publishNow();
        };
        return;
      }
      // Another engine now: what a reply of the one before said of itself no longer holds.
      replyFailures.clear();
      const base = { engineId: settings.engine, engineLabel: label, model: settings.model };
      if (preview && 'error' in preview) status = { ...base, state: 'error', error: preview.error, hint: preview.hint, errorDuring: 'check' };
      else status = { ...base, model: preview?.model ?? settings.model, state: 'idle', ...(preview?.downloadMB ? { downloadMB: preview.downloadMB } : {}) };
    },
    /**
     * Loads the engine the settings name. With `hold`, the run keeps it from being replaced until
     * it calls `release` with the engine this returned (another tab's new model waits for that).
     * `tabId`: the tab asking, told apart in `statusFor` while it waits for such a run.
     */
    async load(settings: Settings, signal: AbortSignal, options: { hold?: boolean; tabId?: number } = {}): Promise<Engine | { error: string }> {
      const base = { engineId: settings.engine, engineLabel: engineLabel(settings) };
      // The tab asks again: its panel follows this load, and its next replies, from here.
      if (options.tabId !== undefined) {
        replyFailures.delete(options.tabId);
        speeds.delete(options.tabId);
      }
      let release: (() => void) | undefined;
      let loading = false;
      try {
        const engine = await waitFor(options.tabId, engineFor(settings, signal, options.hold === true));
        if (options.hold) release = releaseOnce(options.tabId);
        loading = true;
        // Another tab's load of the same engine under way: its progress is this one's too.
        if (loads === 0 || status.state !== 'loading') {
          // An engine left to pick its model may know which only once loaded: the panel named the
          // one the preview found (see describe), and keeps that name meanwhile.
          const previewed = settings.model === '' && status.engineId === settings.engine ? status.model : '';
          setStatus({ ...base, model: previewed || engine.modelId, state: 'loading', progress: 0, progressText: 'Loading the model…', error: undefined, hint: undefined, errorDuring: undefined, downloadMB: undefined, stalled: undefined });
        }
        // A download that stalls (a captive portal, a proxy that holds the connection) says nothing:
        // one watch for all the loads going on, which any load's progress starts again.
        if (loads === 0) quiet = watchQuietLoad(() => setStatus({ stalled: true }));
        loads += 1;
        try {
          await raceAbort(
            engine.load((progress) => {
              // A load stopped may still report as it winds down: the status is no longer its own.
              if (signal.aborted) return;
              quiet?.heard();
              // Loads going on together share one bar, which never goes back: where the tab that began
              // a download stops it, the load another tab waited for starts over, and soon catches up
              // with what was stored.
              if (progress.fraction < (status.progress ?? 0)) return;
              setStatus({ progress: progress.fraction, progressText: progress.text, stalled: undefined }, progress.fraction >= 1);
            }, signal),
            signal,
          );
        } finally {
          loads -= 1;
          if (loads === 0) quiet?.stop();
        }
        // The engine may only know which model it picked for this machine once it has loaded. It
        // may be replying to another tab already (the same model, loaded before).
        setStatus({ state: replying > 0 ? 'generating' : 'ready', model: engine.modelId, progress: undefined, progressText: undefined, stalled: undefined });
        const loaded = withGeneratingStatus(engine, options.tabId);
        if (release) holds.set(loaded, release);
        return loaded;
      } catch (error) {
        release?.();
        if (signal.aborted) {
          // A Stop while waiting for a swap, or while another tab's load goes on, leaves the status
          // to whoever else is using the engine.
          if (loading && loads === 0) setStatus({ state: 'idle', progress: undefined, progressText: undefined, stalled: undefined });
          return { error: 'Stopped while the model was loading.' };
        }
        const { message, hint } = describeEngineError(error);
        setStatus({ ...base, state: 'error', error: message, hint, errorDuring: 'load', progress: undefined, progressText: undefined, stalled: undefined });
        return { error: hint ? `${message} ${hint}` : message };
      }
    },
    /** The run that loaded `engine` with `hold` is over: another model may replace it now. */
    release(engine: Engine): void {
      holds.get(engine)?.();
      holds.delete(engine);
    },
    /** The engine failed in the middle of `tabId`'s reply: that tab's panel says so until the engine answers again. */
    reportError(tabId: number, message: string, hint?: string): void {
      replyFailures.set(tabId, { error: message, ...(hint ? { hint } : {}) });
      publishNow();
    },
    reportUsage(tabId: number, usage: ModelUsage): void {
      // Any engine's figure, checked here too: a status that fails the panel's schema blanks every panel.
      const speed = usageFigure(usage.decodeTokensPerSecond);
      if (speed === undefined) return;
      speeds.set(tabId, Math.round(speed * 10) / 10);
      publishNow();
    },
  };
}

/** Counts per tab (loads, replies) one more or one fewer; a tab at none is let go. */
function count(counts: Map<number, number>, tabId: number | undefined, change: 1 | -1): void {
  if (tabId === undefined) return;
  const left = (counts.get(tabId) ?? 0) + change;
  if (left > 0) counts.set(tabId, left);
  else counts.delete(tabId);
}

/** How long a load may say nothing before the panel says so. */
export const quietLoadMs = 60_000;

/** Calls `tell` once a load has been quiet for `quietLoadMs`; progress starts the wait again, until `stop`. */
function watchQuietLoad(tell: () => void): { heard(): void; stop(): void } {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;
  const wait = () => {
    clearTimeout(timer);
    if (!stopped) timer = setTimeout(tell, quietLoadMs);
  };
  wait();
  return {
    heard: wait,
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
}

function describeEngineError(error: unknown): { message: string; hint?: string } {
  if (error instanceof EngineError) return { message: error.message, hint: error.hint };
  if (error instanceof Error && error.name === 'EngineError' && 'hint' in error) {
    return { message: error.message, hint: String((error as { hint: unknown }).hint) };
  }
  return { message: `The model could not load: ${errorMessage(error)}` };
}
