import type { AdapterLike, GpuLike } from '../../../lib/engines/webgpu-check';

export interface FakeGpuOptions {
  shaderF16?: boolean;
  fallback?: boolean;
  maxBufferSize?: number;
  maxStorageBuffersPerShaderStage?: number;
  /** `requestAdapter()` answers null, as Chrome does when WebGPU is off. */
  noAdapter?: boolean;
}

/** A `navigator.gpu` with one adapter, shaped like Chrome's. */
export function fakeGpu(options: FakeGpuOptions = {}): GpuLike {
  const gibibyte = 1 << 30;
  const adapter: AdapterLike = {
    features: new Set(options.shaderF16 === false ? [] : ['shader-f16']),
    limits: {
      maxBufferSize: options.maxBufferSize ?? 4 * gibibyte,
      maxStorageBufferBindingSize: Math.min(options.maxBufferSize ?? 2 * gibibyte, 2 * gibibyte),
      maxStorageBuffersPerShaderStage: options.maxStorageBuffersPerShaderStage ?? 10,
      maxComputeWorkgroupStorageSize: 32 << 10,
    },
    info: { vendor: 'fake', architecture: 'test', description: '', isFallbackAdapter: options.fallback ?? false },
  };
  return { requestAdapter: async () => (options.noAdapter ? null : adapter) };
}
