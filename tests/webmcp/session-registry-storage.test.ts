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

  it('frees a closed tab\'s share of the budget', async () => {
    const storage = createSessionRegistryStorage(10_000);
    await storage.save(1, entryOf('a'.repeat(6_000)));
    await storage.save(1, undefined);
    await storage.save(2, entryOf('b'.repeat(6_000)));
    expect((await storage.load()).get(2)?.frames[0]?.tools).toHaveLength(1);
  });
});
