import { computed, createModel, effect, signal } from '@preact/signals';
import { defaultModelFor, defaultModelReason, type WebGpuStatus } from '@/lib/engines/webgpu-check';
import { loadSettings, updateSettings, watchSettings, type Settings, type SettingsChange } from '@/lib/settings';
import { createEngineChoice } from './engine-choice';
import { createEngineTrial } from './engine-trial';
import { optionsModelActions } from './options-model-actions';
import { optionsModelSignals } from './options-model-signals';
import type { OptionsDependencies } from './options-types';
import { createPromptApiSetup } from './prompt-api-setup';
import { createServerConnection } from './server-connection';
import { createSiteLists } from './site-lists';
import { startOptionsModel } from './start-options-model';
import { createStoredModels } from './stored-models';
import { createWebLlmDownload } from './webllm-download';

/**
 * The options page's state: components read these signals, the actions change them. Each section's
 * state and actions are their own part (the server connection, the stored models, Chrome's model,
 * the trial, WebLLM's download, the site lists, the choice of engine); this model holds the settings they share.
 */
export const OptionsModel = createModel((dependencies: OptionsDependencies = {}) => {
  const store = dependencies.settings ?? { load: loadSettings, update: updateSettings, watch: watchSettings };
  const settings = signal<Settings | undefined>(undefined);
  const webGpu = signal<WebGpuStatus | undefined>(undefined);

  async function update(change: SettingsChange): Promise<void> {
    settings.value = await store.update(change);
  }

  const promptApi = createPromptApiSetup({ dependencies, settings, loadSettings: () => store.load() });
  const trial = createEngineTrial({ dependencies, settings, loadSettings: () => store.load(), checkPromptApi: promptApi.check });
  const server = createServerConnection({ dependencies, settings, update, dropTrial: trial.drop });
  const storage = createStoredModels(dependencies);
  const webLlmDownload = createWebLlmDownload({ dependencies, settings, refreshStorage: storage.refresh, trialRunning: () => trial.trial.value?.running === true });
  const sites = createSiteLists(update);
  const chooseEngine = createEngineChoice({ store, settings, update, trial, server });

  // Nothing is recommended where WebLLM cannot run at all.
  const recommendedModel = computed(() => (webGpu.value?.available ? defaultModelFor(webGpu.value) : undefined));
  const recommendationReason = computed(() => (webGpu.value?.available ? defaultModelReason(webGpu.value) : undefined));

  // Another page (or the side panel) may change the settings while this one is open. A server
  // another options page connected to is this page's too: its models are asked for.
  effect(() =>
    store.watch((next) => {
      const before = settings.peek();
      settings.value = next;
      if (before && (before.openaiBaseUrl !== next.openaiBaseUrl || before.openaiApiKey !== next.openaiApiKey)) server.serverChangedElsewhere();
    }),
  );
  void startOptionsModel({ dependencies, store, settings, webGpu, server, promptApi, storage });

  return {
    ...optionsModelSignals({ settings, webGpu, recommendedModel, recommendationReason, promptApi, server, storage, sites, trial, webLlmDownload }),
    ...optionsModelActions({ update, chooseEngine, promptApi, server, storage, sites, trial, webLlmDownload }),
  };
});

export type OptionsModel = InstanceType<typeof OptionsModel>;
