import { hasModelLoaded } from './has-model-loaded';
import type { LoadProgressReporter } from './load-progress';
import { stoppedError, type LoadStop } from './load-stop';
import { recoverFailedLoad } from './recover-failed-load';
import { loadFailure } from './webllm-errors';
import type { WebLlmEngineLike } from './webllm-module';
import type { LoadRequest, WebLlmRuntime } from './webllm-runtime';

/** What the load set up before WebLLM started: whether the model was stored, its Stop, its progress reporter. */
export interface StartedLoad {
  wasCached: boolean;
  loadStop: LoadStop;
  reporter: LoadProgressReporter;
  /** Lets go of what the load held (its Stop, the worker kept awake) the moment it ends, whichever way. */
  done(): void;
}

/**
 * Has WebLLM load the model, and notes in the runtime what is in the GPU after it: the model, even
 * where Stop came too late. Otherwise it throws the error the person reads, once things are put
 * right for a retry.
 */
export async function reloadWebLlmEngine(runtime: WebLlmRuntime, engine: WebLlmEngineLike, request: LoadRequest, started: StartedLoad): Promise<void> {
  const { modelId, label, signal } = request;
  const { wasCached, loadStop, reporter } = started;
  try {
    await engine.reload(modelId);
    if (!loadStop.stopped) {
      runtime.loadedModelId = modelId;
      return;
    }
    // A load that finished in spite of Stop is kept: the next request needs no second load. One
    // stopped only because its files were being deleted (too late to cut, the copy into the GPU
    // under way) has all it needs: its run goes on with it.
    if (await hasModelLoaded(engine, modelId)) {
      runtime.loadedModelId = modelId;
      if (loadStop.reason === 'deleted' && !signal?.aborted) return;
    }
    throw stoppedError(signal, label, loadStop.reason);
  } catch (error) {
    if (loadStop.stopped) {
      // What a stopped load leaves in the engine (its config, a controller) goes with it.
      if (runtime.loadedModelId !== modelId) await engine.unload().catch(() => {});
      throw stoppedError(signal, label, loadStop.reason);
    }
    const clearedBrokenCache = await recoverFailedLoad(runtime, engine, modelId, error);
    throw loadFailure(error, {
      label,
      wasCached,
      clearedBrokenCache,
      ...(request.smallerLabel ? { smallerLabel: request.smallerLabel } : {}),
      ...(reporter.lastDownload && !wasCached ? { download: reporter.lastDownload } : {}),
    });
  } finally {
    started.done();
  }
}
