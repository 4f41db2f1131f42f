import { describe, expect, it, vi } from 'vitest';
import { previewWebLlm } from '../../lib/engines/webllm/preview-webllm';
import { createFakeCacheStorage } from './support/fake-cache-storage';
import { fakeGpu } from './support/fake-gpu';

const megabyte = 1024 * 1024;
const qwen17 = 'https://huggingface.co/mlc-ai/Qwen3-1.7B-q4f16_1-MLC/resolve/main/';

describe('previewWebLlm: what the first request will do, told before it', () => {
  it('says why WebLLM cannot run on a computer without a usable GPU', async () => {
    const preview = await previewWebLlm('', { gpu: fakeGpu({ noAdapter: true }), caches: createFakeCacheStorage().storage });
    expect(preview).toEqual({ error: 'WebGPU is turned off or found no usable GPU on this computer.', hint: expect.stringContaining('chrome://gpu') });
  });

  it('names the default model for this GPU and its download while it is not stored', async () => {
    const preview = await previewWebLlm('', { gpu: fakeGpu(), caches: createFakeCacheStorage().storage });
    expect(preview).toEqual({ model: 'Qwen3-1.7B-q4f16_1-MLC', downloadMB: 990 });
  });

  it('says a software adapter will run the model slowly, before the first request', async () => {
    const preview = await previewWebLlm('', { gpu: fakeGpu({ fallback: true }), caches: createFakeCacheStorage().storage });
    expect(preview).toMatchObject({ slowGpu: true, downloadMB: expect.any(Number) });
    expect(await previewWebLlm('', { gpu: fakeGpu(), caches: createFakeCacheStorage().storage })).not.toHaveProperty('slowGpu');
  });

  it('says nothing of a download once the model is stored whole', async () => {
    const fake = createFakeCacheStorage();
    fake.put('webllm/model', `${qwen17}tensor-cache.json`, 0, JSON.stringify({ records: [{ dataPath: 'params_shard_0.bin' }] }));
    fake.put('webllm/model', `${qwen17}params_shard_0.bin`, 900 * megabyte);
    expect(await previewWebLlm('Qwen3-1.7B-q4f16_1-MLC', { gpu: fakeGpu(), caches: fake.storage })).toEqual({ model: 'Qwen3-1.7B-q4f16_1-MLC' });
  });

  it('names only what is left to download of a download that stopped part way', async () => {
    const fake = createFakeCacheStorage();
    fake.put('webllm/model', `${qwen17}tensor-cache.json`, 0, JSON.stringify({ records: [{ dataPath: 'params_shard_0.bin' }, { dataPath: 'params_shard_1.bin' }] }));
    fake.put('webllm/model', `${qwen17}params_shard_0.bin`, 600 * megabyte);
    expect(await previewWebLlm('Qwen3-1.7B-q4f16_1-MLC', { gpu: fakeGpu(), caches: fake.storage })).toEqual({ model: 'Qwen3-1.7B-q4f16_1-MLC', downloadMB: 390 });
    // Stored shards larger than the catalogue's figure still leave something to fetch.
    fake.put('webllm/model', `${qwen17}params_shard_0.bin`, 1_000 * megabyte);
    expect(await previewWebLlm('Qwen3-1.7B-q4f16_1-MLC', { gpu: fakeGpu(), caches: fake.storage })).toEqual({ model: 'Qwen3-1.7B-q4f16_1-MLC', downloadMB: 1 });
  });

  it('names the 32-bit build a GPU without 16-bit shaders will load instead', async () => {
    const preview = await previewWebLlm('Qwen3-1.7B-q4f16_1-MLC', { gpu: fakeGpu({ shaderF16: false }), caches: createFakeCacheStorage().storage });
    expect(preview).toMatchObject({ model: 'Qwen3-1.7B-q4f32_1-MLC' });
  });

  it('asks this computer’s GPU again after it was not found, but not after it was', async () => {
    const caches = createFakeCacheStorage().storage;
    try {
      // The GPU process is restarting: no adapter for now.
      vi.stubGlobal('navigator', { gpu: fakeGpu({ noAdapter: true }) });
      expect(await previewWebLlm('', { caches })).toHaveProperty('error');
      // It is back: the next look finds it, and that answer is kept.
      vi.stubGlobal('navigator', { gpu: fakeGpu() });
      expect(await previewWebLlm('', { caches })).toEqual({ model: 'Qwen3-1.7B-q4f16_1-MLC', downloadMB: 990 });
      vi.stubGlobal('navigator', { gpu: fakeGpu({ noAdapter: true }) });
      expect(await previewWebLlm('', { caches })).toEqual({ model: 'Qwen3-1.7B-q4f16_1-MLC', downloadMB: 990 });
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
