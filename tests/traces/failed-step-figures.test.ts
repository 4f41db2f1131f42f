import { describe, expect, it } from 'vitest';
import { createWebLlmEngine } from '@/lib/engines/webllm/webllm-engine';
import { defaultSettings } from '@/lib/settings';
import { layoutTimeline } from '@/lib/traces/timeline-layout';
import { TraceBuilder } from '@/lib/traces/trace-builder';
import { storedTraceSchema } from '@/lib/traces/trace-schema';
import { fakeGpu } from '../engines/support/fake-gpu';
import { createFakeWebLlm, emptyThinkingBlock } from '../engines/support/fake-webllm';
import { runShopRequest } from '../engines/support/in-memory-shop';

const startedAt = Date.UTC(2025, 0, 1);

/** A run whose one reply WebLLM cut off at its token cap, written prose (no loop), and its trace. */
async function cutOffRun() {
  const fake = createFakeWebLlm({ replies: ['The enamel mug is a fine mug. '.repeat(200)], chunkSize: 4 });
  const engine = createWebLlmEngine(defaultSettings, { webllm: fake.module, gpu: fakeGpu(), keepAwake: () => () => {} });
  await engine.load(() => {});
  const { result, events } = await runShopRequest(engine, 'tell me about the mug');
  const builder = new TraceBuilder({ runId: 'run-1', tabId: 1, url: 'https://shop.example/', origin: 'https://shop.example', engineId: 'webllm', model: 'qwen', request: 'mug', startedAt });
  for (const [index, event] of events.entries()) builder.apply(event, startedAt + index);
  builder.end('error', startedAt + events.length);
  return { result, trace: { run: builder.takeChanges().run!, steps: builder.steps() } };
}

describe('a step whose reply its engine cut off after it streamed', () => {
  it('keeps the tokens and the time the engine said it took, and still reads as cut off, the run failing as before', async () => {
    const { result, trace } = await cutOffRun();
    expect(result).toMatchObject({ finishReason: 'error', error: { code: 'reply-cut-off', message: "The model's reply reached 1,024 tokens and was cut off." } });
    const [step] = trace.steps;
    // WebLLM counts its empty reasoning block (4 tokens) toward the cap, not in what the model wrote.
    expect(step).toMatchObject({ complete: false, usage: { completionTokens: 1_020, decodeTokensPerSecond: 40 }, modelMs: expect.any(Number) });
    expect(step!.parsed).toBeUndefined();
    expect(step!.raw.startsWith(`${emptyThinkingBlock}The enamel mug is a fine mug.`)).toBe(true);
    // The run's totals count them, and the trace is one any viewer reads, as before.
    expect(layoutTimeline(trace).totals).toMatchObject({ completionTokens: 1_020 });
    expect(storedTraceSchema().safeParse(trace).success).toBe(true);
  });
});

describe('a step whose reply WebLLM lost the GPU in, before it gave any figures', () => {
  it('keeps its time and counts the pieces it streamed as its tokens', async () => {
    const fake = createFakeWebLlm({ replies: ['The enamel mug is a fine mug. '.repeat(20)], chunkSize: 4 });
    const engine = createWebLlmEngine(defaultSettings, { webllm: fake.module, gpu: fakeGpu(), keepAwake: () => () => {} });
    await engine.load(() => {});
    fake.state.loseDeviceAfterChunks = 5;
    const { result, events } = await runShopRequest(engine, 'tell me about the mug');
    expect(result.finishReason).toBe('error');
    const stepEnds = events.filter((event) => event.type === 'step-end');
    expect(stepEnds).toEqual([expect.objectContaining({ failed: true, usage: { completionTokens: 5 }, modelMs: expect.any(Number) })]);
  });
});
