import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { isPrivateTab } from '@/lib/service-worker/is-private-tab';

describe('isPrivateTab', () => {
  beforeEach(() => {
    fakeBrowser.reset();
    vi.restoreAllMocks();
  });

  it('reads a tab of a normal window as not private, and one of an incognito window as private', async () => {
    vi.spyOn(fakeBrowser.tabs, 'get').mockImplementation(async (tabId: number) => ({ id: tabId, incognito: tabId === 2 }) as Browser.tabs.Tab);
    await expect(isPrivateTab(1)).resolves.toBe(false);
    await expect(isPrivateTab(2)).resolves.toBe(true);
  });

  it('counts a tab it cannot read (closed meanwhile) as private, so that a private visit is never kept by mistake', async () => {
    vi.spyOn(fakeBrowser.tabs, 'get').mockRejectedValue(new Error('No tab with id: 7.'));
    await expect(isPrivateTab(7)).resolves.toBe(true);
  });
});
