import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createModelPreviews } from '../../lib/agent/model-previews';
import { defaultSettings, type Settings } from '../../lib/settings';

const webllm = (model: string): Settings => ({ ...defaultSettings, engine: 'webllm', model });

describe('the model previews', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('asks WebLLM once for a model while its answer is a few seconds old, and again after', async () => {
    const previewWebLlm = vi.fn(async (model: string) => ({ model, downloadMB: 900 }));
    const previews = createModelPreviews({ previewWebLlm });
    await expect(previews.previewFor(webllm('Qwen'))).resolves.toEqual({ model: 'Qwen', downloadMB: 900 });
    vi.advanceTimersByTime(4_999);
    await previews.previewFor(webllm('Qwen'));
    expect(previewWebLlm).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1);
    await previews.previewFor(webllm('Qwen'));
    expect(previewWebLlm).toHaveBeenCalledTimes(2);
  });

  it('asks again after `clear` (a load, a settings change), and for each model apart', async () => {
    const previewWebLlm = vi.fn(async (model: string) => ({ model }));
    const previews = createModelPreviews({ previewWebLlm });
    await previews.previewFor(webllm('Qwen'));
    await previews.previewFor(webllm('Llama'));
    previews.clear();
    await previews.previewFor(webllm('Qwen'));
    expect(previewWebLlm.mock.calls).toEqual([['Qwen'], ['Llama'], ['Qwen']]);
  });

  it('tells nothing for another engine, where WebLLM cannot be asked, or where asking fails', async () => {
    const failing = createModelPreviews({ previewWebLlm: () => Promise.reject(new Error('no GPU adapter')) });
    await expect(failing.previewFor(webllm('Qwen'))).resolves.toBeUndefined();
    await expect(createModelPreviews({}).previewFor(webllm('Qwen'))).resolves.toBeUndefined();
    const previewWebLlm = vi.fn(async (model: string) => ({ model }));
    await expect(createModelPreviews({ previewWebLlm }).previewFor({ ...defaultSettings, engine: 'openai' })).resolves.toBeUndefined();
    expect(previewWebLlm).not.toHaveBeenCalled();
  });

  it("asks whether Chrome's built-in model can run where it is the engine", async () => {
    const previewPromptApi = vi.fn(async () => ({ error: 'This browser has no built-in model.', hint: 'Pick another engine.' }));
    const previews = createModelPreviews({ previewPromptApi });
    await expect(previews.previewFor({ ...defaultSettings, engine: 'prompt-api' })).resolves.toEqual({ error: 'This browser has no built-in model.', hint: 'Pick another engine.' });
    await expect(previews.previewFor(webllm('Qwen'))).resolves.toBeUndefined();
    expect(previewPromptApi).toHaveBeenCalledTimes(1);
  });
});
