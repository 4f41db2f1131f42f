import { modelKeptMs, type Settings } from '../../settings';
import { EngineError, type EngineLoadProgress } from '../engine';
import { checkWebGpu, type GpuLike } from '../webgpu-check';
import { chooseWebLlmModel } from './choose-webllm-model';
import { smallerModelLabel, type WebLlmEngineState } from './webllm-engine-state';
import { weightsBaseUrl } from './model-storage';
import { ensureModelLoaded, type WebLlmRuntime } from './webllm-runtime';

/** What a WebLLM engine's load needs besides its runtime and settings. */
export interface ChosenModelLoad {
  gpu: GpuLike | undefined;
  keepAwake(): () => void;
  onProgress(progress: EngineLoadProgress): void;
  signal: AbortSignal | undefined;
}

/**
 * A WebLLM engine's load: WebGPU checked and the model for this GPU chosen (both noted in `state`,
 * which the replies and the panels' status read), then loaded into the runtime unless it is in already.
 */
export async function loadChosenWebLlmModel(runtime: WebLlmRuntime, settings: Settings, state: WebLlmEngineState, load: ChosenModelLoad): Promise<void> {
  const { keepAwake, onProgress, signal } = load;
  state.lostDevice = undefined;
  const webGpu = (state.webGpu = await checkWebGpu(load.gpu));
  if (!webGpu.available) throw new EngineError('no-webgpu', webGpu.message, webGpu.hint);
  const choice = (state.choice = chooseWebLlmModel(settings.model, webGpu, runtime.appConfig));
  const smaller = smallerModelLabel(state);
  await ensureModelLoaded(runtime, {
    modelId: choice.id,
    label: choice.label,
    onProgress,
    keepAwake,
    ...(choice.catalog ? { downloadMB: choice.catalog.downloadMB, weightsUrl: weightsBaseUrl(choice.catalog) } : {}),
    ...(choice.note ? { note: choice.note } : {}),
    ...(smaller ? { smallerLabel: smaller } : {}),
    ...(signal ? { signal } : {}),
  });
  runtime.linger.used(modelKeptMs(settings), keepAwake);
}
