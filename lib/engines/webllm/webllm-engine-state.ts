import type { EngineError } from '../engine';
import { modelLabel, smallerModelThan } from '../model-catalog';
import type { WebGpuStatus } from '../webgpu-check';
import type { WebLlmModelChoice } from './choose-webllm-model';

/** What a WebLLM engine found at its last load, and what its last reply left for the next: its replies, errors and status go by it. */
export interface WebLlmEngineState {
  webGpu?: WebGpuStatus;
  choice?: WebLlmModelChoice;
  /**
   * The GPU was lost as a reply ended on being told to stop: the run's next reply says so, as the
   * reply it failed would have, instead of that the model is not loaded. Forgotten at the next load.
   */
  lostDevice?: EngineError;
}

/** The model to name after running out of GPU memory: a smaller one of the same build, if any. */
export function smallerModelLabel(state: WebLlmEngineState): string | undefined {
  const smaller = state.choice && smallerModelThan(state.choice.id, state.webGpu?.available === true && state.webGpu.shaderF16);
  return smaller ? modelLabel(smaller) : undefined;
}
