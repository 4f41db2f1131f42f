// @vitest-environment happy-dom
import { render } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeCacheStorage } from '../engines/support/fake-cache-storage';
import { fakeGpu } from '../engines/support/fake-gpu';
import { memorySettings, showOptionsPage } from './support/show-options-page';

afterEach(() => {
  render(null, document.body);
  document.body.innerHTML = '';
});

const details = (root: Element) => root.querySelector('[data-testid="model-details"]')?.textContent ?? '';

describe('the WebLLM model in the options', () => {
  it('describes the model that loads: on a GPU without 16-bit shaders, the q4f32 twin of a q4f16 choice, and says why', async () => {
    const { root } = showOptionsPage({ settings: memorySettings({ engine: 'webllm', model: 'Qwen3-1.7B-q4f16_1-MLC' }), caches: createFakeCacheStorage().storage });
    await vi.waitFor(() => expect(root.querySelector('[data-testid="model-id"]')?.textContent).toBe('Qwen3-1.7B-q4f32_1-MLC'));
    expect(details(root)).toContain('about 1.1 GB, once');
    expect(details(root)).toContain('Using the q4f32 build: this GPU has no 16-bit shaders (shader-f16).');
  });

  it('describes the q4f16 choice as it is where the GPU has 16-bit shaders', async () => {
    const { root } = showOptionsPage({
      settings: memorySettings({ engine: 'webllm', model: 'Qwen3-1.7B-q4f16_1-MLC' }),
      caches: createFakeCacheStorage().storage,
      gpu: fakeGpu({ shaderF16: true }),
    });
    await vi.waitFor(() => expect(root.querySelector('[data-testid="webgpu-status"]')?.textContent).toContain('WebGPU is available'));
    expect(root.querySelector('[data-testid="model-id"]')?.textContent).toBe('Qwen3-1.7B-q4f16_1-MLC');
    expect(details(root)).not.toContain('Using the q4f32 build');
  });

  it('does not call a model "the default" on a computer whose default is another', async () => {
    const { root } = showOptionsPage({ settings: memorySettings({ engine: 'webllm', model: 'Qwen3-1.7B-q4f32_1-MLC' }), caches: createFakeCacheStorage().storage, gpu: fakeGpu({ shaderF16: false, fallback: true }) });
    await vi.waitFor(() => expect(root.querySelector('option[value=""]')?.textContent).toBe('Default: Qwen3 0.6B (q4f32)'));
    expect(details(root)).not.toContain('The default:');
  });
});
