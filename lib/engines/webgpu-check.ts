import { buildFor, defaultFamily, smallFamily, type CatalogModel } from './model-catalog';

/** The parts of `navigator.gpu` the check reads; typed here so no WebGPU typings are needed. */
export interface GpuLike {
  requestAdapter(options?: { powerPreference?: 'high-performance' | 'low-power' }): Promise<AdapterLike | null>;
}

export interface AdapterLike {
  features: { has(feature: string): boolean };
  limits: {
    maxBufferSize: number;
    maxStorageBufferBindingSize: number;
    maxStorageBuffersPerShaderStage: number;
    maxComputeWorkgroupStorageSize: number;
  };
  info?: { vendor?: string; architecture?: string; description?: string; isFallbackAdapter?: boolean };
  /** Older Chrome put this on the adapter itself. */
  isFallbackAdapter?: boolean;
}

export type WebGpuStatus =
  | {
      available: false;
      reason: 'no-api' | 'no-adapter' | 'limits';
      message: string;
      /** What to do, the other engines included; `fix` is the part about this browser alone. */
      hint: string;
      fix: string;
    }
  | {
      available: true;
      adapterName: string;
      shaderF16: boolean;
      /** A software adapter (SwiftShader): it works, but far too slowly for large models. */
      fallbackAdapter: boolean;
      /** Buffers under 1 GiB: WebLLM falls back to smaller ones and large models may not fit. */
      smallBuffers: boolean;
      maxBufferSize: number;
      maxStorageBufferBindingSize: number;
    };

const oneGiB = 1 << 30;

const olderChromeFix = 'Use Chrome 124 or later with an up-to-date graphics driver (chrome://gpu should list WebGPU as hardware accelerated)';

/**
 * What gives a browser WebGPU, where it has none at all (`no-api`) or found no GPU: a Chrome recent
 * enough (one that is needs no telling); then WebGPU turned on (Chrome on Linux ships it off), and a
 * driver Chrome trusts.
 */
function noWebGpuFixFor(reason: 'no-api' | 'no-adapter', chromeVersion: number | undefined): string {
  if (chromeVersion === undefined || chromeVersion < 124) return olderChromeFix;
  return reason === 'no-api'
    ? 'Turn WebGPU on (on Linux, at chrome://flags/#enable-unsafe-webgpu and chrome://flags/#enable-vulkan; a policy of your administrator may keep it off)'
    : 'Update your graphics driver, and check that WebGPU is not turned off (chrome://gpu should list WebGPU as hardware accelerated)';
}
const limitsFix = 'Update Chrome and your graphics driver';
// The options offer only the engines that can run here, each with why another cannot.
const otherEngines = 'pick another engine in the options';

/**
 * Finds out whether WebLLM can run here: WebGPU, an adapter, the limits WebLLM asks for, and
 * whether the GPU has 16-bit shaders. Never throws: a failure is a status with what to do.
 */
export async function checkWebGpu(gpu: GpuLike | undefined = defaultGpu(), chromeVersion = defaultChromeVersion()): Promise<WebGpuStatus> {
  if (!gpu) {
    const fix = noWebGpuFixFor('no-api', chromeVersion);
    return { available: false, reason: 'no-api', message: 'This browser has no WebGPU, which WebLLM needs.', hint: `${fix}, or ${otherEngines}.`, fix };
  }
  const noWebGpuFix = noWebGpuFixFor('no-adapter', chromeVersion);
  let adapter: AdapterLike | null = null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch {
    adapter = null;
  }
  if (!adapter) {
    return {
      available: false,
      reason: 'no-adapter',
      message: 'WebGPU is turned off or found no usable GPU on this computer.',
      hint: `${noWebGpuFix}, or ${otherEngines}.`,
      fix: noWebGpuFix,
    };
  }
  const { limits } = adapter;
  if (limits.maxStorageBuffersPerShaderStage < 10 || limits.maxComputeWorkgroupStorageSize < 32 << 10) {
    return {
      available: false,
      reason: 'limits',
      message: 'This GPU\'s WebGPU limits are below what WebLLM needs.',
      hint: `${limitsFix}, or ${otherEngines}.`,
      fix: limitsFix,
    };
  }
  return {
    available: true,
    adapterName: adapterName(adapter),
    shaderF16: adapter.features.has('shader-f16'),
    fallbackAdapter: Boolean(adapter.info?.isFallbackAdapter ?? adapter.isFallbackAdapter),
    smallBuffers: limits.maxBufferSize < oneGiB || limits.maxStorageBufferBindingSize < oneGiB,
    maxBufferSize: limits.maxBufferSize,
    maxStorageBufferBindingSize: limits.maxStorageBufferBindingSize,
  };
}

/**
 * The model to use when the person has not picked one: Qwen3 1.7B, or 0.6B on a software adapter,
 * small buffers or little memory; the q4f32 build where the GPU lacks `shader-f16`.
 */
export function defaultModelFor(status: WebGpuStatus, deviceMemoryGB = defaultDeviceMemory()): CatalogModel {
  const shaderF16 = status.available && status.shaderF16;
  const constrained = !status.available || status.fallbackAdapter || status.smallBuffers || deviceMemoryGB <= 4;
  const model = buildFor(constrained ? smallFamily : defaultFamily, shaderF16);
  if (!model) throw new Error(`The model catalog has no build of ${defaultFamily}.`);
  return model;
}

/** Why `defaultModelFor` chose what it chose, for the options page. */
export function defaultModelReason(status: WebGpuStatus, deviceMemoryGB = defaultDeviceMemory()): string {
  if (!status.available) return status.message;
  const reasons: string[] = [];
  if (status.fallbackAdapter) reasons.push('the GPU is a software adapter');
  if (status.smallBuffers) reasons.push('the GPU allows only small buffers');
  if (deviceMemoryGB <= 4) reasons.push('this computer has little memory');
  if (!status.shaderF16) reasons.push('the GPU has no 16-bit shaders (shader-f16), so the q4f32 build');
  return reasons.length ? `Chosen because ${reasons.join(', ')}.` : 'Chosen because this GPU has what it needs.';
}

function adapterName(adapter: AdapterLike): string {
  const info = adapter.info ?? {};
  const name = [info.vendor, info.architecture, info.description].filter(Boolean).join(' ');
  return name || 'an unnamed GPU';
}

function defaultGpu(): GpuLike | undefined {
  return (globalThis.navigator as { gpu?: GpuLike } | undefined)?.gpu;
}

/** The major version of the Chrome (or Chromium) this runs in, where its user agent says it. */
function defaultChromeVersion(): number | undefined {
  const agent = (globalThis.navigator as { userAgent?: string } | undefined)?.userAgent ?? '';
  const version = /Chrom(?:e|ium)\/(\d+)/.exec(agent)?.[1];
  return version === undefined ? undefined : Number(version);
}

function defaultDeviceMemory(): number {
  return (globalThis.navigator as { deviceMemory?: number } | undefined)?.deviceMemory ?? 8;
}
