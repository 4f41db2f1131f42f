import { describe, expect, it } from 'vitest';
import { checkWebGpu, defaultModelFor, defaultModelReason } from '../../lib/engines/webgpu-check';
import { fakeGpu } from './support/fake-gpu';

describe('the WebGPU check', () => {
  it('finds the adapter and its 16-bit shaders, and picks Qwen3 1.7B in its q4f16 build', async () => {
    const status = await checkWebGpu(fakeGpu());
    expect(status).toMatchObject({ available: true, shaderF16: true, fallbackAdapter: false, smallBuffers: false, adapterName: 'fake test' });
    expect(defaultModelFor(status, 16).id).toBe('Qwen3-1.7B-q4f16_1-MLC');
    expect(defaultModelReason(status, 16)).toBe('Chosen because this GPU has what it needs.');
  });

  it('picks a q4f32 build where the GPU has no shader-f16', async () => {
    const status = await checkWebGpu(fakeGpu({ shaderF16: false }));
    expect(status).toMatchObject({ available: true, shaderF16: false });
    expect(defaultModelFor(status, 16).id).toBe('Qwen3-1.7B-q4f32_1-MLC');
  });

  it('picks the small model on a software adapter, small buffers or little memory', async () => {
    const software = await checkWebGpu(fakeGpu({ shaderF16: false, fallback: true }));
    expect(defaultModelFor(software, 16).id).toBe('Qwen3-0.6B-q4f32_1-MLC');
    expect(defaultModelReason(software, 16)).toBe(
      'Chosen because the GPU is a software adapter, the GPU has no 16-bit shaders (shader-f16), so the q4f32 build.',
    );
    const small = await checkWebGpu(fakeGpu({ maxBufferSize: 256 << 20 }));
    expect(defaultModelFor(small, 16).id).toBe('Qwen3-0.6B-q4f16_1-MLC');
    expect(defaultModelFor(await checkWebGpu(fakeGpu()), 4).id).toBe('Qwen3-0.6B-q4f16_1-MLC');
  });

  it('says plainly when there is no WebGPU, no adapter, or limits too low', async () => {
    expect(await checkWebGpu(undefined)).toMatchObject({ available: false, reason: 'no-api' });
    const noAdapter = await checkWebGpu(fakeGpu({ noAdapter: true }));
    expect(noAdapter).toMatchObject({ available: false, reason: 'no-adapter', message: 'WebGPU is turned off or found no usable GPU on this computer.' });
    expect(await checkWebGpu(fakeGpu({ maxStorageBuffersPerShaderStage: 8 }))).toMatchObject({ available: false, reason: 'limits' });
    const throwing = { requestAdapter: () => Promise.reject(new Error('GPU process crashed')) };
    expect(await checkWebGpu(throwing)).toMatchObject({ available: false, reason: 'no-adapter' });
  });

  it('asks for a newer Chrome only of an older one: a recent one is told to look at its driver', async () => {
    expect(await checkWebGpu(fakeGpu({ noAdapter: true }), 120)).toMatchObject({
      fix: 'Use Chrome 124 or later with an up-to-date graphics driver (chrome://gpu should list WebGPU as hardware accelerated)',
    });
    // No WebGPU at all in a recent Chrome: it is turned off, which no driver mends.
    expect(await checkWebGpu(undefined, 156)).toMatchObject({
      fix: 'Turn WebGPU on (on Linux, at chrome://flags/#enable-unsafe-webgpu and chrome://flags/#enable-vulkan; a policy of your administrator may keep it off)',
    });
    expect(await checkWebGpu(fakeGpu({ noAdapter: true }), 156)).toMatchObject({
      fix: 'Update your graphics driver, and check that WebGPU is not turned off (chrome://gpu should list WebGPU as hardware accelerated)',
      hint: 'Update your graphics driver, and check that WebGPU is not turned off (chrome://gpu should list WebGPU as hardware accelerated), or pick another engine in the options.',
    });
  });
});
