import { promptFormats } from '@webmcp-agents/local-agent';
import type { Settings } from '../../settings';
import type { Engine } from '../engine';
import { formatForModelName } from '../model-catalog';
import type { GpuLike, WebGpuStatus } from '../webgpu-check';
import { keepServiceWorkerAwake } from '../../service-worker/keep-awake';
import { modelKeptMs } from '../../settings';
import { loadChosenWebLlmModel } from './load-chosen-webllm-model';
import type { WebLlmEngineState } from './webllm-engine-state';
import { realWebLlm, type WebLlmModule } from './webllm-module';
import { createWebLlmReplyModel } from './webllm-reply-model';
import { unloadModel, webLlmRuntime } from './webllm-runtime';

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
  const state: WebLlmEngineState = {};
  const model = createWebLlmReplyModel(runtime, settings, state, keepAwake);
  // The newest settings made this engine: how long the model stays is theirs from now on.
  runtime.linger.retime(modelKeptMs(settings));

  return {
    id: 'webllm',
    holdsGpu: true,
    replyTurns: runtime.replyTurns,
    get modelId() {
      return state.choice?.id ?? (settings.model || 'the default for this GPU');
    },
    get format() {
      return promptFormats[state.choice?.format ?? formatForModelName(settings.model || 'qwen3')];
    },
    get contextTokens() {
      return state.choice?.catalog?.contextTokens;
    },
    get webGpu() {
      return state.webGpu;
    },
    model,
    load(onProgress, signal) {
      return loadChosenWebLlmModel(runtime, settings, state, { gpu: dependencies.gpu, keepAwake, onProgress, signal });
    },
    async unload() {
      await unloadModel(runtime);
    },
    keepLoadedFor(ms) {
      runtime.linger.retime(ms);
    },
  };
}
