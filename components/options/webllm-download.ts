import { batch, computed, effect, signal, type ReadonlySignal } from '@preact/signals';
import { findCatalogModel, type CatalogModel } from '@/lib/engines/model-catalog';
import { modelLoadingSchema, modelLoadPort, modelStatusPort, type ModelLoadNews, type ModelLoadOutcome } from '@/lib/agent/model-load-port';
import { hearBackground } from '@/lib/messaging/background-broadcast';
import type { EngineStatus } from '@/lib/agent/session-state';
import type { EngineLoadProgress } from '@/lib/engines/engine';
import { connectChannel, type Channel } from '@/lib/messaging/port-channel';
import type { Settings } from '@/lib/settings';
import { hintWithNextTry, type Failure } from '@/lib/engines/describe-failure';
import type { OptionsDependencies } from './options-types';

/** WebLLM's model downloaded and loaded at the person's click, as the options page shows it. */
export interface WebLlmDownload {
  running: boolean;
  progress?: EngineLoadProgress;
  /** Nothing has come of the download for a minute. */
  stalled?: boolean;
  /** The model that loaded, by its id. */
  loaded?: string;
  failure?: Failure;
  /** How many downloads in a row have failed, this one included: a try that fails at once as the last did is told apart. */
  failures?: number;
  /** The person pressed Cancel. */
  cancelled?: boolean;
}

interface WebLlmDownloadParts {
  dependencies: Pick<OptionsDependencies, 'connectModelLoad' | 'connectModelStatus' | 'hearModelLoading' | 'workerRunning'>;
  settings: ReadonlySignal<Settings | undefined>;
  /** The stored models are read again: a download adds one, even one stopped part way. */
  refreshStorage(): Promise<void>;
  /** The page's Try it goes on: the model it loads is this page's too. */
  trialRunning(): boolean;
}

/**
 * "Download now": the service worker downloads the model the settings name and loads it, as the
 * first request would, so that this page holds no second copy of it on the GPU. The page follows
 * the load's progress until it ends; closing the page, Cancel, or picking another model stops it.
 */
export function createWebLlmDownload({ dependencies, settings, refreshStorage, trialRunning }: WebLlmDownloadParts) {
  const download = signal<WebLlmDownload | undefined>(undefined);
  const connect = dependencies.connectModelLoad ?? (() => connectChannel(modelLoadPort));
  let channel: Channel<never, ModelLoadNews> | undefined;
  // The engine and model the shown download was for: what it says is of no other.
  let downloadedFor: string | undefined;
  // Failures in a row before the download going on.
  let failedBefore = 0;

  function start(): void {
    if (channel) return;
    failedBefore = download.value?.failures ?? 0;
    let mine: Channel<never, ModelLoadNews>;
    try {
      mine = connect();
    } catch {
      download.value = { running: false, failure: pageOutlived, failures: failedBefore + 1 };
      return;
    }
    channel = mine;
    downloadedFor = choiceOf(settings.value);
    download.value = { running: true };
    mine.onMessage((news) => {
      if (channel !== mine) return;
      if (news.type === 'status') download.value = { running: true, ...progressOf(news.status) };
      else if (news.type === 'ended') end(mine, news.outcome, news.status);
    });
    // The worker went (the extension was updated or reloaded): the download stopped with it.
    mine.onDisconnect(() => {
      if (channel !== mine) return;
      channel = undefined;
      download.value = {
        running: false,
        failure: { message: "The load stopped: the extension's background stopped with it (an update or a reload of the extension, say).", hint: 'Try again: what was downloaded is kept.' },
        failures: failedBefore + 1,
      };
      void refreshStorage();
    });
  }

  function end(mine: Channel<never, ModelLoadNews>, outcome: ModelLoadOutcome, status: EngineStatus): void {
    channel = undefined;
    mine.disconnect();
    if (outcome === 'loaded') download.value = { running: false, loaded: status.model };
    else if (outcome === 'failed') download.value = { running: false, failure: failureOf(status), failures: failedBefore + 1 };
    // The engine changed before the worker read the settings: this page shows the new one's section.
    else download.value = undefined;
    void refreshStorage();
  }

  /** Stops a download under way; `cancelled` says so, else nothing is left of it. */
  function stop(cancelled: boolean): void {
    const running = channel;
    channel = undefined;
    running?.disconnect();
    download.value = running && cancelled ? { running: false, cancelled: true } : undefined;
    if (running) void refreshStorage();
  }

  // A download, and what came of it, is the model's it was for: another choice stops it, or drops it.
  effect(() => {
    const choice = choiceOf(settings.value);
    if (download.peek() !== undefined && choice !== downloadedFor) stop(false);
  });

  const own = computed(() => download.value?.running === true || trialRunning());
  const elsewhere = createLoadElsewhere({ dependencies, refreshStorage, own });
  // How another page's load ended is of the model it loaded: another choice here drops it.
  effect(() => {
    choiceOf(settings.value);
    elsewhere.forgetEnd();
  });

  return {
    download: download as ReadonlySignal<WebLlmDownload | undefined>,
    start,
    /** The person's Cancel: what has downloaded so far stays stored. */
    cancel: () => stop(true),
    /** A load of the engine's model that another page began (a side panel's request, another options tab), while it goes on. */
    loadElsewhere: elsewhere.loading,
    /** How such a load ended, where it failed. */
    loadElsewhereFailed: elsewhere.failed,
    /** The model such a load loaded, where it did. */
    loadElsewhereLoaded: elsewhere.loaded,
    followLoads: elsewhere.follow,
  };
}

/**
 * The engine's status, followed while the page shows WebLLM's download: a load another page began
 * shows here as it goes, and what it stored is read once it ends. The page's own loads (Download
 * now, Try it) are not another's, nor is the rest of one it cancelled, which may run on to its end
 * in the worker. The port is opened only where the worker runs (no load goes on in a stopped one),
 * and closes as the idle worker stops; it opens again as the background says a load begins.
 */
function createLoadElsewhere({ dependencies, refreshStorage, own }: Pick<WebLlmDownloadParts, 'dependencies' | 'refreshStorage'> & { own: ReadonlySignal<boolean> }) {
  const followed = signal<EngineStatus | undefined>(undefined);
  // How the last load shown here ended: the page it began in says so, and this one too.
  const failed = signal<Failure | undefined>(undefined);
  const loaded = signal<string | undefined>(undefined);
  // A load of this page's went on since the engine last rested: what loads now may be its rest.
  const ownSinceRest = signal(false);
  const connect = dependencies.connectModelStatus ?? (() => connectChannel(modelStatusPort));
  const hearLoading = dependencies.hearModelLoading ?? hearModelLoading;
  const workerRunning = dependencies.workerRunning ?? backgroundRunning;
  let channel: Channel<never, ModelLoadNews> | undefined;
  const loading = computed(() => (own.value || ownSinceRest.value ? undefined : followed.value));

  effect(() => {
    if (own.value) {
      ownSinceRest.value = true;
      forgetEnd();
    } else if (followed.peek() === undefined) ownSinceRest.value = false;
  });

  const heard = (status: EngineStatus | undefined) => {
    const ended = loading.peek() !== undefined && status?.state !== 'loading';
    batch(() => {
      followed.value = status?.state === 'loading' ? status : undefined;
      if (followed.value === undefined && !own.peek()) ownSinceRest.value = false;
      if (followed.value) forgetEnd();
      else if (ended && status?.state === 'error') failed.value = failureOf(status);
      else if (ended && status?.state === 'ready') loaded.value = status.model;
    });
    if (ended) void refreshStorage();
  };

  function open(): void {
    if (channel) return;
    let mine: Channel<never, ModelLoadNews>;
    try {
      mine = connect();
    } catch {
      // The extension was updated or reloaded under the page: there is nothing to follow.
      return;
    }
    channel = mine;
    mine.onMessage((news) => {
      if (channel === mine && news.type === 'status') heard(news.status);
    });
    mine.onDisconnect(() => {
      if (channel !== mine) return;
      channel = undefined;
      heard(undefined);
    });
  }

  /** Follows until the function this returns is called. */
  function follow(): () => void {
    let following = true;
    void workerRunning().then((running) => {
      if (running && following) open();
    });
    const unhear = hearLoading(open);
    return () => {
      following = false;
      unhear();
      channel?.disconnect();
      channel = undefined;
      // Shown again later (another engine chosen, then this one), an old end would be said anew.
      batch(() => {
        followed.value = undefined;
        forgetEnd();
      });
    };
  }

  function forgetEnd(): void {
    batch(() => {
      failed.value = undefined;
      loaded.value = undefined;
    });
  }

  return {
    loading: loading as ReadonlySignal<EngineStatus | undefined>,
    failed: failed as ReadonlySignal<Failure | undefined>,
    /** The model the last load shown here loaded, by the words the engine named it with. */
    loaded: loaded as ReadonlySignal<string | undefined>,
    follow,
    forgetEnd,
  };
}

/** Whether the extension's service worker runs now; where that cannot be asked, taken to run. */
async function backgroundRunning(): Promise<boolean> {
  try {
    return (await browser.runtime.getContexts({ contextTypes: ['BACKGROUND'] })).length > 0;
  } catch {
    return true;
  }
}

function hearModelLoading(listener: () => void): () => void {
  return hearBackground((message) => {
    if (modelLoadingSchema().safeParse(message).success) listener();
  });
}

function choiceOf(settings: Settings | undefined): string | undefined {
  return settings && `${settings.engine} ${settings.model}`;
}

export function progressOf(status: EngineStatus): Pick<WebLlmDownload, 'progress' | 'stalled'> {
  // Not loading yet: the model another tab's reply uses goes only once that reply has ended.
  const text = status.progressText ?? (status.state === 'generating' ? "Waiting for another tab's reply to end…" : 'Loading the model…');
  return { progress: { text, ...(status.progress === undefined ? {} : { fraction: status.progress }) }, ...(status.stalled ? { stalled: true } : {}) };
}

/** Why nothing can start from a page the extension was updated or reloaded under: it no longer reaches the background. */
export const pageOutlived = {
  message: 'This page no longer reaches the extension: it was updated or reloaded while the page was open.',
  hint: 'Reload this page, then try again.',
};

/** The load's error, with what to do worded for this page: the side panel's words send the person to a request, or to the options. */
export function failureOf(status: EngineStatus): Failure {
  const message = status.error ?? 'The model could not load.';
  return status.hint ? { message, hint: hintForThisPage(status.hint) } : { message };
}

/** A hint written for the side panel, as this page says it: the next try is a click here, and "the options" are this page. */
export function hintForThisPage(hint: string): string {
  return hintWithNextTry(hint, 'try again').replace(/ in the options\b/g, ' on this page');
}

/**
 * Whether a load the engine's status tells of is of `entry`: by its id, or, where the settings leave
 * the model to the extension, by the words the engine names it with until it has picked one.
 */
export function loadsEntry(status: Pick<EngineStatus, 'engineId' | 'model'>, entry: CatalogModel, picked: string): boolean {
  if (status.engineId !== 'webllm') return false;
  return status.model === entry.id || (picked === '' && findCatalogModel(status.model) === undefined);
}
