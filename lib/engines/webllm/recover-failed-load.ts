import { errorMessage } from '../../messaging/error-message';
import { isDeviceLost, isNetworkFailure } from './webllm-errors';
import type { WebLlmEngineLike } from './webllm-module';
import type { WebLlmRuntime } from './webllm-runtime';

/**
 * Puts things right after a failed load so the next attempt can work without reloading the
 * extension: a lost GPU device means a fresh engine; unreadable stored files are removed. A
 * download cut by the network keeps what it fetched, so the retry resumes. Answers whether the
 * stored files were removed.
 */
export async function recoverFailedLoad(runtime: WebLlmRuntime, engine: WebLlmEngineLike, modelId: string, error: unknown): Promise<boolean> {
  if (isDeviceLost(error)) {
    await engine.unload().catch(() => {});
    if (runtime.engine === engine) runtime.engine = undefined;
    return false;
  }
  if (isNetworkFailure(error) || !looksLikeBrokenFiles(error)) return false;
  // Said to the person as "it has been removed": only when it was.
  return runtime.webllm.deleteModelAllInfoInCache(modelId, runtime.appConfig).then(
    () => true,
    () => false,
  );
}

/** Errors that mean a stored file is damaged, not that the network or the GPU failed. */
function looksLikeBrokenFiles(error: unknown): boolean {
  const name = error instanceof Error ? error.name : '';
  const message = errorMessage(error);
  return name === 'IntegrityError' || name === 'SyntaxError' || /integrity|JSON|unexpected (token|end)|corrupt|mismatch/i.test(message);
}
