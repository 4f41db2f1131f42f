import * as webllm from '@mlc-ai/web-llm';
import type { InitProgressCallback, InitProgressReport, MLCEngineConfig } from '@mlc-ai/web-llm';
import type { WebLlmEngineLike, WebLlmModule } from '../../../lib/engines/webllm/webllm-module';

/**
 * WebLLM 0.2.86's real `MLCEngine` (its real `reload()`, `unload()` and abort controller), with
 * only `reloadInternal` replaced, since the real one needs WebGPU and a model library. The
 * stand-in follows `node_modules/@mlc-ai/web-llm/lib/index.js` step by step:
 *
 * - the config and the library are fetched with `this.reloadController?.signal`, read afresh;
 * - the model type and chat config are recorded before the weights, as WebLLM does;
 * - the progress callback is registered on a new TVM instance, which calls it as
 *   `this.initProgressCallback[j](report)` from the weights loader;
 * - the tokenizer is fetched with no signal at all (`asyncLoadTokenizer`);
 * - the weights take the controller's signal as it is when their fetch starts;
 * - `fetchTensorCacheInternal`: "Start to fetch params" (even when everything is stored), four
 *   download loops whose fetches reject with the abort reason (unload() gives a string), each
 *   reporting after its shard outside any try/catch; then the copy into the GPU, shard by shard,
 *   which holds GPU memory in the TVM instance until the pipeline made from it is disposed;
 * - the pipeline, its lock, and "Finish loading".
 *
 * `world` counts what reached the network and what sits in GPU memory, and lets a test act while
 * the tokenizer downloads.
 */
export interface StandInWorld {
  shardsPerModel: number;
  megabytesPerShard: number;
  /** Shards stored per model (the Cache API). */
  stored: Map<string, Set<number>>;
  /** Every weights shard that went over the network, in order. */
  downloads: string[];
  /** Called while the tokenizer downloads, before it ends. */
  onTokenizer?: (modelId: string) => void | Promise<void>;
  /** Called before each shard is copied into the GPU. */
  onCopy?: (modelId: string, shard: number) => void | Promise<void>;
  /** The TVM instances made, each with the megabytes of weights it holds in GPU memory. */
  instances: { modelId: string; gpuMegabytes: number }[];
  engines: StandInEngine[];
  /** GPU memory held by all instances: weights not freed. */
  gpuMegabytes(): number;
}

/** The real engine, with the internals WebLLM keeps private. */
export interface StandInEngine extends WebLlmEngineLike {
  loadedModelIdToPipeline: Map<string, unknown>;
  loadedModelIdToChatConfig: Map<string, unknown>;
  loadedModelIdToModelType: Map<string, number>;
  loadedModelIdToLock: Map<string, unknown>;
  reloadController: AbortController | undefined;
  initProgressCallback?: InitProgressCallback;
}

const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 1));

/** A network fetch of one step that an aborted signal ends with its reason, as `fetch` does. */
function fetchStep(signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, 1);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

export function createStandInWebLlm(options: { shardsPerModel?: number; megabytesPerShard?: number; stored?: string[] } = {}): {
  module: WebLlmModule;
  world: StandInWorld;
} {
  const world: StandInWorld = {
    shardsPerModel: options.shardsPerModel ?? 12,
    megabytesPerShard: options.megabytesPerShard ?? 30,
    stored: new Map(),
    downloads: [],
    instances: [],
    engines: [],
    gpuMegabytes: () => world.instances.reduce((sum, instance) => sum + instance.gpuMegabytes, 0),
  };
  const all = () => new Set(Array.from({ length: world.shardsPerModel }, (_, index) => index));
  for (const modelId of options.stored ?? []) world.stored.set(modelId, all());

  /** The part of tvmjs's `Instance` the weights loader uses. */
  class StandInTvm {
    readonly initProgressCallback: InitProgressCallback[] = [];
    readonly held: { modelId: string; gpuMegabytes: number };
    constructor(readonly modelId: string) {
      this.held = { modelId, gpuMegabytes: 0 };
      world.instances.push(this.held);
    }
    registerInitProgressCallback(callback: InitProgressCallback) {
      this.initProgressCallback.push(callback);
    }
    dispose() {
      this.held.gpuMegabytes = 0;
    }
    async fetchTensorCache(signal: AbortSignal | undefined) {
      const { modelId } = this;
      const count = world.shardsPerModel;
      const megabytes = world.megabytesPerShard;
      const stored = world.stored.get(modelId) ?? new Set<number>();
      world.stored.set(modelId, stored);
      const started = performance.now();
      let fetchedBytes = 0;
      let fetchedShards = 0;
      let timeElapsed = 0;
      const cacheOnly = stored.size === count;
      const reportCallback = (iter: number, loading: boolean) => {
        for (let j = 0; j < this.initProgressCallback.length; ++j) {
          const mb = Math.ceil(fetchedBytes / 2 ** 20);
          const percent = Math.floor((fetchedBytes * 100) / (count * megabytes * 2 ** 20));
          const text = loading
            ? `Loading model from cache[${iter}/${count}]: ${mb}MB loaded. ${percent}% completed, ${timeElapsed} secs elapsed.`
            : `Fetching param cache[${iter}/${count}]: ${mb}MB fetched. ${percent}% completed, ${timeElapsed} secs elapsed. It can take a while when we first visit this page to populate the cache. Later refreshes will become faster.`;
          this.initProgressCallback[j]!({ progress: fetchedBytes / (count * megabytes * 2 ** 20), timeElapsed, text });
        }
      };
      for (let j = 0; j < this.initProgressCallback.length; ++j) {
        this.initProgressCallback[j]!({ progress: 0, timeElapsed: 0, text: 'Start to fetch params' });
      }
      const downloadCache = async (start: number, end: number) => {
        for (let i = start; i < end; i++) {
          if (!stored.has(i)) {
            await fetchStep(signal);
            world.downloads.push(`${modelId}#${i}`);
            stored.add(i);
          }
          timeElapsed = Math.ceil((performance.now() - started) / 1000);
          fetchedBytes += megabytes * 2 ** 20;
          reportCallback(++fetchedShards, false);
        }
      };
      if (!cacheOnly) {
        const loopSize = Math.floor(count / 4);
        await Promise.all([downloadCache(0, loopSize), downloadCache(loopSize, 2 * loopSize), downloadCache(2 * loopSize, 3 * loopSize), downloadCache(3 * loopSize, count)]);
      }
      fetchedBytes = 0;
      fetchedShards = 0;
      for (let i = 0; i < count; ++i) {
        await world.onCopy?.(modelId, i);
        await tick();
        // WebLLM reads each shard through its cache (fetchWithCache), which downloads and stores one
        // that is missing: a shard deleted under the copy comes back.
        if (!stored.has(i)) {
          world.downloads.push(`${modelId}#${i}`);
          stored.add(i);
        }
        this.held.gpuMegabytes += megabytes;
        fetchedBytes += megabytes * 2 ** 20;
        reportCallback(++fetchedShards, true);
      }
    }
  }

  const Base = webllm.MLCEngine as unknown as new (config?: MLCEngineConfig) => StandInEngine;
  class StandInMLCEngine extends Base {
    constructor(config?: MLCEngineConfig) {
      super(config);
      world.engines.push(this);
    }

    async reloadInternal(modelId: string): Promise<void> {
      const self = this as StandInEngine;
      self.loadedModelIdToModelType.set(modelId, 0);
      await fetchStep(self.reloadController?.signal); // mlc-chat-config.json
      self.loadedModelIdToChatConfig.set(modelId, { model: modelId });
      await fetchStep(self.reloadController?.signal); // the model library (wasm)
      const tvm = new StandInTvm(modelId);
      if (self.initProgressCallback !== undefined) tvm.registerInitProgressCallback(self.initProgressCallback);
      // tokenizer.json: no signal.
      await world.onTokenizer?.(modelId);
      await tick();
      await tvm.fetchTensorCache(self.reloadController?.signal);
      // The pipeline owns the TVM instance: disposing it frees the weights.
      const pipeline = { dispose: () => tvm.dispose(), sync: async () => {} };
      report(self, { progress: 1, timeElapsed: 0, text: 'Loading GPU shader modules[40/40]: 100% completed, 0 secs elapsed.' });
      self.loadedModelIdToPipeline.set(modelId, pipeline);
      self.loadedModelIdToLock.set(modelId, {});
      report(self, { progress: 1, timeElapsed: 0, text: 'Finish loading on WebGPU - stand-in' });
    }

    /**
     * As WebLLM's: `getLLMStates` needs a pipeline and the chat config of the model; only the
     * check that the pipeline is a real `LLMChatPipeline` is left out.
     */
    override async getMessage(modelId?: string): Promise<string> {
      const loaded = [...this.loadedModelIdToPipeline.keys()];
      const selected = modelId ?? loaded[0];
      if (selected === undefined || !this.loadedModelIdToPipeline.has(selected)) {
        const error = new Error('Model not loaded before trying to complete getMessage.');
        error.name = 'ModelNotLoadedError';
        throw error;
      }
      if (!this.loadedModelIdToChatConfig.has(selected)) throw new Error(`InternalError: chat config not registered for ${selected}.`);
      return '';
    }
  }

  const module: WebLlmModule = {
    MLCEngine: StandInMLCEngine as unknown as WebLlmModule['MLCEngine'],
    prebuiltAppConfig: webllm.prebuiltAppConfig,
    hasModelInCache: async (modelId) => (world.stored.get(modelId)?.size ?? 0) === world.shardsPerModel,
    deleteModelAllInfoInCache: async (modelId) => void world.stored.delete(modelId),
  };
  return { module, world };
}

function report(engine: { initProgressCallback?: InitProgressCallback }, progress: InitProgressReport) {
  engine.initProgressCallback?.(progress);
}
