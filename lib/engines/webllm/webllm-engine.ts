import { promptFormats, type LanguageModel, type ModelChunk, type ModelRequest } from '@webmcp-agents/local-agent';
import type { Settings } from '../../settings';
import { EngineError, type Engine } from '../engine';
import { formatForModelName, modelLabel, smallerModelThan } from '../model-catalog';
import { checkWebGpu, type GpuLike, type WebGpuStatus } from '../webgpu-check';
import { chooseWebLlmModel, type WebLlmModelChoice } from './choose-webllm-model';
import { keepServiceWorkerAwake } from '../../service-worker/keep-awake';
import { streamWebLlmReply } from './stream-webllm-reply';
import { generationFailure, isDeviceLost } from './webllm-errors';
import { realWebLlm, type WebLlmModule } from './webllm-module';
import { ensureModelLoaded, unloadModel, webLlmRuntime } from './webllm-runtime';

export interface WebLlmEngineDependencies {
  /** The WebLLM module; tests pass a fake with the same surface. */
  webllm?: WebLlmModule;
  /** `navigator.gpu`, by default. */
  gpu?: GpuLike;
  keepAwake?: () => () => void;
}

export type WebLlmEngine = Engine & {
  /** What the WebGPU check found at the last load. */
  readonly webGpu: WebGpuStatus | undefined;
};

/**
 * WebLLM on WebGPU, in the service worker. The model lives in a runtime shared by every engine
 * built from the same module, so `load` before each run costs nothing once the model is in.
 */
export function createWebLlmEngine(settings: Settings, dependencies: WebLlmEngineDependencies = {}): WebLlmEngine {
  const runtime = webLlmRuntime(dependencies.webllm ?? realWebLlm);
  const keepAwake = dependencies.keepAwake ?? keepServiceWorkerAwake;
  let webGpu: WebGpuStatus | undefined;
  let choice: WebLlmModelChoice | undefined;
  // The GPU was lost as a reply ended on being told to stop: the run's next reply says so, as the
  // reply it failed would have, instead of that the model is not loaded. Forgotten at the next load.
  let lostDevice: EngineError | undefined;

  const smallerLabel = () => {
    const smaller = choice && smallerModelThan(choice.id, webGpu?.available === true && webGpu.shaderF16);
    return smaller ? modelLabel(smaller) : undefined;
  };

  const model: LanguageModel = {
    async *stream(request: ModelRequest): AsyncGenerator<ModelChunk> {
      const passOn = await runtime.replyTurns.take(request.signal);
      if (!passOn) return;
      // Read after the wait: the reply before this one may have ended with another model loaded.
      const engine = runtime.engine;
      if (!engine || !choice || runtime.loadedModelId !== choice.id) {
        passOn();
        throw lostDevice ?? new EngineError('unavailable', 'The WebLLM model is not loaded.', 'Send your request again to load it.');
      }
      const stopKeepingAwake = keepAwake();
      try {
        yield* streamWebLlmReply(engine, request, {
          modelId: choice.id,
          temperature: settings.temperature,
          constrained: settings.constrainedDecoding && choice.format === 'hermes',
          thinkingOff: choice.catalog?.hasThinkingMode ?? /qwen3/i.test(choice.id),
          label: choice.label,
          ...(choice.catalog ? { contextTokens: choice.catalog.contextTokens } : {}),
        });
      } catch (error) {
        const failure = generationFailure(error, choice.label, smallerLabel());
        const deviceLost = isDeviceLost(error) || failure.code === 'device-lost';
        // Only this reply's engine: another run may have loaded a fresh one meanwhile. Also where the
        // reply was told to stop (Stop, or the end of the model's own turn), so the next load starts afresh.
        if (deviceLost && runtime.engine === engine) await unloadModel(runtime);
        if (!request.signal.aborted) throw failure;
        if (deviceLost) lostDevice = failure;
        throw error;
      } finally {
        stopKeepingAwake();
        passOn();
      }
    },
  };

  return {
    id: 'webllm',
    holdsGpu: true,
    replyTurns: runtime.replyTurns,
    get modelId() {
      return choice?.id ?? (settings.model || 'the default for this GPU');
    },
    get format() {
      return promptFormats[choice?.format ?? formatForModelName(settings.model || 'qwen3')];
    },
    get contextTokens() {
      return choice?.catalog?.contextTokens;
    },
    get webGpu() {
      return webGpu;
    },
    model,
    async load(onProgress, signal) {
      lostDevice = undefined;
      webGpu = await checkWebGpu(dependencies.gpu);
      if (!webGpu.available) throw new EngineError('no-webgpu', webGpu.message, webGpu.hint);
      choice = chooseWebLlmModel(settings.model, webGpu, runtime.appConfig);
      const smaller = smallerLabel();
      await ensureModelLoaded(runtime, {
        modelId: choice.id,
        label: choice.label,
        onProgress,
        keepAwake,
        ...(choice.catalog ? { downloadMB: choice.catalog.downloadMB } : {}),
        ...(choice.note ? { note: choice.note } : {}),
        ...(smaller ? { smallerLabel: smaller } : {}),
        ...(signal ? { signal } : {}),
      });
    },
    async unload() {
      await unloadModel(runtime);
    },
  };
}
