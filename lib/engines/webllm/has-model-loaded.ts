import type { WebLlmEngineLike } from './webllm-module';

/** Whether the engine has `modelId` in the GPU now (it answers without a model loaded by refusing). */
export async function hasModelLoaded(engine: WebLlmEngineLike, modelId: string): Promise<boolean> {
  return engine.getMessage(modelId).then(
    () => true,
    (error: unknown) => !(error instanceof Error && (error.name === 'ModelNotLoadedError' || /not loaded/i.test(error.message))),
  );
}
