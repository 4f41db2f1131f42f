// What the options page's components read, gathered from the model's parts in one place, so the
// model itself stays an outline of how those parts are made and wired.
import type { ReadonlySignal } from '@preact/signals';
import type { CatalogModel } from '@/lib/engines/model-catalog';
import type { WebGpuStatus } from '@/lib/engines/webgpu-check';
import type { Settings } from '@/lib/settings';
import type { createEngineTrial } from './engine-trial';
import type { createWebLlmDownload } from './webllm-download';
import type { createPromptApiSetup } from './prompt-api-setup';
import type { createServerConnection } from './server-connection';
import type { createSiteLists } from './site-lists';
import type { createStoredModels } from './stored-models';

interface OptionsModelSignalParts {
  settings: ReadonlySignal<Settings | undefined>;
  saveFailure: ReadonlySignal<{ message: string; attempt: number } | undefined>;
  webGpu: ReadonlySignal<WebGpuStatus | undefined>;
  recommendedModel: ReadonlySignal<CatalogModel | undefined>;
  recommendationReason: ReadonlySignal<string | undefined>;
  promptApi: ReturnType<typeof createPromptApiSetup>;
  server: ReturnType<typeof createServerConnection>;
  storage: ReturnType<typeof createStoredModels>;
  sites: ReturnType<typeof createSiteLists>;
  trial: ReturnType<typeof createEngineTrial>;
  webLlmDownload: ReturnType<typeof createWebLlmDownload>;
}

/** The options page's signals, by the names its components read them. */
export function optionsModelSignals({ settings, saveFailure, webGpu, recommendedModel, recommendationReason, promptApi, server, storage, sites, trial, webLlmDownload }: OptionsModelSignalParts) {
  return {
    settings,
    /** Why the last change could not be saved, until one is; `attempt` tells a second failure from the first. */
    saveFailure,
    webGpu,
    recommendedModel,
    recommendationReason,
    promptApi: promptApi.state,
    promptApiProgress: promptApi.progress,
    /** A download of Chrome's model started here is going on. */
    promptApiBusy: promptApi.busy,
    promptApiCancelled: promptApi.cancelled,
    promptApiFailure: promptApi.failure,
    serverModels: server.models,
    serverState: server.state,
    serverFailure: server.failure,
    serverModelGone: server.modelGone,
    serverDrafts: server.drafts,
    storedModels: storage.models,
    storageQuota: storage.quota,
    storageFailure: storage.failure,
    storageDeleted: storage.deleted,
    siteFailures: sites.failures,
    trial: trial.trial,
    webLlmDownload: webLlmDownload.download,
    webLlmLoadElsewhere: webLlmDownload.loadElsewhere,
    webLlmLoadElsewhereFailed: webLlmDownload.loadElsewhereFailed,
    webLlmLoadElsewhereLoaded: webLlmDownload.loadElsewhereLoaded,
  };
}
