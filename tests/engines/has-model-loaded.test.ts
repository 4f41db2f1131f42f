import { describe, expect, it } from 'vitest';
import { hasModelLoaded } from '../../lib/engines/webllm/has-model-loaded';
import { createFakeWebLlm } from './support/fake-webllm';
import type { WebLlmEngineLike } from '../../lib/engines/webllm/webllm-module';

describe('hasModelLoaded', () => {
  it('says a model is loaded only where WebLLM has that one in the GPU, not none nor another', async () => {
    const fake = createFakeWebLlm({ replies: [] });
    const engine = new fake.module.MLCEngine({ appConfig: fake.module.prebuiltAppConfig }) as unknown as WebLlmEngineLike;
    const [qwen, other] = ['Qwen3-1.7B-q4f16_1-MLC', 'Qwen3-0.6B-q4f16_1-MLC'];
    expect(await hasModelLoaded(engine, qwen)).toBe(false);
    await engine.reload(qwen);
    expect(await hasModelLoaded(engine, qwen)).toBe(true);
    expect(await hasModelLoaded(engine, other)).toBe(false);
  });
});
