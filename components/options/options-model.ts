import { computed, createModel, effect, signal, type ReadonlySignal } from '@preact/signals';
import type { Engine, EngineLoadProgress } from '@/lib/engines/engine';
import { engineHoldsGpu } from '@/lib/engines/engine-holds-gpu';
import { createOpenAiEngine } from '@/lib/engines/openai/openai-engine';
import { listServerModels } from '@/lib/engines/openai/list-server-models';
import { normalizeServerAddress } from '@/lib/engines/openai/server-address';
import { serverStalled } from '@/lib/engines/openai/server-errors';
import { createPromptApiEngine } from '@/lib/engines/prompt-api/prompt-api-engine';
import { browserLanguageModel, englishText, type LanguageModelApi } from '@/lib/engines/prompt-api/prompt-api-types';
import { checkWebGpu, defaultModelFor, defaultModelReason, type GpuLike, type WebGpuStatus } from '@/lib/engines/webgpu-check';
import {
  deleteAllStoredModels,
  deleteStoredModel,
  listStoredModels,
  type CacheStorageLike,
  type StoredModel,
} from '@/lib/engines/webllm/model-storage';
import { loadSettings, normalizeSiteOrigin, updateSettings, watchSettings, type Settings, type SettingsChange } from '@/lib/settings';
import { describeFailure, type Failure } from './describe-failure';
import { describeStorageFailure, type StorageAction } from './describe-storage-failure';
import { runTrial, type Trial } from './run-trial';

/** The world the options page reads and changes; tests pass fakes. */
export interface OptionsDependencies {
  settings?: { load(): Promise<Settings>; update(change: SettingsChange): Promise<Settings>; watch(listener: (settings: Settings) => void): () => void };
  gpu?: GpuLike;
  languageModel?: LanguageModelApi;
  caches?: CacheStorageLike;
  estimateStorage?: () => Promise<{ usage?: number; quota?: number }>;
  fetch?: typeof fetch;
  /** How long Connect and Try it wait for the server; tests shorten them. */
  timeouts?: { connectMs?: number; trialReplyMs?: number };
}

export type PromptApiState = 'checking' | 'absent' | 'unavailable' | 'downloadable' | 'downloading' | 'available';
export type SiteList = 'disabledSites' | 'allowedSites';
/** A site a list refused, and why. */
export interface SiteFailure {
  list: SiteList;
  message: string;
  /** Counts refusals, so that the same words refused again are drawn (and heard) afresh. */
  attempt: number;
}

/** The options page's state: components read these signals, the actions change them. */
export const OptionsModel = createModel((dependencies: OptionsDependencies = {}) => {
  const store = dependencies.settings ?? { load: loadSettings, update: updateSettings, watch: watchSettings };
  const settings = signal<Settings | undefined>(undefined);
  const webGpu = signal<WebGpuStatus | undefined>(undefined);
  const promptApi = signal<PromptApiState>('checking');
  const promptApiProgress = signal<EngineLoadProgress | undefined>(undefined);
  const promptApiBusy = signal(false);
  const promptApiFailure = signal<Failure | undefined>(undefined);
  const serverModels = signal<readonly string[]>([]);
  const serverState = signal<'idle' | 'connecting' | 'connected'>('idle');
  const serverFailure = signal<Failure | undefined>(undefined);
  const storedModels = signal<readonly StoredModel[] | undefined>(undefined);
  const storageQuota = signal<{ usage?: number; quota?: number } | undefined>(undefined);
  const storageFailure = signal<Failure | undefined>(undefined);
  // Which list refused a site, so that its own field is marked and points at the words.
  const siteFailure = signal<SiteFailure | undefined>(undefined);
  const trial = signal<Trial | undefined>(undefined);
  // Which trial may still write `trial`: one started before the engine changed may not.
  let trialNumber = 0;
  // Stops the running trial: the person's Cancel, or a change that makes its answer moot.
  let trialCancel = new AbortController();
  let choosing: Promise<void> = Promise.resolve();

  // Nothing is recommended where WebLLM cannot run at all.
  const recommendedModel = computed(() => (webGpu.value?.available ? defaultModelFor(webGpu.value) : undefined));
  const recommendationReason = computed(() => (webGpu.value?.available ? defaultModelReason(webGpu.value) : undefined));

  async function update(change: SettingsChange): Promise<void> {
    settings.value = await store.update(change);
  }

  async function refreshStorage(): Promise<void> {
    const cacheStorage = dependencies.caches ?? globalThis.caches;
    try {
      storedModels.value = cacheStorage ? await listStoredModels(cacheStorage) : [];
      storageFailure.value = undefined;
    } catch (error) {
      storageFailure.value = storageFailed({ kind: 'read' }, error);
    }
    const estimate = dependencies.estimateStorage ?? (() => navigator.storage.estimate());
    storageQuota.value = await estimate().catch(() => undefined);
  }

  // The browser's own error goes to the console too, in full.
  function storageFailed(action: StorageAction, error: unknown): Failure {
    console.warn(`The stored WebLLM models (${action.kind}):`, error);
    return describeStorageFailure(action, error);
  }

  /** Deletes, then reads the list again; a failure to delete is shown after that, which would clear it. */
  async function deleteStored(action: StorageAction, remove: () => Promise<void>): Promise<void> {
    const failure = await remove().then(
      () => undefined,
      (error: unknown) => storageFailed(action, error),
    );
    await refreshStorage();
    if (failure) storageFailure.value = failure;
  }

  async function checkPromptApi(): Promise<void> {
    const api = dependencies.languageModel ?? browserLanguageModel();
    if (!api) {
      promptApi.value = 'absent';
      return;
    }
    promptApi.value = await api.availability(englishText).catch(() => 'unavailable' as const);
  }

  /** A trial's reply belongs to the engine and server it tried: a new choice drops it. */
  function dropTrial(): void {
    trialNumber += 1;
    trialCancel.abort();
    trial.value = undefined;
  }

  async function start(): Promise<void> {
    settings.value = await store.load();
    void reconnectServer(settings.value);
    const [status] = await Promise.all([checkWebGpu(dependencies.gpu), checkPromptApi(), refreshStorage()]);
    webGpu.value = status;
  }

  /** The server's models, asked for with the page's own fetch and timeout. */
  function listModels(target: string): Promise<string[]> {
    return listServerModels(target, {
      ...(dependencies.fetch ? { fetch: dependencies.fetch } : {}),
      ...(dependencies.timeouts?.connectMs ? { timeoutMs: dependencies.timeouts.connectMs } : {}),
    });
  }

  // Which question to the server may still answer: a Connect, or the address changing, makes an
  // earlier one moot.
  let serverAsks = 0;

  /**
   * Back on the page, or back on the local server engine: the server set up before is asked for
   * its models without a Connect, so the page says at once whether it answers and shows the model
   * picked from its list. Quietly: the field and Connect stay free, and a Connect pressed meanwhile
   * is the answer shown.
   */
  async function reconnectServer(current: Settings): Promise<void> {
    if (current.engine !== 'openai' || serverState.value !== 'idle') return;
    const mine = (serverAsks += 1);
    const address = current.openaiBaseUrl;
    const stillAsked = () => mine === serverAsks && serverState.value === 'idle' && settings.value?.openaiBaseUrl === address;
    try {
      const models = await listModels(address);
      if (!stillAsked()) return;
      serverModels.value = models;
      serverState.value = 'connected';
    } catch (error) {
      if (stillAsked()) serverFailure.value = describeFailure(error);
    }
  }

  // Another page (or the side panel) may change the settings while this one is open.
  effect(() => store.watch((next) => (settings.value = next)));
  void start();

  return {
    settings: settings as ReadonlySignal<Settings | undefined>,
    webGpu: webGpu as ReadonlySignal<WebGpuStatus | undefined>,
    recommendedModel,
    recommendationReason,
    promptApi: promptApi as ReadonlySignal<PromptApiState>,
    promptApiProgress: promptApiProgress as ReadonlySignal<EngineLoadProgress | undefined>,
    /** A download of Chrome's model started here is going on. */
    promptApiBusy: promptApiBusy as ReadonlySignal<boolean>,
    promptApiFailure: promptApiFailure as ReadonlySignal<Failure | undefined>,
    serverModels: serverModels as ReadonlySignal<readonly string[]>,
    serverState: serverState as ReadonlySignal<'idle' | 'connecting' | 'connected'>,
    serverFailure: serverFailure as ReadonlySignal<Failure | undefined>,
    storedModels: storedModels as ReadonlySignal<readonly StoredModel[] | undefined>,
    storageQuota: storageQuota as ReadonlySignal<{ usage?: number; quota?: number } | undefined>,
    storageFailure: storageFailure as ReadonlySignal<Failure | undefined>,
    siteFailure: siteFailure as ReadonlySignal<SiteFailure | undefined>,
    trial: trial as ReadonlySignal<Trial | undefined>,

    update,
    /** A new engine starts on its own default model. */
    chooseEngine(engine: Settings['engine']) {
      // One choice at a time, in the order made: arrow keys go through the engines faster than a save.
      choosing = choosing.catch(() => undefined).then(async () => {
        // As stored: a model picked in another page (the side panel's, a second options tab) counts.
        const current = await store.load();
        if (current.engine === engine) return;
        dropTrial();
        // The model picked for the engine left is kept for its return; the one chosen gets its own back.
        const { [engine]: returning = '', ...others } = current.modelByEngine;
        await update({ engine, model: returning, modelByEngine: { ...others, [current.engine]: current.model } });
        if (settings.value) void reconnectServer(settings.value);
      });
      return choosing;
    },
    /**
     * Lists the server's models. The address is saved only once the server has answered: one that
     * does not answer leaves the agent on the address it had.
     */
    async connectServer(address: string) {
      // One connection at a time: Connect stays focusable while it waits, so Enter can come again.
      if (serverState.value === 'connecting') return;
      serverFailure.value = undefined;
      let target: string;
      try {
        target = normalizeServerAddress(address);
      } catch (error) {
        serverFailure.value = describeFailure(error);
        return;
      }
      serverAsks += 1;
      serverState.value = 'connecting';
      // An earlier trial's reply was about the server as it was: it must not vouch for this one.
      dropTrial();
      try {
        const models = await listModels(target);
        // A model picked on another server is not one this server has: let the person pick again.
        const picked = settings.value?.model;
        await update({ openaiBaseUrl: target, ...(picked && !models.includes(picked) ? { model: '' } : {}) });
        serverModels.value = models;
        serverState.value = 'connected';
      } catch (error) {
        serverState.value = 'idle';
        serverFailure.value = describeFailure(error);
      }
    },
    /** The last attempt's failure was about the address as it was: an edited one has not been tried. */
    editServerAddress() {
      serverAsks += 1;
      serverFailure.value = undefined;
    },
    /** Downloads Chrome's built-in model; Chrome wants this to start from the person's click. */
    async downloadPromptApiModel() {
      // One download at a time: the button waits for this one.
      if (promptApiBusy.value) return;
      promptApiBusy.value = true;
      promptApiFailure.value = undefined;
      const engine = createPromptApiEngine(settings.value ?? (await store.load()), {
        ...(dependencies.languageModel ? { languageModel: dependencies.languageModel } : {}),
      });
      try {
        await engine.load((progress) => (promptApiProgress.value = progress));
      } catch (error) {
        promptApiFailure.value = describeFailure(error);
      } finally {
        await engine.unload?.().catch(() => {});
        promptApiProgress.value = undefined;
        promptApiBusy.value = false;
      }
      await checkPromptApi();
    },
    /** Loads the chosen engine here and asks it for one short reply, to show it works and how fast. */
    async tryEngine() {
      const current = settings.value ?? (await store.load());
      const engine = trialEngine(current, dependencies);
      if (!engine) return;
      const mine = (trialNumber += 1);
      trialCancel = new AbortController();
      const options = {
        signal: trialCancel.signal,
        ...(dependencies.timeouts?.trialReplyMs ? { replyTimeoutMs: dependencies.timeouts.trialReplyMs } : {}),
        ...(current.engine === 'openai' ? { silent: (waitedMs: number) => serverStalled(current.openaiBaseUrl, 'first-byte', waitedMs) } : {}),
      };
      try {
        await runTrial(
          engine,
          (next) => {
            if (mine === trialNumber) trial.value = next;
          },
          options,
        );
      } finally {
        // The options page holds no model between trials (a built-in model session, GPU memory).
        await engine.unload?.().catch(() => {});
      }
      if (current.engine === 'prompt-api') await checkPromptApi();
    },
    /** The person's Cancel while a trial runs. */
    cancelTrial() {
      trialCancel.abort();
    },
    refreshStorage,
    async deleteModel(model: StoredModel) {
      await deleteStored({ kind: 'delete', label: model.label }, () => deleteStoredModel(model, dependencies.caches ?? globalThis.caches));
    },
    async deleteAllModels() {
      await deleteStored({ kind: 'delete-all' }, () => deleteAllStoredModels(dependencies.caches ?? globalThis.caches));
    },
    /** Adds a site to a list; answers the site as kept (an origin), or undefined when refused. */
    async addSite(list: SiteList, text: string): Promise<string | undefined> {
      const origin = text.includes('*') ? undefined : normalizeSiteOrigin(text);
      siteFailure.value = origin
        ? undefined
        : {
            list,
            attempt: (siteFailure.value?.attempt ?? 0) + 1,
            message: text.includes('*')
              ? `Leave out the *: "shop.example.com" is enough (where the agent is off, it covers the site's subdomains too).`
              : /^[\w-]+(:\d+)?$/.test(text.trim())
                ? `"${text}" is not a web address, such as shop.example.com. A site on your own network takes its scheme: http://${text.trim()}.`
                : `"${text}" is not a web address, such as shop.example.com.`,
          };
      // Changed as the list is when written: the side panel may change it at the same moment.
      if (origin) await update((current) => (current[list].includes(origin) ? {} : { [list]: [...current[list], origin] }));
      return origin;
    },
    removeSite(list: SiteList, origin: string) {
      return update((current) => ({ [list]: current[list].filter((site) => site !== origin) }));
    },
  };
});

export type OptionsModel = InstanceType<typeof OptionsModel>;

/** No engine that holds the GPU (WebLLM) is tried here: a second copy of the model in this page could exhaust it. */
function trialEngine(settings: Settings, dependencies: OptionsDependencies): Engine | undefined {
  if (engineHoldsGpu[settings.engine]) return undefined;
  if (settings.engine === 'prompt-api') {
    return createPromptApiEngine(settings, dependencies.languageModel ? { languageModel: dependencies.languageModel } : {});
  }
  if (settings.engine === 'openai') return createOpenAiEngine(settings, dependencies.fetch ? { fetch: dependencies.fetch } : {});
  return undefined;
}
