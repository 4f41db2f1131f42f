import { deleteStoredModels, type CacheStorageLike } from './model-storage';
import { modelBaseUrl, stopDeletedModelLoads } from './stop-deleted-model-loads';
import type { WebLlmRuntime } from './webllm-runtime';

/** A deletion of stored models under way in the service worker: loads wait for it to end. */
export interface ModelDeletion {
  readonly done: Promise<void>;
  /** Whether it deletes the files of this model. */
  covers(modelId: string): boolean;
}

/**
 * Deletes stored models in the service worker (`baseUrls`: the weights' base URLs, undefined for
 * all): first the load of any of them under way is stopped, and waited for, so the download no
 * longer writes back the files being deleted. A download stops at once; a model being copied into
 * the GPU cannot be cut, and is waited for however long it takes (seconds; a minute for a large
 * model on a slow GPU): WebLLM reads each file it copies through its cache, which downloads a
 * missing one again, so files deleted under the copy would come back. Until the files are gone a
 * run that asks for one of them waits, and is then told it was deleted, rather than start a
 * download that races the deletion. Done here rather than in the options page, it ends even when
 * that page is closed.
 */
export async function deleteModelsOnceStopped(
  runtime: WebLlmRuntime,
  baseUrls: readonly string[] | undefined,
  cacheStorage: CacheStorageLike,
): Promise<void> {
  const before = runtime.deletion;
  const done = (async () => {
    await before?.done.catch(() => {});
    await stopDeletedModelLoads(runtime, baseUrls);
    await deleteStoredModels(baseUrls, cacheStorage);
  })();
  const covers = (modelId: string) => baseUrls === undefined || baseUrls.includes(modelBaseUrl(runtime.appConfig, modelId) ?? '');
  runtime.deletion = { done, covers };
  try {
    await done;
  } finally {
    if (runtime.deletion?.done === done) runtime.deletion = undefined;
  }
}
