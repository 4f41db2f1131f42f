import { describe, expect, it } from 'vitest';
import type { TabEntry } from '@/lib/registry/frame-tools';
import { TabToolRegistry, type RegistryStorage } from '@/lib/registry/tab-tool-registry';
import type { TabTools } from '@/lib/registry/types';

/** Storage as session storage behaves: values are copied in and out. */
function memoryStorage(initial: Map<number, TabEntry> = new Map()): RegistryStorage & { saved: Map<number, TabEntry> } {
  const saved = new Map(initial);
  return {
    saved,
    load: async () => new Map(structuredClone([...saved])),
    save: async (tabId, entry) => {
      if (entry) saved.set(tabId, structuredClone(entry));
      else saved.delete(tabId);
    },
  };
}

const top = { tabId: 7, frameId: 0, url: 'https://shop.example/cart', origin: 'https://shop.example' };
const frame = { tabId: 7, frameId: 12, url: 'https://pay.example/widget', origin: 'https://pay.example' };
const tool = (name: string) => ({ name, description: `The ${name} tool.`, inputSchema: { type: 'object' }, origin: 'https://claimed.example', source: 'native' });
const report = (url: string, names: string[]) => ({ url, tools: names.map(tool), dropped: [] });

describe('the tab tool registry', () => {
  it('merges a tab’s frames, top frame first, each tool with its frame and the sender’s origin', async () => {
    const registry = new TabToolRegistry(memoryStorage());
    await registry.report(frame, report(frame.url, ['pay']));
    await registry.report(top, report(top.url, ['checkout', 'view_cart']));
    const tabTools = await registry.get(7);
    expect(tabTools).toMatchObject({ tabId: 7, url: top.url, origin: 'https://shop.example' });
    expect(tabTools?.tools.map((entry) => [entry.name, entry.frameId, entry.origin])).toEqual([
      ['checkout', 0, 'https://shop.example'],
      ['view_cart', 0, 'https://shop.example'],
      ['pay', 12, 'https://pay.example'],
    ]);
  });

  it('checks each reported tool again and drops one that fails, keeping the rest', async () => {
    const registry = new TabToolRegistry(memoryStorage());
    const bad = { name: 'bad name', description: 'x', inputSchema: {}, origin: '', source: 'native' };
    await registry.report(top, { url: top.url, tools: [tool('fine'), bad], dropped: [{ name: 'other', reason: 'the page said so' }] });
    const tabTools = await registry.get(7);
    expect(tabTools?.tools.map((entry) => entry.name)).toEqual(['fine']);
    expect(tabTools?.dropped).toEqual([
      { name: 'other', reason: 'the page said so', frameId: 0 },
      { name: 'bad name', reason: 'it failed the background check', frameId: 0 },
    ]);
  });

  it('announces every change, and forgets a frame that left and a tab that closed', async () => {
    const registry = new TabToolRegistry(memoryStorage());
    const seen: Array<[number, string[] | undefined]> = [];
    registry.onChange((tabId, tabTools) => seen.push([tabId, tabTools?.tools.map((entry) => entry.name)]));
    await registry.report(top, report(top.url, ['a']));
    await registry.report(frame, report(frame.url, ['b']));
    await registry.frameGone(7, 12);
    await registry.removeTab(7);
    await registry.frameGone(7, 0);
    expect(seen).toEqual([
      [7, ['a']],
      [7, ['a', 'b']],
      [7, ['a']],
      [7, undefined],
    ]);
    expect(await registry.get(7)).toBeUndefined();
  });

  it('forgets an old document’s tools when a new one commits, without waiting for its goodbye', async () => {
    const registry = new TabToolRegistry(memoryStorage());
    await registry.report(top, report(top.url, ['a']));
    await registry.report(frame, report(frame.url, ['b']));
    const afterReports = Date.now() + 1;
    await new Promise((resolve) => setTimeout(resolve, 5));

    // A new document in the frame: only that frame's tools go.
    await registry.documentCommitted(7, 12, afterReports);
    expect((await registry.get(7))?.tools.map((entry) => entry.name)).toEqual(['a']);
    await registry.report(frame, report(frame.url, ['b2']));

    // The new top document reported before the commit event arrived: its tools stay.
    await registry.report(top, report('https://shop.example/next', ['c']));
    await registry.documentCommitted(7, 0, afterReports);
    expect((await registry.get(7))?.tools.map((entry) => entry.name)).toEqual(['c', 'b2']);

    // A later top-document commit takes every frame with it.
    await registry.documentCommitted(7, 0, Date.now() + 1);
    expect(await registry.get(7)).toBeUndefined();
  });

  it('comes back after a service-worker restart with what it had saved', async () => {
    const storage = memoryStorage();
    const first = new TabToolRegistry(storage);
    await first.report(top, report(top.url, ['a', 'b']));
    const second = new TabToolRegistry(storage);
    expect((await second.get(7))?.tools.map((entry) => entry.name)).toEqual(['a', 'b']);
    expect(await second.tabIds()).toEqual([7]);
  });

  it('applies changes that arrive before the saved tabs are loaded after them', async () => {
    const saved = new Map<number, TabEntry>([[7, { frames: { 0: { url: top.url, origin: top.origin, tools: [], dropped: [], updatedAt: 1 } } }]]);
    const storage = memoryStorage(saved);
    const registry = new TabToolRegistry(storage);
    // A tab closed while the worker slept: the close must not be undone by the load.
    const removal = registry.removeTab(7);
    await removal;
    expect(await registry.get(7)).toBeUndefined();
    expect(storage.saved.has(7)).toBe(false);
  });

  it('takes the tab’s address from the top frame, else from the tab, else from a frame', async () => {
    const registry = new TabToolRegistry(memoryStorage());
    await registry.report({ ...frame, tabUrl: 'https://shop.example/' }, report(frame.url, ['pay']));
    const tabTools = (await registry.get(7)) as TabTools;
    expect([tabTools.url, tabTools.origin]).toEqual(['https://shop.example/', 'https://shop.example']);
  });
});
