import { errorMessage } from '../messaging/error-message';
import type { Engine } from '../engines/engine';
import { engineHoldsGpu } from '../engines/engine-holds-gpu';
import type { Settings } from '../settings';
import type { EngineHost } from './engine-host';
import type { ModelLoadOutcome } from './model-load-port';
import type { EngineStatus } from './session-state';

interface LoadForOptionsParts {
  loadSettings(): Promise<Settings>;
  engines: Pick<EngineHost, 'load' | 'status' | 'release'>;
  /** `listener` hears each change of the engine's status, until the function this returns is called. */
  watchStatus(listener: () => void): () => void;
  /** Keeps the service worker running until the function this returns is called. */
  keepAwake?(): () => void;
  /** The model is stored and loaded: what the side panels say the first request downloads is out of date. */
  loaded(): void;
}

/**
 * The options page's "Download now": the model the settings name, downloaded where it is not stored
 * and loaded, as a request would load it, so that the first request starts at once. The side
 * panels show its progress as a request's, and a request sent meanwhile waits for it; `onStatus`
 * hears the engine's status at each change. Only an engine that holds a model on this computer's
 * GPU loads this way (the options page tries the others itself). It ends with the engine's status
 * as the load left it: loaded, or its error and what to do. With `hold`, the engine loaded stays
 * until `release` (for a trial's reply: another tab's new model waits for it, as for a run's).
 */
export function createLoadForOptions(parts: LoadForOptionsParts) {
  return async (
    signal: AbortSignal,
    onStatus: (status: EngineStatus) => void,
    { hold = false } = {},
  ): Promise<{ outcome: ModelLoadOutcome; status: EngineStatus; engine?: Engine; release?: () => void }> => {
    let settings: Settings;
    try {
      settings = await parts.loadSettings();
    } catch (error) {
      // Without its settings, a request could not run either: the page says why.
      return { outcome: 'failed', status: { ...parts.engines.status, state: 'error', error: `The settings could not be read: ${errorMessage(error)}` } };
    }
    if (!engineHoldsGpu[settings.engine]) return { outcome: 'not-on-gpu', status: parts.engines.status };
    const tell = tellShownChanges(onStatus);
    const unwatch = parts.watchStatus(() => tell(parts.engines.status));
    // A download of hundreds of megabytes outlasts the 30 seconds Chrome leaves an idle worker.
    const release = parts.keepAwake?.() ?? (() => {});
    try {
      const loading = parts.engines.load(settings, signal, hold ? { hold } : {});
      // A load already under way (a request's, another options page's): the page hears where it
      // stands now, not only at its next change, which may be a while (a library compiling).
      if (parts.engines.status.state === 'loading') tell(parts.engines.status);
      const got = await loading;
      if ('error' in got) return { outcome: 'failed', status: parts.engines.status };
      parts.loaded();
      return { outcome: 'loaded', status: parts.engines.status, engine: got, ...(hold ? { release: () => parts.engines.release(got) } : {}) };
    } finally {
      unwatch();
      release();
    }
  };
}

/**
 * `onStatus`, called only where the status changed in what the options page shows (its state, the
 * load's progress, a stall): not at each piece of another tab's reply, which the status tells of too.
 */
export function tellShownChanges(onStatus: (status: EngineStatus) => void): (status: EngineStatus) => void {
  let told = '';
  return (status) => {
    const shown = JSON.stringify([status.state, status.model, status.progress, status.progressText, status.stalled]);
    if (shown === told) return;
    told = shown;
    onStatus(status);
  };
}
