import { errorMessage } from '../../messaging/error-message';
import { findCatalogModel } from '../model-catalog';
import { deleteStoredLibrary, deleteStoredModel } from './model-storage';
import { modelBaseUrl } from './stop-deleted-model-loads';
import { isDeviceLost, isNetworkFailure } from './webllm-errors';
import type { WebLlmEngineLike } from './webllm-module';
import type { WebLlmRuntime } from './webllm-runtime';

/**
 * Puts things right after a failed load so the next attempt can work without reloading the
 * extension: a lost GPU device means a fresh engine; unreadable stored files are removed. A
 * download cut by the network keeps what it fetched, so the retry resumes. Answers which stored
 * files were removed: all the model's (`model`), its library alone (`library`), or none.
 */
export async function recoverFailedLoad(runtime: WebLlmRuntime, engine: WebLlmEngineLike, modelId: string, error: unknown): Promise<RemovedFiles> {
  if (isDeviceLost(error)) {
    await engine.unload().catch(() => {});
    if (runtime.engine === engine) runtime.engine = undefined;
    return false;
  }
  if (isNetworkFailure(error) || !looksLikeBrokenFiles(error)) return false;
  // A library that is no WebAssembly at all goes alone, shared or not: the weights are sound.
  if (libraryIsNotWebAssembly(error)) return (await deleteLibrary(runtime, modelId)) && 'library';
  // Said to the person as "it has been removed": only when it was. The files go by their address,
  // as the options page removes a model: every one, and the library only where no other stored
  // model shares it. WebLLM's own deletion keeps the model's file list (listed afterwards as a
  // stopped download), removes a shared library, and first reads that list, which may be what is
  // damaged (a sign-in page stored in its place): it is only for where the files have no address.
  if (await deleteByAddress(runtime, modelId)) return 'model';
  return runtime.webllm.deleteModelAllInfoInCache(modelId, runtime.appConfig).then(
    () => 'model' as const,
    () => false as const,
  );
}

/** What a failed load's recovery removed of the model's stored files. */
export type RemovedFiles = 'model' | 'library' | false;

async function deleteByAddress(runtime: WebLlmRuntime, modelId: string): Promise<boolean> {
  const baseUrl = modelBaseUrl(runtime.appConfig, modelId);
  if (!baseUrl || typeof caches === 'undefined') return false;
  const catalog = findCatalogModel(modelId);
  return deleteStoredModel({ baseUrl, ...(catalog ? { catalog } : {}) }).then(
    () => true,
    () => false,
  );
}

async function deleteLibrary(runtime: WebLlmRuntime, modelId: string): Promise<boolean> {
  const url = runtime.appConfig.model_list.find((record) => record.model_id === modelId)?.model_lib;
  if (!url || typeof caches === 'undefined') return false;
  return deleteStoredLibrary(url).then(
    () => true,
    () => false,
  );
}

/**
 * Errors that mean a stored file is damaged, not that the network or the GPU failed: a file that
 * is not JSON, or a library that is not WebAssembly (a web page stored in its place begins "<").
 */
function looksLikeBrokenFiles(error: unknown): boolean {
  const name = error instanceof Error ? error.name : '';
  if (name === 'IntegrityError' || name === 'SyntaxError' || libraryIsNotWebAssembly(error)) return true;
  return /integrity|JSON|unexpected (token|end)|corrupt|mismatch/i.test(errorMessage(error));
}

/**
 * WebAssembly's words for a file that does not even begin as WebAssembly. A library this Chrome
 * cannot compile (a feature it lacks) says otherwise, and is not a damaged file.
 */
function libraryIsNotWebAssembly(error: unknown): boolean {
  return /expected magic word/i.test(errorMessage(error));
}
