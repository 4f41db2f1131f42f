import type { EngineId } from './engine';

/**
 * Which engines keep their model in GPU memory (`Engine.holdsGpu`), for a page that decides before
 * any engine is made: the options page tries none of them, since a second copy of the model beside
 * the service worker's could exhaust the GPU. A new engine id fails the type check here until it says.
 */
export const engineHoldsGpu: Readonly<Record<EngineId, boolean>> = {
  webllm: true,
  'prompt-api': false,
  openai: false,
  replay: false,
};
