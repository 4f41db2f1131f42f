import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { loadSettings, updateSettings } from '@/lib/settings';

beforeEach(() => fakeBrowser.reset());
afterEach(() => vi.unstubAllGlobals());

const addOffSite = (site: string) => updateSettings(({ disabledSites }) => ({ disabledSites: [...disabledSites, site] }));

describe('updateSettings', () => {
  it('makes changes that come at the same moment one after another, so that none is lost', async () => {
    await Promise.all([addOffSite('https://shop.example'), addOffSite('https://bank.example'), updateSettings({ toolTimeoutSeconds: 5 })]);
    expect(await loadSettings()).toMatchObject({ disabledSites: ['https://shop.example', 'https://bank.example'], toolTimeoutSeconds: 5 });
  });

  it('goes on after a change that failed', async () => {
    const failed = updateSettings(() => {
      throw new Error('no');
    });
    await expect(failed).rejects.toThrow('no');
    await addOffSite('https://shop.example');
    expect((await loadSettings()).disabledSites).toEqual(['https://shop.example']);
  });

  it('holds the Web Lock named "settings" while it reads and writes, where the extension has Web Locks (its pages and its worker)', async () => {
    const held: string[] = [];
    let locked = false;
    vi.stubGlobal('navigator', {
      locks: {
        request: async (name: string, change: () => Promise<unknown>) => {
          held.push(name);
          locked = true;
          try {
            return await change();
          } finally {
            locked = false;
          }
        },
      },
    });
    const seen = await updateSettings((current) => {
      expect(locked).toBe(true);
      return { disabledSites: [...current.disabledSites, 'https://shop.example'] };
    });
    expect(held).toEqual(['settings']);
    expect(seen.disabledSites).toEqual(['https://shop.example']);
  });
});
