import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { openWelcomeOnInstall } from '../../lib/service-worker/welcome-on-install';

describe('the welcome a first install opens', () => {
  afterEach(() => vi.restoreAllMocks());
  beforeEach(() => {
    fakeBrowser.reset();
    // Each test's worker starts afresh: the listener of the test before is not this one's.
    fakeBrowser.runtime.onInstalled.removeAllListeners();
    vi.spyOn(fakeBrowser.runtime, 'getURL').mockImplementation((path) => `chrome-extension://test-extension-id${path}`);
  });

  it('opens the options at their welcome on an install, and nothing on an update or a reload', async () => {
    const create = vi.spyOn(fakeBrowser.tabs, 'create');
    openWelcomeOnInstall();
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'update', previousVersion: '0.1.0' });
    expect(create).not.toHaveBeenCalled();
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'install' });
    await vi.waitFor(() => expect(create).toHaveBeenCalled());
    expect(create).toHaveBeenCalledWith({ url: 'chrome-extension://test-extension-id/options.html?welcome' });
  });

  it('opens it once in a profile, though a browser that loads the extension from its folder says it is installed at each start', async () => {
    const create = vi.spyOn(fakeBrowser.tabs, 'create');
    openWelcomeOnInstall();
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'install' });
    await vi.waitFor(async () => expect(await fakeBrowser.storage.local.get('welcomed')).toEqual({ welcomed: true }));
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'install' });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(create).toHaveBeenCalledTimes(1);
  });

  it('throws nothing where no tab can open, and opens it at the next install', async () => {
    const create = vi.spyOn(fakeBrowser.tabs, 'create').mockRejectedValueOnce(new Error('No current window'));
    openWelcomeOnInstall();
    await expect(fakeBrowser.runtime.onInstalled.trigger({ reason: 'install' })).resolves.toBeDefined();
    await fakeBrowser.runtime.onInstalled.trigger({ reason: 'install' });
    await vi.waitFor(() => expect(create).toHaveBeenCalledTimes(2));
  });
});
