import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ModelChunk } from '@webmcp-agents/local-agent';
import { createEngineHost } from '../../lib/agent/engine-host';
import { createWebLlmEngine } from '../../lib/engines/webllm/webllm-engine';
import { defaultSettings, type Settings } from '../../lib/settings';
import { fakeGpu } from './support/fake-gpu';
import { createFakeWebLlm } from './support/fake-webllm';

/**
 * Chrome stops a service worker idle for 30 s, and the model in the GPU goes with it: the model
 * stays the minutes the settings say after its last use, the worker kept awake meanwhile.
 */
function setup(settings: Partial<Settings> = {}) {
  const fake = createFakeWebLlm({ replies: ['Hello there.'] });
  let holds = 0;
  const keepAwake = () => {
    holds += 1;
    let released = false;
    return () => {
      if (!released) holds -= 1;
      released = true;
    };
  };
  const make = (overrides: Partial<Settings> = {}) => createWebLlmEngine({ ...defaultSettings, ...settings, ...overrides }, { webllm: fake.module, gpu: fakeGpu(), keepAwake });
  return { fake, make, awake: () => holds > 0 };
}

async function reply(engine: ReturnType<typeof createWebLlmEngine>): Promise<void> {
  const chunks: ModelChunk[] = [];
  const request = { messages: [{ role: 'user' as const, content: 'Hi' }], tools: [], signal: new AbortController().signal };
  for await (const chunk of engine.model.stream(request)) chunks.push(chunk);
}

const minutes = (count: number) => vi.advanceTimersByTime(count * 60_000);

afterEach(() => {
  vi.useRealTimers();
});

describe('WebLLM: the model stays loaded a while after its last use', () => {
  it('keeps the worker awake five minutes after the last reply by default, counted again at each use', async () => {
    vi.useFakeTimers();
    const { make, awake } = setup();
    const engine = make();
    await engine.load(() => {});
    await reply(engine);
    minutes(4);
    expect(awake()).toBe(true);
    // A follow-up four minutes on: the five minutes start again from its end.
    await reply(engine);
    minutes(4);
    expect(awake()).toBe(true);
    minutes(1);
    expect(awake()).toBe(false);
  });

  it('keeps it the minutes the settings say, and lets go at the end of the reply at 0', async () => {
    vi.useFakeTimers();
    const { make, awake } = setup({ modelKeptMinutes: 20 });
    const engine = make();
    await engine.load(() => {});
    await reply(engine);
    minutes(19);
    expect(awake()).toBe(true);
    minutes(1);
    expect(awake()).toBe(false);

    const none = make({ modelKeptMinutes: 0 });
    await none.load(() => {});
    await reply(none);
    expect(awake()).toBe(false);
  });

  it('lets the worker go at once when the model is unloaded, or a lost GPU took it', async () => {
    vi.useFakeTimers();
    const { fake, make, awake } = setup();
    const engine = make();
    await engine.load(() => {});
    await reply(engine);
    await engine.unload!();
    expect(awake()).toBe(false);

    await engine.load(() => {});
    fake.state.loseDeviceAfterChunks = 1;
    await reply(engine).catch(() => {});
    expect(awake()).toBe(false);
  });

  it('follows a change of the setting at once, counted from the last use: a shorter time already past lets go now', async () => {
    vi.useFakeTimers();
    const { make, awake } = setup();
    const host = createEngineHost(() => {}, (settings) => make(settings));
    const loaded = await host.load({ ...defaultSettings }, new AbortController().signal);
    if ('error' in loaded) throw new Error(loaded.error);
    await reply(loaded as ReturnType<typeof createWebLlmEngine>);
    minutes(2);
    host.settingsChanged({ ...defaultSettings, modelKeptMinutes: 30 });
    minutes(20);
    expect(awake()).toBe(true);
    host.settingsChanged({ ...defaultSettings, modelKeptMinutes: 10 });
    expect(awake()).toBe(false);
  });

  it('keeps to a shorter time set while a run goes on, though the run\'s engine was made with the longer one', async () => {
    vi.useFakeTimers();
    const { make, awake } = setup({ modelKeptMinutes: 60 });
    const host = createEngineHost(() => {}, (settings) => make(settings));
    const settings = { ...defaultSettings, modelKeptMinutes: 60 };
    const loaded = (await host.load(settings, new AbortController().signal)) as ReturnType<typeof createWebLlmEngine>;
    host.settingsChanged({ ...settings, modelKeptMinutes: 1 });
    // The run's next reply, by the engine it began with.
    await reply(loaded);
    minutes(1);
    expect(awake()).toBe(false);
    // Set longer again, heard by the next run's engine alone (the one before was another engine's): it holds.
    const longer = make({ modelKeptMinutes: 30 });
    await longer.load(() => {});
    minutes(29);
    expect(awake()).toBe(true);
  });
});
