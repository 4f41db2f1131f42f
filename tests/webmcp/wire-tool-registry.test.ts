import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import type { Browser } from 'wxt/browser';
import { executeTabTool } from '@/lib/registry/execute-tab-tool';
import { TabToolRegistry } from '@/lib/registry/tab-tool-registry';
import { wireToolRegistry } from '@/lib/registry/wire-tool-registry';
import { watchedBackgroundTabEvents } from '../support/watched-tab-events';

// The inspector's port and tab replacement are not what this file checks (fakeBrowser has neither).
vi.mock('@/lib/messaging/port-channel', () => ({ acceptChannels: vi.fn() }));
Object.assign(fakeBrowser.tabs, { onReplaced: { addListener: () => {}, removeListener: () => {} } });

type Sender = Browser.runtime.MessageSender;

/** A message from a content script, as the browser hands it to the background with its sender. */
function fromPage(sender: Sender, type: string, data: object): Promise<unknown> {
  return new Promise((resolve) => void fakeBrowser.runtime.onMessage.trigger({ protocol: 'webmcp-local-agent', type, data }, sender, resolve));
}

const tool = (name: string) => ({ name, description: `The ${name} tool.`, inputSchema: { type: 'object' }, origin: '', source: 'native' });
const page = (url: string, documentId: string): Sender => ({
  tab: { id: 4, url } as Browser.tabs.Tab,
  frameId: 0,
  url,
  origin: 'https://shop.example',
  documentId,
  documentLifecycle: 'active',
});

let registry: TabToolRegistry;
let tabEvents: ReturnType<typeof watchedBackgroundTabEvents>;
beforeEach(() => {
  vi.restoreAllMocks();
  fakeBrowser.reset();
  // The toolbar's title, which says what the badge counts, begins with the manifest's.
  vi.spyOn(fakeBrowser.runtime, 'getManifest').mockReturnValue({ manifest_version: 3, name: 'test', version: '1', action: { default_title: 'Open the WebMCP agent' } });
  registry = new TabToolRegistry({ load: async () => new Map(), save: async () => {} });
  tabEvents = watchedBackgroundTabEvents();
  wireToolRegistry(registry, tabEvents.events);
});

describe('the registry as the background wires it: each frame’s document as the browser names it', () => {
  it('back to a restored page: its tools stay listed whatever order the commit and the left page’s goodbye come in, and a call goes to that page only', async () => {
    const product = page('https://shop.example/mug', 'product-document');
    const list = page('https://shop.example/list', 'list-document');
    await fromPage(product, 'tools-report', { url: product.url!, tools: [tool('add_to_cart')], dropped: [] });

    // Restored from the back/forward cache, the list reports at once on pageshow; the browser's
    // commit event (its clock, not the worker's) and the product page's goodbye arrive after it.
    await fromPage(list, 'tools-report', { url: list.url!, tools: [tool('search')], dropped: [] });
    await fakeBrowser.webNavigation.onCommitted.trigger({ tabId: 4, frameId: 0, timeStamp: Date.now() + 60_000, documentId: 'list-document' } as never);
    await fromPage(product, 'frame-gone', {});
    const listed = await registry.get(4);
    expect(listed?.tools.map((entry) => entry.name)).toEqual(['search']);

    const delivered = vi.spyOn(fakeBrowser.tabs, 'sendMessage').mockResolvedValue({ ok: true, value: { status: 'ok', result: 'found' } } as never);
    await expect(executeTabTool(registry, 4, 'search', {}, { frameId: 0, documentId: listed!.tools[0]!.documentId! })).resolves.toEqual({ text: 'found' });
    expect(delivered).toHaveBeenCalledWith(4, expect.objectContaining({ type: 'tool-execute' }), { frameId: 0, documentId: 'list-document' });
  });

  it('works as before where the browser names no documents', async () => {
    const unnamed = { ...page('https://shop.example/list', ''), documentId: undefined } as Sender;
    await fromPage(unnamed, 'tools-report', { url: unnamed.url!, tools: [tool('search')], dropped: [] });
    expect((await registry.get(4))?.tools.map((entry) => [entry.name, entry.documentId])).toEqual([['search', undefined]]);
    const delivered = vi.spyOn(fakeBrowser.tabs, 'sendMessage').mockResolvedValue({ ok: true, value: { status: 'ok', result: 'found' } } as never);
    await expect(executeTabTool(registry, 4, 'search', {}, { frameId: 0 })).resolves.toEqual({ text: 'found' });
    expect(delivered).toHaveBeenCalledWith(4, expect.anything(), { frameId: 0 });
    await fromPage(unnamed, 'frame-gone', {});
    expect(await registry.get(4)).toBeUndefined();
  });
});

describe('the tab events the registry needs heard', () => {
  const needed = async () => [await tabEvents.navigations.needed(), await tabEvents.tabRemovals.needed()];

  it('wants both from the first report of tools until the tab closes, through a report that takes the tools back', async () => {
    await expect(needed()).resolves.toEqual([false, false]);
    const product = page('https://shop.example/mug', 'product-document');
    await fromPage(product, 'tools-report', { url: product.url!, tools: [tool('add_to_cart')], dropped: [] });
    expect([tabEvents.navigations.calls, tabEvents.tabRemovals.calls].map((calls) => calls.includes('needed'))).toEqual([true, true]);
    await expect(needed()).resolves.toEqual([true, true]);

    // The page takes its tools back: its tab is kept (the panel shows its address) until it loads another page or closes.
    await fromPage(product, 'tools-report', { url: product.url!, tools: [], dropped: [] });
    expect((await registry.get(4))?.tools).toEqual([]);
    await expect(needed()).resolves.toEqual([true, true]);

    tabEvents.navigations.calls.length = 0;
    await fakeBrowser.tabs.onRemoved.trigger(4, { windowId: 1, isWindowClosing: false });
    await vi.waitFor(() => expect(tabEvents.navigations.calls).toContain('recheck'));
    await expect(needed()).resolves.toEqual([false, false]);
  });

  it('wants nothing for a message that is no content script’s report', async () => {
    await fromPage({ url: 'chrome-extension://abc/sidepanel.html' }, 'tools-report', { url: 'x', tools: [tool('search')], dropped: [] });
    expect([...tabEvents.navigations.calls, ...tabEvents.tabRemovals.calls]).toEqual([]);
    await expect(needed()).resolves.toEqual([false, false]);
  });
});
