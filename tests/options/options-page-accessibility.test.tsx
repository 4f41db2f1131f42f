// @vitest-environment happy-dom
import { render } from 'preact';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProgressBar } from '../../components/options/progress-bar';
import type { LanguageModelApi } from '../../lib/engines/prompt-api/prompt-api-types';
import type { CacheStorageLike } from '../../lib/engines/webllm/model-storage';
import type { Settings } from '../../lib/settings';
import { createFakeCacheStorage } from '../engines/support/fake-cache-storage';
import { installFakeLanguageModel } from '../engines/support/install-fake-language-model';
import { buttonLabelled, buttonNamed, click, memorySettings, showOptionsPage } from './support/show-options-page';

const megabyte = 1024 * 1024;
const offSitesLabel = 'Add to: Sites where the agent is off (each with its subdomains)';
const allowedSitesLabel = 'Add to: Sites whose tools may change the page without asking (tools marked consequential still ask)';

function show(settings: Partial<Settings>, dependencies: Parameters<typeof showOptionsPage>[0] = {}) {
  return showOptionsPage({ settings: memorySettings(settings), caches: createFakeCacheStorage().storage, ...dependencies });
}

/** Presses a button as a keyboard does: it has focus, then it is activated. */
function press(button: HTMLElement | null | undefined) {
  button!.focus();
  button!.click();
}

/** A button that waits keeps the focus: it is marked busy for screen readers, not disabled. */
function expectBusyAndFocused(button: HTMLButtonElement | undefined) {
  expect(button?.disabled).toBe(false);
  expect(button?.getAttribute('aria-disabled')).toBe('true');
  expect(document.activeElement).toBe(button);
}

/** Browser storage holding one downloaded WebLLM model: Qwen3 1.7B, 1.1 GB. */
function oneStoredModel() {
  const fake = createFakeCacheStorage();
  const qwen = 'https://huggingface.co/mlc-ai/Qwen3-1.7B-q4f32_1-MLC/resolve/main/';
  fake.put('webllm/model', `${qwen}tensor-cache.json`, 0, '{"records": [{"dataPath": "params_shard_0.bin"}]}');
  fake.put('webllm/model', `${qwen}params_shard_0.bin`, 1100 * megabyte);
  return fake;
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the options page', () => {
  it('says when a change counts: from the next request, except the questions and the site lists, at once', async () => {
    const { root } = show({});
    await vi.waitFor(() => expect(root.querySelector('[data-testid="when-changes-count"]')).not.toBeNull());
    expect(root.querySelector('[data-testid="when-changes-count"]')?.textContent).toMatch(/^Each change is saved as you make it, and counts from the next request: one going on ends with the engine, server, model and limits it began with\. When to ask .* count at once, even mid-request\./);
  });

  it('starts with the engine, what a newcomer comes for, and says where the traces are only at its end', async () => {
    const { root } = show({});
    await vi.waitFor(() => expect(root.querySelector('h2')).not.toBeNull());
    expect(root.querySelector('h2')?.textContent).toBe('Engine');
    const main = root.querySelector('main.options')!;
    expect(main.lastElementChild?.getAttribute('data-testid')).toBe('traces-note');
  });
});

describe('the options page, for a keyboard and a screen reader', () => {
  it('says why a site is refused, in an alert the refusing field points at, and marks that field invalid', async () => {
    const { root } = show({});
    await vi.waitFor(() => expect(root.querySelector('[data-testid="disabledSites"]')).not.toBeNull());
    const field = (label: string) => root.querySelector<HTMLInputElement>(`input[aria-label="${label}"]`)!;
    const add = async (text: string) => {
      field(offSitesLabel).value = text;
      field(offSitesLabel).dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((resolve) => setTimeout(resolve, 0));
      click(buttonLabelled(root, offSitesLabel));
    };

    // The field is read with what an entry covers, the refusal first once there is one.
    const described = () => (field(offSitesLabel).getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id));
    expect(described().map((node) => node?.textContent)).toEqual(['A site given without a port (or with its usual one, such as :443) covers all its ports; localhost:3000 covers only that one.']);
    await add('not a site');
    await vi.waitFor(() => expect(field(offSitesLabel).getAttribute('aria-invalid')).toBe('true'));
    const [alert, hint] = described();
    expect(hint?.textContent).toMatch(/^A site given without a port/);
    expect(alert?.getAttribute('role')).toBe('alert');
    expect(alert?.textContent).toBe('"not a site" is not a web address, such as shop.example.com.');
    // The other list took nothing and is not marked: it is read with its own hint only.
    expect(field(allowedSitesLabel).hasAttribute('aria-invalid')).toBe(false);
    expect(field(allowedSitesLabel).getAttribute('aria-describedby')).toBe('allowedSites-hint');

    // The same refusal again is a new alert, so that it is said again, not a quiet repaint of the old one.
    await add('not a site');
    await vi.waitFor(() => expect(root.querySelector('[role="alert"]')).not.toBe(alert));
    const again = root.querySelector('[role="alert"]');
    expect(again?.textContent).toBe('"not a site" is not a web address, such as shop.example.com.');
    expect(described()[0]).toBe(again);

    await add('shop.example');
    await vi.waitFor(() => expect(field(offSitesLabel).hasAttribute('aria-invalid')).toBe(false));
    expect(field(offSitesLabel).getAttribute('aria-describedby')).toBe('disabledSites-hint');
    expect(root.querySelector('[role="alert"]')).toBeNull();
  });

  it('says that a site allowed to change the page is that one exactly, and which port a local one without its port gets', async () => {
    const { root } = show({});
    await vi.waitFor(() => expect(root.querySelector('[data-testid="allowedSites"]')).not.toBeNull());
    expect(root.querySelector('[data-testid="allowedSites-hint"]')?.textContent).toBe(
      'Unlike the list above, each entry is that site exactly, as "Allow on this site" in the side panel adds it: its scheme, host and port (localhost:3000 is not localhost:8080); its subdomains are not included.',
    );
    const field = root.querySelector<HTMLInputElement>(`input[aria-label="${allowedSitesLabel}"]`)!;
    const add = async (text: string) => {
      field.value = text;
      field.dispatchEvent(new Event('input', { bubbles: true }));
      await new Promise((resolve) => setTimeout(resolve, 0));
      click(buttonLabelled(root, allowedSitesLabel));
    };
    const status = () => root.querySelector('[data-testid="allowedSites-status"]')?.textContent;
    await add('127.0.0.1');
    await vi.waitFor(() => expect(status()).toBe('Added http://127.0.0.1, on port 80 only. To allow a server on another port, add it with its port, such as 127.0.0.1:8080.'));
    await add('localhost:5173');
    await vi.waitFor(() => expect(status()).toBe('Added http://localhost:5173.'));
    await add('shop.example');
    await vi.waitFor(() => expect(status()).toBe('Added https://shop.example.'));
  });

  it('after Remove, focuses the next site\'s Remove, the previous one\'s at the end, and the field once the list is empty', async () => {
    const { root } = show({ disabledSites: ['https://a.example', 'https://b.example', 'https://c.example'] });
    await vi.waitFor(() => expect(buttonLabelled(root, 'Remove https://b.example')).not.toBeNull());

    press(buttonLabelled(root, 'Remove https://b.example'));
    await vi.waitFor(() => expect(document.activeElement).toBe(buttonLabelled(root, 'Remove https://c.example')));
    press(buttonLabelled(root, 'Remove https://c.example'));
    await vi.waitFor(() => expect(document.activeElement).toBe(buttonLabelled(root, 'Remove https://a.example')));
    press(buttonLabelled(root, 'Remove https://a.example'));
    await vi.waitFor(() => expect(document.activeElement).toBe(root.querySelector(`input[aria-label="${offSitesLabel}"]`)));
  });

  it('moves focus on after Remove only once the list is drawn without the site, not at a redraw that still has it', async () => {
    // The settings drawn again (the side panel wrote them) while the removal is still being written.
    const stored = memorySettings({ disabledSites: ['https://a.example', 'https://b.example', 'https://c.example'] });
    let redraw: (settings: Settings) => void = () => {};
    let finish!: () => void;
    const written = new Promise<void>((resolve) => (finish = resolve));
    const settings = {
      ...stored,
      update: async (change: Parameters<typeof stored.update>[0]) => {
        const before = await stored.load();
        redraw({ ...before, disabledSites: [...before.disabledSites] });
        await written;
        const after = await stored.update(change);
        redraw(after);
        return after;
      },
      watch: (listener: (settings: Settings) => void) => ((redraw = listener), () => {}),
    };
    const { root } = showOptionsPage({ settings, caches: createFakeCacheStorage().storage });
    await vi.waitFor(() => expect(buttonLabelled(root, 'Remove https://b.example')).not.toBeNull());
    press(buttonLabelled(root, 'Remove https://b.example'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    finish();
    await vi.waitFor(() => expect(document.activeElement).toBe(buttonLabelled(root, 'Remove https://c.example')));
  });

  it('says what an add or a removal did, in a status the list\'s screen-reader user hears', async () => {
    const { root } = show({});
    await vi.waitFor(() => expect(root.querySelector('[data-testid="disabledSites"]')).not.toBeNull());
    const status = () => root.querySelector('[data-testid="disabledSites-status"]');
    expect(status()?.getAttribute('role')).toBe('status');
    const field = root.querySelector<HTMLInputElement>(`input[aria-label="${offSitesLabel}"]`)!;
    field.value = 'Shop.Example.com';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    click(buttonLabelled(root, offSitesLabel));
    await vi.waitFor(() => expect(status()?.textContent).toBe('Added https://shop.example.com.'));
    // A refusal is said by its alert: what the add before did is not left beside it.
    field.value = '*.shop.example.com';
    field.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise((resolve) => setTimeout(resolve, 0));
    click(buttonLabelled(root, offSitesLabel));
    await vi.waitFor(() => expect(root.querySelector('[data-testid="disabledSites"] [role="alert"]')?.textContent).toMatch(/^Leave out the \*/));
    expect(status()?.textContent).toBe('');
    press(buttonLabelled(root, 'Remove https://shop.example.com'));
    await vi.waitFor(() => expect(status()?.textContent).toBe('Removed https://shop.example.com.'));
  });

  it('keeps Connect focused while it connects, ignores a second press, and lets it go when the server answers', async () => {
    let answer!: (response: Response) => void;
    let asked = 0;
    const { root } = show(
      { engine: 'openai', openaiBaseUrl: 'http://localhost:11434/v1' },
      { fetch: (() => new Promise<Response>((resolve) => ((asked += 1), (answer = resolve)))) as typeof fetch },
    );
    await vi.waitFor(() => expect(buttonNamed(root, 'Connect')).toBeDefined());
    // The page asks the server set up before as it opens; that question hangs, and leaves Connect free.
    await vi.waitFor(() => expect(asked).toBe(1));
    press(buttonNamed(root, 'Connect'));
    await vi.waitFor(() => expect(buttonNamed(root, 'Connecting…')).toBeDefined());
    expectBusyAndFocused(buttonNamed(root, 'Connecting…'));
    press(buttonNamed(root, 'Connecting…'));
    root.querySelector('form')!.requestSubmit();
    expect(asked).toBe(2);
    // The address being tried cannot change under it: the answer will be about this one.
    expect(root.querySelector<HTMLInputElement>('section[aria-labelledby="server-heading"] input')?.readOnly).toBe(true);

    answer(new Response(JSON.stringify({ data: [{ id: 'llama3.2:3b' }] }), { headers: { 'content-type': 'application/json' } }));
    await vi.waitFor(() => expect(buttonNamed(root, 'Connect')?.hasAttribute('aria-disabled')).toBe(false));
    expect(document.activeElement).toBe(buttonNamed(root, 'Connect'));
  });

  it('keeps Download focused while Chrome downloads its model', async () => {
    const languageModel: LanguageModelApi = { availability: async () => 'downloadable', create: () => new Promise(() => {}) };
    const { root } = show({ engine: 'prompt-api' }, { languageModel });
    await vi.waitFor(() => expect(buttonNamed(root, 'Download')).toBeDefined());
    press(buttonNamed(root, 'Download'));
    await vi.waitFor(() => expect(buttonNamed(root, 'Downloading…')).toBeDefined());
    expectBusyAndFocused(buttonNamed(root, 'Downloading…'));
  });

  it('keeps Try it focused while it tries, and gives the reply and its speed in a polite live region there from the start', async () => {
    installFakeLanguageModel({ availability: 'available', replies: ['{"type": "message", "text": "Hello, nice to meet you."}'], chunkSize: 4 });
    const { LanguageModel } = globalThis as unknown as { LanguageModel: LanguageModelApi };
    const { root } = show({ engine: 'prompt-api' }, { languageModel: LanguageModel });
    await vi.waitFor(() => expect(buttonNamed(root, 'Try it')).toBeDefined());
    // A live region is read when its content changes, not when it appears with the content in it.
    const live = root.querySelector('[data-testid="trial-result"][aria-live="polite"]');
    expect(live).not.toBeNull();
    expect(live?.textContent).toBe('');

    const button = buttonNamed(root, 'Try it');
    press(button);
    await vi.waitFor(() => expect(button?.textContent).toBe('Trying…'), { interval: 1 });
    expectBusyAndFocused(button);
    await vi.waitFor(() => expect(button?.textContent).toBe('Try it'));
    expect(document.activeElement).toBe(button);
    expect(root.querySelector('[data-testid="trial-result"][aria-live="polite"]')).toBe(live);
    expect(live?.querySelector('[data-testid="trial-reply"]')?.textContent).toContain('Hello, nice to meet you.');
    expect(live?.querySelector('[data-testid="trial-speed"]')).not.toBeNull();
  });

  it('after "Yes, delete all", focuses the section\'s heading, which stays', async () => {
    const fake = oneStoredModel();
    const { root, text } = show({}, { caches: fake.storage });
    await vi.waitFor(() => expect(buttonNamed(root, 'Delete all')).toBeDefined());
    press(buttonNamed(root, 'Delete all'));
    await vi.waitFor(() => expect(buttonNamed(root, 'Yes, delete all')).toBeDefined());
    press(buttonNamed(root, 'Yes, delete all'));
    await vi.waitFor(() => expect(text()).toContain('No WebLLM model is stored yet'));
    expect(document.activeElement).toBe(root.querySelector('#storage-heading'));
  });

  it('after "Yes" on a model\'s Delete, focuses the heading at once, and the row says it is being deleted until it goes', async () => {
    const fake = oneStoredModel();
    let finish!: () => void;
    const deleted = new Promise<void>((resolve) => (finish = resolve));
    // The Cache API takes its time over a gigabyte: each entry's deletion waits until the test lets it go.
    const slow: CacheStorageLike = {
      has: (name) => fake.storage.has(name),
      delete: (name) => fake.storage.delete(name),
      async open(name) {
        const cache = await fake.storage.open(name);
        return { keys: () => cache.keys(), match: (request) => cache.match(request), delete: async (request) => (await deleted, cache.delete(request)) };
      },
    };
    const { root } = show({}, { caches: slow });
    await vi.waitFor(() => expect(buttonLabelled(root, 'Delete Qwen3 1.7B (q4f32)')).not.toBeNull());
    press(buttonLabelled(root, 'Delete Qwen3 1.7B (q4f32)'));
    await vi.waitFor(() => expect(buttonLabelled(root, 'Yes, delete Qwen3 1.7B (q4f32)')).not.toBeNull());
    press(buttonLabelled(root, 'Yes, delete Qwen3 1.7B (q4f32)'));

    const row = () => root.querySelector('[data-testid="stored-model"]');
    await vi.waitFor(() => expect(row()?.textContent).toContain('Deleting…'));
    expect(document.activeElement).toBe(root.querySelector('#storage-heading'));
    expect(row()?.getAttribute('aria-busy')).toBe('true');
    expect(buttonLabelled(root, 'Delete Qwen3 1.7B (q4f32)')).toBeNull();

    finish();
    await vi.waitFor(() => expect(row()).toBeNull());
    expect(document.activeElement).toBe(root.querySelector('#storage-heading'));
  });

  it('after "No", gives the focus back to the Delete button that asked, for a model and for all', async () => {
    const fake = oneStoredModel();
    const { root } = show({}, { caches: fake.storage });
    await vi.waitFor(() => expect(buttonNamed(root, 'Delete all')).toBeDefined());
    press(buttonLabelled(root, 'Delete Qwen3 1.7B (q4f32)'));
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe('No'));
    press(document.activeElement as HTMLElement);
    await vi.waitFor(() => expect(document.activeElement).toBe(buttonLabelled(root, 'Delete Qwen3 1.7B (q4f32)')));

    press(buttonNamed(root, 'Delete all'));
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe('No'));
    press(document.activeElement as HTMLElement);
    await vi.waitFor(() => expect(document.activeElement).toBe(buttonNamed(root, 'Delete all')));
  });

  it('takes the question of "Delete all" away with the last model, leaving the focus on the heading', async () => {
    const fake = oneStoredModel();
    const { root, text, model } = show({}, { caches: fake.storage });
    await vi.waitFor(() => expect(buttonNamed(root, 'Delete all')).toBeDefined());
    press(buttonNamed(root, 'Delete all'));
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe('No'));
    // The model goes elsewhere (another tab's options page), and this page reads the list again.
    await fake.storage.delete('webllm/model');
    await model.refreshStorage();
    await vi.waitFor(() => expect(text()).toContain('No WebLLM model is stored yet'));
    expect(buttonNamed(root, 'Yes, delete all')).toBeUndefined();
    expect(document.activeElement).toBe(root.querySelector('#storage-heading'));
  });

  it('leaves the focus on the heading when a model goes while its Delete button has it', async () => {
    const fake = oneStoredModel();
    const { root, text, model } = show({}, { caches: fake.storage });
    await vi.waitFor(() => expect(buttonLabelled(root, 'Delete Qwen3 1.7B (q4f32)')).not.toBeNull());
    buttonLabelled(root, 'Delete Qwen3 1.7B (q4f32)')!.focus();
    await fake.storage.delete('webllm/model');
    await model.refreshStorage();
    await vi.waitFor(() => expect(text()).toContain('No WebLLM model is stored yet'));
    expect(document.activeElement).toBe(root.querySelector('#storage-heading'));
  });

  it('takes a model\'s own question away with it, leaving the focus on the heading', async () => {
    const fake = oneStoredModel();
    const { root, text, model } = show({}, { caches: fake.storage });
    await vi.waitFor(() => expect(buttonLabelled(root, 'Delete Qwen3 1.7B (q4f32)')).not.toBeNull());
    press(buttonLabelled(root, 'Delete Qwen3 1.7B (q4f32)'));
    await vi.waitFor(() => expect(document.activeElement?.textContent).toBe('No'));
    await fake.storage.delete('webllm/model');
    await model.refreshStorage();
    await vi.waitFor(() => expect(text()).toContain('No WebLLM model is stored yet'));
    expect(document.activeElement).toBe(root.querySelector('#storage-heading'));
  });

  it('says, beside a number field, what an out-of-range number was set to and why', async () => {
    const { root } = show({});
    await vi.waitFor(() => expect(root.querySelector('#behaviour-heading')).not.toBeNull());
    const input = [...root.querySelectorAll('label.field')]
      .find((label) => label.querySelector('span')?.textContent === 'Maximum steps per request')!
      .querySelector('input')!;
    const type = (value: string) => {
      input.value = value;
      input.dispatchEvent(new Event('change', { bubbles: true }));
    };

    type('99');
    await vi.waitFor(() => expect(input.getAttribute('aria-describedby')).not.toBeNull());
    const note = document.getElementById(input.getAttribute('aria-describedby')!);
    expect(note?.getAttribute('role')).toBe('status');
    expect(note?.textContent).toBe('99 is out of range (1 to 30): set to 30.');
    expect(input.value).toBe('30');

    // What was typed is said back as typed, and the figures with their separators.
    const longest = [...root.querySelectorAll('label.field')].find((label) => label.querySelector('span')?.textContent === 'Longest reply, in tokens')!.querySelector('input')!;
    longest.value = '99999999999999999999';
    longest.dispatchEvent(new Event('change', { bubbles: true }));
    const statusOf = (field: HTMLInputElement) => (field.getAttribute('aria-describedby') ?? '').split(' ').map((id) => document.getElementById(id)).find((element) => element?.getAttribute('role') === 'status');
    await vi.waitFor(() => expect(statusOf(longest)?.textContent).toBe('99999999999999999999 is out of range (256 to 16,384): set to 16,384.'));

    // A number in range clears the note; the status element stays, for the next one to be heard.
    type('12');
    await vi.waitFor(() => expect(note?.textContent).toBe(''));
    expect(note?.isConnected).toBe(true);
    expect(input.hasAttribute('aria-describedby')).toBe(false);
  });

  it('names the progress bar by its text', () => {
    const root = document.createElement('div');
    document.body.append(root);
    render(<ProgressBar progress={{ fraction: 0.25, text: 'Downloading 275 of 1,100 MB' }} />, root);
    const name = document.getElementById(root.querySelector('progress')?.getAttribute('aria-labelledby') ?? '');
    expect(name?.textContent).toBe('Downloading 275 of 1,100 MB');
  });
});
