import { beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';

const defaultTitle = 'Open the WebMCP agent';
const askingTitle = 'The WebMCP agent waits for your answer in this tab';

beforeEach(() => {
  fakeBrowser.reset();
  vi.resetModules();
  vi.spyOn(fakeBrowser.runtime, 'getManifest').mockReturnValue({ manifest_version: 3, name: 'test', version: '1', action: { default_title: defaultTitle } });
});

const title = (tabId: number) => fakeBrowser.action.getTitle({ tabId });

describe('the toolbar title of a tab where a call waits', () => {
  it('says so while the call waits, and is put back once it is answered', async () => {
    const { id } = await fakeBrowser.tabs.create({ url: 'https://shop.example/' });
    const { showAsking } = await import('@/lib/registry/show-tool-count');
    showAsking(id!, true);
    await vi.waitFor(async () => expect(await title(id!)).toBe(askingTitle));
    showAsking(id!, false);
    await vi.waitFor(async () => expect(await title(id!)).toBe(defaultTitle));
  });

  it('is put back by the next worker where the one that set it stopped while the call waited', async () => {
    const { id } = await fakeBrowser.tabs.create({ url: 'https://shop.example/' });
    const first = await import('@/lib/registry/show-tool-count');
    first.showAsking(id!, true);
    await vi.waitFor(async () => expect(await title(id!)).toBe(askingTitle));

    // A new worker: the module is loaded again, knowing of no call waiting.
    vi.resetModules();
    const next = await import('@/lib/registry/show-tool-count');
    await next.resetTitles();
    expect(await title(id!)).toBe(defaultTitle);
  });

  it('leaves alone at a worker\'s start the tabs no worker marked: a browser with many tabs pays nothing for them', async () => {
    const tabs = await Promise.all(Array.from({ length: 30 }, (_, index) => fakeBrowser.tabs.create({ url: `https://site${index}.example/` })));
    const first = await import('@/lib/registry/show-tool-count');
    first.showAsking(tabs[7]!.id!, true);
    await vi.waitFor(async () => expect(await title(tabs[7]!.id!)).toBe(askingTitle));
    const setTitle = vi.spyOn(fakeBrowser.action, 'setTitle');
    vi.resetModules();
    const next = await import('@/lib/registry/show-tool-count');
    await next.resetTitles();
    expect(setTitle.mock.calls).toEqual([[{ tabId: tabs[7]!.id!, title: defaultTitle }]]);
    expect(await title(tabs[7]!.id!)).toBe(defaultTitle);
    // Put back once: the next start has nothing to do.
    setTitle.mockClear();
    vi.resetModules();
    await (await import('@/lib/registry/show-tool-count')).resetTitles();
    expect(setTitle).not.toHaveBeenCalled();
  });
});

describe('the toolbar badge of a tab with tools', () => {
  it('counts a tool that two frames offer once, as the side panel and the model do', async () => {
    const { id } = await fakeBrowser.tabs.create({ url: 'https://shop.example/' });
    const { showToolCount } = await import('@/lib/registry/show-tool-count');
    const tool = (name: string, frameId: number) => ({ name, description: `${name}.`, inputSchema: { type: 'object', properties: {} }, frameId, origin: 'https://shop.example', source: 'native' as const });
    const tools = [tool('search', 0), tool('add_to_cart', 0), tool('track_order', 0), tool('search', 1)];
    showToolCount(id!, { tabId: id!, url: 'https://shop.example/', origin: 'https://shop.example', tools, dropped: [], updatedAt: 1 });
    await vi.waitFor(async () => expect(await fakeBrowser.action.getBadgeText({ tabId: id! })).toBe('3'));
  });

  it('says what the number is on the icon’s title, and what a question mark is while a call waits', async () => {
    const { id } = await fakeBrowser.tabs.create({ url: 'https://shop.example/' });
    const { showAsking, showToolCount } = await import('@/lib/registry/show-tool-count');
    const tool = (name: string) => ({ name, description: `${name}.`, inputSchema: { type: 'object', properties: {} }, frameId: 0, origin: 'https://shop.example', source: 'native' as const });
    const report = (names: string[]) => ({ tabId: id!, url: 'https://shop.example/', origin: 'https://shop.example', tools: names.map(tool), dropped: [], updatedAt: 1 });
    showToolCount(id!, report(['search', 'add_to_cart', 'track_order']));
    await vi.waitFor(async () => expect(await title(id!)).toBe(`${defaultTitle}: 3 WebMCP tools on this page`));
    showAsking(id!, true);
    await vi.waitFor(async () => expect(await title(id!)).toBe(askingTitle));
    showAsking(id!, false);
    await vi.waitFor(async () => expect(await title(id!)).toBe(`${defaultTitle}: 3 WebMCP tools on this page`));
    showToolCount(id!, report(['search']));
    await vi.waitFor(async () => expect(await title(id!)).toBe(`${defaultTitle}: 1 WebMCP tool on this page`));
    showToolCount(id!, undefined);
    await vi.waitFor(async () => expect(await title(id!)).toBe(defaultTitle));
  });
});

describe('the toolbar badge where the agent is off', () => {
  it('shows no count on a sandboxed page of a site the agent is off on, named by its address', async () => {
    const { id } = await fakeBrowser.tabs.create({ url: 'https://shop.example/app' });
    const { showToolCount, showAgentOffSites } = await import('@/lib/registry/show-tool-count');
    showAgentOffSites(['https://shop.example']);
    const tool = { name: 'search', description: 'Search.', inputSchema: { type: 'object', properties: {} }, frameId: 1, origin: 'https://shop.example', source: 'native' as const };
    showToolCount(id!, { tabId: id!, url: 'https://shop.example/app', origin: 'null', tools: [tool], dropped: [], updatedAt: 1 });
    await vi.waitFor(async () => expect(await fakeBrowser.action.getBadgeText({ tabId: id! })).toBe(''));
    expect(await title(id!)).toBe(`${defaultTitle} (turned off on this site)`);
  });
});
