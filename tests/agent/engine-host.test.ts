import { describe, expect, it, vi } from 'vitest';
import { hermesFormat, runLocalAgent, type ModelChunk } from '@webmcp-agents/local-agent';
import { createEngineHost } from '../../lib/agent/engine-host';
import { turnOverReason } from '../../lib/local-agent/abortable';
import type { EngineStatus } from '../../lib/agent/session-state';
import type { Engine, EngineLoadProgress } from '../../lib/engines/engine';
import { EngineError } from '../../lib/engines/engine';
import { engineHoldsGpu } from '../../lib/engines/engine-holds-gpu';
import { engineLabel } from '../../lib/engines/engine-labels';
import { createReplyTurns } from '../../lib/engines/reply-turns';
import { createWebLlmEngine } from '../../lib/engines/webllm/webllm-engine';
import { fakeGpu } from '../engines/support/fake-gpu';
import { createFakeWebLlm, emptyThinkingBlock } from '../engines/support/fake-webllm';
import { createStandInWebLlm } from '../engines/support/webllm-reload-stand-in';
import { defaultSettings, type Settings } from '../../lib/settings';

/** An engine whose load reports what `steps` say, `gapMs` apart; it holds the GPU where the real one does. */
function fakeEngine(settings: Settings, steps: EngineLoadProgress[] = [], gapMs = 0) {
  const unload = vi.fn(async () => {});
  const engine: Engine = {
    id: settings.engine,
    ...(engineHoldsGpu[settings.engine] ? { holdsGpu: true as const } : {}),
    modelId: settings.model || 'default-model',
    format: hermesFormat,
    model: { async *stream() {} },
    async load(onProgress) {
      for (const step of steps) {
        onProgress(step);
        if (gapMs) await new Promise((resolve) => setTimeout(resolve, gapMs));
      }
    },
    unload,
  };
  return { engine, unload };
}

/**
 * A host whose engines each stream one reply that waits until `finishReply()`; with `holdsGpu`,
 * every engine says its model is on the GPU, whichever its id.
 */
function hostWithReplyOnHold({ holdsGpu = false } = {}) {
  let release: () => void = () => {};
  const made: Array<ReturnType<typeof fakeEngine>> = [];
  const host = createEngineHost(() => {}, (settings) => {
    const fake = fakeEngine(settings);
    fake.engine = {
      ...fake.engine,
      ...(holdsGpu ? { holdsGpu: true as const } : {}),
      model: {
        async *stream() {
          await new Promise<void>((resolve) => (release = resolve));
          yield { type: 'text-delta', text: 'Done.' };
        },
      },
    };
    made.push(fake);
    return fake.engine;
  });
  return { host, made, finishReply: () => release() };
}

describe('the engine host', () => {
  it('publishes the last progress before a quiet phase, even when it came within 100 ms of the one before', async () => {
    const published: EngineStatus[] = [];
    const steps = [
      { fraction: 0.01, text: 'Downloading (about 1,100 MB), once. Using the q4f32 build: this GPU has no 16-bit shaders.' },
      { fraction: 0.02, text: 'Fetching the library' },
    ];
    // The first step is told once the load has lasted 250 ms, the second 50 ms after it.
    const host = createEngineHost(() => published.push(host.status), (settings) => fakeEngine(settings, steps, 300).engine);
    await host.load(defaultSettings, new AbortController().signal);
    const texts = published.map((status) => status.progressText);
    expect(texts).toContain(steps[0]!.text);
    expect(texts).toContain(steps[1]!.text);
    await vi.waitFor(() => expect(published.at(-1)?.state).toBe('ready'));
  });

  it("says a server is being connected to, with no share done, where a model in the browser shows its load from 0", async () => {
    const published: EngineStatus[] = [];
    const connection = [{ text: 'Connecting to 127.0.0.1:8080…' }, { fraction: 1, text: 'Connected to 127.0.0.1:8080: qwen3:1.7b.' }];
    // Loads that last long enough to be told (see the test of those that end at once).
    const host = createEngineHost(() => published.push(host.status), (settings) => {
      if (settings.engine === 'openai') return fakeEngine(settings, connection, 300).engine;
      return { ...fakeEngine(settings).engine, load: () => new Promise<void>((resolve) => setTimeout(resolve, 300)) };
    });
    await host.load({ ...defaultSettings, engine: 'openai', openaiBaseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen3:1.7b' }, new AbortController().signal);
    const loading = published.filter((status) => status.state === 'loading');
    // The engine's own "connected" says 1: the bar shows no share done for a connection, even then.
    expect(loading.map((status) => [status.progressText, status.progress])).toEqual([
      ['Connecting to 127.0.0.1:8080…', undefined],
      ['Connected to 127.0.0.1:8080: qwen3:1.7b.', undefined],
    ]);
    await vi.waitFor(() => expect(published.at(-1)?.state).toBe('ready'));
    published.length = 0;
    await host.load({ ...defaultSettings, engine: 'webllm', model: 'Qwen3-1.7B-q4f16_1-MLC' }, new AbortController().signal);
    expect(published.find((status) => status.state === 'loading')).toMatchObject({ progressText: 'Loading the model…', progress: 0 });
  });

  it('tells the panels nothing of a load that ends at once, or of the moment between it and its reply, where a slower load is shown', async () => {
    const published: string[] = [];
    let loadMs = 20;
    const host = createEngineHost(() => {
      const status = host.statusFor(1);
      published.push(status.state === 'loading' ? `loading: ${status.progressText}` : `${status.state}${status.firstWordSince ? ', waiting' : ''}`);
    }, (settings) => ({
      ...fakeEngine(settings).engine,
      async load(onProgress) {
        onProgress({ text: 'Connecting to 127.0.0.1:8080…' });
        await new Promise((resolve) => setTimeout(resolve, loadMs));
        onProgress({ fraction: 1, text: 'Connected to 127.0.0.1:8080: qwen3:1.7b.' });
      },
      model: {
        async *stream() {
          yield { type: 'text-delta' as const, text: 'Hi.' };
        },
      },
    }));
    const ask = async () => {
      const engine = await host.load({ ...defaultSettings, engine: 'openai', model: 'qwen3:1.7b' }, new AbortController().signal, { tabId: 1 });
      if ('error' in engine) throw new Error(engine.error);
      for await (const _ of engine.model.stream({ messages: [], tools: [], signal: new AbortController().signal }));
    };
    // A server near at hand, or a model in already: "Connecting" and "Ready" would only flicker.
    await ask();
    expect(published).toEqual(['generating, waiting', 'generating', 'ready']);
    published.length = 0;
    loadMs = 400;
    await ask();
    expect(published).toEqual([
      'loading: Connecting to 127.0.0.1:8080…',
      'loading: Connected to 127.0.0.1:8080: qwen3:1.7b.',
      'generating, waiting',
      'generating',
      'ready',
    ]);
  });

  it('puts away a failed load at once when the next load starts, however long it lasts', async () => {
    const published: string[] = [];
    let fail = true;
    let connect = () => {};
    const host = createEngineHost(() => published.push(host.status.state), (settings) => ({
      ...fakeEngine(settings).engine,
      async load() {
        if (fail) throw new EngineError('server-down', 'No server answers at 127.0.0.1:8080.', 'Start it.');
        await new Promise<void>((resolve) => (connect = resolve));
      },
    }));
    const settings = { ...defaultSettings, engine: 'openai' as const, model: 'qwen3:1.7b' };
    await host.load(settings, new AbortController().signal);
    expect(host.status.state).toBe('error');
    fail = false;
    published.length = 0;
    const loading = host.load(settings, new AbortController().signal);
    await vi.waitFor(() => expect(host.status.state).toBe('loading'));
    // Told as soon as it is so, not once the load has lasted.
    expect(published).toEqual(['loading']);
    connect();
    await loading;
  });

  it('says when a load has been quiet for a minute, keeping what it said last, and goes on when progress comes', async () => {
    vi.useFakeTimers();
    try {
      let report: (progress: EngineLoadProgress) => void = () => {};
      let finish: () => void = () => {};
      const published: EngineStatus[] = [];
      const host = createEngineHost(() => published.push(host.status), (settings) => ({
        ...fakeEngine(settings).engine,
        load: (onProgress) => {
          report = onProgress;
          return new Promise<void>((resolve) => (finish = resolve));
        },
      }));
      const loaded = host.load(defaultSettings, new AbortController().signal);
      await vi.advanceTimersByTimeAsync(0);
      report({ fraction: 0.1, text: 'Downloading Qwen3 0.6B (q4f32): 40 of 400 MB.' });
      await vi.advanceTimersByTimeAsync(59_000);
      expect(host.status.stalled).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1_000);
      expect(host.status).toMatchObject({ state: 'loading', progress: 0.1, progressText: 'Downloading Qwen3 0.6B (q4f32): 40 of 400 MB.', stalled: true });
      report({ fraction: 0.2, text: 'Downloading Qwen3 0.6B (q4f32): 80 of 400 MB.' });
      expect(host.status).toMatchObject({ progressText: 'Downloading Qwen3 0.6B (q4f32): 80 of 400 MB.', stalled: undefined });
      finish();
      await loaded;
      // Loaded: no word of a quiet load comes after (the load's end is told once it has lasted).
      await vi.advanceTimersByTimeAsync(1_000);
      const count = published.length;
      await vi.advanceTimersByTimeAsync(120_000);
      expect(published).toHaveLength(count);
      expect(host.status.state).toBe('ready');
    } finally {
      vi.useRealTimers();
    }
  });

  it('hears nothing more of a load once stopped: no quiet-load word, no progress, ever after', async () => {
    vi.useFakeTimers();
    try {
      let report: (progress: EngineLoadProgress) => void = () => {};
      const published: EngineStatus[] = [];
      const host = createEngineHost(() => published.push(host.status), (settings) => ({
        ...fakeEngine(settings).engine,
        load: (onProgress) => {
          report = onProgress;
          return new Promise<void>(() => {});
        },
      }));
      const controller = new AbortController();
      const loaded = host.load(defaultSettings, controller.signal);
      await vi.advanceTimersByTimeAsync(0);
      report({ fraction: 0.1, text: 'Downloading: 40 of 400 MB.' });
      controller.abort();
      await loaded;
      expect(host.status).toMatchObject({ state: 'idle', progressText: undefined, stalled: undefined });
      // The load winds down (WebLLM finishes copying to the GPU) and still reports.
      report({ fraction: 0.2, text: 'Downloading: 80 of 400 MB.' });
      const count = published.length;
      await vi.advanceTimersByTimeAsync(5 * 60_000);
      expect(published).toHaveLength(count);
      expect(host.status).toMatchObject({ state: 'idle', progressText: undefined, stalled: undefined });
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps showing a download that goes on for one tab when another tab, waiting for the same, is stopped", async () => {
    vi.useFakeTimers();
    try {
      // Like WebLLM's runtime: a second load waits for the one under way, and only the first reports.
      let report: (progress: EngineLoadProgress) => void = () => {};
      let finish: () => void = () => {};
      let shared: Promise<void> | undefined;
      const host = createEngineHost(() => {}, (settings) => ({
        ...fakeEngine(settings).engine,
        load(onProgress) {
          if (shared) return shared;
          report = onProgress;
          return (shared = new Promise<void>((resolve) => (finish = resolve)));
        },
      }));
      const [tab1, tab2] = [new AbortController(), new AbortController()];
      const load1 = host.load(defaultSettings, tab1.signal, { hold: true, tabId: 1 });
      await vi.advanceTimersByTimeAsync(0);
      report({ fraction: 0.4, text: 'Downloading Qwen3 1.7B: 440 of 1,100 MB.' });
      const load2 = host.load(defaultSettings, tab2.signal, { hold: true, tabId: 2 });
      await vi.advanceTimersByTimeAsync(0);
      // The second tab joins the download where it is, not back at the start.
      expect(host.statusFor(2)).toMatchObject({ state: 'loading', progress: 0.4, progressText: 'Downloading Qwen3 1.7B: 440 of 1,100 MB.' });
      tab2.abort();
      expect(await load2).toEqual({ error: 'Stopped while the model was loading.' });
      expect(host.statusFor(1)).toMatchObject({ state: 'loading', progress: 0.4 });
      report({ fraction: 0.5, text: 'Downloading Qwen3 1.7B: 550 of 1,100 MB.' });
      await vi.advanceTimersByTimeAsync(150);
      expect(host.statusFor(1)).toMatchObject({ state: 'loading', progress: 0.5, progressText: 'Downloading Qwen3 1.7B: 550 of 1,100 MB.' });
      // Still one watch for a quiet download, which the first tab's progress keeps quiet.
      await vi.advanceTimersByTimeAsync(59_000);
      report({ fraction: 0.6, text: 'Downloading Qwen3 1.7B: 660 of 1,100 MB.' });
      await vi.advanceTimersByTimeAsync(59_000);
      expect(host.status.stalled).toBeUndefined();
      await vi.advanceTimersByTimeAsync(2_000);
      expect(host.status.stalled).toBe(true);
      finish();
      expect(await load1).not.toHaveProperty('error');
      expect(host.statusFor(1)).toMatchObject({ state: 'ready' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('names the model the preview found while an engine left to pick one loads it', async () => {
    const named: string[] = [];
    const host = createEngineHost(() => named.push(`${host.status.state} ${host.status.model}`), (settings) => fakeEngine(settings, [{ fraction: 0.5, text: 'Half way.' }], 300).engine);
    host.describe(defaultSettings, { model: 'Qwen3-0.6B-q4f32_1-MLC', downloadMB: 400 });
    await host.load(defaultSettings, new AbortController().signal);
    expect(named.filter((said) => said.startsWith('loading'))).toEqual(['loading Qwen3-0.6B-q4f32_1-MLC']);
    // Once loaded, the engine itself says which model it is.
    await vi.waitFor(() => expect(named.at(-1)).toBe('ready default-model'));
  });

  it('names a server by where it runs, before it loads and while it does', async () => {
    const host = createEngineHost(() => {}, (settings) => fakeEngine(settings).engine);
    const local = { ...defaultSettings, engine: 'openai' as const, openaiBaseUrl: 'http://localhost:11434/v1' };
    host.describe(local);
    expect(host.status.engineLabel).toBe('Local server (OpenAI-compatible)');
    const elsewhere = { ...local, openaiBaseUrl: 'http://gpu-box.lan:11434/v1' };
    host.describe(elsewhere);
    expect(host.status.engineLabel).toBe('Server at gpu-box.lan (OpenAI-compatible)');
    await host.load(elsewhere, new AbortController().signal);
    expect(host.status).toMatchObject({ state: 'ready', engineLabel: 'Server at gpu-box.lan (OpenAI-compatible)' });
  });

  it('lets go of an engine whose settings changed, except a WebLLM model that stays the same', async () => {
    const made: Array<ReturnType<typeof fakeEngine>> = [];
    const host = createEngineHost(() => {}, (settings) => {
      made.push(fakeEngine(settings));
      return made.at(-1)!.engine;
    });
    const signal = new AbortController().signal;
    // Chrome's model keeps a session per engine: a new temperature must not leave the old one open.
    await host.load({ ...defaultSettings, engine: 'prompt-api' }, signal);
    await host.load({ ...defaultSettings, engine: 'prompt-api', temperature: 0.7 }, signal);
    expect(made[0]!.unload).toHaveBeenCalledTimes(1);
    // The same WebLLM model under a new temperature stays on the GPU.
    await host.load({ ...defaultSettings, engine: 'webllm', model: 'Qwen3-1.7B-q4f16_1-MLC' }, signal);
    await host.load({ ...defaultSettings, engine: 'webllm', model: 'Qwen3-1.7B-q4f16_1-MLC', temperature: 0.7 }, signal);
    expect(made[2]!.unload).not.toHaveBeenCalled();
    // A new "Longest reply" makes a new engine, which words its cut-off replies by it.
    await host.load({ ...defaultSettings, engine: 'webllm', model: 'Qwen3-1.7B-q4f16_1-MLC', temperature: 0.7, replyTokens: 16_384 }, signal);
    expect(made).toHaveLength(5);
    expect(made[4]!.unload).not.toHaveBeenCalled();
  });

  it('makes a new engine for the settings before, not the one it let go, when the engine of new settings cannot be made', async () => {
    const made: Array<ReturnType<typeof fakeEngine>> = [];
    const host = createEngineHost(() => {}, (settings) => {
      if (settings.engine === 'openai') throw new Error('No server address.');
      made.push(fakeEngine(settings));
      return made.at(-1)!.engine;
    });
    const signal = new AbortController().signal;
    const before = { ...defaultSettings, engine: 'prompt-api' as const };
    await host.load(before, signal);
    await expect(host.load({ ...defaultSettings, engine: 'openai' }, signal)).resolves.toMatchObject({ error: expect.stringContaining('No server address.') });
    expect(made[0]!.unload).toHaveBeenCalledTimes(1);
    // The person goes back to the settings before: the reply comes from an engine that is loaded.
    const again = await host.load(before, signal);
    expect(made).toHaveLength(2);
    expect(made[1]!.unload).not.toHaveBeenCalled();
    expect(again).not.toHaveProperty('error');
  });

  it('lets go of a replaced engine only once no reply streams from it', async () => {
    const { host, made, finishReply } = hostWithReplyOnHold();
    const signal = new AbortController().signal;
    const first = await host.load({ ...defaultSettings, engine: 'prompt-api' }, signal);
    if ('error' in first) throw new Error(first.error);
    // One tab's reply is on its way when the person changes the temperature and another tab asks.
    const reply = first.model.stream({ messages: [], tools: [], signal })[Symbol.asyncIterator]();
    const firstChunk = reply.next();
    await new Promise((resolve) => setTimeout(resolve, 0));
    await host.load({ ...defaultSettings, engine: 'prompt-api', temperature: 0.9 }, signal);
    expect(made[0]!.unload).not.toHaveBeenCalled();
    finishReply();
    await expect(firstChunk).resolves.toEqual({ done: false, value: { type: 'text-delta', text: 'Done.' } });
    await expect(reply.next()).resolves.toEqual({ done: true, value: undefined });
    expect(made[0]!.unload).toHaveBeenCalledTimes(1);
  });

  /** A Replay run in tab 1 holding its engine, its reply on its way: `endReply` lets it finish, `release` ends the run. */
  async function replayRunOnHold() {
    const { host, finishReply } = hostWithReplyOnHold();
    const signal = new AbortController().signal;
    const engine = await host.load({ ...defaultSettings, engine: 'replay' }, signal, { hold: true, tabId: 1 });
    if ('error' in engine) throw new Error(engine.error);
    const reply = engine.model.stream({ messages: [], tools: [], signal })[Symbol.asyncIterator]();
    const firstChunk = reply.next();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const endReply = async () => {
      finishReply();
      await firstChunk;
      await reply.next();
    };
    return { host, endReply, release: () => host.release(engine) };
  }

  it('keeps saying which engine a run uses while the settings name another, and names the next one once the run ends', async () => {
    const { host, endReply, release } = await replayRunOnHold();
    host.describe({ ...defaultSettings, engine: 'openai' });
    expect(host.statusFor(1)).toMatchObject({ engineId: 'replay', state: 'generating' });
    await endReply();
    expect(host.statusFor(1)).toMatchObject({ engineId: 'replay', state: 'ready' });
    release();
    expect(host.statusFor(1)).toMatchObject({ engineId: 'openai', state: 'idle' });
  });

  it('names the engine the settings now name once a load of the one before fails, not that one with the new model', async () => {
    let fail: (error: Error) => void = () => {};
    const host = createEngineHost(() => {}, (settings) => {
      const { engine } = fakeEngine(settings);
      // A server that does not answer while the person switches engine in the options.
      engine.load = () => new Promise<void>((_resolve, reject) => (fail = reject));
      return engine;
    });
    const server: Settings = { ...defaultSettings, engine: 'openai' };
    const loading = host.load(server, new AbortController().signal, { hold: true, tabId: 1 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    host.describe({ ...defaultSettings, engine: 'replay', model: 'replay-model' });
    fail(new EngineError('server-silent', 'No answer from the server.', 'Check that it runs.'));
    expect(await loading).toEqual({ error: 'No answer from the server. Check that it runs.' });
    expect(host.statusFor(1)).toMatchObject({ engineId: 'replay', engineLabel: engineLabel({ ...defaultSettings, engine: 'replay' }), model: 'replay-model', state: 'idle' });
  });

  it('names the engine the settings name once the run ends, where they switched away and back meanwhile', async () => {
    const { host, endReply, release } = await replayRunOnHold();
    host.describe({ ...defaultSettings, engine: 'openai' });
    host.describe({ ...defaultSettings, engine: 'replay' });
    await endReply();
    release();
    expect(host.statusFor(1)).toMatchObject({ engineId: 'replay', state: 'ready' });
  });

  it('stops calling a loaded server local once the settings point to another computer', async () => {
    const host = createEngineHost(() => {}, (settings) => fakeEngine(settings).engine);
    const local = { ...defaultSettings, engine: 'openai' as const, openaiBaseUrl: 'http://localhost:11434/v1' };
    await host.load(local, new AbortController().signal);
    expect(host.status).toMatchObject({ state: 'ready', engineLabel: 'Local server (OpenAI-compatible)' });
    host.describe({ ...local, openaiBaseUrl: 'http://gpu-box.lan:11434/v1' });
    expect(host.status).toMatchObject({ state: 'idle', engineLabel: 'Server at gpu-box.lan (OpenAI-compatible)' });
  });

  it('no longer says the model of a server is ready once the settings name another server on this computer', async () => {
    const host = createEngineHost(() => {}, (settings) => fakeEngine(settings).engine);
    const first = { ...defaultSettings, engine: 'openai' as const, model: '', openaiBaseUrl: 'http://localhost:11434/v1' };
    await host.load(first, new AbortController().signal, { tabId: 1 });
    expect(host.statusFor(1)).toMatchObject({ state: 'ready', model: 'default-model', engineLabel: 'Local server (OpenAI-compatible)' });
    // The same server, its address typed otherwise: its model stays ready.
    host.describe({ ...first, openaiBaseUrl: 'http://localhost:11434/v1/' }, { model: '' });
    expect(host.statusFor(1)).toMatchObject({ state: 'ready', model: 'default-model' });
    // Another server on this computer: what it loads is told by its own preview.
    host.describe({ ...first, openaiBaseUrl: 'http://localhost:8080/v1' }, { model: 'other-model' });
    expect(host.statusFor(1)).toMatchObject({ state: 'idle', model: 'other-model', engineLabel: 'Local server (OpenAI-compatible)' });
  });

  it('names the model picked after one that could not load, what it downloads on the next request, and no longer the old error', async () => {
    const big = { ...defaultSettings, engine: 'webllm' as const, model: 'Qwen3-8B-q4f16_1-MLC' };
    const small = { ...big, model: 'Qwen3-0.6B-q4f16_1-MLC' };
    const host = createEngineHost(() => {}, (settings) => ({
      ...fakeEngine(settings).engine,
      load: async () => {
        if (settings.model === big.model) throw new Error('Not enough GPU memory.');
      },
    }));
    await host.load(big, new AbortController().signal, { tabId: 1 });
    // The settings unchanged, a snapshot says the error again.
    host.describe(big, { model: big.model, downloadMB: 5_000 });
    expect(host.statusFor(1)).toMatchObject({ state: 'error', model: big.model, errorDuring: 'load' });
    host.describe(small, { model: small.model, downloadMB: 400 });
    expect(host.statusFor(1)).toEqual({ engineId: 'webllm', engineLabel: 'WebLLM (on this GPU)', model: small.model, state: 'idle', downloadMB: 400 });
  });

  it('names the model picked after another loaded, with its download, and keeps the loaded one for new settings of the same model', async () => {
    const host = createEngineHost(() => {}, (settings) => fakeEngine(settings).engine);
    const loaded = { ...defaultSettings, engine: 'webllm' as const, model: 'Qwen3-8B-q4f16_1-MLC' };
    await host.load(loaded, new AbortController().signal, { tabId: 1 });
    host.describe({ ...loaded, temperature: 0.9 }, { model: loaded.model });
    expect(host.statusFor(1)).toMatchObject({ state: 'ready', model: loaded.model });
    const picked = { ...loaded, model: 'Llama-3.2-1B-Instruct-q4f16_1-MLC' };
    host.describe(picked, { model: picked.model, downloadMB: 700 });
    expect(host.statusFor(1)).toMatchObject({ state: 'idle', model: picked.model, downloadMB: 700 });
  });

  it('keeps the model an engine left to pick one loaded while the settings still leave it to pick', async () => {
    const host = createEngineHost(() => {}, (settings) => fakeEngine(settings).engine);
    await host.load(defaultSettings, new AbortController().signal, { tabId: 1 });
    host.describe(defaultSettings, { model: 'Qwen3-0.6B-q4f32_1-MLC', downloadMB: 400 });
    expect(host.statusFor(1)).toMatchObject({ state: 'ready', model: 'default-model' });
  });

  it("no longer says a server's reply failed once the settings name another of its models", async () => {
    const host = createEngineHost(() => {}, (settings) => fakeEngine(settings).engine);
    const server = { ...defaultSettings, engine: 'openai' as const, openaiBaseUrl: 'http://localhost:11434/v1', model: 'qwen3:8b' };
    await host.load(server, new AbortController().signal, { tabId: 1 });
    host.reportError(1, 'The server at localhost:11434 answered HTTP 500: model crashed.');
    host.describe(server);
    expect(host.statusFor(1)).toMatchObject({ state: 'error', errorDuring: 'reply' });
    host.describe({ ...server, model: 'llama3.2:3b' });
    expect(host.statusFor(1)).toMatchObject({ state: 'idle', model: 'llama3.2:3b' });
    expect(host.statusFor(1)).not.toHaveProperty('error');
  });

  it('keeps saying which model a run uses while the settings name another, in its tab only, and names that one once the run ends', async () => {
    const { host, finishReply } = hostWithReplyOnHold({ holdsGpu: true });
    const signal = new AbortController().signal;
    const running = { ...defaultSettings, engine: 'webllm' as const, model: 'Qwen3-1.7B-q4f16_1-MLC' };
    const engine = await host.load(running, signal, { hold: true, tabId: 1 });
    if ('error' in engine) throw new Error(engine.error);
    const reply = engine.model.stream({ messages: [], tools: [], signal })[Symbol.asyncIterator]();
    const firstChunk = reply.next();
    await new Promise((resolve) => setTimeout(resolve, 0));
    host.describe({ ...running, model: 'Qwen3-0.6B-q4f16_1-MLC' }, { model: 'Qwen3-0.6B-q4f16_1-MLC', downloadMB: 400 });
    expect(host.statusFor(1)).toMatchObject({ state: 'generating', model: running.model });
    // A tab with no run names what its next request uses, not the model of the run in another tab.
    expect(host.statusFor(2)).toMatchObject({ state: 'idle', model: 'Qwen3-0.6B-q4f16_1-MLC', downloadMB: 400 });
    finishReply();
    await firstChunk;
    await reply.next();
    host.release(engine);
    expect(host.statusFor(1)).toMatchObject({ state: 'idle', model: 'Qwen3-0.6B-q4f16_1-MLC', downloadMB: 400 });
  });

  it('keeps saying which model a run loads while the settings name another, and names that one once the run ends', async () => {
    let finishLoad: () => void = () => {};
    const host = createEngineHost(() => {}, (settings) => {
      const { engine } = fakeEngine(settings);
      return { ...engine, holdsGpu: true as const, load: () => new Promise<void>((resolve) => (finishLoad = resolve)) };
    });
    const running = { ...defaultSettings, engine: 'webllm' as const, model: 'Qwen3-8B-q4f16_1-MLC' };
    const loading = host.load(running, new AbortController().signal, { hold: true, tabId: 1 });
    await new Promise((resolve) => setTimeout(resolve, 0));
    host.describe(running);
    expect(host.statusFor(1)).toMatchObject({ state: 'loading', model: running.model });
    host.describe({ ...running, model: 'Qwen3-0.6B-q4f16_1-MLC' }, { model: 'Qwen3-0.6B-q4f16_1-MLC', downloadMB: 400 });
    expect(host.statusFor(1)).toMatchObject({ state: 'loading', model: running.model });
    finishLoad();
    const engine = await loading;
    if ('error' in engine) throw new Error(engine.error);
    host.release(engine);
    expect(host.statusFor(1)).toMatchObject({ state: 'idle', model: 'Qwen3-0.6B-q4f16_1-MLC', downloadMB: 400 });
  });

  it('loads another WebLLM model only once the reply another tab reads from the first has ended', async () => {
    const { host, made, finishReply } = hostWithReplyOnHold();
    const signal = new AbortController().signal;
    const first = await host.load({ ...defaultSettings, engine: 'webllm', model: 'Qwen3-1.7B-q4f16_1-MLC' }, signal);
    if ('error' in first) throw new Error(first.error);
    const reply = first.model.stream({ messages: [], tools: [], signal })[Symbol.asyncIterator]();
    const firstChunk = reply.next();
    await new Promise((resolve) => setTimeout(resolve, 0));
    let secondLoaded = false;
    const second = host.load({ ...defaultSettings, engine: 'webllm', model: 'Qwen3-0.6B-q4f16_1-MLC' }, signal).then(() => (secondLoaded = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(made[0]!.unload).not.toHaveBeenCalled();
    expect(secondLoaded).toBe(false);
    finishReply();
    await firstChunk;
    await reply.next();
    await second;
    expect(made[0]!.unload).toHaveBeenCalledTimes(1);
  });

  it('gives any engine that holds the GPU what WebLLM gets: its next model waits for the reply, and the same model stays loaded', async () => {
    const { host, made, finishReply } = hostWithReplyOnHold({ holdsGpu: true });
    const signal = new AbortController().signal;
    const gpuServer = { ...defaultSettings, engine: 'openai' as const, model: 'big-model' };
    const first = await host.load(gpuServer, signal);
    if ('error' in first) throw new Error(first.error);
    // The same model under a new temperature is taken over, not unloaded.
    await host.load({ ...gpuServer, temperature: 0.7 }, signal);
    expect(made).toHaveLength(2);
    expect(made[0]!.unload).not.toHaveBeenCalled();
    const running = await host.load({ ...gpuServer, temperature: 0.7 }, signal);
    if ('error' in running) throw new Error(running.error);
    const reply = running.model.stream({ messages: [], tools: [], signal })[Symbol.asyncIterator]();
    const firstChunk = reply.next();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Another model: made only once the reply has ended and the one on the GPU has gone.
    const second = host.load({ ...gpuServer, model: 'small-model' }, signal);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(made).toHaveLength(2);
    expect(made[1]!.unload).not.toHaveBeenCalled();
    finishReply();
    await firstChunk;
    await reply.next();
    await second;
    expect(made[1]!.unload).toHaveBeenCalledTimes(1);
    expect(made).toHaveLength(3);
  });

  it('swaps the WebLLM model once for every tab: a Stop during the wait or another tab asking never loads it under the reply', async () => {
    const { host, made, finishReply } = hostWithReplyOnHold();
    const qwen17 = { ...defaultSettings, engine: 'webllm' as const, model: 'Qwen3-1.7B-q4f16_1-MLC' };
    const qwen06 = { ...qwen17, model: 'Qwen3-0.6B-q4f16_1-MLC' };
    const first = await host.load(qwen17, new AbortController().signal);
    if ('error' in first) throw new Error(first.error);
    const reply = first.model.stream({ messages: [], tools: [], signal: new AbortController().signal })[Symbol.asyncIterator]();
    const firstChunk = reply.next();
    await new Promise((resolve) => setTimeout(resolve, 0));
    // Tab B asks for the new model, and the person presses Stop while it waits...
    const stop = new AbortController();
    const stopped = host.load(qwen06, stop.signal);
    await new Promise((resolve) => setTimeout(resolve, 10));
    stop.abort();
    await expect(stopped).resolves.toEqual({ error: 'Stopped while the model was loading.' });
    // ...then sends again, and tab C asks too, while tab A's reply still streams.
    const again = host.load(qwen06, new AbortController().signal);
    const third = host.load(qwen06, new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(made).toHaveLength(1);
    expect(made[0]!.unload).not.toHaveBeenCalled();
    finishReply();
    await firstChunk;
    await reply.next();
    const [b, c] = await Promise.all([again, third]);
    expect(made).toHaveLength(2);
    expect(b).toMatchObject({ modelId: 'Qwen3-0.6B-q4f16_1-MLC' });
    expect(c).toMatchObject({ modelId: 'Qwen3-0.6B-q4f16_1-MLC' });
  });

  it('waits for another tab’s reply before loading the default model in place of one chosen by name, and keeps the default loaded under new settings', async () => {
    const { host, made, finishReply } = hostWithReplyOnHold();
    const chosen = { ...defaultSettings, engine: 'webllm' as const, model: 'Qwen3-4B-q4f16_1-MLC' };
    const first = await host.load(chosen, new AbortController().signal);
    if ('error' in first) throw new Error(first.error);
    const reply = first.model.stream({ messages: [], tools: [], signal: new AbortController().signal })[Symbol.asyncIterator]();
    const firstChunk = reply.next();
    await new Promise((resolve) => setTimeout(resolve, 0));
    const recommended = host.load({ ...chosen, model: '' }, new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(made).toHaveLength(1);
    finishReply();
    await firstChunk;
    await reply.next();
    await recommended;
    expect(made).toHaveLength(2);
    expect(made[0]!.unload).toHaveBeenCalledTimes(1);
    // The default again, warmer: the same model, which stays on the GPU.
    await host.load({ ...chosen, model: '', temperature: 0.7 }, new AbortController().signal);
    expect(made[1]!.unload).not.toHaveBeenCalled();
  });

  it('loads another WebLLM model only once the run that holds the first has ended, a tool between two replies included', async () => {
    const published: EngineStatus[] = [];
    const made: Array<ReturnType<typeof fakeEngine>> = [];
    const host = createEngineHost(() => published.push(host.status), (settings) => {
      made.push(fakeEngine(settings));
      return made.at(-1)!.engine;
    });
    const qwen17 = { ...defaultSettings, engine: 'webllm' as const, model: 'Qwen3-1.7B-q4f16_1-MLC' };
    const [tabA, tabB, tabC] = [1, 2, 3];
    const running = await host.load(qwen17, new AbortController().signal, { hold: true, tabId: tabA });
    if ('error' in running) throw new Error(running.error);
    // Tab A's run is between two replies (a tool runs) when tab B asks for another model.
    let loaded = false;
    const other = host
      .load({ ...qwen17, model: 'Qwen3-0.6B-q4f16_1-MLC' }, new AbortController().signal, { tabId: tabB })
      .then(() => (loaded = true));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(loaded).toBe(false);
    expect(made[0]!.unload).not.toHaveBeenCalled();
    // The tab still running keeps its status: ready, not loading; the tab waiting says why.
    expect(published.at(-1)?.state).toBe('ready');
    expect(host.statusFor(tabA).state).toBe('ready');
    // It names the tab it waits for, which the sessions turn into words and the panel into a way there.
    expect(host.statusFor(tabB)).toMatchObject({ state: 'loading', progressText: 'Waiting for the run in another tab to end…', waitingForTab: tabA });
    // A Stop in tab C ends only its own wait, and leaves the status as it was.
    const stopped = new AbortController();
    const third = host.load({ ...qwen17, model: 'Qwen3-0.6B-q4f16_1-MLC' }, stopped.signal, { tabId: tabC });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(host.statusFor(tabC).state).toBe('loading');
    stopped.abort();
    await expect(third).resolves.toEqual({ error: 'Stopped while the model was loading.' });
    expect(host.statusFor(tabC).state).toBe('ready');
    expect(host.statusFor(tabA).state).toBe('ready');
    expect(host.statusFor(tabB).state).toBe('loading');
    host.release(running);
    await other;
    expect(host.statusFor(tabB).progressText).toBeUndefined();
    expect(host.statusFor(tabA).state).toBe('ready');
    expect(made[0]!.unload).toHaveBeenCalledTimes(1);
    expect(made).toHaveLength(2);
  });

  it('says the model is no longer loaded once a swap nobody waits for any more has unloaded it', async () => {
    const made: Array<ReturnType<typeof fakeEngine>> = [];
    const host = createEngineHost(() => {}, (settings) => {
      made.push(fakeEngine(settings));
      return made.at(-1)!.engine;
    });
    const qwen17 = { ...defaultSettings, engine: 'webllm' as const, model: 'Qwen3-1.7B-q4f16_1-MLC' };
    const running = await host.load(qwen17, new AbortController().signal, { hold: true, tabId: 1 });
    if ('error' in running) throw new Error(running.error);
    // Tab 2 asks for another model, waits for tab 1's run, and stops.
    const stopped = new AbortController();
    const waiting = host.load({ ...qwen17, model: 'Qwen3-0.6B-q4f16_1-MLC' }, stopped.signal, { hold: true, tabId: 2 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    stopped.abort();
    await waiting;
    expect(host.status.state).toBe('ready');
    // Tab 1's run ends: the swap goes on, the first model leaves the GPU, and nobody loads the next yet.
    host.release(running);
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(made[0]!.unload).toHaveBeenCalledTimes(1);
    expect(host.status).toMatchObject({ state: 'idle' });
  });

  it('says the model generates only to the tabs it is replying to, and tells each tab when that changes', async () => {
    const finishers: Array<() => void> = [];
    let publishes = 0;
    const host = createEngineHost(
      () => void (publishes += 1),
      (settings) => ({
        ...fakeEngine(settings).engine,
        model: {
          async *stream() {
            await new Promise<void>((resolve) => finishers.push(resolve));
            yield { type: 'text-delta', text: 'Done.' };
          },
        },
      }),
    );
    const settings = { ...defaultSettings, engine: 'webllm' as const, model: 'Qwen3-1.7B-q4f16_1-MLC' };
    const reply = async (tabId: number) => {
      const engine = await host.load(settings, new AbortController().signal, { tabId });
      if ('error' in engine) throw new Error(engine.error);
      const chunks = engine.model.stream({ messages: [], tools: [], signal: new AbortController().signal })[Symbol.asyncIterator]();
      const first = chunks.next();
      await new Promise((resolve) => setTimeout(resolve, 0));
      return async () => {
        finishers.shift()!();
        await first;
        await chunks.next();
      };
    };
    const endFirst = await reply(1);
    expect([host.statusFor(1).state, host.statusFor(2).state]).toEqual(['generating', 'ready']);
    // Tab 2's run loads the model already loaded: tab 1, mid-reply, is not told it loads.
    const loadedAgain = await host.load(settings, new AbortController().signal, { tabId: 2 });
    expect('error' in loadedAgain).toBe(false);
    expect([host.statusFor(1).state, host.statusFor(2).state]).toEqual(['generating', 'ready']);
    const before = publishes;
    const endSecond = await reply(2);
    // Tab 2's panel hears that it is generating now, though the shared state did not change.
    expect(publishes).toBeGreaterThan(before);
    expect([host.statusFor(1).state, host.statusFor(2).state]).toEqual(['generating', 'generating']);
    await endFirst();
    expect([host.statusFor(1).state, host.statusFor(2).state]).toEqual(['ready', 'generating']);
    await endSecond();
    expect([host.statusFor(1).state, host.statusFor(2).state]).toEqual(['ready', 'ready']);
  });

  /**
   * A host whose engine answers one reply at a time, as WebLLM and Chrome's model do: each reply
   * waits for `finishReply()` (the oldest first) before its last word. `reply(tabId)` loads for the
   * tab and starts its reply, and gives the reply's chunks and its Stop.
   */
  function hostAnsweringInTurn() {
    const turns = createReplyTurns();
    const finishers: Array<() => void> = [];
    const host = createEngineHost(() => {}, (settings) => ({
      ...fakeEngine(settings).engine,
      replyTurns: turns,
      model: {
        async *stream(request) {
          const passOn = await turns.take(request.signal);
          if (!passOn) return;
          try {
            yield { type: 'text-delta', text: 'Working' };
            await new Promise<void>((resolve) => finishers.push(resolve));
            yield { type: 'text-delta', text: ' done.' };
          } finally {
            passOn();
          }
        },
      },
    }));
    const settings = { ...defaultSettings, engine: 'webllm' as const, model: 'Qwen3-1.7B-q4f16_1-MLC' };
    const reply = async (tabId: number) => {
      const stop = new AbortController();
      const engine = await host.load(settings, new AbortController().signal, { tabId });
      if ('error' in engine) throw new Error(engine.error);
      const texts: string[] = [];
      const done = (async () => {
        for await (const chunk of engine.model.stream({ messages: [], tools: [], signal: stop.signal })) if (chunk.type === 'text-delta') texts.push(chunk.text);
      })();
      await new Promise((resolve) => setTimeout(resolve, 0));
      return { texts, done, stop: (reason?: unknown) => stop.abort(reason) };
    };
    const finishReply = async () => {
      finishers.shift()!();
      await new Promise((resolve) => setTimeout(resolve, 0));
    };
    return { host, reply, finishReply };
  }

  const waitingWords = 'Waiting for the reply in another tab…';

  it("tells a tab whose reply waits for another tab's turn that it waits, and for which tab, not that the model writes for it", async () => {
    const { host, reply, finishReply } = hostAnsweringInTurn();
    const first = await reply(1);
    const second = await reply(2);
    expect(first.texts).toEqual(['Working']);
    expect(second.texts).toEqual([]);
    expect(host.statusFor(1)).toMatchObject({ state: 'generating', progressText: undefined });
    // The tab waiting is told which tab has the turn.
    expect(host.statusFor(2)).toMatchObject({ state: 'generating', progressText: waitingWords, waitingForTab: 1 });
    expect(host.statusFor(3)).toMatchObject({ state: 'ready', progressText: undefined });
    expect([host.statusFor(1).waitingForTab, host.statusFor(3).waitingForTab]).toEqual([undefined, undefined]);
    await finishReply();
    await first.done;
    expect(second.texts).toEqual(['Working']);
    expect(host.statusFor(1).state).toBe('ready');
    expect(host.statusFor(2)).toMatchObject({ state: 'generating', progressText: undefined });
    expect(host.statusFor(2).waitingForTab).toBeUndefined();
    await finishReply();
    await second.done;
    expect([host.statusFor(1).state, host.statusFor(2).state]).toEqual(['ready', 'ready']);
  });

  it('lets a tab stopped while its reply waits for its turn go back to ready at once', async () => {
    const { host, reply, finishReply } = hostAnsweringInTurn();
    const first = await reply(1);
    const second = await reply(2);
    second.stop();
    await second.done;
    expect(host.statusFor(2)).toMatchObject({ state: 'ready', progressText: undefined });
    expect(host.statusFor(1).state).toBe('generating');
    await finishReply();
    await first.done;
    expect(first.texts).toEqual(['Working', ' done.']);
  });

  it('tells the tab that asked, and only it, since when its reply has brought no word, and that the model thinks meanwhile, until a word comes', async () => {
    let publishes = 0;
    let release: () => void = () => {};
    const host = createEngineHost(() => publishes++, (settings) => ({
      ...fakeEngine(settings).engine,
      model: {
        async *stream() {
          await new Promise<void>((resolve) => (release = resolve));
          yield { type: 'thinking' };
          yield { type: 'text-delta', text: 'Done.' };
        },
      },
    }));
    const engine = await host.load({ ...defaultSettings, engine: 'openai', model: 'qwen3:1.7b' }, new AbortController().signal, { tabId: 1 });
    if ('error' in engine) throw new Error(engine.error);
    const asked = Date.now();
    const chunks = engine.model.stream({ messages: [], tools: [], signal: new AbortController().signal })[Symbol.asyncIterator]();
    const first = chunks.next();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(host.statusFor(1)).toMatchObject({ state: 'generating', firstWordSince: expect.any(Number) });
    expect(host.statusFor(1).firstWordSince! - asked).toBeGreaterThanOrEqual(0);
    expect(host.statusFor(1).firstWordSince! - asked).toBeLessThan(1_000);
    expect(host.statusFor(2).firstWordSince).toBeUndefined();
    const since = host.statusFor(1).firstWordSince;
    let before = publishes;
    release();
    // A thought apart from the reply is no word of it: the wait goes on, said to be thinking.
    expect(await first).toEqual({ done: false, value: { type: 'thinking' } });
    expect(publishes).toBeGreaterThan(before);
    expect(host.statusFor(1)).toMatchObject({ state: 'generating', firstWordSince: since, thinking: true });
    before = publishes;
    expect(await chunks.next()).toEqual({ done: false, value: { type: 'text-delta', text: 'Done.' } });
    expect(publishes).toBeGreaterThan(before);
    expect(host.statusFor(1)).toMatchObject({ state: 'generating' });
    expect([host.statusFor(1).firstWordSince, host.statusFor(1).thinking]).toEqual([undefined, undefined]);
    await chunks.next();
    expect(host.statusFor(1)).toMatchObject({ state: 'ready' });
    expect(host.statusFor(1).firstWordSince).toBeUndefined();
  });

  it('tells the tab whose reply had begun when nothing more of it has come for a while, and when something comes again', async () => {
    let release: () => void = () => {};
    const host = createEngineHost(() => {}, (settings) => ({
      ...fakeEngine(settings).engine,
      model: {
        async *stream() {
          yield { type: 'text-delta' as const, text: 'It starts' };
          await new Promise<void>((resolve) => (release = resolve));
          yield { type: 'text-delta' as const, text: ', then goes on.' };
        },
      },
    }));
    const engine = await host.load({ ...defaultSettings, engine: 'openai', model: 'qwen3:1.7b' }, new AbortController().signal, { tabId: 1 });
    if ('error' in engine) throw new Error(engine.error);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const chunks = engine.model.stream({ messages: [], tools: [], signal: new AbortController().signal })[Symbol.asyncIterator]();
      await chunks.next();
      const lastWordAt = Date.now();
      const next = chunks.next();
      await vi.advanceTimersByTimeAsync(9_000);
      expect([host.statusFor(1).state, host.statusFor(1).quietSince]).toEqual(['generating', undefined]);
      await vi.advanceTimersByTimeAsync(2_000);
      expect(host.statusFor(1)).toMatchObject({ state: 'generating', quietSince: lastWordAt });
      expect(host.statusFor(2).quietSince).toBeUndefined();
      release();
      expect(await next).toEqual({ done: false, value: { type: 'text-delta', text: ', then goes on.' } });
      expect([host.statusFor(1).state, host.statusFor(1).quietSince]).toEqual(['generating', undefined]);
      await chunks.next();
      expect([host.statusFor(1).state, host.statusFor(1).quietSince]).toEqual(['ready', undefined]);
    } finally {
      vi.useRealTimers();
    }
  });

  it('counts no silence while a reply brings only pieces its engine holds (a call a server streams apart)', async () => {
    const host = createEngineHost(() => {}, (settings) => ({
      ...fakeEngine(settings).engine,
      model: {
        async *stream() {
          yield { type: 'text-delta' as const, text: 'Let me look.' };
          // The call's pieces, one every 4 s for 24 s: held by the engine, each told as an empty piece.
          for (let piece = 0; piece < 6; piece += 1) {
            await new Promise((resolve) => setTimeout(resolve, 4_000));
            yield { type: 'text-delta' as const, text: '' };
          }
          yield { type: 'text-delta' as const, text: '<tool_call>{"name": "search", "arguments": {}}</tool_call>' };
        },
      },
    }));
    const engine = await host.load({ ...defaultSettings, engine: 'openai', model: 'qwen3:1.7b' }, new AbortController().signal, { tabId: 1 });
    if ('error' in engine) throw new Error(engine.error);
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    try {
      const reading = (async () => {
        for await (const _chunk of engine.model.stream({ messages: [], tools: [], signal: new AbortController().signal })) void _chunk;
      })();
      for (let second = 0; second < 24; second += 1) {
        await vi.advanceTimersByTimeAsync(1_000);
        expect(host.statusFor(1).quietSince).toBeUndefined();
      }
      await vi.advanceTimersByTimeAsync(1_000);
      await reading;
      expect(host.statusFor(1).state).toBe('ready');
    } finally {
      vi.useRealTimers();
    }
  });

  it("ends the first word's wait at the first piece of a call a server streams apart, which the engine holds: the model is writing, the server not silent", async () => {
    const host = createEngineHost(() => {}, (settings) => ({
      ...fakeEngine(settings).engine,
      model: {
        async *stream() {
          yield { type: 'text-delta' as const, text: '' };
          yield { type: 'text-delta' as const, text: '' };
          yield { type: 'text-delta' as const, text: '<tool_call>{"name": "search", "arguments": {}}</tool_call>' };
        },
      },
    }));
    const engine = await host.load({ ...defaultSettings, engine: 'openai', model: 'qwen3:1.7b' }, new AbortController().signal, { tabId: 1 });
    if ('error' in engine) throw new Error(engine.error);
    const waiting: boolean[] = [];
    for await (const chunk of engine.model.stream({ messages: [], tools: [], signal: new AbortController().signal })) {
      if (chunk.type === 'text-delta') waiting.push(host.statusFor(1).firstWordSince !== undefined);
    }
    expect(waiting).toEqual([false, false, false]);
  });

  it('says the model is writing, no longer thinking, at the first piece of a call that follows thoughts a server sent apart', async () => {
    const host = createEngineHost(() => {}, (settings) => ({
      ...fakeEngine(settings).engine,
      model: {
        async *stream() {
          yield { type: 'thinking' as const, text: 'The person wants a mug. ' };
          yield { type: 'thinking' as const, text: 'I should search.' };
          yield { type: 'text-delta' as const, text: '' };
          yield { type: 'text-delta' as const, text: '<tool_call>{"name": "search", "arguments": {}}</tool_call>' };
        },
      },
    }));
    const engine = await host.load({ ...defaultSettings, engine: 'openai', model: 'qwen3:1.7b' }, new AbortController().signal, { tabId: 1 });
    if ('error' in engine) throw new Error(engine.error);
    const seen: [string, boolean, boolean][] = [];
    for await (const chunk of engine.model.stream({ messages: [], tools: [], signal: new AbortController().signal })) {
      seen.push([chunk.type, host.statusFor(1).firstWordSince !== undefined, host.statusFor(1).thinking === true]);
    }
    expect(seen).toEqual([
      ['thinking', true, true],
      ['thinking', true, true],
      ['text-delta', false, false],
      ['text-delta', false, false],
    ]);
  });

  it('counts reasoning written into the reply\'s text (`<think>`) as thinking, and its first word as the one after it', async () => {
    const pieces = ['<think>', 'The person wants', ' the cart.</think>\n\n', 'Opening it.'];
    const host = createEngineHost(() => {}, (settings) => ({
      ...fakeEngine(settings).engine,
      model: {
        async *stream() {
          for (const text of pieces) yield { type: 'text-delta' as const, text };
        },
      },
    }));
    const engine = await host.load({ ...defaultSettings, engine: 'webllm' }, new AbortController().signal, { tabId: 1 });
    if ('error' in engine) throw new Error(engine.error);
    const seen: Array<[boolean, boolean]> = [];
    for await (const chunk of engine.model.stream({ messages: [], tools: [], signal: new AbortController().signal })) {
      if (chunk.type === 'text-delta') seen.push([host.statusFor(1).firstWordSince !== undefined, host.statusFor(1).thinking === true]);
    }
    // The tag alone says nothing yet (an empty block is no thinking); its first word does.
    expect(seen).toEqual([[true, false], [true, true], [false, false], [false, false]]);
  });

  it("keeps the next reply's wait when a stopped reply of the same tab ends after it began", async () => {
    const ends: Array<() => void> = [];
    const host = createEngineHost(() => {}, (settings) => ({
      ...fakeEngine(settings).engine,
      model: {
        // As a server's stream may: it ends a while after its Stop, whenever the test says.
        async *stream() {
          await new Promise<void>((resolve) => ends.push(resolve));
        },
      },
    }));
    const engine = await host.load({ ...defaultSettings, engine: 'openai', model: 'qwen3:1.7b' }, new AbortController().signal, { tabId: 1 });
    if ('error' in engine) throw new Error(engine.error);
    const drain = (signal: AbortSignal) => (async () => {
      for await (const _ of engine.model.stream({ messages: [], tools: [], signal }));
    })();
    const stopped = new AbortController();
    const first = drain(stopped.signal);
    await new Promise((resolve) => setTimeout(resolve, 0));
    stopped.abort();
    const second = drain(new AbortController().signal);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const waiting = host.statusFor(1).firstWordSince;
    expect(waiting).toEqual(expect.any(Number));
    ends.shift()!();
    await first;
    expect(host.statusFor(1)).toMatchObject({ state: 'generating', firstWordSince: waiting });
    ends.shift()!();
    await second;
    expect(host.statusFor(1).firstWordSince).toBeUndefined();
  });

  it('forgets the wait for a first word that never came once the reply is stopped', async () => {
    const host = createEngineHost(() => {}, (settings) => ({
      ...fakeEngine(settings).engine,
      model: {
        async *stream(request) {
          await new Promise((resolve) => request.signal.addEventListener('abort', resolve, { once: true }));
        },
      },
    }));
    const engine = await host.load({ ...defaultSettings, engine: 'openai', model: 'qwen3:1.7b' }, new AbortController().signal, { tabId: 1 });
    if ('error' in engine) throw new Error(engine.error);
    const stop = new AbortController();
    const done = (async () => {
      for await (const _ of engine.model.stream({ messages: [], tools: [], signal: stop.signal }));
    })();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(host.statusFor(1).firstWordSince).toEqual(expect.any(Number));
    stop.abort();
    await done;
    expect(host.statusFor(1)).toMatchObject({ state: 'ready' });
    expect(host.statusFor(1).firstWordSince).toBeUndefined();
  });

  it("shows each tab its own reply speed, not the speed of whichever tab's reply ended last", async () => {
    const { host, reply, finishReply } = hostAnsweringInTurn();
    const first = await reply(1);
    host.reportUsage(1, { decodeTokensPerSecond: 64.3 });
    const second = await reply(2);
    expect(host.statusFor(1).tokensPerSecond).toBe(64.3);
    expect(host.statusFor(2).tokensPerSecond).toBeUndefined();
    await finishReply();
    await first.done;
    expect(host.statusFor(2)).toMatchObject({ state: 'generating', tokensPerSecond: undefined });
    host.reportUsage(2, { decodeTokensPerSecond: 4.8 });
    expect(host.statusFor(2).tokensPerSecond).toBe(4.8);
    expect(host.statusFor(1).tokensPerSecond).toBe(64.3);
    await finishReply();
    await second.done;
  });

  it("says a reply that failed only in the tab that asked, and no longer once the engine answers again", async () => {
    const { host, reply, finishReply } = hostAnsweringInTurn();
    const settings = { ...defaultSettings, engine: 'webllm' as const, model: 'Qwen3-1.7B-q4f16_1-MLC' };
    await host.load(settings, new AbortController().signal, { tabId: 1 });
    const failure = { error: 'The server at 127.0.0.1:42853 answered HTTP 500: model crashed.', hint: "Check the server's own log, then send your request again." };
    const second = await reply(2);
    host.reportError(1, failure.error, failure.hint);
    expect(host.statusFor(1)).toMatchObject({ state: 'error', errorDuring: 'reply', ...failure });
    // The tab whose own reply streams, and the tab that never asked, go on as they were.
    expect(host.statusFor(2)).toMatchObject({ state: 'generating', error: undefined });
    expect(host.statusFor(3)).toMatchObject({ state: 'ready', error: undefined });
    await finishReply();
    await second.done;
    expect(host.statusFor(1)).toMatchObject({ state: 'ready', error: undefined, errorDuring: undefined });
  });

  it('tells a run that failed before anything of a reply came from one that failed while it answered (a thought, a word, an earlier step)', async () => {
    let replies: ModelChunk[][] = [];
    const host = createEngineHost(() => {}, (settings) => ({
      ...fakeEngine(settings).engine,
      model: {
        async *stream() {
          yield* replies.shift() ?? [];
          throw new EngineError('unavailable', 'The server at 127.0.0.1:8080 answered HTTP 500: model crashed.', "Check the server's own log, then send your request again.");
        },
      },
    }));
    // One run: a load, then its replies, each failing after what it brought.
    const run = async (brought: ModelChunk[][]) => {
      // A copy: each step takes its chunks off the front.
      replies = [...brought];
      const engine = await host.load({ ...defaultSettings, engine: 'openai', model: 'qwen3:1.7b' }, new AbortController().signal, { tabId: 1 });
      if ('error' in engine) throw new Error(engine.error);
      for (let step = 0; step < brought.length; step += 1) {
        await expect((async () => {
          for await (const _ of engine.model.stream({ messages: [], tools: [], signal: new AbortController().signal }));
        })()).rejects.toThrow('HTTP 500');
      }
      host.reportError(1, 'The server at 127.0.0.1:8080 answered HTTP 500: model crashed.');
      return host.statusFor(1);
    };
    expect(await run([[{ type: 'text-delta', text: '\n' }]])).toMatchObject({ state: 'error', errorDuring: 'reply', beforeFirstWord: true });
    expect((await run([[{ type: 'thinking' }]])).beforeFirstWord).toBeUndefined();
    expect((await run([[{ type: 'text-delta', text: '<tool_call>' }]])).beforeFirstWord).toBeUndefined();
    // A second step that brought nothing, after a first that wrote: the run was answering, its latest reply not.
    expect(await run([[{ type: 'text-delta', text: 'Let me look.' }], []])).toMatchObject({ beforeReply: true });
    expect((await run([[{ type: 'text-delta', text: 'Let me look.' }], []])).beforeFirstWord).toBeUndefined();
    expect((await run([[{ type: 'text-delta', text: 'Let me look.' }]])).beforeReply).toBeUndefined();
    expect(await run([[]])).toMatchObject({ beforeFirstWord: true });
    // The engine's code goes with it: a server gone since the last request says so.
    host.reportError(1, 'No server answers at 127.0.0.1:8080.', 'Start it.', 'server-down');
    expect(host.statusFor(1)).toMatchObject({ errorCode: 'server-down', beforeFirstWord: true });
    // A closed tab's news goes with it.
    host.tabClosed(1);
    expect(host.statusFor(1)).toEqual(host.statusFor(2));
  });

  it("does not count words a stopped reply streams after the tab's next run began toward that run", async () => {
    let late: () => void = () => {};
    let calls = 0;
    const host = createEngineHost(() => {}, (settings) => ({
      ...fakeEngine(settings).engine,
      model: {
        async *stream() {
          calls += 1;
          if (calls === 1) {
            // As a server's stream may: words still come after the Stop.
            await new Promise<void>((resolve) => (late = resolve));
            yield { type: 'text-delta' as const, text: 'Still writing.' };
            return;
          }
          throw new EngineError('unavailable', 'The server answered HTTP 500.', 'Check its log.');
        },
      },
    }));
    const settings = { ...defaultSettings, engine: 'openai' as const, model: 'qwen3:1.7b' };
    const drain = async (signal: AbortSignal) => {
      const engine = await host.load(settings, signal, { tabId: 1 });
      if ('error' in engine) throw new Error(engine.error);
      for await (const _ of engine.model.stream({ messages: [], tools: [], signal }));
    };
    const stop = new AbortController();
    const first = drain(stop.signal);
    await vi.waitFor(() => expect(calls).toBe(1));
    stop.abort();
    const second = drain(new AbortController().signal).catch(() => {});
    await vi.waitFor(() => expect(calls).toBe(2));
    late();
    await first;
    await second;
    host.reportError(1, 'The server answered HTTP 500.');
    expect(host.statusFor(1)).toMatchObject({ errorDuring: 'reply', beforeFirstWord: true });
  });

  it('no longer says a reply failed once the settings its requests are made from change (a new key), but still does for a change beside them', async () => {
    const host = createEngineHost(() => {}, (settings) => fakeEngine(settings).engine);
    const settings = { ...defaultSettings, engine: 'openai' as const, openaiBaseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen3:1.7b', openaiApiKey: 'old-key' };
    await host.load(settings, new AbortController().signal, { tabId: 1 });
    host.describe(settings);
    const failure = { error: 'The server at 127.0.0.1:8080 refused the API key (HTTP 401).', hint: 'Check the API key in the options.' };
    host.reportError(1, failure.error, failure.hint);
    // The same settings described again (another panel opened), or a change the engine never reads: the failure stands.
    host.describe(settings);
    host.describe({ ...settings, maxSteps: 12, allowedSites: ['https://shop.example'] });
    expect(host.statusFor(1)).toMatchObject({ state: 'error', errorDuring: 'reply', ...failure });
    host.describe({ ...settings, maxSteps: 12, allowedSites: ['https://shop.example'], openaiApiKey: 'new-key' });
    expect(host.statusFor(1)).toMatchObject({ state: 'ready', error: undefined, errorDuring: undefined });
  });

  it('no longer says the model could not load once the key or address it was loaded with changes; the next request loads it again', async () => {
    const refused = { error: 'The server at 127.0.0.1:8080 asks for an API key, or refused the one given (HTTP 401).', hint: 'Check the API key in the options.' };
    const host = createEngineHost(() => {}, (settings) => ({
      ...fakeEngine(settings).engine,
      async load() {
        if (settings.openaiApiKey !== 'right-key') throw new EngineError('forbidden', refused.error, refused.hint);
      },
    }));
    const settings = { ...defaultSettings, engine: 'openai' as const, openaiBaseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen3:1.7b', openaiApiKey: 'wrong-key' };
    host.describe(settings);
    expect(await host.load(settings, new AbortController().signal, { tabId: 1 })).toMatchObject({ error: expect.stringContaining(refused.error) });
    host.describe(settings);
    host.describe({ ...settings, maxSteps: 12 });
    expect(host.statusFor(1)).toMatchObject({ state: 'error', errorDuring: 'load', errorCode: 'forbidden', error: refused.error, hint: refused.hint });
    const fixed = { ...settings, maxSteps: 12, openaiApiKey: 'right-key' };
    host.describe(fixed);
    expect(host.statusFor(1)).toMatchObject({ state: 'idle', model: 'qwen3:1.7b' });
    expect([host.statusFor(1).error, host.statusFor(1).errorDuring]).toEqual([undefined, undefined]);
    expect('error' in (await host.load(fixed, new AbortController().signal, { tabId: 1 }))).toBe(false);
    expect(host.statusFor(1)).toMatchObject({ state: 'ready' });
  });

  it('keeps a failure that came with the new settings before the panels were told of them, and one that a change the load never reads leaves standing', async () => {
    const refused = { error: 'The server at 127.0.0.1:8080 asks for an API key, or refused the one given (HTTP 401).', hint: 'Check the API key in the options.' };
    const host = createEngineHost(() => {}, (settings) => ({
      ...fakeEngine(settings).engine,
      async load() {
        throw new EngineError('forbidden', refused.error, refused.hint);
      },
    }));
    const before = { ...defaultSettings, engine: 'openai' as const, openaiBaseUrl: 'http://127.0.0.1:8080/v1', model: 'qwen3:1.7b', openaiApiKey: 'old-key' };
    host.describe(before);
    // A request right after the options saved a new key: it loads with it before any panel is redrawn.
    const after = { ...before, openaiApiKey: 'still-wrong' };
    await host.load(after, new AbortController().signal, { tabId: 1 });
    host.describe(after);
    expect(host.statusFor(1)).toMatchObject({ state: 'error', errorDuring: 'load', error: refused.error });
    host.describe({ ...after, temperature: 0.7 });
    expect(host.statusFor(1)).toMatchObject({ state: 'error', errorDuring: 'load', error: refused.error });
  });

  it("no longer says a reply failed once another tab's reply ends at the end of the model's own turn, but still does after a Stop", async () => {
    const { host, reply, finishReply } = hostAnsweringInTurn();
    const settings = { ...defaultSettings, engine: 'webllm' as const, model: 'Qwen3-1.7B-q4f16_1-MLC' };
    await host.load(settings, new AbortController().signal, { tabId: 1 });
    host.reportError(1, 'The model crashed.');
    const stopped = await reply(2);
    stopped.stop();
    await finishReply();
    await stopped.done;
    expect(host.statusFor(1)).toMatchObject({ state: 'error', errorDuring: 'reply' });
    // The model went on past its own turn (a tool result it made up): the reply is cut, and it ended well.
    const cut = await reply(2);
    cut.stop(turnOverReason());
    await finishReply();
    await cut.done;
    expect(host.statusFor(1)).toMatchObject({ state: 'ready', error: undefined, errorDuring: undefined });
  });

  it('still tells every tab of a model that could not load', async () => {
    const host = createEngineHost(() => {}, (settings) => ({
      ...fakeEngine(settings).engine,
      load: async () => {
        throw new Error('The GPU ran out of memory.');
      },
    }));
    await host.load({ ...defaultSettings, engine: 'openai' }, new AbortController().signal, { tabId: 1 });
    expect(host.statusFor(2)).toMatchObject({ state: 'error', errorDuring: 'load' });
  });

  it("tells the tab that waits for WebLLM to finish another tab's reply so, and answers it next", async () => {
    const fake = createFakeWebLlm({ replies: ['A long first answer. '.repeat(5), 'Second.'], chunkSize: 3 });
    const host = createEngineHost(() => {}, (settings) => createWebLlmEngine(settings, { webllm: fake.module, gpu: fakeGpu(), keepAwake: () => () => {} }));
    const load = async (tabId: number) => {
      const engine = await host.load(defaultSettings, new AbortController().signal, { tabId });
      if ('error' in engine) throw new Error(engine.error);
      return engine;
    };
    const request = { messages: [{ role: 'user' as const, content: 'Hello' }], tools: [], signal: new AbortController().signal };
    const first = (await load(1)).model.stream(request)[Symbol.asyncIterator]();
    await first.next();
    const secondTexts: string[] = [];
    const second = (async () => {
      for await (const chunk of (await load(2)).model.stream({ ...request, signal: new AbortController().signal })) if (chunk.type === 'text-delta') secondTexts.push(chunk.text);
    })();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(host.statusFor(2)).toMatchObject({ state: 'generating', progressText: waitingWords });
    expect(secondTexts).toEqual([]);
    while (!(await first.next()).done);
    await second;
    expect(secondTexts.join('')).toBe(`${emptyThinkingBlock}Second.`);
    expect(host.statusFor(2)).toMatchObject({ state: 'ready', progressText: undefined });
  });

  it("answers the tab waiting for WebLLM once another tab's reply is stopped where its model made up a tool result", async () => {
    const call = '<tool_call>\n{"name": "search_products", "arguments": {"query": "mug"}}\n</tool_call>';
    const fake = createFakeWebLlm({
      replies: (request) => {
        const last = String(request.messages.at(-1)?.content);
        if (last === 'Hello') return 'Second.';
        if (last.startsWith('<tool_response>')) return 'No mug was found.';
        return `${call}<tool_response>{"results": ["enamel-mug"]}</tool_response>${' Found the enamel mug.'.repeat(100)}`;
      },
      chunkSize: 3,
    });
    const host = createEngineHost(() => {}, (settings) => createWebLlmEngine(settings, { webllm: fake.module, gpu: fakeGpu(), keepAwake: () => () => {} }));
    const load = async (tabId: number) => {
      const engine = await host.load(defaultSettings, new AbortController().signal, { tabId });
      if ('error' in engine) throw new Error(engine.error);
      return engine;
    };
    const [first, second] = [await load(1), await load(2)];
    const tool = { name: 'search_products', description: 'Search the catalogue.', inputSchema: { type: 'object' as const, properties: { query: { type: 'string' } } } };
    // Another tab asks while the first tab's reply streams: it waits for its turn.
    const secondTexts: string[] = [];
    let secondReply: Promise<void> | undefined;
    const readSecond = async () => {
      const request = { messages: [{ role: 'user' as const, content: 'Hello' }], tools: [], signal: new AbortController().signal };
      for await (const chunk of second.model.stream(request)) if (chunk.type === 'text-delta') secondTexts.push(chunk.text);
    };
    const result = await runLocalAgent({
      request: 'Find a mug',
      model: first.model,
      format: first.format,
      getTools: () => [tool],
      executeTool: async () => ({ text: '{"results": []}' }),
      onEvent: (event) => {
        if (event.type === 'text-delta') secondReply ??= readSecond();
      },
    });
    await secondReply;
    expect(fake.state.interrupts).toBe(1);
    expect(secondTexts.join('')).toBe(`${emptyThinkingBlock}Second.`);
    expect(result).toMatchObject({ finishReason: 'answer', text: 'No mug was found.' });
    // The tab that waited was answered next, then the first tab's next step.
    expect(fake.state.requests.map((request) => String(request.messages.at(-1)?.content).slice(0, 15))).toEqual(['Find a mug', 'Hello', '<tool_response>']);
    expect(host.statusFor(1)).toMatchObject({ state: 'ready' });
    expect(host.statusFor(2)).toMatchObject({ state: 'ready' });
  });

  it('never sends back the progress bar of a tab waiting for a WebLLM download when the tab that began it presses Stop', async () => {
    vi.useFakeTimers();
    try {
      const { module, world } = createStandInWebLlm({ shardsPerModel: 120, megabytesPerShard: 3 });
      const host = createEngineHost(() => {}, (settings) => createWebLlmEngine(settings, { webllm: module, gpu: fakeGpu(), keepAwake: () => () => {} }));
      const settings = { ...defaultSettings, model: 'Qwen3-1.7B-q4f16_1-MLC' };
      const stopFirst = new AbortController();
      const first = host.load(settings, stopFirst.signal, { hold: true, tabId: 1 });
      for (let step = 0; step < 10_000 && (host.statusFor(1).progress ?? 0) < 0.3; step += 1) await vi.advanceTimersByTimeAsync(1);
      const second = host.load(settings, new AbortController().signal, { hold: true, tabId: 2 });
      let loaded = false;
      void second.then(() => (loaded = true));
      await vi.advanceTimersByTimeAsync(1);
      stopFirst.abort();
      // What the second tab's panel shows, step by step, until its model has loaded.
      const shown: number[] = [];
      for (let step = 0; step < 10_000 && !loaded; step += 1) {
        await vi.advanceTimersByTimeAsync(1);
        const status = host.statusFor(2);
        if (status.state === 'loading' && status.progress !== undefined) shown.push(status.progress);
      }
      expect(await first).toEqual({ error: 'Stopped while the model was loading.' });
      expect(await second).not.toHaveProperty('error');
      expect(shown[0]).toBeGreaterThanOrEqual(0.3);
      expect(shown).toEqual([...shown].sort((a, b) => a - b));
      expect(world.downloads).toHaveLength(world.shardsPerModel);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('what the host tells of a load that did not end loaded', () => {
  /** An engine whose load fails, or waits for its signal. */
  const failingEngine = (settings: Settings, fails: boolean): Engine => ({
    id: settings.engine,
    holdsGpu: true,
    modelId: 'default-model',
    format: hermesFormat,
    model: { async *stream() {} },
    async load(onProgress, signal) {
      onProgress({ fraction: 0.1, text: 'Downloading…' });
      if (fails) throw new EngineError('download-failed', 'The stored copy could not be read.', 'It has been removed.');
      await new Promise((_resolve, reject) => signal?.addEventListener('abort', () => reject(signal.reason)));
    },
  });
  const webllm = { ...defaultSettings, engine: 'webllm' as const };

  it('has the panels told afresh what the first request downloads after a load nobody asked for failed, or one was stopped', async () => {
    const loadStopped = vi.fn();
    const failing = createEngineHost(() => {}, (settings) => failingEngine(settings, true), { loadStopped });
    expect(await failing.load(webllm, new AbortController().signal, { quiet: true })).toEqual({ error: 'The model could not load.' });
    expect(loadStopped).toHaveBeenCalledOnce();

    const stoppedHook = vi.fn();
    const waiting = createEngineHost(() => {}, (settings) => failingEngine(settings, false), { loadStopped: stoppedHook });
    const stop = new AbortController();
    const load = waiting.load(webllm, stop.signal, { tabId: 1 });
    await vi.waitFor(() => expect(waiting.status.state).toBe('loading'));
    stop.abort();
    expect(await load).toEqual({ error: 'Stopped while the model was loading.' });
    expect(stoppedHook).toHaveBeenCalledOnce();
  });

  it('leaves a failure that the panels are told of as it is', async () => {
    const loadStopped = vi.fn();
    const host = createEngineHost(() => {}, (settings) => failingEngine(settings, true), { loadStopped });
    await host.load(webllm, new AbortController().signal, { tabId: 1 });
    expect(host.status).toMatchObject({ state: 'error', error: 'The stored copy could not be read.' });
    expect(loadStopped).not.toHaveBeenCalled();
  });
});
