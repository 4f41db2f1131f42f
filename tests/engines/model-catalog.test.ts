import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { describe, expect, it } from 'vitest';
import { formatForModelName, modelCatalog, smallerModelThan } from '../../lib/engines/model-catalog';
import { weightsBaseUrl } from '../../lib/engines/webllm/model-storage';

describe('the curated model list', () => {
  it.each(modelCatalog.map((model) => [model.id, model] as const))('%s matches WebLLM 0.2.86\'s own record', (_id, model) => {
    const record = prebuiltAppConfig.model_list.find((candidate) => candidate.model_id === model.id);
    expect(record, `${model.id} is not in WebLLM's list`).toBeDefined();
    expect(`${record!.model}/resolve/main/`).toBe(weightsBaseUrl(model));
    expect(record!.model_lib.endsWith(`/${model.libraryFile}`)).toBe(true);
    expect(Math.round(record!.vram_required_MB!)).toBe(model.memoryMB);
    expect(record!.overrides?.context_window_size).toBe(model.contextTokens);
    if (record!.required_features?.includes('shader-f16')) expect(model.needsShaderF16).toBe(true);
    expect(model.downloadMB).toBeLessThan(model.memoryMB);
  });

  it('offers both builds of every model, so a GPU without shader-f16 can run each', () => {
    const families = new Set(modelCatalog.map((model) => model.family));
    for (const family of families) {
      const builds = modelCatalog.filter((model) => model.family === family).map((model) => model.quantization);
      expect(builds.sort()).toEqual(['q4f16_1', 'q4f32_1']);
    }
  });

  it('offers a smaller model of the same build after running out of memory', () => {
    expect(smallerModelThan('Qwen3-4B-q4f16_1-MLC', true)?.id).toBe('Qwen3-1.7B-q4f16_1-MLC');
    expect(smallerModelThan('Qwen3-1.7B-q4f32_1-MLC', false)?.id).toBe('Qwen3-0.6B-q4f32_1-MLC');
    // Below the smallest Qwen3, the lightest model in the list: a lighter one added to the
    // catalogue becomes this last resort, and this line changes with it.
    expect(smallerModelThan('Qwen3-0.6B-q4f16_1-MLC', true)?.id).toBe('Llama-3.2-1B-Instruct-q4f16_1-MLC');
    expect(smallerModelThan('Llama-3.2-1B-Instruct-q4f16_1-MLC', true)).toBeUndefined();
  });

  it('guesses the tool format of models it does not list from their names', () => {
    expect(formatForModelName('qwen2.5:7b')).toBe('hermes');
    expect(formatForModelName('llama3.2:3b')).toBe('llama3-json');
    expect(formatForModelName('hermes3:3b-llama3.2')).toBe('hermes');
    expect(formatForModelName('lfm2:1.2b')).toBe('lfm2');
  });
});
