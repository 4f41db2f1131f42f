import { describe, expect, it } from 'vitest';
import { sessionMessageSchema } from '@/lib/agent/agent-port-protocol';
import { createEngineHost } from '@/lib/agent/engine-host';
import { serverUsage } from '@/lib/engines/openai/server-usage';
import { toModelUsage } from '@/lib/engines/webllm/stream-webllm-reply';
import { createReplayEngine } from '@/lib/engines/replay-engine';
import { layoutTimeline } from '@/lib/traces/timeline-layout';
import { TraceBuilder } from '@/lib/traces/trace-builder';
import { hermesFormat, runLocalAgent } from '@webmcp-agents/local-agent';

describe('the figures an engine reports for a reply', () => {
  it('leaves out WebLLM’s 0/0 speed for a reply that ends on its first token', () => {
    const usage = toModelUsage(
      { completion_tokens: 1, prompt_tokens: 900, total_tokens: 901, extra: { decode_tokens_per_s: 0 / 0, prefill_tokens_per_s: 300.04 } } as never,
      { startedAt: 0, firstTokenAt: 10, endedAt: 10, deltas: 1 },
    );
    expect(usage).toEqual({ promptTokens: 900, completionTokens: 1, timeToFirstTokenMs: 10, prefillTokensPerSecond: 300 });
  });

  it('measures a server’s speeds itself where the server’s own are not numbers', () => {
    const usage = serverUsage(
      { usage: { prompt_tokens: 100, completion_tokens: 11 }, timings: { prompt_per_second: Number.POSITIVE_INFINITY, predicted_per_second: 'fast' as never } },
      { startedAt: 0, firstTokenAt: 500, endedAt: 1_500 },
    );
    expect(usage).toEqual({ promptTokens: 100, completionTokens: 11, timeToFirstTokenMs: 500, prefillTokensPerSecond: 200, decodeTokensPerSecond: 10 });
  });

  it('never puts a speed into the engine status that the panels could not read', () => {
    const host = createEngineHost(() => {});
    host.reportUsage(1, { decodeTokensPerSecond: 12.34 });
    host.reportUsage(1, { decodeTokensPerSecond: Number.NaN });
    expect(host.statusFor(1).tokensPerSecond).toBe(12.3);
    expect(sessionMessageSchema().safeParse({ type: 'engine', tabId: 1, engine: host.statusFor(1) }).success).toBe(true);
  });

  it('gives no token count for a replayed reply, which no model wrote: its trace shows only the time it took', async () => {
    const builder = new TraceBuilder({ runId: 'r', tabId: 1, url: 'https://shop.example/', origin: 'https://shop.example', engineId: 'replay', model: 'recorded replies', request: 'mugs', startedAt: Date.now() });
    const reply = 'There are four mugs, each a different colour, all in stock.';
    await runLocalAgent({ request: 'mugs', model: createReplayEngine([reply]), format: hermesFormat, getTools: () => [], executeTool: async () => ({ text: '' }), onEvent: (event) => void builder.apply(event, Date.now()) });
    const steps = builder.steps();
    expect(steps[0]).toMatchObject({ complete: true, modelMs: expect.any(Number) });
    expect(steps[0]!.usage).toEqual({});
    expect(layoutTimeline({ run: builder.run, steps }).totals).toMatchObject({ promptTokens: undefined, completionTokens: undefined });
  });
});
