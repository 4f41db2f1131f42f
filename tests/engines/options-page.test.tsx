// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Settings } from '../../lib/settings';
import { buttonLabelled, buttonNamed, click, memorySettings, showOptionsPage as show } from '../options/support/show-options-page';
import { deleteStoredModels } from '../../lib/engines/webllm/model-storage';
import { createFakeCacheStorage } from './support/fake-cache-storage';
import { fakeGpu } from './support/fake-gpu';
import { startFakeOllama } from './support/fake-ollama-server';
import { installFakeLanguageModel, type FakeLanguageModelLog } from './support/install-fake-language-model';
import type { DownloadProgressEvent, LanguageModelApi } from '../../lib/engines/prompt-api/prompt-api-types';

const megabyte = 1024 * 1024;

/** The local server's address field, and typing into it as a person does. */
function addressField(root: Element) {
  const field = root.querySelector<HTMLInputElement>('section[aria-labelledby="server-heading"] input');
  const type = (text: string) => {
    field!.value = text;
    field!.dispatchEvent(new Event('input', { bubbles: true }));
  };
  return { field, type };
}

function twoStoredModels() {
  const fake = createFakeCacheStorage();
  const qwen = 'https://huggingface.co/mlc-ai/Qwen3-1.7B-q4f32_1-MLC/resolve/main/';
  const llama = 'https://huggingface.co/mlc-ai/Llama-3.2-1B-Instruct-q4f32_1-MLC/resolve/main/';
  fake.put('webllm/model', `${qwen}tensor-cache.json`, 0, '{"records": [{"dataPath": "params_shard_0.bin"}]}');
  fake.put('webllm/model', `${qwen}params_shard_0.bin`, 1100 * megabyte);
  fake.put('webllm/model', `${llama}tensor-cache.json`, 0, '{"records": [{"dataPath": "params_shard_0.bin"}, {"dataPath": "params_shard_1.bin"}]}');
  fake.put('webllm/model', `${llama}params_shard_0.bin`, 300 * megabyte);
  return fake;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the options page', () => {
  it('on a computer without WebGPU, says WebLLM cannot run here beside it, recommends no model, and points to the engines above', async () => {
    const { root, text } = show({ settings: memorySettings(), caches: createFakeCacheStorage().storage, gpu: fakeGpu({ noAdapter: true }) });
    await vi.waitFor(() => expect(root.querySelector('[data-testid="webgpu-status"]')?.textContent).toContain('WebLLM cannot run here.'));
    // Found by the page itself at each opening: said politely, in a region mounted before, not as an alert.
    expect(root.querySelector('[role="status"] > [data-testid="webgpu-status"]')).not.toBeNull();
    expect(root.querySelector('[role="alert"]')).toBeNull();
    await vi.waitFor(() => expect(text()).toContain('No WebLLM model is stored yet.'));
    expect(text()).toContain('It cannot run on this computer: WebGPU is turned off or found no usable GPU on this computer.');
    expect(text()).toContain('Use Chrome 124 or later with an up-to-date graphics driver (chrome://gpu should list WebGPU as hardware accelerated), or choose another engine above');
    expect(text()).not.toContain('in the options');
    expect(root.querySelector('select option[value=""]')?.textContent).toBe('None: WebLLM cannot run here');
    // No model can be picked where none can run, nor its decoding set.
    expect(root.querySelector<HTMLSelectElement>('[data-testid="webllm-model"]')?.disabled).toBe(true);
    expect(root.querySelector<HTMLInputElement>('[data-testid="constrained-decoding"]')?.disabled).toBe(true);
    expect(root.querySelector('[data-testid="recommendation-reason"]')).toBeNull();
    expect(text()).not.toContain('the first request');
  });

  it('lists the stored models with their sizes and the quota, and deletes one', async () => {
    const fake = twoStoredModels();
    const { root, text } = show({ settings: memorySettings(), caches: fake.storage });
    await vi.waitFor(() => expect(root.querySelectorAll('[data-testid="stored-model"]')).toHaveLength(2));
    const rows = [...root.querySelectorAll('[data-testid="stored-model"]')].map((row) => row.textContent);
    expect(rows[0]).toContain('Qwen3 1.7B (q4f32)1.1 GB');
    expect(rows[1]).toContain('Llama 3.2 1B (q4f32)300 MBincomplete download');
    expect(root.querySelector('[data-testid="storage-quota"]')?.textContent).toBe(
      'This extension uses 1.4 GB of the 100.0 GB Chrome allows it; 98.6 GB left.',
    );

    // One model is a gigabyte or more: deleting it asks first, and No keeps it.
    click(buttonLabelled(root, 'Delete Qwen3 1.7B (q4f32)'));
    await vi.waitFor(() => expect(buttonLabelled(root, 'Yes, delete Qwen3 1.7B (q4f32)')).not.toBeNull());
    click([...root.querySelectorAll('button')].find((button) => button.textContent === 'No'));
    await vi.waitFor(() => expect(buttonLabelled(root, 'Delete Qwen3 1.7B (q4f32)')).not.toBeNull());
    expect(root.querySelectorAll('[data-testid="stored-model"]')).toHaveLength(2);
    click(buttonLabelled(root, 'Delete Qwen3 1.7B (q4f32)'));
    await vi.waitFor(() => expect(buttonLabelled(root, 'Yes, delete Qwen3 1.7B (q4f32)')).not.toBeNull());
    click(buttonLabelled(root, 'Yes, delete Qwen3 1.7B (q4f32)'));
    await vi.waitFor(() => expect(root.querySelectorAll('[data-testid="stored-model"]')).toHaveLength(1));
    expect(text()).not.toContain('Qwen3 1.7B (q4f32)1.1 GB');

    click([...root.querySelectorAll('button')].find((button) => button.textContent === 'Delete all'));
    await vi.waitFor(() => expect(text()).toContain('Delete the one model (300 MB)?'));
    click([...root.querySelectorAll('button')].find((button) => button.textContent === 'Yes, delete all'));
    await vi.waitFor(() => expect(text()).toContain('No WebLLM model is stored yet'));
  });

  it('has the service worker delete a model (it stops a load of it first), and shows Deleting… until it has', async () => {
    const fake = twoStoredModels();
    const asked: (readonly string[] | undefined)[] = [];
    let workerDone = () => {};
    const deleteModels = async (baseUrls: readonly string[] | undefined) => {
      asked.push(baseUrls);
      await new Promise<void>((resolve) => (workerDone = resolve));
      await deleteStoredModels(baseUrls, fake.storage);
    };
    // The side panels hear of each deletion once it is done, to say what the first request downloads.
    const modelsChanged = vi.fn(async () => {});
    const { root, text } = show({ settings: memorySettings(), caches: fake.storage, deleteModels, modelsChanged });
    await vi.waitFor(() => expect(root.querySelectorAll('[data-testid="stored-model"]')).toHaveLength(2));
    click(buttonLabelled(root, 'Delete Qwen3 1.7B (q4f32)'));
    await vi.waitFor(() => expect(buttonLabelled(root, 'Yes, delete Qwen3 1.7B (q4f32)')).not.toBeNull());
    click(buttonLabelled(root, 'Yes, delete Qwen3 1.7B (q4f32)'));
    await vi.waitFor(() => expect(asked).toEqual([['https://huggingface.co/mlc-ai/Qwen3-1.7B-q4f32_1-MLC/resolve/main/']]));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(root.querySelectorAll('[data-testid="stored-model"]')).toHaveLength(2);
    expect(text()).toContain('Deleting…');
    expect(modelsChanged).not.toHaveBeenCalled();
    workerDone();
    await vi.waitFor(() => expect(root.querySelectorAll('[data-testid="stored-model"]')).toHaveLength(1));
    expect(modelsChanged).toHaveBeenCalledTimes(1);
    // Said, as removing a site is: the row went from under a screen reader's focus, which is on the heading.
    expect(root.querySelector('[data-testid="storage-status"]')?.getAttribute('role')).toBe('status');
    expect(root.querySelector('[data-testid="storage-status"]')?.textContent).toBe('Deleted Qwen3 1.7B (q4f32).');

    click(buttonNamed(root, 'Delete all'));
    await vi.waitFor(() => expect(buttonNamed(root, 'Yes, delete all')).toBeDefined());
    click(buttonNamed(root, 'Yes, delete all'));
    await vi.waitFor(() => expect(asked).toHaveLength(2));
    expect(asked[1]).toBeUndefined();
    expect(text()).toContain('Deleting…');
    expect(buttonNamed(root, 'Delete all')).toBeUndefined();
    workerDone();
    await vi.waitFor(() => expect(text()).toContain('No WebLLM model is stored yet'));
    expect(modelsChanged).toHaveBeenCalledTimes(2);
    expect(root.querySelector('[data-testid="storage-status"]')?.textContent).toBe('Deleted every stored model.');
  });

  it('recommends a q4f32 model for a GPU without shader-f16, and offers Chrome\'s model only where it can run', async () => {
    const { root } = show({ settings: memorySettings(), caches: createFakeCacheStorage().storage });
    await vi.waitFor(() => expect(root.querySelector('[data-testid="shader-f16"]')?.textContent).toBe('no'));
    expect(root.querySelector('select')?.selectedOptions[0]?.textContent).toBe('Default: Qwen3 1.7B (q4f32)');
    expect(root.querySelector('[data-testid="model-id"]')?.textContent).toBe('Qwen3-1.7B-q4f32_1-MLC');
    const f16Option = root.querySelector<HTMLOptionElement>('option[value="Qwen3-4B-q4f16_1-MLC"]');
    expect(f16Option?.disabled).toBe(true);
    const promptApi = root.querySelector<HTMLInputElement>('input[value="prompt-api"]');
    expect(promptApi?.disabled).toBe(true);
    expect(promptApi?.closest('label')?.textContent).toContain('cannot run on this computer');
    // And what Chrome asks of a computer, so the person can tell whether theirs could.
    expect(promptApi?.closest('label')?.textContent).toContain('22 GB free on the disk of Chrome\'s profile');
  });

  it('connects to a local server and lists its models', async () => {
    const server = await startFakeOllama({ replies: [] });
    // The model was picked on another server, which this one does not have.
    const settings = memorySettings({ engine: 'openai', openaiBaseUrl: server.address, model: 'mistral:7b' });
    const { root, model } = show({ settings, caches: createFakeCacheStorage().storage });
    try {
      await vi.waitFor(() => expect(root.querySelector('#server-heading')).not.toBeNull());
      // An edit is not kept until Connect, and the page says so; the same address without /v1 is no edit.
      const { type } = addressField(root);
      type('http://127.0.0.1:1');
      await vi.waitFor(() => expect(root.querySelector('[data-testid="address-unsaved"]')?.textContent).toContain(`uses ${server.address}`));
      type(server.address.replace(/\/v1$/, ''));
      await vi.waitFor(() => expect(root.querySelector('[data-testid="address-unsaved"]')).toBeNull());
      click([...root.querySelectorAll('button')].find((button) => button.textContent === 'Connect'));
      await vi.waitFor(() => expect(model.serverState.value).toBe('connected'));
      expect((await settings.load()).openaiBaseUrl).toBe(server.address);
      await vi.waitFor(() => expect(root.querySelector('option[value="llama3.2:3b"]')).not.toBeNull());
      await vi.waitFor(async () => expect((await settings.load()).model).toBe(''));
    } finally {
      await server.close();
    }
  });

  it('keeps what the person types into the address as soon as the field shows, before the page has settled', async () => {
    const settings = memorySettings({ engine: 'openai', openaiBaseUrl: 'http://localhost:11434/v1' });
    const { root } = show({ settings, caches: createFakeCacheStorage().storage, fetch: (async () => new Response('{"data":[]}')) as typeof fetch });
    await vi.waitFor(() => expect(addressField(root).field).not.toBeNull(), { interval: 1 });
    addressField(root).type('http://localhost:11435');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(addressField(root).field?.value).toBe('http://localhost:11435');
  });

  it('keeps the address in use when the server at a new one does not answer, and says it is not saved', async () => {
    const settings = memorySettings({ engine: 'openai', openaiBaseUrl: 'http://localhost:11434/v1', model: 'llama3.2:3b' });
    const { root, model } = show({
      settings,
      caches: createFakeCacheStorage().storage,
      fetch: (async () => {
        throw new TypeError('Failed to fetch');
      }) as typeof fetch,
    });
    await vi.waitFor(() => expect(addressField(root).field).not.toBeNull());
    addressField(root).type('http://localhost:11435');
    click([...root.querySelectorAll('button')].find((button) => button.textContent === 'Connect'));
    await vi.waitFor(() => expect(model.serverFailure.value).toBeDefined());
    expect(await settings.load()).toMatchObject({ openaiBaseUrl: 'http://localhost:11434/v1', model: 'llama3.2:3b' });
    await vi.waitFor(() => expect(root.querySelector('[data-testid="address-unsaved"]')?.textContent).toContain('uses http://localhost:11434/v1'));
  });

  it('takes an address typed as host:port, with no browser check of its own, and drops the last failure once it is edited', async () => {
    const server = await startFakeOllama({ replies: [] });
    // Nothing listens at the address in use (the page asks it as it opens).
    const settings = memorySettings({ engine: 'openai', openaiBaseUrl: 'http://127.0.0.1:8/v1' });
    const { root, model } = show({ settings, caches: createFakeCacheStorage().storage });
    try {
      await vi.waitFor(() => expect(addressField(root).field).not.toBeNull());
      const { field, type } = addressField(root);
      // Chromium refuses "127.0.0.1:11555" in a url field before the page hears of it.
      expect(field?.type).toBe('text');
      const connect = () => click([...root.querySelectorAll('button')].find((button) => button.textContent === 'Connect'));
      const failureBox = () => root.querySelector('section[aria-labelledby="server-heading"] [role="alert"]');

      type('olama');
      connect();
      await vi.waitFor(() => expect(failureBox()?.textContent).toContain('"olama" is not a server address.'));
      // The failure was about "olama": once the address changes, it no longer describes it.
      const hostAndPort = new URL(server.address).host;
      type(hostAndPort);
      await vi.waitFor(() => expect(failureBox()).toBeNull());
      expect(root.querySelector('[data-testid="address-unsaved"]')?.textContent).toContain('Not saved yet: press Connect.');
      connect();
      await vi.waitFor(() => expect(model.serverState.value).toBe('connected'));
      expect((await settings.load()).openaiBaseUrl).toBe(`http://${hostAndPort}/v1`);
      await vi.waitFor(() => expect(root.querySelector('[data-testid="address-unsaved"]')).toBeNull());
      expect(failureBox()).toBeNull();
    } finally {
      await server.close();
    }
  });

  it('says how to start a server that does not answer in plain words, without sending the person to the options they are on', async () => {
    const { root, model } = show({
      settings: memorySettings({ engine: 'openai', openaiBaseUrl: 'http://localhost:11434/v1' }),
      caches: createFakeCacheStorage().storage,
      fetch: (async () => {
        throw new TypeError('Failed to fetch');
      }) as typeof fetch,
    });
    await vi.waitFor(() => expect(addressField(root).field).not.toBeNull());
    click([...root.querySelectorAll('button')].find((button) => button.textContent === 'Connect'));
    // The answer to Connect, not to the question the page asked as it opened (in the same words).
    await vi.waitFor(() => expect(model.serverFailure.value).toBeDefined());
    const failureBox = () => root.querySelector('section[aria-labelledby="server-heading"] [role="alert"]')?.textContent ?? '';
    await vi.waitFor(() => expect(failureBox()).toContain('No server answers at http://localhost:11434/v1.'));
    expect(failureBox()).toContain('for Ollama, run ollama serve');
    expect(failureBox()).toContain('correct the address, then press Connect again');
    expect(failureBox()).not.toContain('`');
    expect(failureBox()).not.toContain('options');
  });

  it('names the engines as the side panel and the trace viewer do, and shows Replay only while it is the saved engine', async () => {
    const names = (root: Element) => [...root.querySelectorAll('input[name="engine"]')].map((radio) => radio.closest('label')?.querySelector('strong')?.textContent);
    const page = show({ settings: memorySettings(), caches: createFakeCacheStorage().storage });
    await vi.waitFor(() => expect(page.root.querySelector('input[name="engine"]')).not.toBeNull());
    expect(names(page.root)).toEqual(['WebLLM (on this GPU)', "Chrome's built-in model", 'Local server (OpenAI-compatible)']);
    // A server that is not this computer is named by its host, as the side panel names it.
    const elsewhere = show({ settings: memorySettings({ openaiBaseUrl: 'http://gpu-box.lan:11434/v1' }), caches: createFakeCacheStorage().storage });
    await vi.waitFor(() => expect(names(elsewhere.root)).toContain('Server at gpu-box.lan (OpenAI-compatible)'));
    const replaying = show({ settings: memorySettings({ engine: 'replay' }), caches: createFakeCacheStorage().storage });
    await vi.waitFor(() => expect(names(replaying.root)).toContain('Replay'));
    expect(replaying.root.querySelector('input[value="replay"]')?.closest('label')?.querySelector('.muted')?.textContent).toBe('Plays back recorded replies, for tests and trace replays.');
  });

  it('groups the engine radios under "Engine", each named by its engine and described by what it is', async () => {
    const page = show({ settings: memorySettings({ engine: 'openai' }), caches: createFakeCacheStorage().storage });
    await vi.waitFor(() => expect(page.root.querySelector('input[name="engine"]')).not.toBeNull());
    const group = page.root.querySelector('[role="radiogroup"]')!;
    expect(document.getElementById(group.getAttribute('aria-labelledby')!)?.textContent).toBe('Engine');
    const radio = group.querySelector<HTMLInputElement>('input[value="openai"]')!;
    expect(document.getElementById(radio.getAttribute('aria-labelledby')!)?.textContent).toBe('Local server (OpenAI-compatible)');
    expect(document.getElementById(radio.getAttribute('aria-describedby')!)?.textContent).toBe('A model server you run: Ollama, LM Studio or llama.cpp.');
    expect(group.querySelectorAll('input[name="engine"]')).toHaveLength(3);
  });

  it('heads the WebLLM section with the engine\'s name, not the "Model" its field is labelled', async () => {
    const { root } = show({ settings: memorySettings(), caches: createFakeCacheStorage().storage });
    await vi.waitFor(() => expect(root.querySelector('#webllm-heading')).not.toBeNull());
    const section = root.querySelector('section[aria-labelledby="webllm-heading"]')!;
    expect(root.querySelector('#webllm-heading')?.textContent).toBe('WebLLM');
    expect(section.querySelector('label.field > span')?.textContent).toBe('Model');
  });

  it('without WebGPU, keeps WebLLM selectable while it is the saved engine, and once another is chosen says beside it why it cannot be picked', async () => {
    // The server engine's page asks its address as it shows: nothing listens there.
    const settings = memorySettings({ engine: 'webllm', openaiBaseUrl: 'http://127.0.0.1:8/v1' });
    const { root } = show({ settings, caches: createFakeCacheStorage().storage, gpu: fakeGpu({ noAdapter: true }) });
    const webLlm = () => root.querySelector<HTMLInputElement>('input[name="engine"][value="webllm"]')!;
    await vi.waitFor(() => expect(root.querySelector('[data-testid="webgpu-status"]')?.textContent).toContain('WebLLM cannot run here.'));
    expect(webLlm().disabled).toBe(false);
    expect(webLlm().checked).toBe(true);

    click(root.querySelector('input[name="engine"][value="openai"]'));
    await vi.waitFor(async () => expect((await settings.load()).engine).toBe('openai'));
    await vi.waitFor(() => expect(webLlm().disabled).toBe(true));
    // Its own section, which said what to do, is gone: the words beside the choice say it now.
    expect(root.querySelector('[data-testid="webgpu-status"]')).toBeNull();
    expect(webLlm().closest('label')?.querySelector('.muted')?.textContent).toBe(
      'It cannot run on this computer: WebGPU is turned off or found no usable GPU on this computer. ' +
        'Use Chrome 124 or later with an up-to-date graphics driver (chrome://gpu should list WebGPU as hardware accelerated).',
    );
  });

  it('keeps each engine\'s model: going through the engines, as arrow keys do, brings the picked model back', async () => {
    const settings = memorySettings({ engine: 'openai', openaiBaseUrl: 'http://127.0.0.1:8/v1', model: 'llama3.1:8b' });
    const { root } = show({ settings, caches: createFakeCacheStorage().storage });
    const choose = async (engine: Settings['engine']) => {
      click(root.querySelector(`input[name="engine"][value="${engine}"]`));
      await vi.waitFor(async () => expect((await settings.load()).engine).toBe(engine));
    };
    await vi.waitFor(() => expect(root.querySelector('input[name="engine"][value="webllm"]')).not.toBeNull());
    await choose('webllm');
    // WebLLM had no pick of its own: its default for this machine.
    expect((await settings.load()).model).toBe('');
    await settings.update({ model: 'Qwen3-1.7B-q4f16_1-MLC' });
    await choose('openai');
    expect((await settings.load()).model).toBe('llama3.1:8b');
    await choose('webllm');
    expect((await settings.load()).model).toBe('Qwen3-1.7B-q4f16_1-MLC');
    // Faster than a save: each choice is made in turn, and the last one holds.
    click(root.querySelector('input[name="engine"][value="openai"]'));
    click(root.querySelector('input[name="engine"][value="webllm"]'));
    click(root.querySelector('input[name="engine"][value="openai"]'));
    await vi.waitFor(async () => expect(await settings.load()).toMatchObject({ engine: 'openai', model: 'llama3.1:8b' }));
  });

  it('downloads Chrome\'s model once however often Download is pressed, and drops the bar when done', async () => {
    installFakeLanguageModel({ availability: 'downloadable', replies: [] });
    const fake = globalThis as unknown as { LanguageModel: LanguageModelApi; fakeLanguageModelLog: FakeLanguageModelLog };
    const modelsChanged = vi.fn(async () => {});
    const { root } = show({ settings: memorySettings({ engine: 'prompt-api' }), caches: createFakeCacheStorage().storage, languageModel: fake.LanguageModel, modelsChanged });
    await vi.waitFor(() => expect(root.querySelector('[data-testid="prompt-api-state"]')?.textContent).toContain('can download'));
    const download = () => [...root.querySelectorAll('button')].find((button) => /^Download/.test(button.textContent ?? ''));
    click(download());
    click(download());
    await vi.waitFor(() => expect(root.querySelector('[data-testid="prompt-api-state"]')?.textContent).toContain('ready'));
    expect(fake.fakeLanguageModelLog.creates).toHaveLength(1);
    expect(root.querySelector('progress')).toBeNull();
    // The side panels, which said "Press Download in the options first", hear of it.
    expect(modelsChanged).toHaveBeenCalledTimes(1);
  });

  it("lets the person stop waiting for a download of Chrome's model that stalls, and says Chrome may finish it", async () => {
    // Chrome's create() heeds no signal here, and its download still tells of its progress later.
    let progressLater: ((event: DownloadProgressEvent) => void) | undefined;
    const languageModel: LanguageModelApi = {
      availability: async () => 'downloadable',
      create: (options) => {
        options?.monitor?.({ addEventListener: (_type, listener) => (progressLater = listener) });
        return new Promise(() => {});
      },
    };
    const { root } = show({ settings: memorySettings({ engine: 'prompt-api' }), caches: createFakeCacheStorage().storage, languageModel });
    const button = (name: RegExp) => [...root.querySelectorAll('button')].find((candidate) => name.test(candidate.textContent ?? ''));
    await vi.waitFor(() => expect(button(/^Download$/)).toBeDefined());
    click(button(/^Download$/));
    await vi.waitFor(() => expect(button(/^Stop waiting$/)).toBeDefined());
    // While it downloads, the page says so, not that Chrome can.
    expect(root.querySelector('[data-testid="prompt-api-state"]')?.textContent).toBe('Chrome is downloading its built-in model.');
    click(button(/^Stop waiting$/));
    await vi.waitFor(() => expect(root.querySelector('[data-testid="prompt-api-cancelled"]')).not.toBeNull());
    expect(root.querySelector('[data-testid="prompt-api-cancelled"]')?.textContent).toContain('Chrome fetches its model itself and may finish it anyway');
    expect(button(/^Download$/)?.getAttribute('aria-disabled')).toBeNull();
    expect(root.querySelector('progress')).toBeNull();
    expect(root.querySelector('[role="alert"]')).toBeNull();
    // The download Chrome goes on with moves no bar beside "Stopped waiting".
    progressLater!({ loaded: 0.5, total: 1 } as DownloadProgressEvent);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(root.querySelector('progress')).toBeNull();
  });

  it("says only that Chrome's model is ready where the download came and a later step of it failed", async () => {
    let availability: 'downloadable' | 'available' = 'downloadable';
    const languageModel: LanguageModelApi = {
      availability: async () => availability,
      create: async () => {
        availability = 'available';
        throw new DOMException('Other generic failures occurred.', 'UnknownError');
      },
    };
    const { root } = show({ settings: memorySettings({ engine: 'prompt-api' }), caches: createFakeCacheStorage().storage, languageModel });
    const download = () => [...root.querySelectorAll('button')].find((candidate) => candidate.textContent === 'Download');
    await vi.waitFor(() => expect(download()).toBeDefined());
    click(download());
    await vi.waitFor(() => expect(root.querySelector('[data-testid="prompt-api-state"]')?.textContent).toContain('ready'));
    expect(root.querySelector('section[aria-labelledby="prompt-api-heading"] [role="alert"]')).toBeNull();
  });

  it('says what to do on this page when Chrome\'s model fails while answering Try it: press it again, not send a request or start a new chat', async () => {
    installFakeLanguageModel({ availability: 'available', replies: [], failWith: { name: 'UnknownError', message: 'The model crashed.' } });
    const fake = globalThis as unknown as { LanguageModel: LanguageModelApi };
    const { root } = show({ settings: memorySettings({ engine: 'prompt-api' }), caches: createFakeCacheStorage().storage, languageModel: fake.LanguageModel });
    const tryIt = () => [...root.querySelectorAll('button')].find((button) => button.textContent === 'Try it');
    await vi.waitFor(() => expect(tryIt()).toBeDefined());
    click(tryIt());
    const failure = () => root.querySelector('[data-testid="trial"] [role="alert"]')?.textContent ?? '';
    await vi.waitFor(() => expect(failure()).toContain("Chrome's built-in model failed to answer: The model crashed."));
    expect(failure()).toContain('Press Try it again; if it keeps failing, pick another engine above.');
    expect(failure()).not.toMatch(/send your request|new chat/i);
  });

  it('stores what the person sets in the behaviour section, clamping numbers to their range', async () => {
    const settings = memorySettings();
    const { root } = show({ settings, caches: createFakeCacheStorage().storage });
    await vi.waitFor(() => expect(root.querySelector('#behaviour-heading')).not.toBeNull());
    const field = (label: string) =>
      [...root.querySelectorAll('label.field')].find((candidate) => candidate.querySelector('span')?.textContent === label)!.querySelector<HTMLInputElement | HTMLSelectElement>('input, select')!;
    const set = async (label: string, value: string, change: Partial<Settings>) => {
      const control = field(label);
      control.value = value;
      control.dispatchEvent(new Event('change', { bubbles: true }));
      await vi.waitFor(async () => expect(await settings.load()).toMatchObject(change));
    };
    await set('Temperature', '0.7', { temperature: 0.7 });
    await set('Maximum steps per request', '99', { maxSteps: 30 });
    const hint = () => root.querySelector('[data-testid="confirmation-hint"]')?.textContent;
    expect(field('Ask before a tool runs').getAttribute('aria-describedby')).toBe('confirmation-hint');
    expect(hint()).toContain('unless you listed its site under Sites');
    await set('Ask before a tool runs', 'ask-always', { confirmation: 'ask-always' });
    await vi.waitFor(() => expect(hint()).toBe('Every tool waits for your Allow, even one that only reads.'));
    await set("Characters of a tool's output the model reads", '2550', { toolOutputLimit: 2550 });
    await set('Longest reply, in tokens', '3000', { replyTokens: 3000 });
    await set('Longest reply, in tokens', '50000', { replyTokens: 16_384 });
    const reply = field('Longest reply, in tokens');
    expect(document.getElementById(reply.getAttribute('aria-describedby')!.split(' ')[0]!)?.textContent).toMatch(/^A token is about three quarters of an English word\. A reply that reaches this is cut off, and says so\./);
    await set('Seconds a tool may take before the run stops', '0', { toolTimeoutSeconds: 1 });
    await set('How tools are ranked for the model', 'word-overlap', { ranker: 'word-overlap' });
    // In words a person knows: the methods' own names are for the README.
    const ranker = field('How tools are ranked for the model') as HTMLSelectElement;
    expect([...ranker.options].map((option) => option.textContent)).toEqual(['Best match (recommended)', 'Simple word match']);
    expect(ranker.closest('section')?.textContent).not.toMatch(/BM25|rankTools|overlap/);
  });

  it('sets how long a WebLLM model stays loaded after its last use, saying what it costs', async () => {
    const settings = memorySettings();
    const { root } = show({ settings, caches: createFakeCacheStorage().storage });
    await vi.waitFor(() => expect(root.querySelector('#webllm-heading')).not.toBeNull());
    const label = [...root.querySelectorAll('label.field')].find((candidate) => candidate.querySelector('span')?.textContent === 'Minutes the model stays loaded after its last use')!;
    const input = label.querySelector('input')!;
    expect(input.closest('section')?.querySelector('h2')?.textContent).toBe('WebLLM');
    expect(input.value).toBe('5');
    expect(document.getElementById(input.getAttribute('aria-describedby')!)?.textContent).toMatch(/^How long the model stays in GPU memory after it last answered or loaded \(0 to 60 minutes; 5 by default\), holding [0-9.,]+ [MG]B of it\./);
    input.value = '90';
    input.dispatchEvent(new Event('change', { bubbles: true }));
    await vi.waitFor(async () => expect(await settings.load()).toMatchObject({ modelKeptMinutes: 60 }));
    expect(input.getAttribute('aria-describedby')?.split(' ').map((id) => document.getElementById(id)?.textContent)).toEqual([
      expect.stringContaining('Meanwhile a question starts at once'),
      '90 is out of range (0 to 60): set to 60.',
    ]);
  });

  it('keeps the sites where the agent is off, as origins typed into its labelled field', async () => {
    const settings = memorySettings();
    const { root } = show({ settings, caches: createFakeCacheStorage().storage });
    await vi.waitFor(() => expect(root.querySelector('[data-testid="disabledSites"]')).not.toBeNull());
    const label = 'Add to: Sites where the agent is off (each with its subdomains)';
    const add = async (text: string) => {
      const input = root.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`)!;
      input.value = text;
      input.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((resolve) => setTimeout(resolve, 0));
      click(buttonLabelled(root, label));
    };
    await add('https://bank.example.com/accounts');
    await vi.waitFor(() => expect(root.querySelector('[data-testid="disabledSites"] li')?.textContent).toContain('https://bank.example.com'));
    // Typed without a scheme: a site on this machine speaks http, any other https.
    await add('localhost:8377');
    await vi.waitFor(async () => expect((await settings.load()).disabledSites).toHaveLength(2));
    await add('shop.example/cart');
    await vi.waitFor(async () => expect((await settings.load()).disabledSites).toEqual(['https://bank.example.com', 'http://localhost:8377', 'https://shop.example']));
    await add('not a site');
    await vi.waitFor(() => expect(root.textContent).toContain('"not a site" is not a web address'));
    await add('*.bank.example');
    await vi.waitFor(() => expect(root.textContent).toContain('Leave out the *'));
    // A single word may be a slip; a host on the person's network is taken with its scheme.
    await add('wiki:8080');
    await vi.waitFor(() => expect(root.textContent).toContain('A site on your own network takes its scheme: http://wiki:8080.'));
    expect((await settings.load()).disabledSites).toHaveLength(3);
    await add('http://wiki:8080');
    await vi.waitFor(async () => expect((await settings.load()).disabledSites).toHaveLength(4));
    click(buttonLabelled(root, 'Remove https://bank.example.com'));
    await vi.waitFor(async () =>
      expect((await settings.load()).disabledSites).toEqual(['http://localhost:8377', 'https://shop.example', 'http://wiki:8080']),
    );
    await vi.waitFor(() => expect(buttonLabelled(root, 'Remove https://bank.example.com')).toBeNull());
  });
});
