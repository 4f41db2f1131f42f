import { beforeEach, describe, expect, it } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { TabEntry } from '@/lib/registry/frame-tools';
import { createSessionRegistryStorage } from '@/lib/registry/session-registry-storage';

const entryOf = (description: string): TabEntry => ({
  frames: {
    0: {
      url: 'https://shop.example/',
      origin: 'https://shop.example',
      tools: [{ name: 'find', description, inputSchema: { type: 'object' }, origin: 'https://shop.example', source: 'native' }],
      dropped: [],
      updatedAt: 1,
    },
  },
});

describe('the registry in session storage', () => {
  beforeEach(() => fakeBrowser.reset());

  it('keeps a tab without its tools when they would pass the budget; it is asked again after a restart', async () => {
    const storage = createSessionRegistryStorage(10_000);
    await storage.save(1, entryOf('a'.repeat(6_000)));
    // Non-ASCII text counts in UTF-8 bytes: 2,000 characters are 6,000 bytes here.
    await storage.save(2, entryOf('€'.repeat(2_000)));
    await storage.save(3, entryOf('small'));

    const loaded = await createSessionRegistryStorage(10_000).load();
    expect(loaded.get(1)?.frames[0]?.tools[0]?.description).toHaveLength(6_000);
    expect(loaded.get(2)?.frames).toEqual({});
    expect(loaded.get(3)?.frames[0]?.tools[0]?.description).toBe('small');
  });

  it('stores a tab\'s tools as one JSON text, which the browser copies far faster than their objects, and reads them back', async () => {
    await createSessionRegistryStorage().save(1, entryOf('Find a product.'));
    const stored = await fakeBrowser.storage.session.get('webmcp-tab-tools:1');
    expect(typeof stored['webmcp-tab-tools:1']).toBe('string');
    expect((await createSessionRegistryStorage().load()).get(1)).toEqual(entryOf('Find a product.'));
  });

  it('counts a tab\'s tools as storage does, their text written as JSON with its quotes escaped', async () => {
    const storage = createSessionRegistryStorage(10_000);
    // 3,000 quotes are 6,000 characters of the entry's JSON, and twice that once written as a string.
    await storage.save(1, entryOf('"'.repeat(3_000)));
    expect((await createSessionRegistryStorage().load()).get(1)?.frames).toEqual({});
  });

  it('frees a closed tab\'s share of the budget', async () => {
    const storage = createSessionRegistryStorage(10_000);
    await storage.save(1, entryOf('a'.repeat(6_000)));
    await storage.save(1, undefined);
    await storage.save(2, entryOf('b'.repeat(6_000)));
    expect((await storage.load()).get(2)?.frames[0]?.tools).toHaveLength(1);
  });
});
