import { fakeBrowser } from 'wxt/testing/fake-browser';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openOptions } from '@/lib/sidepanel/open-options';

const optionsPage = 'chrome-extension://test-extension-id/options.html';

afterEach(() => {
  vi.restoreAllMocks();
  fakeBrowser.reset();
});

/** The options tab Chrome lists among the extension's contexts, where one is open. */
function optionsTabOpen(open: boolean) {
  const listed = open ? [{ contextType: 'TAB', documentUrl: `${optionsPage}#`, tabId: 7, windowId: 2 }] : [];
  vi.spyOn(fakeBrowser.runtime, 'getContexts').mockResolvedValue(listed as never);
  vi.spyOn(fakeBrowser.runtime, 'getURL').mockImplementation((path) => `chrome-extension://test-extension-id${path}`);
}

describe('openOptions', () => {
  it('brings the options tab already open to the front, at the place asked for', async () => {
    optionsTabOpen(true);
    const updated = vi.spyOn(fakeBrowser.tabs, 'update').mockResolvedValue({} as never);
    const focused = vi.spyOn(fakeBrowser.windows, 'update').mockResolvedValue({} as never);
    openOptions('max-steps');
    await vi.waitFor(() => expect(focused).toHaveBeenCalledWith(2, { focused: true }));
    expect(updated).toHaveBeenCalledWith(7, { active: true, url: `${optionsPage}#max-steps` });
  });

  it('opens a new tab where the open one closed meanwhile', async () => {
    optionsTabOpen(true);
    vi.spyOn(fakeBrowser.tabs, 'update').mockRejectedValue(new Error('No tab with id: 7.'));
    const created = vi.spyOn(fakeBrowser.tabs, 'create').mockResolvedValue({} as never);
    openOptions('reply-tokens');
    await vi.waitFor(() => expect(created).toHaveBeenCalledWith({ url: `${optionsPage}#reply-tokens` }));
  });

  it('opens one tab for two quick presses', async () => {
    optionsTabOpen(false);
    const opened = vi.spyOn(fakeBrowser.runtime, 'openOptionsPage').mockResolvedValue(undefined);
    openOptions();
    openOptions();
    await vi.waitFor(() => expect(opened).toHaveBeenCalledTimes(1));
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(opened).toHaveBeenCalledTimes(1);
    // Once that one is on its way, a later press opens the page again.
    openOptions();
    await vi.waitFor(() => expect(opened).toHaveBeenCalledTimes(2));
  });
});
