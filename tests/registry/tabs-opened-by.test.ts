import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { hearTabsOpenedBy } from '../../lib/registry/tabs-opened-by';
import { formResultElsewhere, formResultMaybeBlocked } from '../../lib/webmcp/form-target';

const opensTab = (sourceTabId: number, sourceFrameId = 0) =>
  fakeBrowser.webNavigation.onCreatedNavigationTarget.trigger({ sourceTabId, sourceFrameId, sourceProcessId: 1, tabId: 99, url: 'https://shop.example/placed', timeStamp: 0 });

describe("a form sent to a new tab by the browser's own WebMCP", () => {
  beforeEach(() => fakeBrowser.reset());
  afterEach(() => vi.useRealTimers());

  it('is said to be sent where the browser opened a tab from the page during the call', async () => {
    const opened = hearTabsOpenedBy(7, 0);
    await opensTab(7);
    expect(await opened.confirm({ text: formResultMaybeBlocked })).toEqual({ text: formResultElsewhere });
    opened.stop();
  });

  it('is said to be sent where the tab is told of just after the call answered', async () => {
    const opened = hearTabsOpenedBy(7, 0);
    const confirmed = opened.confirm({ text: formResultMaybeBlocked });
    await opensTab(7);
    expect(await confirmed).toEqual({ text: formResultElsewhere });
    opened.stop();
  });

  it("stays maybe blocked where no tab of this frame opened within a second: another tab's, or another frame's, are not its", async () => {
    vi.useFakeTimers();
    const opened = hearTabsOpenedBy(7, 0);
    await opensTab(8);
    await opensTab(7, 3);
    const confirmed = opened.confirm({ text: formResultMaybeBlocked });
    await vi.advanceTimersByTimeAsync(1_000);
    expect(await confirmed).toEqual({ text: formResultMaybeBlocked });
    opened.stop();
  });

  it('stops waiting at a Stop', async () => {
    vi.useFakeTimers();
    const opened = hearTabsOpenedBy(7, 0);
    const stop = new AbortController();
    const confirmed = opened.confirm({ text: formResultMaybeBlocked }, stop.signal);
    stop.abort();
    await vi.advanceTimersByTimeAsync(10);
    expect(await confirmed).toEqual({ text: formResultMaybeBlocked });
    opened.stop();
  });

  it('leaves every other output as it is, at once, and stops listening', async () => {
    const opened = hearTabsOpenedBy(7, 0);
    await opensTab(7);
    expect(await opened.confirm({ text: 'Added 2 mugs.' })).toEqual({ text: 'Added 2 mugs.' });
    opened.stop();
    expect(fakeBrowser.webNavigation.onCreatedNavigationTarget.hasListeners()).toBe(false);
  });
});
