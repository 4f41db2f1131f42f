import type { AppConfig } from '@mlc-ai/web-llm';
import type { EngineLoadProgress } from '../engine';
import { createReplyTurns, type ReplyTurns } from '../reply-turns';
import type { ModelDeletion } from './delete-models-once-stopped';
import { firstLoadProgress } from './first-load-progress';
import { megabytesLeftToDownload } from './model-storage';
import { hasModelLoaded } from './has-model-loaded';
import { createModelLinger, type ModelLinger } from './model-linger';
import { createLoadProgressReporter } from './load-progress';
import { createLoadStop, loadStopped, stoppedError, type LoadStopReason } from './load-stop';
import { reloadWebLlmEngine } from './reload-webllm-engine';
import type { WebLlmEngineLike, WebLlmModule } from './webllm-module';

/**
 * The one WebLLM engine of this service worker and the model in it. Engines built from settings
 * come and go with every run; the GPU state stays here so that a second load costs nothing.
 */
export interface WebLlmRuntime {
  readonly webllm: WebLlmModule;
  readonly appConfig: AppConfig;
  engine?: WebLlmEngineLike;
  loadedModelId?: string;
  /** The load under way, so that two runs never download the same model twice. */
  pending?: Promise<void>;
  /** The model the load under way loads. */
  loadingModelId?: string;
  /** Stops the load under way: Stop was pressed, the model is being unloaded, or its files deleted. */
  stopLoad?: (reason?: LoadStopReason) => void;
  /** Stored models being deleted: no load starts until the files are gone (see deleteModelsOnceStopped). */
  deletion?: ModelDeletion;
  /**
   * Replies take turns: WebLLM queues them itself, but its interrupt flag is one for the whole
   * engine, so Stop in one tab would end another tab's reply.
   */
  readonly replyTurns: ReplyTurns;
  /** Keeps the worker, and so the model, some minutes after its last use (see `ModelLinger`). */
  readonly linger: ModelLinger;
}

export interface LoadRequest {
  modelId: string;
  label: string;
  downloadMB?: number;
  /** Where the model's weights are stored (see `weightsBaseUrl`), to tell what a resumed download has left. */
  weightsUrl?: string;
  smallerLabel?: string;
  note?: string;
  onProgress(progress: EngineLoadProgress): void;
  signal?: AbortSignal;
  keepAwake(): () => void;
}

const runtimes = new WeakMap<WebLlmModule, WebLlmRuntime>();

export function webLlmRuntime(webllm: WebLlmModule): WebLlmRuntime {
  let runtime = runtimes.get(webllm);
  if (!runtime) {
    let appConfig: AppConfig | undefined;
    runtime = {
      webllm,
      // Read at the first load, not before: reading it reads WebLLM (see `realWebLlm`). The Cache
      // API backend is pinned: the options page reads model sizes from it.
      get appConfig() {
        return (appConfig ??= { ...webllm.prebuiltAppConfig, cacheBackend: 'cache' });
      },
      replyTurns: createReplyTurns(),
      linger: createModelLinger(),
    };
    runtimes.set(webllm, runtime);
  }
  return runtime;
}

/**
 * Loads a model unless it is already in the GPU; waits for a load already under way, and for a
 * deletion of stored models. A model deleted meanwhile is not downloaded again: the run says so.
 */
export async function ensureModelLoaded(runtime: WebLlmRuntime, request: LoadRequest): Promise<void> {
  let deleted = false;
  for (;;) {
    if (runtime.pending) await runtime.pending.catch(() => {});
    else if (runtime.deletion) deleted = (await deletionEnded(runtime.deletion, request.modelId)) || deleted;
    else if (runtime.engine && runtime.loadedModelId === request.modelId) {
      // WebLLM unloads the model by itself when the GPU device is lost while nothing runs. Another
      // run may start its load while this asks: then this waits for that one, rather than load twice.
      const loaded = await hasModelLoaded(runtime.engine, request.modelId);
      if (runtime.pending || runtime.deletion) continue;
      if (!loaded) break;
      request.onProgress({ fraction: 1, text: `${request.label} is ready.`, fromCache: true });
      return;
    } else break;
  }
  if (deleted) throw stoppedError(request.signal, request.label, 'deleted');
  runtime.loadingModelId = request.modelId;
  runtime.pending = reloadModel(runtime, request);
  try {
    await runtime.pending;
  } finally {
    runtime.pending = undefined;
    runtime.stopLoad = undefined;
    runtime.loadingModelId = undefined;
  }
}

/** Waits for a deletion to end; answers whether it deleted the files of `modelId`. */
async function deletionEnded(deletion: ModelDeletion, modelId: string): Promise<boolean> {
  await deletion.done.catch(() => {});
  return deletion.covers(modelId);
}

/** Loads the model into the one engine: its progress shown, Stop heard, the worker kept awake meanwhile. */
async function reloadModel(runtime: WebLlmRuntime, request: LoadRequest): Promise<void> {
  const { webllm, appConfig } = runtime;
  const { modelId, label, signal } = request;
  if (signal?.aborted) throw loadStopped();
  // A stop that comes while the cache is read, before WebLLM starts, is kept for the moment after.
  let earlyStop: LoadStopReason | undefined;
  runtime.stopLoad = (reason) => void (earlyStop ??= reason ?? 'unloaded');
  const wasCached = await webllm.hasModelInCache(modelId, appConfig).catch(() => false);
  const leftMB = await downloadLeft(request, wasCached);
  if (signal?.aborted) throw loadStopped();
  if (earlyStop) throw stoppedError(signal, label, earlyStop);
  request.onProgress(firstLoadProgress(request, wasCached, leftMB));
  const reporter = createLoadProgressReporter({ label, fromCache: wasCached, onProgress: request.onProgress });
  const engine = (runtime.engine ??= new webllm.MLCEngine({ appConfig, logLevel: 'WARN' }));
  const loadStop = createLoadStop(engine, wasCached);
  engine.setInitProgressCallback((report) => {
    loadStop.watch(report);
    reporter(report);
  });
  runtime.loadedModelId = undefined;
  runtime.stopLoad = loadStop.stop;
  if (earlyStop) loadStop.stop(earlyStop);
  const stop = () => loadStop.stop();
  signal?.addEventListener('abort', stop, { once: true });
  // Stop may come from the progress shown above, before the listener was there.
  if (signal?.aborted) stop();
  const stopKeepingAwake = request.keepAwake();
  await reloadWebLlmEngine(runtime, engine, request, {
    wasCached,
    loadStop,
    reporter,
    done() {
      signal?.removeEventListener('abort', stop);
      if (runtime.stopLoad === loadStop.stop) runtime.stopLoad = undefined;
      stopKeepingAwake();
    },
  });
}

/**
 * Frees the GPU and forgets the engine: on request, or after the GPU failed during a reply, so
 * that the next load starts afresh.
 */
export async function unloadModel(runtime: WebLlmRuntime): Promise<void> {
  // A load under way would otherwise finish into an engine nobody holds any more, and keep its
  // model in the GPU next to the next one.
  while (runtime.pending) {
    runtime.stopLoad?.();
    await runtime.pending.catch(() => {});
  }
  const engine = runtime.engine;
  runtime.engine = undefined;
  runtime.loadedModelId = undefined;
  runtime.linger.end();
  await engine?.unload().catch(() => {});
}

/** Megabytes the load downloads, where known: a download that stopped part way has only the rest left. */
async function downloadLeft({ downloadMB, weightsUrl }: LoadRequest, wasCached: boolean): Promise<number | undefined> {
  if (wasCached || downloadMB === undefined || weightsUrl === undefined) return downloadMB;
  return megabytesLeftToDownload(weightsUrl, downloadMB);
}
