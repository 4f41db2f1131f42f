import type { WebLlmEngineLike } from './webllm-module';

/**
 * Whether the engine has `modelId` in the GPU now: it refuses to say without a model loaded
 * (`ModelNotLoadedError`), or with another one loaded (`SpecifiedModelNotFoundError`).
 */
export async function hasModelLoaded(engine: WebLlmEngineLike, modelId: string): Promise<boolean> {
  return engine.getMessage(modelId).then(
    () => true,
    (error: unknown) => !(error instanceof Error && (/^(ModelNotLoaded|SpecifiedModelNotFound)Error$/.test(error.name) || /not (loaded|found in loaded models)/i.test(error.message))),
  );
}
