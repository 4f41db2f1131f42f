// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createFakeCacheStorage } from '../engines/support/fake-cache-storage';
import { sharedSettings, showOptionsPage } from './support/show-options-page';

afterEach(() => {
  document.body.innerHTML = '';
});

/** The options page on the local server engine, whose settings another options tab may change. */
async function showServer() {
  // Nothing listens on port 9: the page's own check of the server fails at once, and quietly here.
  const settings = sharedSettings({ engine: 'openai', openaiBaseUrl: 'http://127.0.0.1:9/v1' });
  const { root } = showOptionsPage({ settings: settings.store, caches: createFakeCacheStorage().storage });
  const section = () => root.querySelector('section[aria-labelledby="server-heading"]')!;
  await vi.waitFor(() => expect(root.querySelector('section[aria-labelledby="server-heading"]')).not.toBeNull());
  const [address, key] = [...section().querySelectorAll<HTMLInputElement>('input')];
  const type = (field: HTMLInputElement, text: string) => {
    field.value = text;
    field.dispatchEvent(new Event('input', { bubbles: true }));
  };
  const unsaved = () => section().querySelector('[data-testid="address-unsaved"]')?.textContent ?? '';
  return { settings, address: address!, key: key!, type, unsaved };
}

describe('the server address while another options tab connects', () => {
  it('keeps an address typed and not saved yet, and says which one the agent uses until Connect', async () => {
    const page = await showServer();
    page.type(page.address, 'localhost:8080');
    page.settings.changedElsewhere({ openaiBaseUrl: 'http://127.0.0.1:1234/v1' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(page.address.value).toBe('localhost:8080');
    expect(page.unsaved()).toBe('Not saved yet: press Connect. The agent uses http://127.0.0.1:1234/v1 until then.');
  });

  it('shows the other tab\'s address in a field left as it was, and one it saved as typed here written out in full', async () => {
    const page = await showServer();
    page.settings.changedElsewhere({ openaiBaseUrl: 'http://127.0.0.1:1234/v1' });
    await vi.waitFor(() => expect(page.address.value).toBe('http://127.0.0.1:1234/v1'));

    page.type(page.address, '127.0.0.1:8080');
    page.settings.changedElsewhere({ openaiBaseUrl: 'http://127.0.0.1:8080/v1' });
    await vi.waitFor(() => expect(page.address.value).toBe('http://127.0.0.1:8080/v1'));
    expect(page.unsaved()).toBe('');
  });

  it('keeps a key typed and not saved yet as well', async () => {
    const page = await showServer();
    page.type(page.key, 'sk-typed-here');
    page.settings.changedElsewhere({ openaiApiKey: 'sk-from-the-other-tab' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(page.key.value).toBe('sk-typed-here');
    expect(page.unsaved()).toBe('The key is not saved yet: press Connect.');
  });
});
