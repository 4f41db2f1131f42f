import { describe, expect, it } from 'vitest';
import { followActiveTab, type ActiveTabSource } from '@/lib/sidepanel/follow-active-tab';
import { readTabIdParameter } from '@/lib/sidepanel/read-tab-id-parameter';
import { fakeBrowserEvent } from './fake-browser-event';

/** A browser with window 1 whose active tab is 10. */
function fakeBrowser() {
  const onActivated = fakeBrowserEvent<(info: { tabId: number; windowId: number }) => void>();
  const onUpdated = fakeBrowserEvent<(tabId: number, change: { status?: string }, tab: { windowId: number; active: boolean }) => void>();
  const onReplaced = fakeBrowserEvent<(addedTabId: number, removedTabId: number) => void>();
  const source: ActiveTabSource = {
    tabs: { query: async () => [{ id: 10 }], onActivated, onUpdated, onReplaced },
    windows: { getCurrent: async () => ({ id: 1 }) },
  };
  return { source, onActivated, onUpdated, onReplaced };
}

describe('followActiveTab', () => {
  it('follows the active tab of its own window only', async () => {
    const browser = fakeBrowser();
    const seen: number[] = [];
    const stop = followActiveTab({ turned: (tabId) => seen.push(tabId), replaced: () => {} }, browser.source);
    await new Promise((resolve) => setTimeout(resolve, 0));
    browser.onActivated.fire({ tabId: 11, windowId: 1 });
    browser.onActivated.fire({ tabId: 20, windowId: 2 });
    // The tab followed already finishing a load (or its page rewriting its address) is the background's to tell.
    browser.onUpdated.fire(11, { status: 'complete' }, { windowId: 1, active: true });
    browser.onUpdated.fire(12, { status: 'complete' }, { windowId: 1, active: false });
    browser.onUpdated.fire(11, { status: 'loading' }, { windowId: 1, active: true });
    // Another tab found active as its page loads is followed.
    browser.onUpdated.fire(14, { status: 'complete' }, { windowId: 1, active: true });
    expect(seen).toEqual([10, 11, 14]);

    stop();
    browser.onActivated.fire({ tabId: 13, windowId: 1 });
    expect(seen).toEqual([10, 11, 14]);
    expect(browser.onActivated.registered.size).toBe(0);
  });

  it('keeps a tab activated while it asked which tab is active, not the older answer that comes after', async () => {
    const browser = fakeBrowser();
    let answer!: () => void;
    browser.source.tabs.query = () => new Promise((resolve) => (answer = () => resolve([{ id: 10 }])));
    const seen: number[] = [];
    followActiveTab({ turned: (tabId) => seen.push(tabId), replaced: () => {} }, browser.source);
    await new Promise((resolve) => setTimeout(resolve, 0));
    browser.onActivated.fire({ tabId: 11, windowId: 1 });
    answer();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(seen).toEqual([11]);
  });

  it('tells of every tab Chrome gives a new id, and takes the tab followed by its new id as the one it follows', async () => {
    const browser = fakeBrowser();
    const seen: number[] = [];
    const replaced: Array<[number, number]> = [];
    const stop = followActiveTab({ turned: (tabId) => seen.push(tabId), replaced: (removed, added) => replaced.push([removed, added]) }, browser.source);
    await new Promise((resolve) => setTimeout(resolve, 0));
    // A tab left behind, discarded; then the tab followed, swapped for a prerendered page.
    browser.onReplaced.fire(31, 12);
    browser.onReplaced.fire(32, 10);
    // The new page finishing its load is the same tab: not a turn to another.
    browser.onUpdated.fire(32, { status: 'complete' }, { windowId: 1, active: true });
    expect(replaced).toEqual([[12, 31], [10, 32]]);
    expect(seen).toEqual([10]);
    stop();
    expect(browser.onReplaced.registered.size).toBe(0);
  });
});

describe('readTabIdParameter', () => {
  it('reads a tab id from the page address, and nothing else', () => {
    expect(readTabIdParameter('?tabId=42')).toBe(42);
    expect(readTabIdParameter('?tabId=abc')).toBeUndefined();
    expect(readTabIdParameter('?tabId=-1')).toBeUndefined();
    expect(readTabIdParameter('')).toBeUndefined();
  });
});
