// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CacheStorageLike } from '../../lib/engines/webllm/model-storage';
import { createFakeCacheStorage } from '../engines/support/fake-cache-storage';
import { buttonNamed, click, memorySettings, showOptionsPage } from './support/show-options-page';

const megabyte = 1024 * 1024;
const qwen = 'https://huggingface.co/mlc-ai/Qwen3-1.7B-q4f32_1-MLC/resolve/main/';
// What Chrome's Cache Storage rejects with when its files on disk fail.
const internalError = () => new DOMException('Unexpected internal error.', 'UnknownError');

function storageWithQwen() {
  const fake = createFakeCacheStorage();
  fake.put('webllm/model', `${qwen}tensor-cache.json`, 0, '{"records": [{"dataPath": "params_shard_0.bin"}]}');
  fake.put('webllm/model', `${qwen}params_shard_0.bin`, 1100 * megabyte);
  return fake;
}

function show(caches: CacheStorageLike) {
  const page = showOptionsPage({ settings: memorySettings(), caches });
  const section = () => page.root.querySelector('[data-testid="model-storage"]')!;
  return { ...page, alert: () => section().querySelector('[role="alert"]') };
}

beforeEach(() => {
  vi.spyOn(console, 'warn').mockImplementation(() => {});
});
afterEach(() => {
  document.body.innerHTML = '';
  vi.restoreAllMocks();
});

describe('the stored models, when Cache Storage fails', () => {
  it('says the list could not be read, and to reload the page; the browser\'s error goes to the console', async () => {
    const { storage } = createFakeCacheStorage();
    const failure = internalError();
    const { alert } = show({ ...storage, has: () => Promise.reject(failure) });
    await vi.waitFor(() => expect(alert()).not.toBeNull());
    expect(alert()!.firstChild?.textContent).toBe('Could not read the models stored on this computer: Unexpected internal error.');
    expect(alert()!.querySelector('.hint')?.textContent).toBe('Reload this page to read them again. If it fails again, check that the disk has free space, then restart Chrome.');
    expect(console.warn).toHaveBeenCalledWith('The stored WebLLM models (read):', failure);
  });

  it('says to free disk space when the storage is full', async () => {
    const { storage } = createFakeCacheStorage();
    const { alert } = show({ ...storage, has: () => Promise.reject(new DOMException('Quota exceeded.', 'QuotaExceededError')) });
    await vi.waitFor(() => expect(alert()).not.toBeNull());
    expect(alert()!.textContent).toBe("Could not read the models stored on this computer: Quota exceeded.Chrome's storage is full: free some disk space, then reload this page.");
  });

  it('keeps a failed deletion on screen after the list is read again, says trying again is safe, and clears it once that works', async () => {
    const fake = storageWithQwen();
    let failing = true;
    const caches: CacheStorageLike = {
      ...fake.storage,
      async open(name) {
        const cache = await fake.storage.open(name);
        return { ...cache, delete: (request) => (failing ? Promise.reject(internalError()) : cache.delete(request)) };
      },
    };
    const { root, alert } = show(caches);
    const deleteButton = () => root.querySelector<HTMLButtonElement>('button[aria-label^="Delete "]');
    await vi.waitFor(() => expect(deleteButton()).not.toBeNull());
    const label = deleteButton()!.getAttribute('aria-label')!.slice('Delete '.length);
    click(deleteButton());
    await vi.waitFor(() => expect(buttonNamed(root, 'Yes')).toBeDefined());
    click(buttonNamed(root, 'Yes'));
    await vi.waitFor(() => expect(alert()).not.toBeNull());
    expect(alert()!.firstChild?.textContent).toBe(`Could not delete ${label}: Unexpected internal error.`);
    expect(alert()!.querySelector('.hint')?.textContent).toBe(
      'Some of its files may be gone already (the list then says "incomplete download"). Trying again is safe: it deletes only what is left. If it fails again, reload this page and try once more, or restart Chrome.',
    );
    expect(root.querySelectorAll('[data-testid="stored-model"]')).toHaveLength(1);

    failing = false;
    click(deleteButton());
    await vi.waitFor(() => expect(buttonNamed(root, 'Yes')).toBeDefined());
    click(buttonNamed(root, 'Yes'));
    await vi.waitFor(() => expect(root.querySelectorAll('[data-testid="stored-model"]')).toHaveLength(0));
    expect(alert()).toBeNull();
  });

  it('says the same of "Delete all"', async () => {
    const fake = storageWithQwen();
    const { root, alert } = show({ ...fake.storage, delete: () => Promise.reject(internalError()) });
    await vi.waitFor(() => expect(buttonNamed(root, 'Delete all')).toBeDefined());
    click(buttonNamed(root, 'Delete all'));
    await vi.waitFor(() => expect(buttonNamed(root, 'Yes, delete all')).toBeDefined());
    click(buttonNamed(root, 'Yes, delete all'));
    await vi.waitFor(() => expect(alert()).not.toBeNull());
    expect(alert()!.textContent).toBe(
      'Could not delete the stored models: Unexpected internal error.Some may be gone already. Trying again is safe: it deletes only what is left. If it fails again, reload this page and try once more, or restart Chrome.',
    );
  });
});
