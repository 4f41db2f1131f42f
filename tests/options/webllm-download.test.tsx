// @vitest-environment happy-dom
import { render } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { hintForThisPage } from '../../components/options/webllm-download';
import type { ModelLoadNews } from '../../lib/agent/model-load-port';
import type { EngineStatus } from '../../lib/agent/session-state';
import { loadFailure } from '../../lib/engines/webllm/webllm-errors';
import type { Channel } from '../../lib/messaging/port-channel';
import { createFakeCacheStorage } from '../engines/support/fake-cache-storage';
import type { Settings } from '../../lib/settings';
import { buttonLabelled, buttonNamed, click, memorySettings, sharedSettings, showOptionsPage } from './support/show-options-page';

afterEach(() => {
  render(null, document.body);
  document.body.innerHTML = '';
});

const megabyte = 1024 * 1024;
const model = 'Qwen3-1.7B-q4f32_1-MLC';
const weights = `https://huggingface.co/mlc-ai/${model}/resolve/main/`;
const loading = (progress: number, progressText: string): EngineStatus => ({ engineId: 'webllm', engineLabel: 'WebLLM', model, state: 'loading', progress, progressText });

/** The service worker's end of "Download now": each click opens a channel, which the test answers as the worker would. */
function fakeWorker() {
  const opened: { listeners: ((news: ModelLoadNews) => void)[]; gone: (() => void)[]; closed: boolean }[] = [];
  const connect = (): Channel<never, ModelLoadNews> => {
    const channel = { listeners: [] as ((news: ModelLoadNews) => void)[], gone: [] as (() => void)[], closed: false };
    opened.push(channel);
    return {
      post: () => {},
      onMessage: (listener) => void channel.listeners.push(listener),
      onDisconnect: (listener) => void channel.gone.push(listener),
      disconnect: () => void (channel.closed = true),
    };
  };
  const last = () => opened.at(-1)!;
  return {
    connect,
    opened,
    tell: (news: ModelLoadNews) => last().listeners.forEach((listener) => listener(news)),
    /** The worker stopped (the extension reloaded): the page's port closes from the other side. */
    goes: () => last().gone.forEach((listener) => listener()),
  };
}

function show(options: { stored?: boolean; settings?: ReturnType<typeof memorySettings>; trialWorker?: ReturnType<typeof fakeWorker> } = {}) {
  const fake = createFakeCacheStorage();
  if (options.stored) {
    fake.put('webllm/model', `${weights}tensor-cache.json`, 0, '{"records": [{"dataPath": "params_shard_0.bin"}]}');
    fake.put('webllm/model', `${weights}params_shard_0.bin`, 1100 * megabyte);
  }
  const worker = fakeWorker();
  const page = showOptionsPage({
    settings: options.settings ?? memorySettings({ engine: 'webllm', model }),
    caches: fake.storage,
    connectModelLoad: worker.connect,
    ...(options.trialWorker ? { connectModelTrial: options.trialWorker.connect } : {}),
  });
  const area = () => page.root.querySelector('[data-testid="webllm-download"]')?.textContent ?? '';
  return { ...page, fake, worker, area };
}

describe("the options page's Download now, for WebLLM's model", () => {
  it('offers the download with its size, shows the worker’s progress, and says when the model is loaded', async () => {
    const { root, worker, area, fake } = show();
    await vi.waitFor(() => expect(buttonNamed(root, 'Download now')).toBeTruthy());
    expect(area()).toContain('Downloads Qwen3 1.7B (q4f32) now (about 1.1 GB, once), rather than with your first request');
    click(buttonNamed(root, 'Download now'));
    await vi.waitFor(() => expect(buttonNamed(root, 'Downloading…')?.getAttribute('aria-disabled')).toBe('true'));
    // A second click while it runs opens no second load.
    click(buttonNamed(root, 'Downloading…'));
    expect(worker.opened).toHaveLength(1);

    worker.tell({ type: 'status', status: loading(0.4, 'Downloading Qwen3 1.7B (q4f32): 40%, about 1 min left.') });
    await vi.waitFor(() => expect(root.querySelector('progress')?.value).toBe(0.4));
    expect(area()).toContain('Downloading Qwen3 1.7B (q4f32): 40%, about 1 min left.');
    expect(area()).toContain('Closing this page stops it');

    // The worker stored the files as it went: the list below shows the model once it has loaded.
    fake.put('webllm/model', `${weights}tensor-cache.json`, 0, '{"records": [{"dataPath": "params_shard_0.bin"}]}');
    fake.put('webllm/model', `${weights}params_shard_0.bin`, 1100 * megabyte);
    worker.tell({ type: 'ended', outcome: 'loaded', status: { ...loading(1, ''), state: 'ready' } });
    await vi.waitFor(() => expect(area()).toContain('Qwen3 1.7B (q4f32) is on this computer and loaded: it then stays loaded for 5 minutes, so that a request starts at once.'));
    expect(worker.opened[0]!.closed).toBe(true);
    expect(root.querySelector('[data-testid="webllm-download"] progress')).toBeNull();
    await vi.waitFor(() => expect(root.querySelector('[data-testid="model-storage"]')?.textContent).toContain('Qwen3 1.7B (q4f32)'));
    // Stored now: the button offers to load it, not to download it again.
    expect(buttonNamed(root, 'Load now')).toBeTruthy();
    // Deleted below: it is loaded no more, and the page stops saying so.
    click(buttonLabelled(root, 'Delete Qwen3 1.7B (q4f32)'));
    await vi.waitFor(() => expect(buttonLabelled(root, 'Yes, delete Qwen3 1.7B (q4f32)')).toBeTruthy());
    click(buttonLabelled(root, 'Yes, delete Qwen3 1.7B (q4f32)'));
    await vi.waitFor(() => expect(area()).not.toContain('is on this computer and loaded'));
  });

  it('goes on through a change of another setting, and gives the focus back to its button when it ends', async () => {
    const shared = sharedSettings({ engine: 'webllm', model });
    const { root, worker, area } = show({ settings: shared.store });
    await vi.waitFor(() => expect(buttonNamed(root, 'Download now')).toBeTruthy());
    click(buttonNamed(root, 'Download now'));
    await vi.waitFor(() => expect(buttonLabelled(root, 'Cancel the download')).toBeTruthy());
    buttonLabelled(root, 'Cancel the download')!.focus();
    shared.changedElsewhere({ modelKeptMinutes: 0, constrainedDecoding: true });
    worker.tell({ type: 'status', status: loading(0.2, 'Downloading Qwen3 1.7B (q4f32): 20%.') });
    await vi.waitFor(() => expect(area()).toContain('20%'));
    expect(worker.opened[0]!.closed).toBe(false);
    worker.tell({ type: 'ended', outcome: 'loaded', status: { ...loading(1, ''), state: 'ready' } });
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe('Download now'));
  });

  it('offers to load a model already stored, saying how long it stays loaded', async () => {
    const { root, area } = show({ stored: true });
    await vi.waitFor(() => expect(buttonNamed(root, 'Load now')).toBeTruthy());
    expect(area()).toContain('Loads Qwen3 1.7B (q4f32) into the GPU now, to see that it runs here; it then stays loaded for 5 minutes');
  });

  it("shows a failed load's error with what to do worded for this page, and a click tries again", async () => {
    const { root, worker, area } = show();
    await vi.waitFor(() => expect(buttonNamed(root, 'Download now')).toBeTruthy());
    click(buttonNamed(root, 'Download now'));
    const { message, hint } = loadFailure(new TypeError('Failed to fetch'), { label: 'Qwen3 1.7B (q4f32)', wasCached: false });
    worker.tell({ type: 'ended', outcome: 'failed', status: { ...loading(0, ''), state: 'error', error: message, hint } });
    await vi.waitFor(() => expect(root.querySelector('[role="alert"]')?.textContent).toContain(message));
    expect(root.querySelector('[role="alert"]')?.textContent).toContain('huggingface.co');
    expect(root.querySelector('[role="alert"]')?.textContent).not.toMatch(/request|in the options/);
    click(buttonNamed(root, 'Download now'));
    await vi.waitFor(() => expect(worker.opened).toHaveLength(2));
    expect(root.querySelector('[role="alert"]')).toBeNull();
    expect(area()).toContain('Downloading…');
    // Said as it starts, to a screen reader too.
    expect(root.querySelector('[data-testid="webllm-download-result"]')?.textContent).toBe('Downloading Qwen3 1.7B (q4f32)…');
    // It fails again at once, as offline: the page says it is a second failure, not the first one still shown.
    const firstAlert = root.querySelector('[role="alert"]');
    worker.tell({ type: 'ended', outcome: 'failed', status: { ...loading(0, ''), state: 'error', error: message, hint } });
    await vi.waitFor(() => expect(area()).toContain('Failed 2 times in a row.'));
    expect(root.querySelector('[role="alert"]')).not.toBe(firstAlert);
  });

  it('says how much of a download stopped part way is here already', async () => {
    const fake = createFakeCacheStorage();
    fake.put('webllm/model', `${weights}tensor-cache.json`, 0, '{"records": [{"dataPath": "params_shard_0.bin"}, {"dataPath": "params_shard_1.bin"}]}');
    fake.put('webllm/model', `${weights}params_shard_0.bin`, 500 * megabyte);
    const { root } = showOptionsPage({ settings: memorySettings({ engine: 'webllm', model }), caches: fake.storage, connectModelLoad: fakeWorker().connect });
    await vi.waitFor(() => expect(root.querySelector('[data-testid="webllm-download-note"]')?.textContent).toContain('(about 1.1 GB, once; 500 MB of it is here already)'));
    expect(buttonNamed(root, 'Download now')).toBeTruthy();
  });

  it('stops at Cancel (or Escape), keeping what came, and says so', async () => {
    const { root, worker, area } = show();
    await vi.waitFor(() => expect(buttonNamed(root, 'Download now')).toBeTruthy());
    click(buttonNamed(root, 'Download now'));
    await vi.waitFor(() => expect(buttonLabelled(root, 'Cancel the download')).toBeTruthy());
    buttonLabelled(root, 'Cancel the download')!.focus();
    click(buttonLabelled(root, 'Cancel the download'));
    await vi.waitFor(() => expect(area()).toContain('Cancelled. Anything downloaded so far stays on this computer.'));
    expect(worker.opened[0]!.closed).toBe(true);
    // The focus goes back to the button that starts it, not to the page's body.
    expect(document.activeElement?.textContent).toBe('Download now');
    // News the worker sent before it heard the page go changes nothing.
    worker.tell({ type: 'ended', outcome: 'loaded', status: { ...loading(1, ''), state: 'ready' } });
    expect(area()).not.toContain('is on this computer and loaded');

    click(buttonNamed(root, 'Download now'));
    await vi.waitFor(() => expect(buttonLabelled(root, 'Cancel the download')).toBeTruthy());
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true }));
    await vi.waitFor(() => expect(worker.opened[1]!.closed).toBe(true));
  });

  it('says that a download stopped when the extension restarted under it', async () => {
    const { root, worker } = show();
    await vi.waitFor(() => expect(buttonNamed(root, 'Download now')).toBeTruthy());
    click(buttonNamed(root, 'Download now'));
    worker.goes();
    await vi.waitFor(() => expect(root.querySelector('[role="alert"]')?.textContent).toContain("The load stopped: the extension's background stopped with it (an update or a reload of the extension, say)."));
    expect(buttonNamed(root, 'Download now')?.getAttribute('aria-disabled')).toBeNull();
  });

  it('says to reload the page where the extension was updated or reloaded under it: Download now and Try it reach nothing', async () => {
    const outlived = 'This page no longer reaches the extension: it was updated or reloaded while the page was open.Reload this page, then try again.';
    const unreachable = (): never => {
      throw new Error('Extension context invalidated.');
    };
    const { root } = showOptionsPage({
      settings: memorySettings({ engine: 'webllm', model }),
      caches: createFakeCacheStorage().storage,
      connectModelLoad: unreachable,
      connectModelTrial: unreachable,
    });
    await vi.waitFor(() => expect(buttonNamed(root, 'Download now')).toBeTruthy());
    click(buttonNamed(root, 'Download now'));
    await vi.waitFor(() => expect(root.querySelector('[data-testid="webllm-download"] [role="alert"]')?.textContent).toContain(outlived));
    expect(buttonNamed(root, 'Download now')?.getAttribute('aria-disabled')).toBeNull();

    click(buttonNamed(root, 'Try it'));
    await vi.waitFor(() => expect(root.querySelector('[data-testid="trial"]')?.textContent).toContain(outlived));
    expect(buttonNamed(root, 'Try it')?.getAttribute('aria-disabled')).toBeNull();
  });

  it('stops a download when another model is picked, here or in another tab, and shows nothing of it then', async () => {
    const shared = sharedSettings({ engine: 'webllm', model });
    const { root, worker, area } = show({ settings: shared.store });
    await vi.waitFor(() => expect(buttonNamed(root, 'Download now')).toBeTruthy());
    click(buttonNamed(root, 'Download now'));
    worker.tell({ type: 'status', status: loading(0.1, 'Downloading Qwen3 1.7B (q4f32): 10%.') });
    await vi.waitFor(() => expect(area()).toContain('10%'));
    shared.changedElsewhere({ model: 'Qwen3-0.6B-q4f32_1-MLC' });
    await vi.waitFor(() => expect(worker.opened[0]!.closed).toBe(true));
    await vi.waitFor(() => expect(area()).toContain('Downloads Qwen3 0.6B (q4f32) now'));
    expect(area()).not.toContain('Cancelled');
  });

  it('is not offered where WebGPU cannot run the model', async () => {
    const { root, text } = showOptionsPage({ settings: memorySettings({ engine: 'webllm' }), caches: createFakeCacheStorage().storage, gpu: { requestAdapter: async () => null } });
    await vi.waitFor(() => expect(text()).toContain('None: WebLLM cannot run here'));
    expect(root.querySelector('[data-testid="webllm-download"]')).toBeNull();
  });
});

describe("the options page's Download now, while another page loads the model", () => {
  /** The worker's side of the status port (a fresh worker at each connect), and its word that a load begins. */
  function followedEngine() {
    const status = fakeWorker();
    const loadsBeginning = new Set<() => void>();
    return {
      status,
      hearModelLoading: (listener: () => void) => (loadsBeginning.add(listener), () => void loadsBeginning.delete(listener)),
      loadBegins: () => loadsBeginning.forEach((listener) => listener()),
    };
  }

  /** The options page, following an engine that the test loads as another page would. */
  function showFollowing(settings: Partial<Settings> = {}) {
    const engine = followedEngine();
    const page = showOptionsPage({
      settings: memorySettings({ engine: 'webllm', model, ...settings }),
      caches: createFakeCacheStorage().storage,
      connectModelLoad: fakeWorker().connect,
      connectModelStatus: engine.status.connect,
      hearModelLoading: engine.hearModelLoading,
    });
    return { ...page, engine };
  }

  it("shows a side panel's download as it goes, offering neither a second one nor a Cancel, and a Load now once it has stored the model", async () => {
    const engine = followedEngine();
    const fake = createFakeCacheStorage();
    const { root, text } = showOptionsPage({
      settings: memorySettings({ engine: 'webllm', model }),
      caches: fake.storage,
      connectModelLoad: fakeWorker().connect,
      connectModelStatus: engine.status.connect,
      hearModelLoading: engine.hearModelLoading,
    });
    await vi.waitFor(() => expect(buttonNamed(root, 'Download now')).toBeTruthy());
    expect(engine.status.opened).toHaveLength(1);
    engine.status.tell({ type: 'status', status: loading(0.25, 'Downloading Qwen3 1.7B (q4f32): 25%, about 3 min left.') });
    await vi.waitFor(() => expect(root.querySelector('progress')?.value).toBe(0.25));
    expect(text()).toContain('A side panel or another tab is downloading Qwen3 1.7B (q4f32) now; closing this page does not stop it.');
    expect(text()).toContain('Downloading Qwen3 1.7B (q4f32): 25%, about 3 min left.');
    expect(buttonNamed(root, 'Downloading…')?.getAttribute('aria-disabled')).toBe('true');
    expect(buttonLabelled(root, 'Cancel the download')).toBeNull();

    // It ends with the model stored: the page reads its storage again.
    fake.put('webllm/model', `${weights}tensor-cache.json`, 0, '{"records": [{"dataPath": "params_shard_0.bin"}]}');
    fake.put('webllm/model', `${weights}params_shard_0.bin`, 1100 * megabyte);
    engine.status.tell({ type: 'status', status: { ...loading(1, ''), state: 'ready' } });
    await vi.waitFor(() => expect(buttonNamed(root, 'Load now')).toBeTruthy());
    expect(root.querySelector('[data-testid="webllm-load-elsewhere"]')).toBeNull();
    // Said where a screen reader hears it, as for this page's own download.
    expect(root.querySelector('[data-testid="webllm-download-result"]')?.textContent).toBe(
      'Qwen3 1.7B (q4f32) is on this computer and loaded: it then stays loaded for 5 minutes, so that a request starts at once.',
    );
  });

  it("says so where another page's load fails, worded for this page, until a load begins again", async () => {
    const { engine, root } = showFollowing();
    await vi.waitFor(() => expect(buttonNamed(root, 'Download now')).toBeTruthy());
    engine.status.tell({ type: 'status', status: loading(0.25, 'Downloading: 25%') });
    await vi.waitFor(() => expect(root.querySelector('[data-testid="webllm-load-elsewhere"]')).not.toBeNull());
    const { message, hint } = loadFailure(new TypeError('Failed to fetch'), { label: 'Qwen3 1.7B (q4f32)', wasCached: false });
    engine.status.tell({ type: 'status', status: { ...loading(0.25, ''), state: 'error', error: message, hint } });
    await vi.waitFor(() => expect(root.querySelector('[role="alert"]')?.textContent).toMatch(/^The download of Qwen3 1\.7B \(q4f32\) failed\.Check your connection and try again\./));
    expect(buttonNamed(root, 'Download now')?.getAttribute('aria-disabled')).toBeNull();
    engine.status.tell({ type: 'status', status: loading(0, 'Downloading: 0%') });
    await vi.waitFor(() => expect(root.querySelector('[role="alert"]')).toBeNull());
  });

  it("drops another page's failure once another model is picked here: it was of the model that page loaded", async () => {
    const { engine, root } = showFollowing();
    await vi.waitFor(() => expect(buttonNamed(root, 'Download now')).toBeTruthy());
    engine.status.tell({ type: 'status', status: loading(0.25, 'Downloading: 25%') });
    await vi.waitFor(() => expect(root.querySelector('[data-testid="webllm-load-elsewhere"]')).not.toBeNull());
    // Said of it beside the busy button, for a screen reader that lands there.
    expect(buttonNamed(root, 'Downloading…')?.getAttribute('aria-describedby')).toBe('webllm-load-elsewhere');
    engine.status.tell({ type: 'status', status: { ...loading(0.25, ''), state: 'error', error: 'The download of Qwen3 1.7B (q4f32) failed.' } });
    await vi.waitFor(() => expect(root.querySelector('[role="alert"]')).not.toBeNull());
    const picker = root.querySelector<HTMLSelectElement>('[data-testid="webllm-model"]')!;
    picker.value = 'Qwen3-0.6B-q4f32_1-MLC';
    picker.dispatchEvent(new Event('change', { bubbles: true }));
    await vi.waitFor(() => expect(root.querySelector('[data-testid="model-id"]')?.textContent).toBe('Qwen3-0.6B-q4f32_1-MLC'));
    expect(root.querySelector('[role="alert"]')).toBeNull();
  });

  it("takes neither this page's Try it, nor the rest of a download it cancelled, for another page's", async () => {
    const engine = followedEngine();
    const load = fakeWorker();
    const trials = fakeWorker();
    const { root } = showOptionsPage({
      settings: memorySettings({ engine: 'webllm', model }),
      caches: createFakeCacheStorage().storage,
      connectModelLoad: load.connect,
      connectModelTrial: trials.connect,
      connectModelStatus: engine.status.connect,
      hearModelLoading: engine.hearModelLoading,
    });
    const elsewhere = () => root.querySelector('[data-testid="webllm-load-elsewhere"]');
    await vi.waitFor(() => expect(buttonNamed(root, 'Try it')).toBeTruthy());
    click(buttonNamed(root, 'Try it'));
    trials.tell({ type: 'status', status: loading(0.2, 'Downloading: 20%') });
    engine.status.tell({ type: 'status', status: loading(0.2, 'Downloading: 20%') });
    await vi.waitFor(() => expect(root.querySelectorAll('progress')).toHaveLength(1));
    expect(elsewhere()).toBeNull();
    click(buttonLabelled(root, 'Cancel the trial'));

    // Download now, cancelled while the worker's load runs on to its end: still not another page's.
    click(buttonNamed(root, 'Download now'));
    load.tell({ type: 'status', status: loading(0.3, 'Downloading: 30%') });
    engine.status.tell({ type: 'status', status: loading(0.3, 'Downloading: 30%') });
    await vi.waitFor(() => expect(buttonLabelled(root, 'Cancel the download')).toBeTruthy());
    click(buttonLabelled(root, 'Cancel the download'));
    engine.status.tell({ type: 'status', status: loading(0.4, 'Downloading: 40%') });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(elsewhere()).toBeNull();
    expect(buttonNamed(root, 'Download now')?.getAttribute('aria-disabled')).toBeNull();
    // Once the engine has rested, the next load is another page's.
    engine.status.tell({ type: 'status', status: { ...loading(0, ''), state: 'idle' } });
    engine.status.tell({ type: 'status', status: loading(0.1, 'Downloading: 10%') });
    await vi.waitFor(() => expect(elsewhere()).not.toBeNull());
  });

  it('shows a load of the default model, which the engine names in words until it has picked it, where the settings leave the model to the extension', async () => {
    const { engine, root } = showFollowing({ model: '' });
    await vi.waitFor(() => expect(buttonNamed(root, 'Download now')).toBeTruthy());
    engine.status.tell({ type: 'status', status: { ...loading(0.5, 'Downloading: 50%'), model: 'the default for this GPU' } });
    await vi.waitFor(() => expect(root.querySelector('[data-testid="webllm-load-elsewhere"]')?.textContent).toMatch(/^A side panel or another tab is downloading Qwen3 .* now/));
  });

  it("shows nothing of another model's load, and follows again as a load begins once the worker's stop closed its port", async () => {
    const { engine, root } = showFollowing();
    await vi.waitFor(() => expect(buttonNamed(root, 'Download now')).toBeTruthy());
    engine.status.tell({ type: 'status', status: { ...loading(0.5, 'Downloading…'), model: 'Qwen3-0.6B-q4f32_1-MLC' } });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(root.querySelector('[data-testid="webllm-load-elsewhere"]')).toBeNull();

    // Idle, the worker stops: the port closes, and the page waits for word of a load.
    engine.status.goes();
    engine.loadBegins();
    expect(engine.status.opened).toHaveLength(2);
    engine.status.tell({ type: 'status', status: loading(0.1, 'Downloading Qwen3 1.7B (q4f32): 10%.') });
    await vi.waitFor(() => expect(root.querySelector('[data-testid="webllm-load-elsewhere"]')).not.toBeNull());
  });
});

describe("the options page's Try it, for WebLLM's model", () => {
  const trialArea = (root: Element) => root.querySelector('[data-testid="trial"]')?.textContent ?? '';

  /** The page, its Try it pressed: the worker's end of the trial has opened. */
  async function showAndTry() {
    const trials = fakeWorker();
    const { root } = show({ trialWorker: trials });
    await vi.waitFor(() => expect(buttonNamed(root, 'Try it')).toBeTruthy());
    click(buttonNamed(root, 'Try it'));
    await vi.waitFor(() => expect(trials.opened).toHaveLength(1));
    return { root, trials };
  }

  it('has the worker load the model and answer, showing the load, then the reply and how fast it came', async () => {
    const { root, trials } = await showAndTry();
    trials.tell({ type: 'status', status: loading(0.5, 'Loading Qwen3 1.7B (q4f32) into the GPU: 50%.') });
    await vi.waitFor(() => expect(root.querySelector<HTMLProgressElement>('[data-testid="trial"] progress')?.value).toBe(0.5));
    trials.tell({ type: 'ended', outcome: 'loaded', status: { ...loading(1, ''), state: 'ready' } });
    trials.tell({ type: 'trial', trial: { running: true, reply: 'Hello' } });
    await vi.waitFor(() => expect(root.querySelector('[data-testid="trial-reply"]')?.textContent).toBe('Hello'));
    expect(root.querySelector('[data-testid="trial"] progress')).toBeNull();
    trials.tell({ type: 'trial', trial: { running: false, reply: 'Hello there!', usage: { completionTokens: 3, decodeTokensPerSecond: 12, timeToFirstTokenMs: 420 } } });
    await vi.waitFor(() => expect(root.querySelector('[data-testid="trial-speed"]')?.textContent).toBe('first token after 420 ms · 12 tokens per second · 3 tokens'));
    expect(root.querySelector('[data-testid="trial-reply"]')?.textContent).toBe('Hello there!');
    expect(trials.opened[0]!.closed).toBe(true);
    expect(buttonNamed(root, 'Try it')?.getAttribute('aria-disabled')).toBeNull();
  });

  it('says a slow first word in seconds, as the side panel says its waits', async () => {
    const { root, trials } = await showAndTry();
    trials.tell({ type: 'ended', outcome: 'loaded', status: { ...loading(1, ''), state: 'ready' } });
    trials.tell({ type: 'trial', trial: { running: false, reply: 'Hello there!', usage: { completionTokens: 3, decodeTokensPerSecond: 1.5, timeToFirstTokenMs: 15_023 } } });
    await vi.waitFor(() => expect(root.querySelector('[data-testid="trial-speed"]')?.textContent).toBe('first token after 15.0 s · 1.5 tokens per second · 3 tokens'));
  });

  it("words a failed reply's hint for this page, and Cancel stops the worker's trial", async () => {
    const { root, trials } = await showAndTry();
    trials.tell({ type: 'ended', outcome: 'loaded', status: { ...loading(1, ''), state: 'ready' } });
    trials.tell({ type: 'trial', trial: { running: false, reply: '', failure: { message: 'Qwen3 1.7B (q4f32) failed to answer: boom.', hint: 'Send your request again; if it keeps failing, start a new chat.' } } });
    await vi.waitFor(() => expect(trialArea(root)).toContain('Qwen3 1.7B (q4f32) failed to answer: boom.Try again; if it keeps failing, start a new chat.'));

    click(buttonNamed(root, 'Try it'));
    await vi.waitFor(() => expect(buttonLabelled(root, 'Cancel the trial')).toBeTruthy());
    click(buttonLabelled(root, 'Cancel the trial'));
    await vi.waitFor(() => expect(trials.opened[1]!.closed).toBe(true));
    await vi.waitFor(() => expect(trialArea(root)).toContain('Cancelled.'));
  });

  it('says what it does before it is pressed, that it started, that it stalls, why the model could not load, and a second failure', async () => {
    const trials = fakeWorker();
    const { root } = show({ trialWorker: trials });
    await vi.waitFor(() => expect(buttonNamed(root, 'Try it')).toBeTruthy());
    expect(root.querySelector('[data-testid="trial-note"]')?.textContent).toBe(
      'Loads Qwen3 1.7B (q4f32) (downloading it first where it is not here yet) and has it answer a short request, to see how fast it answers on this computer.',
    );
    const announced = () => root.querySelector('[data-testid="trial-announcer"]')?.textContent ?? '';
    click(buttonNamed(root, 'Try it'));
    await vi.waitFor(() => expect(trials.opened).toHaveLength(1));
    expect(announced()).toBe('Trying…');
    expect(root.querySelector('[data-testid="trial-note"]')).toBeNull();
    trials.tell({ type: 'status', status: { ...loading(0.1, 'Downloading…'), stalled: true } });
    await vi.waitFor(() => expect(announced()).toBe('Nothing has come for a minute: check your connection, or press Cancel.'));
    const { message, hint } = loadFailure(new TypeError('Failed to fetch'), { label: 'Qwen3 1.7B (q4f32)', wasCached: false });
    trials.tell({ type: 'ended', outcome: 'failed', status: { ...loading(0, ''), state: 'error', error: message, hint } });
    await vi.waitFor(() => expect(trialArea(root)).toContain(message));
    expect(trialArea(root)).toContain('Check your connection and try again.');
    expect(announced()).toBe('');
    // Offline, the next try fails at once, as the last did: the page says it is the second.
    const firstAlert = root.querySelector('[data-testid="trial"] [role="alert"]');
    click(buttonNamed(root, 'Try it'));
    await vi.waitFor(() => expect(trials.opened).toHaveLength(2));
    trials.tell({ type: 'ended', outcome: 'failed', status: { ...loading(0, ''), state: 'error', error: message, hint } });
    await vi.waitFor(() => expect(announced()).toBe('Failed 2 times in a row.'));
    expect(root.querySelector('[data-testid="trial"] [role="alert"]')).not.toBe(firstAlert);
  });
});

describe("a load failure's hint, as the options page words it", () => {
  // Every hint a WebLLM load can fail with: none may send the person to a request or to "the options" from there.
  const failures = [
    loadFailure(new Error('Device was lost'), { label: 'M', smallerLabel: 'S', wasCached: true }),
    loadFailure(Object.assign(new Error('quota'), { name: 'QuotaExceededError' }), { label: 'M', wasCached: false }),
    loadFailure(Object.assign(new Error('f16'), { name: 'ShaderF16SupportError' }), { label: 'M', wasCached: false }),
    loadFailure(Object.assign(new Error('none'), { name: 'WebGPUNotFoundError' }), { label: 'M', wasCached: false }),
    loadFailure(new SyntaxError("Unexpected token '<'"), { label: 'M', wasCached: true, clearedBrokenCache: 'model' }),
    loadFailure(new Error('broken'), { label: 'M', wasCached: true, clearedBrokenCache: 'model' }),
    loadFailure(new Error('expected magic word 00 61 73 6d, found 01 02 03 04'), { label: 'M', wasCached: true, clearedBrokenCache: 'library' }),
    loadFailure(new TypeError('Failed to fetch'), { label: 'M', wasCached: false }),
    loadFailure(new TypeError('Request failed'), { label: 'M', wasCached: false }),
    loadFailure(new TypeError('Failed to fetch'), { label: 'M', wasCached: true, download: { loadedBytes: 5, totalBytes: 10, fraction: 0.5 } }),
    loadFailure(new Error('odd'), { label: 'M', wasCached: true }),
    loadFailure(new Error('odd'), { label: 'M', wasCached: false }),
  ];

  it.each(failures.map((failure) => [failure.hint]))('%s', (hint) => {
    const worded = hintForThisPage(hint);
    expect(worded).not.toMatch(/request|in the options/i);
    expect(worded.length).toBeGreaterThan(20);
  });

  it('keeps the sentence whole', () => {
    expect(hintForThisPage('Send your request again. If it fails again, pick another model in the options.')).toBe('Try again. If it fails again, pick another model on this page.');
  });
});
