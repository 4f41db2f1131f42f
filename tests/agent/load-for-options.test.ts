import { describe, expect, it, vi } from 'vitest';
import { hermesFormat } from '@webmcp-agents/local-agent';
import { createEngineHost } from '../../lib/agent/engine-host';
import { createLoadForOptions } from '../../lib/agent/load-for-options';
import type { EngineStatus } from '../../lib/agent/session-state';
import { EngineError, type Engine, type EngineLoadProgress } from '../../lib/engines/engine';
import { engineHoldsGpu } from '../../lib/engines/engine-holds-gpu';
import { defaultSettings, type Settings } from '../../lib/settings';

const model = 'Qwen3-1.7B-q4f32_1-MLC';

/** An engine whose load reports `steps`, then waits for `finish` (or fails with `failWith`), or stops at its signal. */
function engineThatLoads(steps: EngineLoadProgress[], failWith?: Error) {
  // Every load under way ends at `finish`: two may share one engine.
  const finishers: (() => void)[] = [];
  const loads: AbortSignal[] = [];
  const create = (settings: Settings): Engine => ({
    id: settings.engine,
    ...(engineHoldsGpu[settings.engine] ? { holdsGpu: true as const } : {}),
    modelId: settings.model,
    format: hermesFormat,
    model: { async *stream() {} },
    async load(onProgress, signal) {
      if (signal) loads.push(signal);
      // A second load joins the first, as WebLLM's does: it hears only what comes next.
      if (loads.length <= 1) steps.forEach(onProgress);
      if (failWith) throw failWith;
      await new Promise<void>((resolve, reject) => {
        finishers.push(resolve);
        signal?.addEventListener('abort', () => reject(signal.reason));
      });
    },
  });
  return { create, loads, finish: () => finishers.splice(0).forEach((resolve) => resolve()) };
}

function loader(settings: Partial<Settings>, engine: ReturnType<typeof engineThatLoads>) {
  const watchers = new Set<() => void>();
  const engines = createEngineHost(() => watchers.forEach((watcher) => watcher()), engine.create);
  const awake = { held: 0, taken: 0 };
  const loaded = vi.fn();
  const load = createLoadForOptions({
    loadSettings: async () => ({ ...defaultSettings, ...settings }),
    engines,
    watchStatus: (watcher) => {
      watchers.add(watcher);
      return () => watchers.delete(watcher);
    },
    keepAwake: () => {
      awake.held += 1;
      awake.taken += 1;
      return () => void (awake.held -= 1);
    },
    loaded,
  });
  const heard: EngineStatus[] = [];
  /** The engine's status changed, as the host tells its watchers. */
  const statusChanged = () => watchers.forEach((watcher) => watcher());
  return { engines, awake, loaded, heard, statusChanged, load: (signal = new AbortController().signal) => load(signal, (status) => heard.push(status)) };
}

describe("the options page's load of WebLLM's model, in the service worker", () => {
  it('loads the model the settings name as a request would, telling its progress, and keeps the worker awake meanwhile', async () => {
    const engine = engineThatLoads([{ fraction: 0.5, text: 'Downloading Qwen3 1.7B (q4f32): 50%.' }]);
    const host = loader({ engine: 'webllm', model }, engine);
    const ended = host.load();
    await vi.waitFor(() => expect(host.heard.some((status) => status.progress === 0.5)).toBe(true));
    expect(host.heard.at(-1)).toMatchObject({ state: 'loading', progressText: 'Downloading Qwen3 1.7B (q4f32): 50%.', model });
    expect(host.awake.held).toBe(1);
    engine.finish();
    const { outcome, status } = await ended;
    expect(outcome).toBe('loaded');
    expect(status).toMatchObject({ state: 'ready', model });
    // The panels' "Downloads about 1.1 GB on your first request" is read again.
    expect(host.loaded).toHaveBeenCalledOnce();
    expect(host.awake.held).toBe(0);
    // Loaded: the next request finds it so.
    expect(host.engines.status.state).toBe('ready');
  });

  it('tells at once where a load already under way stands, when the page asks for the same model', async () => {
    const engine = engineThatLoads([{ fraction: 0.3, text: 'Downloading Qwen3 1.7B (q4f32): 30%.' }]);
    const host = loader({ engine: 'webllm', model }, engine);
    // A request in tab 1 is loading the model already.
    const request = host.engines.load({ ...defaultSettings, engine: 'webllm', model }, new AbortController().signal, { tabId: 1 });
    await vi.waitFor(() => expect(host.engines.status).toMatchObject({ state: 'loading', progress: 0.3 }));
    // Past the moment the panels were told of it (a passing state is told after 250 ms).
    await new Promise((resolve) => setTimeout(resolve, 400));
    const ended = host.load();
    // The load goes on quietly from here: only the page's own asking tells it.
    await vi.waitFor(() => expect(host.heard[0]).toMatchObject({ state: 'loading', progress: 0.3, progressText: 'Downloading Qwen3 1.7B (q4f32): 30%.' }));
    engine.finish();
    expect((await ended).outcome).toBe('loaded');
    await request;
  });

  it('tells the page only what it shows: not each change of the status it does not show', async () => {
    const engine = engineThatLoads([{ fraction: 0.5, text: 'Downloading Qwen3 1.7B (q4f32): 50%.' }]);
    const host = loader({ engine: 'webllm', model }, engine);
    const ended = host.load();
    await vi.waitFor(() => expect(host.heard.some((status) => status.progress === 0.5)).toBe(true));
    const before = host.heard.length;
    // Another tab's reply tells its speed meanwhile: nothing the page shows changed.
    host.statusChanged();
    host.statusChanged();
    expect(host.heard).toHaveLength(before);
    engine.finish();
    await ended;
  });

  it('ends with the error and what to do where the load fails, as the side panels show it', async () => {
    const failure = new EngineError('download-failed', 'The download of Qwen3 1.7B (q4f32) stopped.', 'Check your connection and send your request again.');
    const host = loader({ engine: 'webllm', model }, engineThatLoads([], failure));
    const { outcome, status } = await host.load();
    expect(outcome).toBe('failed');
    expect(status).toMatchObject({ state: 'error', error: 'The download of Qwen3 1.7B (q4f32) stopped.', hint: 'Check your connection and send your request again.' });
    expect(host.loaded).not.toHaveBeenCalled();
    expect(host.awake.held).toBe(0);
  });

  it('stops the load when the page goes, and leaves the status as it was before', async () => {
    const engine = engineThatLoads([{ fraction: 0.1, text: 'Downloading…' }]);
    const host = loader({ engine: 'webllm', model }, engine);
    const closed = new AbortController();
    const ended = host.load(closed.signal);
    await vi.waitFor(() => expect(engine.loads).toHaveLength(1));
    closed.abort();
    expect((await ended).outcome).toBe('failed');
    expect(engine.loads[0]!.aborted).toBe(true);
    expect(host.engines.status.state).toBe('idle');
    expect(host.awake.held).toBe(0);
  });

  it('loads nothing for an engine that holds no model on the GPU (a server, Chrome’s own model)', async () => {
    const engine = engineThatLoads([]);
    const host = loader({ engine: 'openai' }, engine);
    expect((await host.load()).outcome).toBe('not-on-gpu');
    expect(engine.loads).toHaveLength(0);
    expect(host.awake.taken).toBe(0);
  });
});
