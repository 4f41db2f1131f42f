// What the options page's components call to change things, gathered from the model's parts in one
// place, so the model itself stays an outline of how those parts are made and wired.
import type { Settings, SettingsChange } from '@/lib/settings';
import type { createEngineTrial } from './engine-trial';
import type { createWebLlmDownload } from './webllm-download';
import type { createPromptApiSetup } from './prompt-api-setup';
import type { createServerConnection } from './server-connection';
import type { createSiteLists } from './site-lists';
import type { createStoredModels } from './stored-models';

interface OptionsModelActionParts {
  update(change: SettingsChange): Promise<boolean>;
  /** A new engine starts on its own default model. */
  chooseEngine(engine: Settings['engine']): Promise<void>;
  promptApi: ReturnType<typeof createPromptApiSetup>;
  server: ReturnType<typeof createServerConnection>;
  storage: ReturnType<typeof createStoredModels>;
  sites: ReturnType<typeof createSiteLists>;
  trial: ReturnType<typeof createEngineTrial>;
  webLlmDownload: ReturnType<typeof createWebLlmDownload>;
}

/** The options page's actions, by the names its components call them. */
export function optionsModelActions({ update, chooseEngine, promptApi, server, storage, sites, trial, webLlmDownload }: OptionsModelActionParts) {
  return {
    update,
    chooseEngine,
    /** A trial's reply or failure was the model's it tried: picking another drops it, and stops it. */
    pickServerModel(model: string): Promise<boolean> {
      trial.drop();
      return update({ model });
    },
    connectServer: server.connect,
    cancelServerConnect: server.cancelConnect,
    editServerAddress: server.editAddress,
    /** Downloads Chrome's built-in model; Chrome wants this to start from the person's click. */
    downloadPromptApiModel: promptApi.download,
    cancelPromptApiDownload: promptApi.cancel,
    /** Loads the chosen engine here and asks it for one short reply, to show it works and how fast. */
    tryEngine: trial.run,
    cancelTrial: trial.cancel,
    /** Has the service worker download WebLLM's model and load it now, rather than at the first request. */
    downloadWebLlmModel: webLlmDownload.start,
    cancelWebLlmDownload: webLlmDownload.cancel,
    /** Shows a load of WebLLM's model another page began, until the function this returns is called. */
    followWebLlmLoads: webLlmDownload.followLoads,
    refreshStorage: storage.refresh,
    /** The connected server's models, asked again (see createServerRefresh). */
    refreshServer: server.refresh,
    deleteModel: storage.deleteModel,
    deleteAllModels: storage.deleteAll,
    addSite: sites.add,
    removeSite: sites.remove,
  };
}
