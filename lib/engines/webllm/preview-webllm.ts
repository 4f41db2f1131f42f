import type { EnginePreview } from '../engine-preview';
import { buildFor, findCatalogModel, type CatalogModel } from '../model-catalog';
import { checkWebGpu, defaultModelFor, type GpuLike, type WebGpuStatus } from '../webgpu-check';
import { isModelStored, megabytesLeftToDownload, weightsBaseUrl, type CacheStorageLike } from './model-storage';


export interface PreviewDependencies {
  gpu?: GpuLike;
  caches?: CacheStorageLike;
}

/**
 * Tells, without loading anything, the model the WebLLM engine would load for `requested` (the
 * default for this GPU when empty, the 32-bit twin on a GPU without 16-bit shaders) and its
 * download size when it is not stored yet; or why WebLLM cannot run here at all (no WebGPU, or
 * limits below what it needs). Never throws.
 */
export async function previewWebLlm(requested: string, dependencies: PreviewDependencies = {}): Promise<EnginePreview> {
  // This computer's GPU does not change while the worker runs: it is asked once, unless it was
  // not found (the GPU process may have been restarting): that is asked again next time.
  const gpu = await (dependencies.gpu ? checkWebGpu(dependencies.gpu) : (thisGpu ??= checkWebGpu()));
  if (!gpu.available) {
    if (!dependencies.gpu) thisGpu = undefined;
    return { error: gpu.message, hint: gpu.hint };
  }
  const catalog = requested ? runnableBuild(findCatalogModel(requested), gpu.shaderF16) : defaultModelFor(gpu);
  const slow = gpu.fallbackAdapter ? { slowGpu: true as const } : {};
  if (!catalog) return { model: requested, ...slow };
  const stored = await isModelStored(catalog, dependencies.caches).catch(() => false);
  if (stored) return { model: catalog.id, ...slow };
  return { model: catalog.id, downloadMB: await megabytesLeftToDownload(weightsBaseUrl(catalog), catalog.downloadMB, dependencies.caches), ...slow };
}

let thisGpu: Promise<WebGpuStatus> | undefined;

function runnableBuild(model: CatalogModel | undefined, shaderF16: boolean): CatalogModel | undefined {
  if (!model || !model.needsShaderF16 || shaderF16) return model;
  return buildFor(model.family, false) ?? model;
}
