// @vitest-environment happy-dom
import { render } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { createFakeCacheStorage } from '../engines/support/fake-cache-storage';
import { buttonNamed, click, memorySettings, showOptionsPage } from './support/show-options-page';
import type { OptionsDependencies } from '../../components/options/options-types';
import type { GpuLike } from '../../lib/engines/webgpu-check';
import type { Settings } from '../../lib/settings';

const shownPages: HTMLElement[] = [];
/** The keys that Chrome says open the panel (the toolbar icon's command). */
const panelShortcutIs = (shortcut: string) =>
  vi.spyOn(fakeBrowser.commands, 'getAll').mockImplementation((() => Promise.resolve([{ name: '_execute_action', shortcut }])) as typeof fakeBrowser.commands.getAll);
beforeEach(() => panelShortcutIs('Alt+Shift+M'));
afterEach(() => {
  for (const root of shownPages.splice(0)) render(null, root);
  document.body.innerHTML = '';
  history.replaceState(null, '', location.pathname);
  vi.restoreAllMocks();
});

/** The options page at `address`, as the install opens it at `?welcome`. */
function openAt(
  address: string,
  settings: Partial<Settings> = { engine: 'webllm' },
  more: { gpu?: GpuLike; caches?: ReturnType<typeof createFakeCacheStorage>; languageModel?: OptionsDependencies['languageModel'] } = {},
) {
  history.replaceState(null, '', `${location.pathname}${address}`);
  const page = showOptionsPage({
    settings: memorySettings(settings),
    caches: (more.caches ?? createFakeCacheStorage()).storage,
    ...(more.gpu ? { gpu: more.gpu } : {}),
    ...(more.languageModel ? { languageModel: more.languageModel } : {}),
  });
  shownPages.push(page.root);
  const welcome = () => page.root.querySelector('[data-testid="welcome"]')?.textContent ?? '';
  return { ...page, welcome };
}

describe("the options page's welcome, which a first install opens", () => {
  it('says which model WebLLM downloads and how large it is, where tools come from, and the keys that open the panel', async () => {
    const { welcome } = openAt('?welcome');
    await vi.waitFor(() => expect(welcome()).toContain('WebLLM, the engine chosen below, runs Qwen3 1.7B (q4f32) on your graphics chip. It downloads about 1.1 GB once: "Download now" below gets it ready, or your first request downloads it.'));
    expect(welcome()).toContain('chrome://flags/#enable-webmcp-testing');
    await vi.waitFor(() => expect(welcome()).toContain('or press Alt+Shift+M: the side panel opens beside the page.'));
    // Read from its start: its heading takes the focus.
    expect(document.activeElement?.id).toBe('welcome-heading');
  });

  it('says the model is downloading, not to press Download now, while it downloads', async () => {
    history.replaceState(null, '', `${location.pathname}?welcome`);
    const quiet = () => ({ post: () => {}, onMessage: () => {}, onDisconnect: () => {}, disconnect: () => {} });
    const page = showOptionsPage({ settings: memorySettings({ engine: 'webllm' }), caches: createFakeCacheStorage().storage, connectModelLoad: quiet });
    shownPages.push(page.root);
    await vi.waitFor(() => expect(buttonNamed(page.root, 'Download now')).toBeTruthy());
    click(buttonNamed(page.root, 'Download now'));
    await vi.waitFor(() => expect(page.root.querySelector('[data-testid="welcome"]')?.textContent).toContain('runs Qwen3 1.7B (q4f32) on your graphics chip. It is downloading now (about 1.1 GB, once): its progress is below.'));
  });

  it('names no keys where the person removed the shortcut', async () => {
    panelShortcutIs('');
    const { welcome } = openAt('?welcome');
    await vi.waitFor(() => expect(welcome()).toContain('until you pin it): the side panel opens'));
    expect(welcome()).not.toContain('or press');
  });

  it('says the model is here already once it is stored', async () => {
    const caches = createFakeCacheStorage();
    const weights = 'https://huggingface.co/mlc-ai/Qwen3-1.7B-q4f32_1-MLC/resolve/main/';
    caches.put('webllm/model', `${weights}tensor-cache.json`, 0, '{"records": [{"dataPath": "params_shard_0.bin"}]}');
    caches.put('webllm/model', `${weights}params_shard_0.bin`, 1100 * 1024 * 1024);
    const { welcome } = openAt('?welcome', { engine: 'webllm' }, { caches });
    await vi.waitFor(() => expect(welcome()).toContain('runs Qwen3 1.7B (q4f32) on your graphics chip; it is on this computer already.'));
  });

  it('points to the engines that can run where WebLLM cannot, and to the server where one is chosen', async () => {
    const noAdapter: GpuLike = { requestAdapter: async () => null };
    // Chrome says its own model cannot run here either (the page's default in these tests).
    const first = openAt('?welcome', { engine: 'webllm' }, { gpu: noAdapter });
    await vi.waitFor(() => expect(first.welcome()).toContain('cannot run on this computer: WebGPU is turned off or found no usable GPU on this computer. Choose a model server you run (Local server) instead.'));
    render(null, first.root);

    const chromeModel: OptionsDependencies['languageModel'] = { availability: async () => 'available', create: () => Promise.reject(new Error('not here')) };
    const withChromeModel = openAt('?welcome', { engine: 'webllm' }, { gpu: noAdapter, languageModel: chromeModel });
    await vi.waitFor(() => expect(withChromeModel.welcome()).toContain("Choose Chrome's built-in model or a model server you run instead."));
    render(null, withChromeModel.root);

    // No server at the address: it answers once it runs.
    const second = openAt('?welcome', { engine: 'openai', openaiBaseUrl: 'http://127.0.0.1:9/v1' });
    await vi.waitFor(() => expect(second.welcome()).toContain('The model. A model server you run answers, at the address below, once it is running: start it, then press Connect.'));
    render(null, second.root);

    // Chrome's built-in model where Chrome says it cannot run: said, not promised.
    const unavailable = openAt('?welcome', { engine: 'prompt-api' }, { languageModel: { availability: async () => 'unavailable', create: () => Promise.reject(new Error('not here')) } });
    await vi.waitFor(() =>
      expect(unavailable.welcome()).toContain(
        "The model. Chrome's built-in model, the engine chosen below, cannot run here: Chrome says its built-in model cannot run on this computer. It needs desktop Chrome",
      ),
    );
    expect(unavailable.welcome()).toContain('Pick another engine.');
  });

  it('goes with "Got it", out of the address too, and leaves the focus at the top of the page', async () => {
    const { root, welcome } = openAt('?welcome#somewhere');
    await vi.waitFor(() => expect(welcome()).not.toBe(''));
    click(buttonNamed(root, 'Got it'));
    await vi.waitFor(() => expect(root.querySelector('[data-testid="welcome"]')).toBeNull());
    expect(location.search).toBe('');
    expect(location.hash).toBe('#somewhere');
    expect(document.activeElement?.tagName).toBe('H1');
  });

  it('is not shown where the options are opened otherwise', async () => {
    const { root } = openAt('');
    await vi.waitFor(() => expect(root.querySelector('#behaviour-heading')).not.toBeNull());
    expect(root.querySelector('[data-testid="welcome"]')).toBeNull();
  });

  it('comes back with "Getting started" at the top of the options, read from its heading, until "Got it" again', async () => {
    const { root, welcome } = openAt('#somewhere');
    const link = () => [...root.querySelectorAll('a')].find((a) => a.textContent === 'Getting started');
    await vi.waitFor(() => expect(link()).toBeTruthy());
    // Opened elsewhere (a middle click, a new tab), it is the same page at the welcome's address.
    expect(new URL(link()!.href).search).toBe('?welcome');
    link()!.dispatchEvent(new MouseEvent('click', { bubbles: true, cancelable: true, button: 0 }));
    await vi.waitFor(() => expect(welcome()).toContain('A page with tools.'));
    expect(document.activeElement?.id).toBe('welcome-heading');
    expect(location.search).toBe('?welcome');
    expect(location.hash).toBe('#somewhere');
    // While it shows, the link to it does not.
    expect(link()).toBeUndefined();
    click(buttonNamed(root, 'Got it'));
    await vi.waitFor(() => expect(link()).toBeTruthy());
    expect(location.search).toBe('');
  });
});
