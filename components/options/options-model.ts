import { computed, createModel, effect, signal } from '@preact/signals';
import { defaultModelFor, defaultModelReason, type WebGpuStatus } from '@/lib/engines/webgpu-check';
import { loadSettings, updateSettings, watchSettings, type Settings, type SettingsChange } from '@/lib/settings';
import { errorMessage } from '@/lib/messaging/error-message';
import { asSentence } from '@/lib/text/as-sentence';
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

  // Why the last change could not be saved (storage full, say), until one is.
  const saveFailure = signal<{ message: string; attempt: number } | undefined>(undefined);
  let failedSaves = 0;

  /**
   * Saves a change; answers whether it was. One that could not be is said on the page, and the
   * page shows the settings as they are stored again, not as the change would have made them.
   */
  async function update(change: SettingsChange): Promise<boolean> {
    try {
      settings.value = await store.update(change);
      saveFailure.value = undefined;
      return true;
    } catch (error) {
      failedSaves += 1;
      saveFailure.value = { message: `This change was not saved: ${asSentence(errorMessage(error), 'the browser gave no reason.')} The page shows the settings as they are stored.`, attempt: failedSaves };
      settings.value = await store.load().catch(() => settings.peek());
      return false;
    }
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
    ...optionsModelSignals({ settings, saveFailure, webGpu, recommendedModel, recommendationReason, promptApi, server, storage, sites, trial, webLlmDownload }),
    ...optionsModelActions({ update, chooseEngine, promptApi, server, storage, sites, trial, webLlmDownload }),
  };
});

export type OptionsModel = InstanceType<typeof OptionsModel>;
