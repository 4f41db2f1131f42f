// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Settings } from '../../lib/settings';
import { createFakeCacheStorage } from '../engines/support/fake-cache-storage';
import { startFakeOllama, type FakeOllamaOptions } from '../engines/support/fake-ollama-server';
import { buttonNamed, click, memorySettings, sharedSettings, showOptionsPage } from './support/show-options-page';

let servers: { close(): Promise<void> }[] = [];
afterEach(async () => {
  document.body.innerHTML = '';
  await Promise.all(servers.map((server) => server.close()));
  servers = [];
});

/** Waits for what the page shows once a real local server answered: slower than a render on a busy machine. */
function answered<T>(check: () => T): Promise<T> {
  return vi.waitFor(check, { timeout: 5_000 });
}

async function server(options: Partial<FakeOllamaOptions> = {}) {
  const started = await startFakeOllama({ replies: [], ...options });
  servers.push(started);
  return { ...started, host: new URL(started.address).host };
}

/** The options page on the local server engine, with what a person sees in its server section. */
function show(settings: Partial<Settings>, timeouts?: { connectMs?: number; trialReplyMs?: number }) {
  const stored = memorySettings({ engine: 'openai', ...settings });
  const page = showOptionsPage({
    settings: stored,
    caches: createFakeCacheStorage().storage,
    ...(timeouts ? { timeouts } : {}),
  });
  const { root } = page;
  const section = () => root.querySelector('section[aria-labelledby="server-heading"]');
  const type = (text: string) => {
    const field = section()!.querySelector<HTMLInputElement>('input')!;
    field.value = text;
    field.dispatchEvent(new Event('input', { bubbles: true }));
  };
  return {
    ...page,
    stored,
    type,
    /** Presses Connect and waits for its answer (the page asked the stored server as it opened, too). */
    connect: async () => {
      click(buttonNamed(root, 'Connect'));
      await answered(() => expect(page.model.serverState.value).not.toBe('connecting'));
    },
    connected: () => root.querySelector('[data-testid="server-connected"]')?.textContent ?? '',
    /** Why the server does not answer: an alert after Connect, said politely where the page asked by itself. */
    failure: () => section()?.querySelector('.tone-error')?.textContent ?? '',
    trialText: () => root.querySelector('[data-testid="trial"]')?.textContent ?? '',
  };
}

describe('the local server on the options page', () => {
  it('asks the server set up before for its models as the page opens, and says at once whether it answers', async () => {
    const two = await server();
    const stored = memorySettings({ engine: 'openai', openaiBaseUrl: two.address, model: 'qwen3:1.7b' });
    const page = showOptionsPage({ settings: stored, caches: createFakeCacheStorage().storage });
    await answered(() => expect(page.root.querySelector('[data-testid="server-connected"]')?.textContent).toBe('Connected: 2 models.'));
    // The model picked from its list shows as picked, with no Connect pressed.
    expect(page.root.querySelector<HTMLSelectElement>('section[aria-labelledby="server-heading"] select')?.value).toBe('qwen3:1.7b');
    await two.close();
    servers = servers.filter((started) => started !== two);

    // A server that is down now: said as the page opens.
    document.body.innerHTML = '';
    const down = showOptionsPage({ settings: memorySettings({ engine: 'openai', openaiBaseUrl: two.address }), caches: createFakeCacheStorage().storage });
    const downSection = () => down.root.querySelector('section[aria-labelledby="server-heading"]')!;
    await answered(() => expect(downSection().querySelector('[role="status"] .tone-error')?.textContent).toContain('No server answers'));
    // Found by the page itself, not by a press: said politely, not as an alert (nor at each engine arrowed past).
    expect(downSection().querySelector('[role="alert"]')).toBeNull();
    // Back on this engine after another, the failure found again is read out again: its region is
    // in the page before its words, which a screen reader would not read were they there at once.
    const filled: Node[] = [];
    const watch = new MutationObserver((records) => {
      for (const record of records) if ((record.target as Element).getAttribute?.('role') === 'status') filled.push(...record.addedNodes);
    });
    watch.observe(down.root, { childList: true, subtree: true });
    click(down.root.querySelector('input[name="engine"][value="webllm"]'));
    await answered(() => expect(down.root.querySelector('section[aria-labelledby="server-heading"]')).toBeNull());
    click(down.root.querySelector('input[name="engine"][value="openai"]'));
    await answered(() => expect(filled.some((node) => node.textContent?.includes('No server answers'))).toBe(true));
    watch.disconnect();
    expect(downSection().querySelector('[role="alert"]')).toBeNull();
    // A Connect that fails says so at once.
    click(buttonNamed(down.root, 'Connect'));
    await answered(() => expect(downSection().querySelector('[role="alert"]')?.textContent).toContain('No server answers'));
    expect(downSection().querySelector('[role="status"] .tone-error')).toBeNull();
  });

  it('is not said to be connected where the address could not be saved: the one in use is still the one before', async () => {
    const ollama = await server();
    const stored = memorySettings({ engine: 'openai', openaiBaseUrl: 'http://127.0.0.1:8/v1' });
    const page = showOptionsPage({
      settings: { ...stored, update: async () => Promise.reject(new Error('QUOTA_BYTES quota exceeded')) },
      caches: createFakeCacheStorage().storage,
    });
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    const field = page.root.querySelector<HTMLInputElement>('section[aria-labelledby="server-heading"] input')!;
    field.value = ollama.address;
    field.dispatchEvent(new Event('input', { bubbles: true }));
    click(buttonNamed(page.root, 'Connect'));
    await answered(() => expect(page.root.querySelector('[data-testid="save-failure"]')?.textContent).toContain('QUOTA_BYTES quota exceeded'));
    expect(page.model.serverState.value).toBe('idle');
    expect(page.root.querySelector('[data-testid="server-connected"]')?.textContent ?? '').not.toContain('Connected');
  });

  it('says Chrome never connects to a port it keeps closed, rather than that no server answers there', async () => {
    const page = show({ openaiBaseUrl: 'http://127.0.0.1:8/v1' });
    await answered(() => expect(page.failure()).toContain('No server answers'));
    page.type('localhost:6000');
    await page.connect();
    await answered(() => expect(page.failure()).toContain('Chrome does not connect to port 6000: it keeps that port closed to web pages and extensions.'));
    expect(page.failure()).toContain("Start the server on another port (Ollama's is 11434, LM Studio's 1234, llama.cpp's 8080) and enter that address, then press Connect.");
    expect(page.failure()).not.toContain('No server answers');
    // Saved so by an earlier version: refused as the page opens, and not called unsaved.
    document.body.innerHTML = '';
    const saved = show({ openaiBaseUrl: 'http://127.0.0.1:6000/v1' });
    await answered(() => expect(saved.failure()).toContain('Chrome does not connect to port 6000'));
    expect(saved.root.querySelector('[data-testid="address-unsaved"]')).toBeNull();
  });

  it('says an address stored by hand that is no server address is not one, as the page opens, rather than that no server answers there', async () => {
    const page = show({ openaiBaseUrl: 'ftp://127.0.0.1:21/v1' });
    await answered(() => expect(page.failure()).toContain('"ftp://127.0.0.1:21/v1" is not a server address.'));
    expect(page.failure()).not.toContain('No server answers');
  });

  it("does not ask for Connect again just after Connect failed with the address as typed, and asks again once it is edited", async () => {
    const two = await server();
    const page = show({ openaiBaseUrl: two.address });
    await answered(() => expect(page.connected()).toBe('Connected: 2 models.'));
    const unsaved = () => page.root.querySelector('[data-testid="address-unsaved"]')?.textContent;
    // Nothing listens on port 8.
    page.type('http://127.0.0.1:8/v1');
    await answered(() => expect(unsaved()).toBe(`Not saved yet: press Connect. The agent uses ${two.address} until then.`));
    await page.connect();
    await answered(() => expect(page.failure()).toContain('No server answers at http://127.0.0.1:8/v1.'));
    expect(unsaved()).toBe(`Not saved, as Connect failed. The agent uses ${two.address} until then.`);
    page.type('http://127.0.0.1:10/v1');
    await answered(() => expect(unsaved()).toBe(`Not saved yet: press Connect. The agent uses ${two.address} until then.`));
  });

  it('leaves Connect free while it asks quietly, and a Connect pressed meanwhile is the answer shown', async () => {
    const busy = await server({ modelsAs: 'silent' });
    const two = await server();
    const stored = memorySettings({ engine: 'openai', openaiBaseUrl: busy.address, model: 'llama3.2:1b' });
    const page = showOptionsPage({
      settings: stored,
      caches: createFakeCacheStorage().storage,
      timeouts: { connectMs: 300 },
    });
    const section = () => page.root.querySelector('section[aria-labelledby="server-heading"]')!;
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    // The quiet question hangs: the field stays editable, Connect says nothing of it.
    const field = section().querySelector<HTMLInputElement>('input')!;
    expect(field.readOnly).toBe(false);
    field.value = two.address;
    field.dispatchEvent(new Event('input', { bubbles: true }));
    click(buttonNamed(page.root, 'Connect'));
    // (The model picked before is not on this server: said after.)
    await answered(() => expect(page.root.querySelector('[data-testid="server-connected"]')?.textContent).toMatch(/^Connected: 2 models\. It has no "llama3\.2:1b"/));
    // The quiet question's late failure, about the old address, is not shown.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(section().querySelector('.tone-error')).toBeNull();
    expect((await stored.load()).openaiBaseUrl).toBe(two.address);
  });

  it('says a model picked before is not on the server any more, rather than showing another', async () => {
    const two = await server();
    const page = showOptionsPage({
      settings: memorySettings({ engine: 'openai', openaiBaseUrl: two.address, model: 'llama3.2:1b' }),
      caches: createFakeCacheStorage().storage,
    });
    const select = () => page.root.querySelector<HTMLSelectElement>('section[aria-labelledby="server-heading"] select');
    await answered(() => expect(select()).not.toBeNull());
    expect(select()!.value).toBe('llama3.2:1b');
    expect(select()!.selectedOptions[0]?.textContent).toBe('llama3.2:1b (not on this server)');
  });

  it('says Connect found no model the agent used there, and which it uses instead, rather than swap it unsaid', async () => {
    const two = await server();
    const page = show({ openaiBaseUrl: two.address, model: 'gone-model:7b' });
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    await page.connect();
    await answered(() => expect(page.connected()).toMatch(/^Connected: 2 models\. It has no "gone-model:7b": the agent uses its first chat model \(.+\) until you pick one below\.$/));
    expect((await page.stored.load()).model).toBe('');
    // Once the person picks one, the note has nothing more to say.
    const select = page.root.querySelector<HTMLSelectElement>('section[aria-labelledby="server-heading"] select')!;
    select.value = 'llama3.2:3b';
    select.dispatchEvent(new Event('change', { bubbles: true }));
    await answered(() => expect(page.connected()).toBe('Connected: 2 models.'));
    // Connect again: the model in use is on the server, nothing to say.
    await page.connect();
    await answered(() => expect(page.connected()).toBe('Connected: 2 models.'));
  });

  it('asks the connected server for its models again when the page is back in view, so one removed meanwhile shows as gone', async () => {
    const listed = ['qwen3:1.7b', 'llama3.2:3b'];
    const two = await server({ models: listed });
    const page = show({ openaiBaseUrl: two.address, model: 'llama3.2:3b' });
    await answered(() => expect(page.connected()).toBe('Connected: 2 models.'));
    // The person removes the model on the server (ollama rm), as the side panel told them it is gone.
    listed.splice(1, 1);
    await page.model.refreshServer();
    await answered(() => expect(page.connected()).toBe('Connected: 1 model.'));
    const select = page.root.querySelector<HTMLSelectElement>('section[aria-labelledby="server-heading"] select')!;
    expect(select.selectedOptions[0]?.textContent).toBe('llama3.2:3b (not on this server)');
  });

  it('says Connect worked, and how many models the server has', async () => {
    const two = await server();
    const page = show({ openaiBaseUrl: two.address });
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    await page.connect();
    await answered(() => expect(page.connected()).toBe('Connected: 2 models.'));

    const one = await server({ models: ['qwen3:1.7b'] });
    page.type(one.address);
    await page.connect();
    await answered(() => expect(page.connected()).toBe('Connected: 1 model.'));

    // A server without models answers Connect, but could answer no request: said now, not later.
    const none = await server({ models: [] });
    page.type(none.address);
    await page.connect();
    await answered(() => expect(page.connected()).toContain('Connected, but the server has no models. Get one there first (for Ollama, run ollama pull qwen3:1.7b; in LM Studio, load a model in its Developer tab)'));
    expect(page.connected()).toContain('then press Connect again');
    // Nothing to pick, nothing to try.
    expect(page.root.querySelector('section[aria-labelledby="server-heading"] select')).toBeNull();
    expect(buttonNamed(page.root, 'Try it')).toBeUndefined();
  });

  it('keeps a long signed key, refuses one past any server\'s, and never sends a server\'s key to another address', async () => {
    const token = `eyJ${'a'.repeat(1_500)}.${'b'.repeat(400)}`;
    const locked = await server({ apiKey: token });
    const page = show({ openaiBaseUrl: locked.address });
    const section = () => page.root.querySelector('section[aria-labelledby="server-heading"]')!;
    const keyField = () => section().querySelector<HTMLInputElement>('input[type="password"]')!;
    const typeKey = (text: string) => {
      keyField().value = text;
      keyField().dispatchEvent(new Event('input', { bubbles: true }));
    };
    await answered(() => expect(page.failure()).toContain('asks for an API key'));
    typeKey(token);
    await page.connect();
    await answered(() => expect(page.connected()).toBe('Connected: 2 models.'));
    expect((await page.stored.load()).openaiApiKey).toBe(token);

    typeKey('k'.repeat(8_001));
    await page.connect();
    expect(page.failure()).toContain('The API key is longer than 8,000 characters');
    expect((await page.stored.load()).openaiApiKey).toBe(token);
    typeKey(token);

    // A key the person emptied stays empty while they edit the same server's address.
    typeKey('');
    page.type(`${locked.address}/`);
    await answered(() => expect(page.root.querySelector('[data-testid="address-unsaved"]')?.textContent).toBe('The key is not saved yet: press Connect.'));
    expect(keyField().value).toBe('');
    typeKey(token);
    page.type(locked.address);

    // Another server's address empties the field: the saved key stays that server's.
    const other = await server();
    page.type(other.address);
    await answered(() => expect(keyField().value).toBe(''));
    await page.connect();
    await answered(() => expect(page.connected()).toBe('Connected: 2 models.'));
    expect(await page.stored.load()).toMatchObject({ openaiBaseUrl: other.address, openaiApiKey: '' });
    expect(other.authorizations.filter((header) => header !== undefined)).toEqual([]);
  });

  it('says a server with only embedding models has none that can chat, and offers none to pick or try', async () => {
    const embedding = await server({ models: ['nomic-embed-text:latest', 'all-minilm:l6-v2'] });
    const page = show({ openaiBaseUrl: embedding.address });
    await answered(() => expect(page.connected()).toBe('Connected, but the server has only embedding models, which cannot chat. Download a chat model first (for Ollama, run ollama pull qwen3:1.7b), then press Connect again.'));
    expect(page.root.querySelector('section[aria-labelledby="server-heading"] select')).toBeNull();
    expect(buttonNamed(page.root, 'Try it')).toBeUndefined();

    // One picked before stays in sight, so it can be undone.
    document.body.innerHTML = '';
    const picked = show({ openaiBaseUrl: embedding.address, model: 'bge-m3' });
    await answered(() => expect(picked.connected()).toContain('only embedding models'));
    const select = picked.root.querySelector<HTMLSelectElement>('section[aria-labelledby="server-heading"] select')!;
    expect(select.value).toBe('bge-m3');
    expect(select.options[0]?.textContent).toBe("The server's first chat model (it has none)");
  });

  it('lists the models that only make embeddings apart, after those that chat', async () => {
    const mixed = await server({ models: ['nomic-embed-text:latest', 'qwen3:1.7b', 'all-minilm:l6-v2', 'llama3.2:3b'] });
    const page = show({ openaiBaseUrl: mixed.address });
    await answered(() => expect(page.connected()).toBe('Connected: 4 models.'));
    const select = page.root.querySelector<HTMLSelectElement>('section[aria-labelledby="server-heading"] select')!;
    const shown = [...select.children].map((child) =>
      child instanceof HTMLOptGroupElement ? `${child.label}: ${[...child.children].map((option) => option.textContent).join(', ')}` : child.textContent,
    );
    expect(shown).toEqual(["The server's first chat model (qwen3:1.7b)", 'qwen3:1.7b', 'llama3.2:3b', 'Embedding models, which cannot chat: nomic-embed-text:latest, all-minilm:l6-v2']);
  });

  it('connects to a server that asks for a key once it is typed, keeps it hidden, and saves it with the address; a key in the address is refused', async () => {
    const key = 'sk-local-7f3a';
    const locked = await server({ apiKey: key });
    const page = show({ openaiBaseUrl: locked.address });
    await answered(() => expect(page.failure()).toContain('asks for an API key'));
    const keyField = page.root.querySelector<HTMLInputElement>('section[aria-labelledby="server-heading"] input[type="password"]')!;
    expect(keyField.closest('label')?.textContent).toBe('API key, if the server asks for one');
    expect(page.failure()).toContain('Enter the key the server was started with under "API key", then press Connect.');

    keyField.value = ` ${key} `;
    keyField.dispatchEvent(new Event('input', { bubbles: true }));
    await answered(() => expect(page.root.querySelector('[data-testid="address-unsaved"]')?.textContent).toBe('The key is not saved yet: press Connect.'));
    // Heard as well as seen.
    expect(page.root.querySelector('[data-testid="address-unsaved"]')?.closest('[role="status"]')).not.toBeNull();
    await page.connect();
    await answered(() => expect(page.connected()).toBe('Connected: 2 models.'));
    expect(await page.stored.load()).toMatchObject({ openaiBaseUrl: locked.address, openaiApiKey: key });
    expect(page.root.querySelector('[data-testid="address-unsaved"]')).toBeNull();

    page.type(locked.address.replace('http://', `http://me:${key}@`));
    await page.connect();
    expect(page.failure()).toContain('The server address has a user name or key in it');
    expect(page.connected()).toBe('');
    expect((await page.stored.load()).openaiBaseUrl).toBe(locked.address);
  });

  it('keeps an address and a key typed and not saved yet when the person looks at another engine and comes back', async () => {
    const local = await server({ apiKey: 'sk-local-7f3a' });
    const page = show({ openaiBaseUrl: local.address });
    await answered(() => expect(page.failure()).toContain('asks for an API key'));
    const fields = () => page.root.querySelectorAll<HTMLInputElement>('section[aria-labelledby="server-heading"] input');
    const [addressField, keyField] = fields();
    keyField!.value = 'sk-local-7f3a';
    keyField!.dispatchEvent(new Event('input', { bubbles: true }));
    const typedAddress = local.address.replace('127.0.0.1', 'localhost');
    addressField!.value = typedAddress;
    addressField!.dispatchEvent(new Event('input', { bubbles: true }));
    await page.model.chooseEngine('webllm');
    await answered(() => expect(fields()).toHaveLength(0));
    await page.model.chooseEngine('openai');
    await answered(() => expect(fields()).toHaveLength(2));
    expect([fields()[0]!.value, fields()[1]!.value]).toEqual([typedAddress, 'sk-local-7f3a']);
    expect(page.root.querySelector('[data-testid="address-unsaved"]')?.textContent).toContain('Not saved yet: press Connect.');
  });

  it('says an address that answers with a web page is not the API, keeps the address in use, and drops the last trial\'s reply', async () => {
    const good = await server({ replies: ['Hello there! Nice to meet you.'] });
    const page = show({ openaiBaseUrl: good.address });
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    await page.connect();
    await answered(() => expect(buttonNamed(page.root, 'Try it')).toBeDefined());
    click(buttonNamed(page.root, 'Try it'));
    await answered(() => expect(page.trialText()).toContain('Hello there! Nice to meet you.'));

    const router = await server({ modelsAs: 'web-page' });
    page.type(router.address);
    await page.connect();
    await answered(() => expect(page.failure()).toContain(`The server at ${router.host} answered with a web page, not a list of models.`));
    expect(page.failure()).toContain("Check the address: it should be the server's OpenAI-compatible API, which usually ends in /v1.");
    expect(page.text()).not.toContain('Hello there!');
    expect(page.text()).not.toContain('has no models');
    expect(page.connected()).toBe('');
    expect((await page.stored.load()).openaiBaseUrl).toBe(good.address);

    // A new connection that works does not show the old server's reply either.
    page.type(good.address);
    await page.connect();
    await answered(() => expect(page.connected()).toBe('Connected: 2 models.'));
    expect(page.text()).not.toContain('Hello there!');
  });

  it.each(['not-json', 'no-list'] as const)('says a model list it cannot read (%s) is not the API\'s, not that the server has no models', async (modelsAs) => {
    const odd = await server({ modelsAs });
    // Nothing listens at the address in use (the page asks it as it opens).
    const page = show({ openaiBaseUrl: 'http://127.0.0.1:8/v1' });
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    page.type(odd.address);
    await page.connect();
    await answered(() => expect(page.failure()).toContain(`The server at ${odd.host} sent a reply this extension could not read.`));
    expect(page.failure()).toContain('usually ends in /v1');
    expect(page.failure()).toContain('then press Connect again');
    expect(page.text()).not.toContain('Model: ');
    expect((await page.stored.load()).openaiBaseUrl).toBe('http://127.0.0.1:8/v1');
  });

  it('connects to an address pasted with its endpoint, and says an address whose path has no model list is not the API, not to read the log', async () => {
    const two = await server();
    const one = await server({ models: ['qwen3:1.7b'] });
    const page = show({ openaiBaseUrl: 'http://127.0.0.1:8/v1' });
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    // As servers' docs show them: the endpoint, under the API root.
    page.type(`${two.address}/chat/completions`);
    await page.connect();
    await answered(() => expect(page.connected()).toBe('Connected: 2 models.'));
    expect((await page.stored.load()).openaiBaseUrl).toBe(two.address);
    page.type(`${one.address}/models`);
    await page.connect();
    await answered(() => expect(page.connected()).toBe('Connected: 1 model.'));
    expect((await page.stored.load()).openaiBaseUrl).toBe(one.address);
    const field = () => page.root.querySelector<HTMLInputElement>('section[aria-labelledby="server-heading"] input')!.value;
    expect(field()).toBe(one.address);
    // The same server pasted again saves nothing new: the field still shows the address in use.
    page.type(`${one.address}/chat/completions`);
    await page.connect();
    await answered(() => expect(page.connected()).toBe('Connected: 1 model.'));
    expect(field()).toBe(one.address);

    // Ollama's own API, not its OpenAI-compatible one: HTTP 404 at /api/models.
    page.type(two.address.replace(/\/v1$/, '/api'));
    await page.connect();
    await answered(() => expect(page.failure()).toContain(`The server at ${two.host} answered HTTP 404: page not found.`));
    expect(page.failure()).toContain("Check the address: it should be the server's OpenAI-compatible API, which usually ends in /v1.");
    expect(page.failure()).not.toContain("server's own log");
    expect((await page.stored.load()).openaiBaseUrl).toBe(one.address);
  });

  it('after HTTP 500, says to press Connect again, not to send a request', async () => {
    const failing = await server({ modelsAs: 'server-error' });
    const page = show({ openaiBaseUrl: failing.address });
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    await page.connect();
    await answered(() => expect(page.failure()).toContain(`The server at ${failing.host} answered HTTP 500: model failed to load: out of memory.`));
    expect(page.failure()).toContain("Check the server's own log, then press Connect again.");
    expect(page.failure()).not.toContain('send your request');
  });

  it('tells a server that takes the connection but does not answer apart from one that is not running', async () => {
    const busy = await server({ modelsAs: 'silent' });
    const page = show({ openaiBaseUrl: busy.address }, { connectMs: 300 });
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    await page.connect();
    await answered(() => expect(page.failure()).toContain(`The server at ${busy.host} took the connection but did not answer within 0.3 seconds.`));
    expect(page.failure()).toContain("It may be busy with another request, or still loading a model. Check the server's own log, then press Connect again.");
    expect(page.failure()).not.toContain('No server answers');
    expect(page.failure()).not.toContain('Start your local server');
  });

  it('leaves the page connected to the server saved where a Connect to another is cancelled', async () => {
    const saved = await server({ models: ['m-one', 'm-two'] });
    const silent = await server({ modelsAs: 'silent' });
    const page = show({ openaiBaseUrl: saved.address });
    await answered(() => expect(page.connected()).toBe('Connected: 2 models.'));
    page.type(silent.address);
    click(buttonNamed(page.root, 'Connect'));
    await answered(() => expect(buttonNamed(page.root, 'Cancel')).toBeDefined());
    click(buttonNamed(page.root, 'Cancel'));
    await answered(() => expect(page.connected()).toBe('Connected: 2 models.'));
    expect(buttonNamed(page.root, 'Try it')).toBeDefined();
    expect((await page.stored.load()).openaiBaseUrl).toBe(saved.address);
  });

  it('lists the models of a server another options page connected to, not those of the server before', async () => {
    const before = await server({ models: ['m-one'] });
    const after = await server({ models: ['m-two', 'm-three'] });
    const settings = sharedSettings({ engine: 'openai', openaiBaseUrl: before.address, model: 'm-one' });
    const page = showOptionsPage({ settings: settings.store, caches: createFakeCacheStorage().storage });
    await answered(() => expect(page.root.querySelector('[data-testid="server-connected"]')?.textContent).toBe('Connected: 1 model.'));
    // The other page's Connect: it saved the address, and the model it picked there.
    settings.changedElsewhere({ openaiBaseUrl: after.address, model: 'm-two' });
    await answered(() => expect(page.root.querySelector('[data-testid="server-connected"]')?.textContent).toBe('Connected: 2 models.'));
    expect(page.root.textContent).not.toContain('not on this server');
  });

  it('stops a Connect that waits for a silent server at Cancel or Escape, saving nothing, the fields free again and the focus on Connect', async () => {
    const silent = await server({ modelsAs: 'silent' });
    const page = show({ openaiBaseUrl: 'http://127.0.0.1:8/v1' });
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    page.type(silent.address);
    click(buttonNamed(page.root, 'Connect'));
    await answered(() => expect(buttonNamed(page.root, 'Cancel')?.getAttribute('aria-label')).toBe('Cancel connecting'));
    buttonNamed(page.root, 'Cancel')!.focus();
    click(buttonNamed(page.root, 'Cancel'));
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    expect(buttonNamed(page.root, 'Cancel')).toBeUndefined();
    expect(document.activeElement).toBe(buttonNamed(page.root, 'Connect'));
    expect(page.failure()).toBe('');
    const field = page.root.querySelector<HTMLInputElement>('section[aria-labelledby="server-heading"] input')!;
    expect(field.readOnly).toBe(false);
    expect((await page.stored.load()).openaiBaseUrl).toBe('http://127.0.0.1:8/v1');

    click(buttonNamed(page.root, 'Connect'));
    await answered(() => expect(buttonNamed(page.root, 'Cancel')).toBeDefined());
    field.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    expect(page.failure()).toBe('');
    expect((await page.stored.load()).openaiBaseUrl).toBe('http://127.0.0.1:8/v1');
  });

  it('shows the reply of Try it as the side panel would, without the thoughts, and says so when it had no words at all', async () => {
    const thinker = await server({ replies: ['<think>The person wants a greeting. Keep it short.</think>Hello there!', '  \n', '<tool_call>{"name": "greet", "arguments": {}}</tool_call>'], chunkSize: 5 });
    const page = show({ openaiBaseUrl: thinker.address });
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    await page.connect();
    await answered(() => expect(buttonNamed(page.root, 'Try it')).toBeDefined());
    click(buttonNamed(page.root, 'Try it'));
    await answered(() => expect(page.root.querySelector('[data-testid="trial-reply"]')?.textContent).toBe('Hello there!'));
    expect(page.trialText()).not.toContain('greeting');
    expect(page.trialText()).not.toContain('think>');

    const empty = 'The model answered, but with no words for the person: its reply was empty, or only thoughts or a tool call.';
    for (const _reply of ['whitespace', 'a tool call']) {
      await answered(() => expect(buttonNamed(page.root, 'Try it')).toBeDefined());
      click(buttonNamed(page.root, 'Try it'));
      await answered(() => expect(page.model.trial.value?.running).toBe(false));
      expect(page.trialText()).toContain(empty);
      expect(page.trialText()).toContain('Press Try it again; if it stays empty, pick another model.');
      expect(page.root.querySelector('[data-testid="trial-reply"]')).toBeNull();
    }
  });

  it('marks the field a failed Connect refused, described by why, until it is edited: the address, or the key the server refused', async () => {
    const key = 'sk-local-7f3a';
    const locked = await server({ apiKey: key });
    const page = show({ openaiBaseUrl: locked.address });
    // Asked as the page opens, the server refuses: no field was typed, none is marked.
    await answered(() => expect(page.failure()).toContain('asks for an API key'));
    const [addressField, keyField] = [...page.root.querySelectorAll<HTMLInputElement>('section[aria-labelledby="server-heading"] input')];
    const describedBy = (field: HTMLInputElement) =>
      (field.getAttribute('aria-describedby') ?? '').split(' ').filter(Boolean).map((id) => document.getElementById(id)?.textContent ?? '');
    expect(keyField!.hasAttribute('aria-invalid')).toBe(false);

    page.type('http://127.0.0.1:11434 /v1');
    await page.connect();
    expect(addressField!.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(addressField!)).toEqual([page.failure()]);
    expect(keyField!.hasAttribute('aria-invalid')).toBe(false);

    // Edited, it is no longer what Connect refused.
    page.type(locked.address);
    await answered(() => expect(addressField!.hasAttribute('aria-invalid')).toBe(false));
    await page.connect();
    expect(page.failure()).toContain('asks for an API key');
    expect(keyField!.getAttribute('aria-invalid')).toBe('true');
    expect(describedBy(keyField!)).toEqual([page.failure()]);
    expect(addressField!.hasAttribute('aria-invalid')).toBe(false);

    // A server that answers with an error of its own: neither field is what is wrong.
    const failing = await server({ modelsAs: 'server-error' });
    page.type(failing.address);
    await page.connect();
    expect(page.failure()).toContain('answered HTTP 500');
    expect(addressField!.hasAttribute('aria-invalid')).toBe(false);
    expect(keyField!.hasAttribute('aria-invalid')).toBe(false);
  });

  it('never says "Connected" beside the refusal of a mistyped address: that Connect failed like any other', async () => {
    const two = await server({ replies: ['Hello there!'] });
    const page = show({ openaiBaseUrl: two.address });
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    await page.connect();
    await answered(() => expect(page.connected()).toBe('Connected: 2 models.'));
    click(buttonNamed(page.root, 'Try it'));
    await answered(() => expect(page.trialText()).toContain('Hello there!'));
    page.type(`htp://${two.host}`);
    click(buttonNamed(page.root, 'Connect'));
    await answered(() => expect(page.failure()).toContain(`"htp://${two.host}" is not a server address.`));
    expect(page.connected()).toBe('');
    expect(page.text()).not.toContain('Hello there!');
    // The address in use stays the one that answered.
    expect((await page.stored.load()).openaiBaseUrl).toBe(two.address);
  });

  it('says in words a person can act on that Try it got no answer in time, never "signal timed out"', async () => {
    const loading = await server({ replies: ['unused'], stall: 'before-headers' });
    const page = show({ openaiBaseUrl: loading.address }, { trialReplyMs: 300 });
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    await page.connect();
    await answered(() => expect(buttonNamed(page.root, 'Try it')).toBeDefined());
    click(buttonNamed(page.root, 'Try it'));
    await answered(() => expect(page.trialText()).toContain(`The server at ${loading.host} did not start answering within 0.3 seconds.`));
    expect(page.trialText()).toContain("It may still be loading the model, or be busy with another request. Check the server's own log, then press Try it again.");
    expect(page.trialText()).not.toContain('signal timed out');
    expect(buttonNamed(page.root, 'Cancel')).toBeUndefined();
  });

  it("drops the last trial's reply or failure when another model is picked, and stops a trial still running", async () => {
    const two = await server({ replies: ['Hello there!'] });
    const page = show({ openaiBaseUrl: two.address, model: 'mistral:7b' });
    const pick = (model: string) => {
      const select = page.root.querySelector<HTMLSelectElement>('section[aria-labelledby="server-heading"] select')!;
      select.value = model;
      select.dispatchEvent(new Event('change', { bubbles: true }));
    };
    await answered(() => expect(buttonNamed(page.root, 'Try it')).toBeDefined());
    click(buttonNamed(page.root, 'Try it'));
    await answered(() => expect(page.trialText()).toContain(`The server at ${two.host} has no model called "mistral:7b".`));
    pick('llama3.2:3b');
    await answered(async () => expect((await page.stored.load()).model).toBe('llama3.2:3b'));
    expect(page.trialText()).toBe('Try it');

    // A good trial vouches only for the model it tried.
    click(buttonNamed(page.root, 'Try it'));
    await answered(() => expect(page.trialText()).toContain('Hello there!'));
    pick('qwen3:1.7b');
    await answered(async () => expect((await page.stored.load()).model).toBe('qwen3:1.7b'));
    expect(page.trialText()).toBe('Try it');

    // One still waiting for its reply is stopped: the reply would land under the new pick.
    const loading = await server({ replies: ['Hello from the first model!'], stall: 'before-headers' });
    page.type(loading.address);
    await page.connect();
    click(buttonNamed(page.root, 'Try it'));
    await answered(() => expect(loading.requests).toHaveLength(1));
    pick('llama3.2:3b');
    await answered(() => expect(loading.closedByClient).toHaveLength(1));
    expect(page.trialText()).toBe('Try it');
  });

  it('says what to do on this page when a trial\'s reply is cut off or does not fit the model\'s context, not to start a new chat', async () => {
    const rambling = await server({ replies: ['Hello there! '.repeat(20)], lengthLimitTokens: 5 });
    const page = show({ openaiBaseUrl: rambling.address, model: 'llama3.2:3b' });
    await answered(() => expect(buttonNamed(page.root, 'Try it')).toBeDefined());
    click(buttonNamed(page.root, 'Try it'));
    await answered(() => expect(page.trialText()).toContain("The model's reply reached the server's length limit or the end of the model's context and was cut off."));
    expect(page.trialText()).toContain('Press Try it again; if it keeps happening, pick another model.');
    expect(page.trialText()).not.toMatch(/new chat|ask for something shorter/i);

    // llama.cpp started with a context too small for even the trial's prompt.
    const tiny = await server({ replies: ['unused'], contextTokens: 10 });
    page.type(tiny.address);
    await page.connect();
    click(buttonNamed(page.root, 'Try it'));
    await answered(() => expect(page.trialText()).toContain('This conversation no longer fits in the 10-token context of "llama3.2:3b".'));
    expect(page.trialText()).toContain('Even this short trial does not fit: pick a model with more context, or another engine.');
    expect(page.trialText()).not.toMatch(/new chat|in the options/i);
  });

  /** A trial sent to a server that never answers: it runs until cancelled. */
  async function trialUnderWay() {
    const loading = await server({ replies: ['unused'], stall: 'before-headers' });
    const page = show({ openaiBaseUrl: loading.address });
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    await page.connect();
    await answered(() => expect(buttonNamed(page.root, 'Try it')).toBeDefined());
    click(buttonNamed(page.root, 'Try it'));
    await answered(() => expect(buttonNamed(page.root, 'Cancel')).toBeDefined());
    await answered(() => expect(loading.requests).toHaveLength(1));
    return { loading, page };
  }

  it('stops a trial on Cancel, says so, and gives the focus back to Try it', async () => {
    const { loading, page } = await trialUnderWay();
    expect(buttonNamed(page.root, 'Cancel')?.getAttribute('aria-label')).toBe('Cancel the trial');
    expect(buttonNamed(page.root, 'Trying…')).toBeDefined();

    buttonNamed(page.root, 'Cancel')!.focus();
    click(buttonNamed(page.root, 'Cancel'));
    await answered(() => expect(buttonNamed(page.root, 'Try it')).toBeDefined());
    expect(page.trialText()).toContain('Cancelled.');
    expect(buttonNamed(page.root, 'Cancel')).toBeUndefined();
    expect(page.root.querySelector('[data-testid="trial"] [role="alert"]')).toBeNull();
    expect(document.activeElement).toBe(buttonNamed(page.root, 'Try it'));
    await answered(() => expect(loading.closedByClient).toHaveLength(1));
  });

  it("counts a trial's wait for its first word in seconds beside Cancel, out of what is read out", async () => {
    const { page } = await trialUnderWay();
    await answered(() => expect(page.root.querySelector('[data-testid="trial-wait"]')?.textContent).toMatch(/^[1-9]\d* s$/));
    expect(page.root.querySelector('[data-testid="trial-wait"]')?.closest('[aria-live]')).toBeNull();
    click(buttonNamed(page.root, 'Cancel'));
    await answered(() => expect(buttonNamed(page.root, 'Try it')).toBeDefined());
    expect(page.root.querySelector('[data-testid="trial-wait"]')).toBeNull();
  });

  it('stops a trial on Escape, wherever the focus is, as Escape stops a run in the side panel', async () => {
    const { loading, page } = await trialUnderWay();
    expect(buttonNamed(page.root, 'Cancel')?.getAttribute('aria-keyshortcuts')).toBe('Escape');

    const address = page.root.querySelector<HTMLInputElement>('section[aria-labelledby="server-heading"] input')!;
    address.focus();
    address.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape', bubbles: true, cancelable: true }));
    await answered(() => expect(page.trialText()).toContain('Cancelled.'));
    expect(buttonNamed(page.root, 'Cancel')).toBeUndefined();
    // The focus stays where the person had it.
    expect(document.activeElement).toBe(address);
    await answered(() => expect(loading.closedByClient).toHaveLength(1));
  });

  it('says under the address that a server elsewhere gets the page\'s text and what its tools return, and over plain http who else can read it', async () => {
    // Nothing listens at these addresses: the note is about the address, said before any Connect.
    const page = show({ openaiBaseUrl: 'http://127.0.0.1:8/v1' });
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    const note = () => page.root.querySelector('[data-testid="server-elsewhere"]');
    const field = () => page.root.querySelector<HTMLInputElement>('section[aria-labelledby="server-heading"] input')!;
    const shown = async (address: string) => {
      page.type(address);
      await new Promise((resolve) => setTimeout(resolve, 0));
      return note()?.textContent ?? null;
    };
    expect(note()).toBeNull();
    for (const here of ['localhost:11434', 'http://127.0.0.1:8080/v1', 'http://[::1]:1234', 'http://ollama.localhost']) expect(await shown(here), here).toBeNull();

    expect(await shown('http://gpu-box.lan:11434')).toBe(
      "gpu-box.lan is not this computer: each request sends it the page's text and what the page's tools return. " +
        'The address is plain http, so anyone on the network between this computer and the server can read it too, and the API key, if one is set.',
    );
    // The field says it to a screen reader too.
    expect(document.getElementById(field().getAttribute('aria-describedby') ?? '')).toBe(note());
    expect(await shown('192.168.1.20:11434')).toContain('192.168.1.20 is not this computer');
    expect(await shown('https://llm.example.com/v1')).toBe("llm.example.com is not this computer: each request sends it the page's text and what the page's tools return.");
    expect(await shown('localhost:11434')).toBeNull();
    expect(field().hasAttribute('aria-describedby')).toBe(false);
  });

  it('keeps saying so for the server elsewhere in use while the field holds no address', async () => {
    const { root } = showOptionsPage({
      settings: memorySettings({ engine: 'openai', openaiBaseUrl: 'http://gpu-box.lan:11434/v1' }),
      caches: createFakeCacheStorage().storage,
      fetch: async () => Promise.reject(new TypeError('Failed to fetch')),
    });
    const note = () => root.querySelector('[data-testid="server-elsewhere"]')?.textContent;
    await answered(() => expect(note()).toContain('gpu-box.lan is not this computer'));
    const field = root.querySelector<HTMLInputElement>('section[aria-labelledby="server-heading"] input')!;
    field.value = 'olama';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(note()).toContain('gpu-box.lan is not this computer');
  });

  it('counts one token as "1 token"', async () => {
    const short = await server({ replies: ['Hi.'] });
    const page = show({ openaiBaseUrl: short.address });
    await answered(() => expect(buttonNamed(page.root, 'Connect')).toBeDefined());
    await page.connect();
    await answered(() => expect(buttonNamed(page.root, 'Try it')).toBeDefined());
    click(buttonNamed(page.root, 'Try it'));
    await answered(() => expect(page.root.querySelector('[data-testid="trial-speed"]')?.textContent).toMatch(/ · 1 token$/));
    expect(page.trialText()).not.toMatch(/\b1 tokens\b/);
  });
});
