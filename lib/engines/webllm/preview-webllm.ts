import { buildFor, findCatalogModel, type CatalogModel } from '../model-catalog';
import { checkWebGpu, defaultModelFor, type GpuLike } from '../webgpu-check';
import { listStoredModels, weightsBaseUrl, type CacheStorageLike } from './model-storage';

/** What WebLLM will do on the first request, told before it: which model, and whether it downloads. */
export type WebLlmPreview =
  | { model: string; downloadMB?: number }
  /** WebLLM cannot run here at all (no WebGPU, or limits below what it needs). */
  | { error: string; hint: string };

export interface PreviewDependencies {
  gpu?: GpuLike;
  caches?: CacheStorageLike;
}

/**
 * Tells, without loading anything, the model the WebLLM engine would load for `requested` (the
 * default for this GPU when empty, the 32-bit twin on a GPU without 16-bit shaders) and its
 * download size when it is not stored yet; or why WebLLM cannot run here. Never throws.
 */
export async function previewWebLlm(requested: string, dependencies: PreviewDependencies = {}): Promise<WebLlmPreview> {
  const gpu = await checkWebGpu(dependencies.gpu);
  if (!gpu.available) return { error: gpu.message, hint: gpu.hint };
  const catalog = requested ? runnableBuild(findCatalogModel(requested), gpu.shaderF16) : defaultModelFor(gpu);
  if (!catalog) return { model: requested };
  const stored = await listStoredModels(dependencies.caches).catch(() => []);
  const complete = stored.some((model) => model.complete && model.baseUrl === weightsBaseUrl(catalog));
  return complete ? { model: catalog.id } : { model: catalog.id, downloadMB: catalog.downloadMB };
}

function runnableBuild(model: CatalogModel | undefined, shaderF16: boolean): CatalogModel | undefined {
  if (!model || !model.needsShaderF16 || shaderF16) return model;
  return buildFor(model.family, false) ?? model;
}
