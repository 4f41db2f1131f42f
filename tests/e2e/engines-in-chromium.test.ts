import { existsSync, statSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOllama, type FakeOllamaOptions } from '../engines/support/fake-ollama-server';
import { installFakeLanguageModel, type FakeLanguageModelOptions } from '../engines/support/install-fake-language-model';
import { projectRoot } from '../support/shared-eval';
import type { Worker } from 'playwright-core';
import { webLlmGlobalName } from '../../lib/engines/webllm/webllm-global-name';
import {
  chromiumAvailable,
  chromiumPath,
  currentServiceWorker,
  extensionDir,
  hearsNavigations,
  launchExtension,
  serveFixtures,
  serviceWorkerRunning,
  stopServiceWorker,
  tabIdOf,
  type FixtureServer,
  type LaunchedExtension,
} from './support';
import { ask } from './support/drive-agent';

const ready = chromiumAvailable && existsSync(join(extensionDir, 'manifest.json'));
if (!ready) console.warn(`Chromium (${chromiumPath}) or the built extension (npx wxt build) is missing: the engine browser tests are skipped.`);

/** A browser with the extension, the test pages and a fake model server, for the tests of one block. */
function withFakeServer(options: FakeOllamaOptions) {
  const setup = {} as ServerSetup;
  beforeAll(async () => {
    setup.fixtures = await serveFixtures(resolve(projectRoot, 'tests/e2e/fixtures'));
    setup.server = await startFakeOllama(options);
    setup.extension = await launchExtension({ webgpu: false });
  });
  afterAll(async () => {
    await setup.extension?.close();
    await setup.fixtures?.close();
    await setup.server?.close();
  });
  return setup;
}
interface ServerSetup {
  extension: LaunchedExtension;
  fixtures: FixtureServer;
  server: Awaited<ReturnType<typeof startFakeOllama>>;
}

/** The settings name the server at `address` as the engine, as the options page keeps them. */
async function useServer(extension: LaunchedExtension, address: string): Promise<void> {
  await extension.serviceWorker.evaluate(async (baseUrl) => {
    const { chrome } = globalThis as unknown as { chrome: { storage: { local: { set(items: object): Promise<void> } } } };
    await chrome.storage.local.set({ settings: { engine: 'openai', openaiBaseUrl: baseUrl, model: 'qwen3:1.7b' } });
  }, address);
}

/** A page with tools and its side panel, the fake server the engine. */
async function panelOnServer({ extension, fixtures, server }: ServerSetup) {
  await useServer(extension, server.address);
  const page = await extension.context.newPage();
  await page.goto(fixtures.url('/native.html'));
  const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(page)}`);
  return { page, panel };
}

describe.skipIf(!ready)('the WebGPU check with a software adapter (--enable-unsafe-webgpu)', () => {
  let extension: LaunchedExtension;
  beforeAll(async () => {
    extension = await launchExtension({ webgpu: true });
  });
  afterAll(async () => extension?.close());

  it('finds the adapter in the service worker, without shader-f16', async () => {
    const adapter = await extension.serviceWorker.evaluate(async () => {
      const gpu = (navigator as unknown as { gpu?: { requestAdapter(): Promise<{ features: Set<string> } | null> } }).gpu;
      const found = await gpu?.requestAdapter();
      return { found: Boolean(found), shaderF16: found?.features.has('shader-f16') ?? false };
    });
    expect(adapter).toEqual({ found: true, shaderF16: false });
  });

  it('reports no shader-f16 on the options page and recommends a q4f32 model', async () => {
    const page = await extension.openExtensionPage('options.html');
    const status = page.getByTestId('webgpu-status');
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toContain('WebGPU is available on');
    expect(await page.getByTestId('shader-f16').textContent()).toBe('no');
    expect(await page.getByTestId('model-id').textContent()).toBe('Qwen3-0.6B-q4f32_1-MLC');
    expect(await page.getByTestId('recommendation-reason').textContent()).toContain('software adapter');
    expect(await page.locator('option[value="Qwen3-1.7B-q4f16_1-MLC"]').isDisabled()).toBe(true);
    // Chromium has no built-in model to give: it says so by its name, not that this computer falls short.
    const builtIn = page.locator('label.choice', { has: page.locator('input[value="prompt-api"]') });
    await expect.poll(() => builtIn.textContent(), { timeout: 10_000 }).toMatch(/Chromium (does not include Chrome's built-in model|says Chrome's built-in model is unavailable)/);
    await page.close();
  });

  it('shows each closed list of the options whole at 320 px, and what the choice picked means under it', async () => {
    const page = await extension.openExtensionPage('options.html');
    await page.setViewportSize({ width: 320, height: 900 });
    await expect.poll(() => page.getByTestId('webgpu-status').textContent(), { timeout: 15_000 }).toContain('WebGPU is available on');
    // Each list's chosen text against the room its closed box gives it (its padding and arrow aside).
    const cut = await page.evaluate(() => {
      const context = document.createElement('canvas').getContext('2d')!;
      return [...document.querySelectorAll('select')].flatMap((select) => {
        const style = getComputedStyle(select);
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const text = select.selectedOptions[0]?.textContent ?? '';
        const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 20;
        return context.measureText(text).width > room ? [text] : [];
      });
    });
    expect(cut).toEqual([]);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
    expect(await page.getByTestId('confirmation-hint').textContent()).toContain('unless you listed its site under Sites');
    await page.getByLabel('Ask before a tool runs').selectOption('ask-always');
    await expect.poll(() => page.getByTestId('confirmation-hint').textContent()).toBe('Every tool waits for your Allow, even one that only reads.');
    await page.getByLabel('Ask before a tool runs').selectOption('ask-unless-read-only');
    await page.close();
  });

  it('may fill the free disk with models: Chrome caps the extension at no share of it (unlimitedStorage)', async () => {
    const quota = await extension.serviceWorker.evaluate(async () => (await navigator.storage.estimate()).quota ?? 0);
    // Chrome's quota for an extension with the permission is the space free on the disk of its
    // profile; without it, a share (10.7 GB where 84 GB were free, in Chromium 156).
    const disk = await statfs(tmpdir());
    expect(quota).toBeGreaterThan(0.8 * disk.bavail * disk.bsize);
  });

  it('deletes stored models from the options page through the service worker, also when the page is closed at once', async () => {
    const page = await extension.openExtensionPage('options.html');
    const baseUrl = 'https://huggingface.co/mlc-ai/Qwen3-0.6B-q4f32_1-MLC/resolve/main/';
    const storeModel = (base: string) =>
      caches.open('webllm/model').then(async (cache) => {
        await cache.put(`${base}tensor-cache.json`, new Response('{"records": [{"dataPath": "params_shard_0.bin"}]}'));
        await cache.put(`${base}params_shard_0.bin`, new Response(new Uint8Array(1024)));
      });
    const filesLeft = () => extension.serviceWorker.evaluate(async () => (await (await caches.open('webllm/model')).keys()).length);
    // A model as WebLLM stores it, in the extension's Cache Storage.
    await page.evaluate(storeModel, baseUrl);
    await page.reload();
    await page.getByTestId('stored-model').waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Delete Qwen3 0.6B (q4f32)' }).click();
    await page.getByRole('button', { name: 'Yes, delete Qwen3 0.6B (q4f32)' }).click();
    await page.getByText('No WebLLM model is stored yet').waitFor({ timeout: 10_000 });
    expect(await filesLeft()).toBe(0);

    // The request the options page sends, answered by the service worker itself.
    await page.evaluate(storeModel, baseUrl);
    const answer = await page.evaluate((base) => {
      const { chrome } = globalThis as unknown as { chrome: { runtime: { sendMessage(message: unknown): Promise<unknown> } } };
      return chrome.runtime.sendMessage({ type: 'webllm-models-delete', baseUrls: [base] });
    }, baseUrl);
    expect(answer).toEqual({ deleted: true });
    expect(await filesLeft()).toBe(0);
    // The news the options page then gives the side panels, heard by the service worker.
    const heard = await page.evaluate(() => {
      const { chrome } = globalThis as unknown as { chrome: { runtime: { sendMessage(message: unknown): Promise<unknown> } } };
      return chrome.runtime.sendMessage({ type: 'local-models-changed' });
    });
    expect(heard).toEqual({ heard: true });

    // Closed the moment Yes is pressed: the files go all the same.
    await page.evaluate(storeModel, baseUrl);
    await page.reload();
    await page.getByRole('button', { name: 'Delete all' }).click();
    await page.getByRole('button', { name: 'Yes, delete all' }).click();
    await page.close();
    await expect.poll(filesLeft, { timeout: 10_000 }).toBe(0);
  });
});

describe.skipIf(!ready)('without WebGPU, and with a fake of Chrome\'s built-in model', () => {
  let extension: LaunchedExtension;
  let fixtures: FixtureServer;
  beforeAll(async () => {
    fixtures = await serveFixtures(resolve(projectRoot, 'tests/e2e/fixtures'));
    extension = await launchExtension({ webgpu: false });
  });
  afterAll(async () => {
    await extension?.close();
    await fixtures?.close();
  });

  it('says in the side panel that there is no WebGPU, and what to do, before any request, and takes none', async () => {
    const shop = await extension.context.newPage();
    await shop.goto(fixtures.url('/native.html'));
    const tabId = await tabIdOf(shop);
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${tabId}`);
    // Said before any request: the check runs when the panel opens.
    const early = panel.getByTestId('engine-error');
    await expect.poll(() => early.textContent().catch(() => ''), { timeout: 15_000 }).toContain('WebLLM cannot run on this computer.');
    expect(await panel.getByTestId('status-line').textContent()).toContain('Cannot run here');
    expect(await early.textContent()).toContain('WebGPU is turned off or found no usable GPU');
    expect(await early.textContent()).toContain('Update your graphics driver');
    // A request would only fail the same way: Send stays off, and the box says where to go.
    const input = panel.getByTestId('chat-input');
    await input.fill('Add a blue mug to my cart');
    expect(await panel.getByTestId('send').isEnabled()).toBe(false);
    expect(await input.getAttribute('placeholder')).toBe('WebLLM cannot run here: pick another engine in the options');
    await panel.close();
    await shop.close();
  });

  it('says there is no WebGPU and what to do', async () => {
    const page = await extension.openExtensionPage('options.html');
    const status = page.getByTestId('webgpu-status');
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toContain('WebLLM cannot run here.');
    expect(await status.textContent()).toContain('WebGPU is turned off or found no usable GPU on this computer.');
    expect(await status.textContent()).toContain('Update your graphics driver');
    await page.close();
  });

  it('downloads the fake built-in model with progress, then streams a reply through the engine', async () => {
    const fake: FakeLanguageModelOptions = {
      availability: 'downloadable',
      needsUserActivation: true,
      replies: ['{"type": "message", "text": "Hello! The built-in model is ready."}'],
    };
    await extension.context.addInitScript(installFakeLanguageModel, fake);
    const page = await extension.openExtensionPage('options.html');
    const choice = page.locator('input[value="prompt-api"]');
    await expect.poll(() => choice.isEnabled(), { timeout: 15_000 }).toBe(true);
    await choice.check();
    await expect.poll(() => page.getByTestId('prompt-api-state').textContent()).toContain('Chrome can download');
    // Progress is watched as it comes: the bar goes once the model is there.
    await page.evaluate(() => {
      const seen: string[] = ((window as unknown as { progressSeen: string[] }).progressSeen = []);
      new MutationObserver(() => {
        const text = document.querySelector('[data-testid="progress"]')?.textContent;
        if (text && seen.at(-1) !== text) seen.push(text);
      }).observe(document.body, { subtree: true, childList: true, characterData: true });
    });
    await page.getByRole('button', { name: 'Download' }).click();
    await expect.poll(() => page.getByTestId('prompt-api-state').textContent()).toContain('is on this computer and ready');
    const seen = await page.evaluate(() => (window as unknown as { progressSeen: string[] }).progressSeen);
    expect(seen.length).toBeGreaterThan(0);
    expect(await page.getByTestId('progress').count()).toBe(0);

    await page.getByRole('button', { name: 'Try it' }).click();
    await expect.poll(() => page.getByTestId('trial-reply').textContent().catch(() => '')).toBe('Hello! The built-in model is ready.');
    expect(await page.getByTestId('trial-speed').textContent()).toMatch(/first token after \d+ ms · [\d.]+ tokens per second · 9 tokens/);
    await page.close();
  });
});

describe.skipIf(!ready)('a model server that sends no CORS headers', () => {
  const setup = withFakeServer({ replies: ['The blue mug is in stock.'], noCors: true });

  // The content scripts' <all_urls> is host access to every server: no permission is asked, and
  // the server's answer is read whatever CORS headers it sends (a preflight it refuses is never made).
  it('refuses an address with a stray space, saying so, where Chrome would send the request to a host named "127.0.0.1%20"', async () => {
    const { extension, server } = setup;
    const options = await extension.openExtensionPage('options.html');
    await options.locator('input[value="openai"]').check();
    // A space pasted before the port.
    const spaced = server.address.replace(/:(\d+)/, ' :$1');
    await options.getByLabel('Address', { exact: true }).fill(spaced);
    await options.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => options.getByRole('alert').first().textContent(), { timeout: 10_000 }).toContain(`"${spaced}" is not a server address: it has a space in it.`);
    expect(await options.getByTestId('server-elsewhere').count()).toBe(0);
    await options.close();
  });

  it('connects on the options page with no permission asked, and answers a request from the side panel', async () => {
    const { extension, fixtures, server } = setup;
    const options = await extension.openExtensionPage('options.html');
    await options.locator('input[value="openai"]').check();
    await options.getByLabel('Address', { exact: true }).fill(server.address);
    await options.getByRole('button', { name: 'Connect' }).click();
    await expect.poll(() => options.getByTestId('server-connected').textContent(), { timeout: 15_000 }).toBe('Connected: 2 models.');
    const origins = await options.evaluate(async () => (await (globalThis as unknown as { chrome: { permissions: { getAll(): Promise<{ origins: string[] }> } } }).chrome.permissions.getAll()).origins);
    expect(origins).toEqual(['<all_urls>']);

    const page = await extension.context.newPage();
    await page.goto(fixtures.url('/native.html'));
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(page)}`);
    await ask(panel, 'Is the blue mug in stock?');
    await panel.getByTestId('turn').last().getByText('The blue mug is in stock.').waitFor({ timeout: 15_000 });
    expect(server.requests).toHaveLength(1);
    // The server's list says it is Ollama: only Ollama's way of saying the model's context is asked,
    // never another server's, which would leave 404s in its log.
    await expect.poll(() => server.asked.filter((path) => path !== '/v1/models')).toContain('/api/ps');
    expect(new Set(server.asked.filter((path) => path !== '/v1/models'))).toEqual(new Set(['/api/ps']));
    // 127.0.0.1 is this computer: the server is called local, and the options page warns of nothing.
    expect(await panel.getByTestId('status-line').locator('.status-engine').textContent()).toBe('Local server (OpenAI-compatible)');
    expect(await options.getByTestId('server-elsewhere').count()).toBe(0);
    await Promise.all([options.close(), panel.close(), page.close()]);
  });
});

describe.skipIf(!ready)('a model server whose reply fails in one tab', () => {
  const setup = withFakeServer({ replies: ['Never sent.'], answerAs: 'error-line-unended' });

  it("says so in that tab's panel only: another tab's panel goes on saying the model is ready", async () => {
    const { extension, fixtures, server } = setup;
    await useServer(extension, server.address);
    const [pageA, pageB] = [await extension.context.newPage(), await extension.context.newPage()];
    await Promise.all([pageA.goto(fixtures.url('/native.html')), pageB.goto(fixtures.url('/native.html'))]);
    const panelB = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(pageB)}`);
    const panelA = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(pageA)}`);
    await ask(panelA, 'Is the blue mug in stock?');
    await panelA.getByTestId('turn-notice').getByText('the model crashed').waitFor({ timeout: 15_000 });
    // The server failed before any word of the reply came.
    await expect.poll(() => panelA.getByTestId('status-line').textContent()).toContain('Failed before answering');
    await expect.poll(() => panelB.getByTestId('status-line').textContent()).toContain('Ready');
    expect(await panelB.getByTestId('engine-error').count()).toBe(0);
    await Promise.all([panelA.close(), panelB.close(), pageA.close(), pageB.close()]);
  });
});

describe.skipIf(!ready)('a model server that goes away in the middle of a reply', () => {
  // Three pieces of six characters, and a moment later the connection is torn down.
  const setup = withFakeServer({ replies: ['The blue mug is in stock, and it ships today.'], cut: { afterDeltas: 3, how: 'break', afterMs: 300 } });

  it('says it failed while answering, and keeps the words that came', async () => {
    const { page, panel } = await panelOnServer(setup);
    await ask(panel, 'Is the blue mug in stock?');
    const notice = panel.getByTestId('turn-notice');
    await notice.waitFor({ timeout: 15_000 });
    // The server's doing, not the model's: the run stopped.
    expect(await notice.textContent()).toMatch(/^The run stopped: The connection to the server at .+ broke in the middle of a reply\./);
    expect(await panel.getByTestId('turn').last().textContent()).toContain('The blue mug is');
    await expect.poll(() => panel.getByTestId('status-line').textContent()).toContain('Failed while answering');
    await Promise.all([panel.close(), page.close()]);
  });
});

describe.skipIf(!ready)('a model server that stops sending in the middle of a reply', () => {
  const setup = withFakeServer({ replies: ['The blue mug is in stock, and it ships today.'], stall: { afterDeltas: 3 } });

  it('counts the silence after the words that came rather than saying it generates, and Stop ends it', async () => {
    const { page, panel } = await panelOnServer(setup);
    await ask(panel, 'Is the blue mug in stock?');
    const status = panel.getByTestId('status-line');
    await expect.poll(() => panel.getByTestId('turn').last().textContent(), { timeout: 15_000 }).toContain('The blue');
    // Ten seconds after its last piece, the line says how long nothing has come, and what Stop does.
    await expect.poll(() => status.textContent(), { timeout: 20_000 }).toMatch(/Nothing new for 1\d s/);
    expect(await status.textContent()).toContain('The server may have stalled; Stop gives up.');
    expect(await status.textContent()).not.toContain('Generating');
    await panel.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => status.textContent()).toContain('Ready');
    expect(await panel.getByTestId('turn').last().textContent()).toContain('The blue');
    await Promise.all([panel.close(), page.close()]);
  }, 40_000);
});

describe.skipIf(!ready)('a model server that takes the request and says nothing', () => {
  const setup = withFakeServer({ replies: ['Never sent.'], stall: 'before-headers' });

  it('counts the wait for its first word in the status line rather than saying it generates, and Stop ends the wait', async () => {
    const { server } = setup;
    const { page, panel } = await panelOnServer(setup);
    await ask(panel, 'Is the blue mug in stock?');
    const status = panel.getByTestId('status-line');
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toMatch(/Waiting for the server · [2-9] s/);
    expect(await status.textContent()).not.toContain('Generating');
    expect(server.requests).toHaveLength(1);
    await panel.getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => status.textContent()).toContain('Ready');
    expect(await status.textContent()).not.toContain('Waiting');
    await Promise.all([panel.close(), page.close()]);
  });

  it('keeps a model id of 199 characters stored by hand within the options page at 320 px', async () => {
    const { extension, server } = setup;
    // One word: no hyphen or space to break it at.
    const model = `org/${'m'.repeat(195)}`;
    await extension.serviceWorker.evaluate(
      async ([address, model]) => {
        const { chrome } = globalThis as unknown as { chrome: { storage: { local: { set(items: object): Promise<void> } } } };
        await chrome.storage.local.set({ settings: { engine: 'openai', openaiBaseUrl: address, model } });
      },
      [server.address, model] as const,
    );
    const options = await extension.openExtensionPage('options.html');
    await options.setViewportSize({ width: 320, height: 900 });
    // Connected: the model is a choice of the server's list, which the closed list cuts.
    await options.getByTestId('server-connected').getByText('Connected').waitFor({ timeout: 15_000 });
    await options.locator(`option[value="${model}"]`).waitFor({ state: 'attached' });
    expect(await options.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
    // No server answers (nothing listens on port 8): the model is named in a line of its own.
    await extension.serviceWorker.evaluate(async () => {
      const { chrome } = globalThis as unknown as { chrome: { storage: { local: { get(key: string): Promise<{ settings: object }>; set(items: object): Promise<void> } } } };
      const { settings } = await chrome.storage.local.get('settings');
      await chrome.storage.local.set({ settings: { ...settings, openaiBaseUrl: 'http://127.0.0.1:8/v1' } });
    });
    await options.reload();
    await options.getByText(`Model: ${model}`).waitFor({ timeout: 15_000 });
    expect(await options.evaluate(() => document.documentElement.scrollWidth)).toBe(320);
    await options.close();
  });
});

describe.skipIf(!ready)('a model server that asks for a key', () => {
  const setup = withFakeServer({ replies: ['The blue mug is in stock.'], apiKey: 'right-key' });

  it('stops saying it could not use the server once the options take a new key, and the same request then goes through', async () => {
    const { extension, fixtures, server } = setup;
    const setKey = (key: string) =>
      extension.serviceWorker.evaluate(
        async ([address, openaiApiKey]) => {
          const { chrome } = globalThis as unknown as { chrome: { storage: { local: { set(items: object): Promise<void> } } } };
          await chrome.storage.local.set({ settings: { engine: 'openai', openaiBaseUrl: address, model: 'qwen3:1.7b', openaiApiKey } });
        },
        [server.address, key] as const,
      );
    await setKey('wrong-key');
    const page = await extension.context.newPage();
    await page.goto(fixtures.url('/native.html'));
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(page)}`);
    await ask(panel, 'Is the blue mug in stock?');
    const status = panel.getByTestId('status-line');
    await expect.poll(() => status.textContent(), { timeout: 15_000 }).toContain('Could not use the server');
    expect(await panel.getByTestId('turn-notice').textContent()).toContain('HTTP 401');
    await setKey('right-key');
    await expect.poll(() => status.textContent()).toContain('Connects on your next request');
    await panel.getByRole('button', { name: 'Try again' }).click();
    await panel.getByTestId('turn').last().getByText('The blue mug is in stock.').waitFor({ timeout: 15_000 });
    await Promise.all([panel.close(), page.close()]);
  });
});

describe.skipIf(!ready)("Chrome's built-in model, answering one tab at a time", () => {
  let extension: LaunchedExtension;
  let fixtures: FixtureServer;
  beforeAll(async () => {
    fixtures = await serveFixtures(resolve(projectRoot, 'tests/e2e/fixtures'));
    extension = await launchExtension({ webgpu: false });
  });
  afterAll(async () => {
    await extension?.close();
    await fixtures?.close();
  });

  it("tells of the tab whose reply another tab's request waits for, and goes there on a click", async () => {
    // Tab A's reply streams a character at a time, long enough for tab B to ask meanwhile.
    const fake: FakeLanguageModelOptions = {
      availability: 'available',
      chunkSize: 1,
      replies: [`{"type": "message", "text": "${'The blue mug is in stock. '.repeat(60)}"}`, '{"type": "message", "text": "Hello from tab B."}'],
    };
    await extension.serviceWorker.evaluate(installFakeLanguageModel, fake);
    await extension.serviceWorker.evaluate(async () => {
      const { chrome } = globalThis as unknown as { chrome: { storage: { local: { set(items: object): Promise<void> } } } };
      await chrome.storage.local.set({ settings: { engine: 'prompt-api' } });
    });
    const [pageA, pageB] = [await extension.context.newPage(), await extension.context.newPage()];
    await Promise.all([pageA.goto(fixtures.url('/native.html')), pageB.goto(fixtures.url('/native.html?b'))]);
    const tabA = await tabIdOf(pageA);
    const panelA = await extension.openExtensionPage(`sidepanel.html?tabId=${tabA}`);
    const panelB = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(pageB)}`);
    await ask(panelA, 'Is the blue mug in stock?');
    await panelA.getByTestId('turn').getByText('The blue mug is in stock.').first().waitFor({ timeout: 15_000 });
    await ask(panelB, 'Hello?');
    // The other tab shows the same page, titled as this one: it is "another tab", not a title that reads as this tab.
    await expect.poll(() => panelB.getByTestId('status-line').textContent(), { timeout: 15_000 }).toContain('Waiting for the reply in another tab…');
    const activeTab = () =>
      extension.serviceWorker.evaluate(async (tabId) => {
        const { chrome } = globalThis as unknown as { chrome: { tabs: { get(tabId: number): Promise<{ active: boolean }> } } };
        return (await chrome.tabs.get(tabId)).active;
      }, tabA);
    expect(await activeTab()).toBe(false);
    await panelB.getByTestId('go-to-waited-tab').click();
    await expect.poll(activeTab, { timeout: 5_000 }).toBe(true);
    // Tab B's turn comes once tab A's reply has ended, and the wait is no longer offered.
    await panelB.getByTestId('turn').getByText('Hello from tab B.').waitFor({ timeout: 60_000 });
    expect(await panelB.getByTestId('go-to-waited-tab').count()).toBe(0);
    await Promise.all([panelA.close(), panelB.close(), pageA.close(), pageB.close()]);
  });
});

/** Stops the worker as Chrome stops an idle one, once it has let go of the tab events it need not hear (any would start it again). */
async function stopIdleWorker(extension: LaunchedExtension): Promise<void> {
  await expect.poll(() => hearsNavigations(extension.serviceWorker), { timeout: 10_000 }).toBe(false);
  await stopServiceWorker(extension.context);
  await expect.poll(() => serviceWorkerRunning(extension.context)).toBe(false);
}

// Every host name but the test pages' fails to resolve, so the model download fails the same way on every machine.
const offline = '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1';

describe.skipIf(!ready)('the real WebLLM, read into the service worker only for a model, offline', () => {
  let extension: LaunchedExtension;
  let fixtures: FixtureServer;
  beforeAll(async () => {
    fixtures = await serveFixtures(resolve(projectRoot, 'tests/e2e/fixtures'));
    extension = await launchExtension({ webgpu: true, flags: [offline] });
  });
  afterAll(async () => {
    await extension?.close();
    await fixtures?.close();
  });

  const holdsWebLlm = (worker: Worker) => worker.evaluate((name) => name in globalThis, webLlmGlobalName);

  it('is built apart from the background, whose script Chrome reads at every start of the worker', () => {
    // WebLLM is 6 MB; the background without it, under half a megabyte.
    expect(statSync(join(extensionDir, 'background.js')).size).toBeLessThan(1_000_000);
    expect(statSync(join(extensionDir, 'webllm.js')).size).toBeGreaterThan(4_000_000);
  });

  it('starts the worker without it, reads it after that start to load the model, and says the download failed, with what to do', async () => {
    // Chrome stops the worker after 30 s idle: what starts it again (here a page reporting its
    // tools, then a panel) reads only the background.
    await stopIdleWorker(extension);
    const shop = await extension.context.newPage();
    await shop.goto(fixtures.url('/native.html'));
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(shop)}`);
    await expect.poll(() => panel.getByTestId('status-line').textContent(), { timeout: 15_000 }).toContain('Downloads about 400 MB on your first request');
    const worker = await currentServiceWorker(extension.context);
    expect(await holdsWebLlm(worker)).toBe(false);
    // The model's load reads WebLLM, the script the worker's install kept, and fails where WebLLM
    // fetches the model: the picks and the words are WebLLM's and the engine's own.
    await ask(panel, 'Add a blue mug to my cart');
    const error = panel.getByTestId('turn').last();
    await expect.poll(() => error.textContent(), { timeout: 40_000 }).toContain('The download of Qwen3 0.6B (q4f32) failed.');
    expect(await error.textContent()).toContain('Check your connection and send your request again.');
    expect(await holdsWebLlm(worker)).toBe(true);
    await panel.close();
    await shop.close();
  });
  it("downloads the model at the options page's Download now or Try it, in the worker: its failure shows there, worded for that page, and in the side panel", async () => {
    // A fresh worker: a load that failed before leaves the engine's status at its error.
    if (await serviceWorkerRunning(extension.context)) await stopServiceWorker(extension.context);
    await expect.poll(() => serviceWorkerRunning(extension.context)).toBe(false);
    const shop = await extension.context.newPage();
    await shop.goto(fixtures.url('/native.html'));
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(shop)}`);
    await expect.poll(() => panel.getByTestId('status-line').textContent(), { timeout: 15_000 }).toContain('Downloads about 400 MB on your first request');
    const options = await extension.openExtensionPage('options.html');
    const download = options.getByTestId('webllm-download');
    await expect.poll(() => download.textContent(), { timeout: 15_000 }).toContain('Downloads Qwen3 0.6B (q4f32) now (about 400 MB, once)');
    await download.getByRole('button', { name: 'Download now' }).click();
    const failure = options.getByRole('alert');
    await expect.poll(() => failure.textContent().catch(() => ''), { timeout: 40_000 }).toContain('The download of Qwen3 0.6B (q4f32) failed.');
    expect(await failure.textContent()).toContain('Check your connection and try again.');
    expect(await download.getByRole('button', { name: 'Download now' }).getAttribute('aria-disabled')).toBeNull();
    // The side panel shows the same load's end: the engine is one, whoever asked for it.
    await expect.poll(() => panel.getByTestId('status-line').textContent(), { timeout: 5_000 }).toContain('Could not load');
    // No request of the panel's began it: its next try is a first request.
    expect(await panel.getByTestId('engine-error').textContent()).toContain('Check your connection and send a request.');
    // Try it loads the model in the worker too, to answer there: here it stops where the download does.
    const trial = options.getByTestId('trial');
    await trial.getByRole('button', { name: 'Try it' }).click();
    await expect.poll(() => trial.getByRole('alert').textContent().catch(() => ''), { timeout: 40_000 }).toContain('The download of Qwen3 0.6B (q4f32) failed.');
    await Promise.all([options.close(), panel.close(), shop.close()]);
  });
});

/**
 * Where the model's hosts lead instead: a server that takes each connection and says nothing, so a
 * download waits as on a connection that hangs, until `refuse` closes them all (the download fails).
 */
async function silentHub() {
  const sockets = new Set<Socket>();
  let refusing = false;
  const server = createServer((socket) => {
    if (refusing) return void socket.destroy();
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    flag: `--host-resolver-rules=MAP huggingface.co 127.0.0.1:${port}, MAP raw.githubusercontent.com 127.0.0.1:${port}, MAP * ~NOTFOUND, EXCLUDE 127.0.0.1`,
    connections: () => sockets.size,
    refuse() {
      refusing = true;
      for (const socket of sockets) socket.destroy();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

describe.skipIf(!ready)('the real WebLLM, its download waiting on a host that says nothing', () => {
  let extension: LaunchedExtension;
  let fixtures: FixtureServer;
  let hub: Awaited<ReturnType<typeof silentHub>>;
  beforeAll(async () => {
    fixtures = await serveFixtures(resolve(projectRoot, 'tests/e2e/fixtures'));
    hub = await silentHub();
    extension = await launchExtension({ webgpu: true, flags: [hub.flag] });
  });
  afterAll(async () => {
    await extension?.close();
    // A connection still held would keep the server from closing.
    hub?.refuse();
    await hub?.close();
    await fixtures?.close();
  });

  it('shows in an open options page the download a side panel\'s request began, even after the idle worker stopped, and its end', async () => {
    const options = await extension.openExtensionPage('options.html');
    const download = options.getByTestId('webllm-download');
    await expect.poll(() => download.textContent(), { timeout: 15_000 }).toContain('Downloads Qwen3 0.6B (q4f32) now');
    // Chrome stops an idle worker, which closes the options page's port to it.
    await stopIdleWorker(extension);
    const shop = await extension.context.newPage();
    await shop.goto(fixtures.url('/native.html'));
    const panel = await extension.openExtensionPage(`sidepanel.html?tabId=${await tabIdOf(shop)}`);
    await ask(panel, 'Add a blue mug to my cart');
    await expect.poll(() => hub.connections(), { timeout: 20_000 }).toBeGreaterThan(0);
    const elsewhere = options.getByTestId('webllm-load-elsewhere');
    await expect.poll(() => elsewhere.textContent({ timeout: 500 }).catch(() => ''), { timeout: 10_000 }).toBe(
      'A side panel or another tab is downloading Qwen3 0.6B (q4f32) now; closing this page does not stop it.',
    );
    expect(await download.getByRole('button', { name: 'Downloading…' }).getAttribute('aria-disabled')).toBe('true');
    expect(await download.getByRole('button', { name: 'Cancel' }).count()).toBe(0);
    // An options page opened while it goes on shows it too.
    const later = await extension.openExtensionPage('options.html');
    await expect.poll(() => later.getByTestId('webllm-load-elsewhere').textContent({ timeout: 500 }).catch(() => ''), { timeout: 10_000 }).toContain('is downloading Qwen3 0.6B (q4f32) now');
    await later.close();
    // The host gives up: the request fails in the panel, and the options offer the download again.
    hub.refuse();
    await expect.poll(() => panel.getByTestId('turn').last().textContent(), { timeout: 40_000 }).toContain('The download of Qwen3 0.6B (q4f32) failed.');
    await expect.poll(() => elsewhere.count()).toBe(0);
    expect(await download.getByRole('button', { name: 'Download now' }).getAttribute('aria-disabled')).toBeNull();
    // Worded for this page, whose Download now tries again.
    expect(await download.getByRole('alert').textContent()).toMatch(/^The download of Qwen3 0\.6B \(q4f32\) failed\.Check your connection and try again\./);
    await Promise.all([options.close(), panel.close(), shop.close()]);
  });
});
