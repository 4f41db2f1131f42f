import { computed, createModel, effect, signal, type ReadonlySignal } from '@preact/signals';
import { checkWebGpu, defaultModelFor, defaultModelReason, type WebGpuStatus } from '@/lib/engines/webgpu-check';
import { loadSettings, updateSettings, watchSettings, type Settings, type SettingsChange } from '@/lib/settings';
import { createEngineTrial } from './engine-trial';
import type { OptionsDependencies } from './options-types';
import { createPromptApiSetup } from './prompt-api-setup';
import { createServerConnection } from './server-connection';
import { createSiteLists } from './site-lists';
import { createStoredModels } from './stored-models';

/**
 * The options page's state: components read these signals, the actions change them. Each section's
 * state and actions are their own part (the server connection, the stored models, Chrome's model,
 * the trial, the site lists); this model holds the settings they share and the choice of engine.
 */
export const OptionsModel = createModel((dependencies: OptionsDependencies = {}) => {
  const store = dependencies.settings ?? { load: loadSettings, update: updateSettings, watch: watchSettings };
  const settings = signal<Settings | undefined>(undefined);
  const webGpu = signal<WebGpuStatus | undefined>(undefined);
  let choosing: Promise<void> = Promise.resolve();

  async function update(change: SettingsChange): Promise<void> {
    settings.value = await store.update(change);
  }

  const promptApi = createPromptApiSetup({ dependencies, settings, loadSettings: () => store.load() });
  const trial = createEngineTrial({ dependencies, settings, loadSettings: () => store.load(), checkPromptApi: promptApi.check });
  const server = createServerConnection({ dependencies, settings, update, dropTrial: trial.drop });
  const storage = createStoredModels(dependencies);
  const sites = createSiteLists(update);

  // Nothing is recommended where WebLLM cannot run at all.
  const recommendedModel = computed(() => (webGpu.value?.available ? defaultModelFor(webGpu.value) : undefined));
  const recommendationReason = computed(() => (webGpu.value?.available ? defaultModelReason(webGpu.value) : undefined));

  async function start(): Promise<void> {
    settings.value = await store.load();
    void server.reconnect(settings.value);
    const [status] = await Promise.all([checkWebGpu(dependencies.gpu), promptApi.check(), storage.refresh()]);
    webGpu.value = status;
  }

  /** A new engine starts on its own default model. */
  function chooseEngine(engine: Settings['engine']): Promise<void> {
    // One choice at a time, in the order made: arrow keys go through the engines faster than a save.
    choosing = choosing.catch(() => undefined).then(async () => {
      // As stored: a model picked in another page (the side panel's, a second options tab) counts.
      const current = await store.load();
      if (current.engine === engine) return;
      trial.drop();
      // The model picked for the engine left is kept for its return; the one chosen gets its own back.
      const { [engine]: returning = '', ...others } = current.modelByEngine;
      await update({ engine, model: returning, modelByEngine: { ...others, [current.engine]: current.model } });
      if (settings.value) void server.reconnect(settings.value);
    });
    return choosing;
  }

  // Another page (or the side panel) may change the settings while this one is open.
  effect(() => store.watch((next) => (settings.value = next)));
  void start();

  return {
    settings: settings as ReadonlySignal<Settings | undefined>,
    webGpu: webGpu as ReadonlySignal<WebGpuStatus | undefined>,
    recommendedModel,
    recommendationReason,
    promptApi: promptApi.state,
    promptApiProgress: promptApi.progress,
    /** A download of Chrome's model started here is going on. */
    promptApiBusy: promptApi.busy,
    promptApiFailure: promptApi.failure,
    serverModels: server.models,
    serverState: server.state,
    serverFailure: server.failure,
    storedModels: storage.models,
    storageQuota: storage.quota,
    storageFailure: storage.failure,
    siteFailure: sites.failure,
    trial: trial.trial,

    update,
    chooseEngine,
    connectServer: server.connect,
    editServerAddress: server.editAddress,
    /** Downloads Chrome's built-in model; Chrome wants this to start from the person's click. */
    downloadPromptApiModel: promptApi.download,
    /** Loads the chosen engine here and asks it for one short reply, to show it works and how fast. */
    tryEngine: trial.run,
    cancelTrial: trial.cancel,
    refreshStorage: storage.refresh,
    deleteModel: storage.deleteModel,
    deleteAllModels: storage.deleteAll,
    addSite: sites.add,
    removeSite: sites.remove,
  };
});

export type OptionsModel = InstanceType<typeof OptionsModel>;
