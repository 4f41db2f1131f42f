import type { AppConfig } from '@mlc-ai/web-llm';
import type { WebLlmRuntime } from './webllm-runtime';

/**
 * Before stored models are deleted: stops the load of any of them under way, and waits for it to
 * end. Otherwise the download goes on writing the files being deleted, and the run that waits for
 * it gets a model with half its files gone from the disk. `baseUrls`: the weights' base URLs of the
 * models deleted; undefined for all of them. Answers whether a load was stopped. A model already
 * in the GPU stays there: it no longer reads its files.
 */
export async function stopDeletedModelLoads(runtime: WebLlmRuntime, baseUrls: readonly string[] | undefined): Promise<boolean> {
  const deleted = (modelId: string | undefined) =>
    modelId !== undefined && (baseUrls === undefined || baseUrls.includes(modelBaseUrl(runtime.appConfig, modelId) ?? ''));
  let stopped = false;
  // Another run may be waiting to load the same model the moment this load ends: it is stopped too.
  while (runtime.pending && deleted(runtime.loadingModelId)) {
    runtime.stopLoad?.('deleted');
    stopped = true;
    await runtime.pending.catch(() => {});
  }
  return stopped;
}

/** Where WebLLM stores a model's weights: its record's URL, with `resolve/main/` added as WebLLM adds it. */
export function modelBaseUrl(appConfig: AppConfig, modelId: string): string | undefined {
  const record = appConfig.model_list.find((candidate) => candidate.model_id === modelId);
  if (!record) return undefined;
  const url = record.model.endsWith('/') ? record.model : `${record.model}/`;
  try {
    return new URL(/.+\/resolve\/.+\//.test(url) ? url : `${url}resolve/main/`).href;
  } catch {
    return undefined;
  }
}
