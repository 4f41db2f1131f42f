// What the panels are told around a load that waits to be told (see `settle`): nothing stale, nothing that only flickers.
import { describe, expect, it } from 'vitest';
import { hermesFormat } from '@webmcp-agents/local-agent';
import { createEngineHost } from '@/lib/agent/engine-host';
import type { Engine } from '@/lib/engines/engine';
import { EngineError } from '@/lib/engines/engine';
import { defaultSettings, type Settings } from '@/lib/settings';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function engineOf(settings: Settings, loadMs: number, fail: { now: boolean }): Engine {
  return {
    id: settings.engine,
    ...(settings.engine === 'webllm' ? { holdsGpu: true as const } : {}),
    modelId: settings.model || 'default-model',
    format: hermesFormat,
    model: {
      async *stream() {
        if (fail.now) throw new EngineError('unavailable', 'The server answered HTTP 500.', 'Check its log.');
        yield { type: 'text-delta' as const, text: 'Hi.' };
      },
    },
    async load() {
      await wait(loadMs);
    },
    async unload() {},
  };
}

describe('the engine host around a load told late', () => {
  it('a failed reply shown on the status line goes when the next load of that tab starts', async () => {
    const told: string[] = [];
    const fail = { now: true };
    let loadMs = 0;
    const host = createEngineHost(() => told.push(host.statusFor(1).state), (settings) => engineOf(settings, loadMs, fail));
    const settings = { ...defaultSettings, engine: 'openai' as const, model: 'qwen3:1.7b' };
    const engine = await host.load(settings, new AbortController().signal, { tabId: 1 });
    if ('error' in engine) throw new Error(engine.error);
    await expect((async () => { for await (const _ of engine.model.stream({ messages: [], tools: [], signal: new AbortController().signal })); })()).rejects.toThrow();
    host.reportError(1, 'The server answered HTTP 500.');
    expect(told.at(-1)).toBe('error');
    loadMs = 1_000;
    fail.now = false;
    const next = host.load(settings, new AbortController().signal, { tabId: 1 });
    await wait(200);
    // 200 ms into the next request's load: the panel has been told something other than the old failure.
    expect(told.at(-1)).not.toBe('error');
    await next;
  });

  it('a swap to another model does not tell "idle" (Loads on your next request) while the request that loads it runs', async () => {
    const told: string[] = [];
    const host = createEngineHost(() => told.push(host.statusFor(1).state), (settings) => engineOf(settings, 600, { now: false }));
    const first = await host.load({ ...defaultSettings, engine: 'webllm', model: 'Qwen3-0.6B-q4f32_1-MLC' }, new AbortController().signal, { tabId: 1, hold: true });
    if ('error' in first) throw new Error(first.error);
    host.release(first);
    await wait(300);
    told.length = 0;
    const next = host.load({ ...defaultSettings, engine: 'webllm', model: 'Qwen3-1.7B-q4f16_1-MLC' }, new AbortController().signal, { tabId: 1, hold: true });
    await wait(100);
    const early = [...told];
    await next;
    expect(early).not.toContain('idle');
  });
});
