import { raceAbort } from '@webmcp-agents/local-agent';
import type { Engine, EngineLoadProgress } from '../engines/engine';
import { isServerEngine } from '../engines/engine-labels';
import type { Settings } from '../settings';
import type { StatusPublisher } from './engine-status-publisher';
import type { EngineStatus } from './session-state';

/** How long a load may say nothing before the panel says so. */
const quietLoadMs = 60_000;

/** What a status said of the load before, or of its failure, that a new load's start takes away. */
const noEarlierNews = {
  error: undefined,
  hint: undefined,
  errorCode: undefined,
  errorDuring: undefined,
  downloadMB: undefined,
  goAheadFirst: undefined,
  slowGpu: undefined,
  stalled: undefined,
} satisfies Partial<EngineStatus>;

/** The engine and the name the panels give it, as the settings name them. */
export type EngineName = Pick<EngineStatus, 'engineId' | 'engineLabel'>;

/**
 * The loads going on, each tab's own, and what the panels hear of them. They share the one
 * engine's load: one status, one progress bar, and one watch for a download that stalls (a captive
 * portal, a proxy that holds the connection says nothing), which any load's progress starts again.
 */
export function createSharedLoad(shared: StatusPublisher) {
  let loads = 0;
  let watch: ReturnType<typeof watchQuietLoad> | undefined;

  const showLoading = (engine: Engine, settings: Settings, name: EngineName, failureShown: boolean): void => {
    // An engine left to pick its model may know which only once loaded: the panel named the one
    // the preview found (see describe), and keeps that name meanwhile.
    const previewed = settings.model === '' && shared.status.engineId === settings.engine ? shared.status.model : '';
    // A server's model is connected to: no download, so no bar to fill.
    const start = isServerEngine(engine.id) ? { progress: undefined, progressText: 'Connecting to the server…' } : { progress: 0, progressText: 'Loading the model…' };
    // A load of a model in already, or a connection to a server near at hand, ends at once: the
    // panels hear of it only if it lasts. A failure shown is the last load's: it goes at once.
    const show = shared.status.state === 'error' || failureShown ? shared.update : shared.settle;
    show({ ...name, model: previewed || engine.modelId, state: 'loading', ...start, ...noEarlierNews });
  };

  const progressOf = (signal: AbortSignal, engine: Engine) => (progress: EngineLoadProgress) => {
    // A load stopped may still report as it winds down: the status is no longer its own.
    if (signal.aborted) return;
    watch?.heard();
    // Loads going on together share one bar, which never goes back: where the tab that began a
    // download stops it, the load another tab waited for starts over, and soon catches up with
    // what was stored.
    // A server's connection has no share done, whatever its engine reports at the end (1: connected).
    const fraction = isServerEngine(engine.id) ? undefined : progress.fraction;
    if (fraction !== undefined && fraction < (shared.status.progress ?? 0)) return;
    shared.updateProgress({ progress: fraction, progressText: progress.text, stalled: undefined }, fraction === undefined || fraction >= 1);
  };

  return {
    /**
     * Loads `engine` for a run, alongside any other tab's load of it. `failureShown`: the tab's
     * panel says its last reply failed, which this load puts away at once.
     */
    async load(engine: Engine, settings: Settings, name: EngineName, signal: AbortSignal, failureShown = false): Promise<void> {
      // Another tab's load of the same engine under way: its progress is this one's too.
      if (loads === 0 || shared.status.state !== 'loading') showLoading(engine, settings, name, failureShown);
      else if (failureShown) shared.publishNow();
      if (loads === 0) watch = watchQuietLoad(() => shared.update({ stalled: true }));
      loads += 1;
      try {
        await raceAbort(engine.load(progressOf(signal, engine), signal), signal);
      } finally {
        loads -= 1;
        if (loads === 0) watch?.stop();
      }
    },
    /**
     * A load was stopped: the status is left to another tab's load still going on, if any, and to
     * whatever has replaced it meanwhile (the settings' next engine, described).
     */
    stopped(): void {
      if (loads === 0 && shared.status.state === 'loading') shared.update({ state: 'idle', progress: undefined, progressText: undefined, stalled: undefined });
    },
  };
}

export type SharedLoad = ReturnType<typeof createSharedLoad>;

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
