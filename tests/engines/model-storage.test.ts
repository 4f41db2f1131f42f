import { describe, expect, it } from 'vitest';
import { deleteAllStoredModels, deleteStoredModel, listStoredModels } from '../../lib/engines/webllm/model-storage';
import { createFakeCacheStorage } from './support/fake-cache-storage';

const megabyte = 1024 * 1024;
const libraries = 'https://raw.githubusercontent.com/mlc-ai/binary-mlc-llm-libs/main/web-llm-models/v0_2_86/base';
const qwen = 'https://huggingface.co/mlc-ai/Qwen3-1.7B-q4f16_1-MLC/resolve/main/';
const llama = 'https://huggingface.co/mlc-ai/Llama-3.2-1B-Instruct-q4f16_1-MLC/resolve/main/';

/** Two models as WebLLM leaves them: Qwen3 1.7B complete, Llama 3.2 1B cut off after one shard. */
function twoModels() {
  const fake = createFakeCacheStorage();
  const manifest = (shards: number) =>
    JSON.stringify({ records: Array.from({ length: shards }, (_, index) => ({ dataPath: `params_shard_${index}.bin` })) });
  fake.put('webllm/model', `${qwen}tensor-cache.json`, 0, manifest(2));
  fake.put('webllm/model', `${qwen}params_shard_0.bin`, 500 * megabyte);
  fake.put('webllm/model', `${qwen}params_shard_1.bin`, 480 * megabyte);
  fake.put('webllm/model', `${qwen}tokenizer.json`, 11 * megabyte);
  fake.put('webllm/config', `${qwen}mlc-chat-config.json`, 0, '{"conv_template": "qwen3"}');
  fake.put('webllm/wasm', `${libraries}/Qwen3-1.7B-q4f16_1_cs1k-webgpu.wasm`, 4 * megabyte);
  fake.put('webllm/model', `${llama}tensor-cache.json`, 0, manifest(3));
  fake.put('webllm/model', `${llama}params_shard_0.bin`, 200 * megabyte);
  return fake;
}

describe('models on this computer', () => {
  it('lists each downloaded model with the space it takes, largest first', async () => {
    const { storage } = twoModels();
    const models = await listStoredModels(storage);
    expect(models.map(({ modelId, label, complete }) => ({ modelId, label, complete }))).toEqual([
      { modelId: 'Qwen3-1.7B-q4f16_1-MLC', label: 'Qwen3 1.7B (q4f16)', complete: true },
      { modelId: 'Llama-3.2-1B-Instruct-q4f16_1-MLC', label: 'Llama 3.2 1B (q4f16)', complete: false },
    ]);
    expect(Math.round(models[0]!.bytes / megabyte)).toBe(995);
    expect(models[0]!.files).toBe(6);
    expect(Math.round(models[1]!.bytes / megabyte)).toBe(200);
  });

  it('deletes one model with its library and configuration, leaving the other', async () => {
    const fake = twoModels();
    const [qwenModel] = await listStoredModels(fake.storage);
    await deleteStoredModel(qwenModel!, fake.storage);
    const left = await listStoredModels(fake.storage);
    expect(left.map((model) => model.modelId)).toEqual(['Llama-3.2-1B-Instruct-q4f16_1-MLC']);
    expect([...fake.caches.get('webllm/wasm')!.keys()]).toEqual([]);
    expect([...fake.caches.get('webllm/config')!.keys()]).toEqual([]);
  });

  it('deletes everything at once, and lists nothing when nothing was ever stored', async () => {
    const fake = twoModels();
    await deleteAllStoredModels(fake.storage);
    expect(await listStoredModels(fake.storage)).toEqual([]);
    expect(await listStoredModels(createFakeCacheStorage().storage)).toEqual([]);
  });
});
