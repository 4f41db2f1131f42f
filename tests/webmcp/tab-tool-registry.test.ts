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

  it('keeps a tool’s output schema, and the reason one was left out, through its check', async () => {
    const registry = new TabToolRegistry(memoryStorage());
    const outputSchema = { type: 'object', properties: { total: { type: 'number' } } };
    const outputSchemaProblem = 'the output schema is text that is not valid JSON';
    await registry.report(top, { url: top.url, tools: [{ ...tool('cart_total'), outputSchema }, { ...tool('cart_items'), outputSchemaProblem }], dropped: [] });
    expect((await registry.get(7))?.tools).toEqual([
      expect.objectContaining({ name: 'cart_total', outputSchema }),
      expect.objectContaining({ name: 'cart_items', outputSchemaProblem }),
    ]);
  });

  it('uses no tool of a sandboxed document, framed or a whole tab, whatever site its address names', async () => {
    const registry = new TabToolRegistry(memoryStorage());
    const sandboxedFrame = { ...frame, url: 'https://bank.example/balance', origin: 'null' };
    await registry.report(top, report(top.url, ['checkout']));
    await registry.report(sandboxedFrame, report(sandboxedFrame.url, ['get_balance']));
    expect((await registry.get(7))?.tools.map((entry) => entry.name)).toEqual(['checkout']);
    expect((await registry.get(7))?.dropped).toEqual([
      { name: 'get_balance', reason: 'this frame has an opaque origin (it is sandboxed, or a data: address), so no site vouches for its tools', frameId: 12 },
    ]);
    // A page a sandboxed frame opened in a tab of its own; a file of this computer keeps its tools.
    await registry.report({ ...top, tabId: 8, url: 'https://bank.example/', origin: 'null' }, report('https://bank.example/', ['transfer']));
    expect((await registry.get(8))?.dropped.map((entry) => entry.reason)).toEqual(['this page has an opaque origin (it is sandboxed, or a data: address), so no site vouches for its tools']);
    await registry.report({ ...top, tabId: 9, url: 'file:///home/ada/menu.html', origin: 'null' }, report('file:///home/ada/menu.html', ['order']));
    expect((await registry.get(9))?.tools.map((entry) => entry.name)).toEqual(['order']);
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

  it('announces no report that says again what its frame said last, and every one that changes anything', async () => {
    const registry = new TabToolRegistry(memoryStorage());
    const seen: string[][] = [];
    registry.onChange((_tabId, tabTools) => seen.push(tabTools?.tools.map((entry) => `${entry.name}: ${entry.description} ${JSON.stringify(entry.inputSchema)}`) ?? []));
    await registry.report(top, report(top.url, ['a', 'b']));
    // Asked again (a panel opening on the tab): the same tools, in new objects.
    await registry.report(top, report(top.url, ['a', 'b']));
    expect(seen).toHaveLength(1);
    const described = { ...tool('a'), description: 'The a tool, now with more words.' };
    const schema = { ...tool('a'), inputSchema: { type: 'object', properties: { size: { type: 'string' } } } };
    for (const tools of [[described, tool('b')], [schema, tool('b')], [tool('b'), schema]]) {
      await registry.report(top, { url: top.url, tools, dropped: [] });
      await registry.report(top, { url: top.url, tools, dropped: [] });
    }
    await registry.report({ ...top, tabTitle: 'Cart · Trail & Mug' }, { url: top.url, tools: [tool('b'), schema], dropped: [] });
    expect(seen).toEqual([
      ['a: The a tool. {"type":"object"}', 'b: The b tool. {"type":"object"}'],
      ['a: The a tool, now with more words. {"type":"object"}', 'b: The b tool. {"type":"object"}'],
      ['a: The a tool. {"type":"object","properties":{"size":{"type":"string"}}}', 'b: The b tool. {"type":"object"}'],
      ['b: The b tool. {"type":"object"}', 'a: The a tool. {"type":"object","properties":{"size":{"type":"string"}}}'],
      // The tab's title comes with the report: the panels name the tab anew.
      ['b: The b tool. {"type":"object"}', 'a: The a tool. {"type":"object","properties":{"size":{"type":"string"}}}'],
    ]);
  });

  it('announces a frame’s first report after a service-worker restart, though the saved tabs held it: the badge counts anew', async () => {
    const storage = memoryStorage();
    await new TabToolRegistry(storage).report(top, report(top.url, ['a']));
    const woken = new TabToolRegistry(storage);
    const seen: Array<string[] | undefined> = [];
    woken.onChange((_tabId, tabTools) => seen.push(tabTools?.tools.map((entry) => entry.name)));
    await woken.report(top, report(top.url, ['a']));
    await woken.report(top, report(top.url, ['a']));
    expect(seen).toEqual([['a']]);
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

  describe('tells a frame’s documents apart where the browser names them', () => {
    // Back from a product page to the list, restored from the back/forward cache: the list reports
    // at once on pageshow, and the product page's goodbye, from another process, comes after it.
    const list = { ...top, url: 'https://shop.example/list', documentId: 'list-document' };
    const product = { ...top, url: 'https://shop.example/mug', documentId: 'product-document' };

    it('keeps the tools of the frame’s document when the goodbye of the one it left arrives after them', async () => {
      const registry = new TabToolRegistry(memoryStorage());
      await registry.report(product, report(product.url, ['add_to_cart']));
      await registry.report(list, report(list.url, ['search']));
      await registry.frameGone(7, 0, 'product-document');
      expect((await registry.get(7))?.tools.map((entry) => [entry.name, entry.documentId])).toEqual([['search', 'list-document']]);
      // The tab names the top frame's document, which stays while a single-page app moves the address.
      expect((await registry.get(7))?.documentId).toBe('list-document');
      // The list's own goodbye still takes its tools.
      await registry.frameGone(7, 0, 'list-document');
      expect(await registry.get(7)).toBeUndefined();
    });

    it('keeps the report of the document that committed, whatever the clocks say, and drops any other', async () => {
      const registry = new TabToolRegistry(memoryStorage());
      await registry.report(list, report(list.url, ['search']));
      await registry.report(frame, report(frame.url, ['pay']));
      // The browser's commit stamp is not comparable with the worker's clock: it may read later.
      await registry.documentCommitted(7, 0, Date.now() + 60_000, 'list-document');
      expect((await registry.get(7))?.tools.map((entry) => entry.name)).toEqual(['search']);
      await registry.documentCommitted(7, 0, 0, 'product-document');
      expect(await registry.get(7)).toBeUndefined();
    });
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

  it('takes the tab’s address where a single-page app moved on since its document loaded, as long as it is of the same site', async () => {
    const registry = new TabToolRegistry(memoryStorage());
    // The browser tells a report the address the document loaded at, and the tab's address now.
    await registry.report({ ...top, tabUrl: 'https://shop.example/orders/42' }, report(top.url, ['track_order']));
    expect((await registry.get(7))?.url).toBe('https://shop.example/orders/42');
    // A tab already on another site names a page these tools are not of.
    await registry.report({ ...top, tabUrl: 'https://elsewhere.example/' }, report(top.url, ['checkout']));
    expect((await registry.get(7))?.url).toBe('https://shop.example/cart');
  });

  it('keeps the tab’s title the browser told with a report, until a later report tells another', async () => {
    const registry = new TabToolRegistry(memoryStorage());
    await registry.report({ ...top, tabTitle: 'Enamel mug · Trail & Mug' }, report(top.url, ['add_to_cart']));
    expect((await registry.get(7))?.title).toBe('Enamel mug · Trail & Mug');
    // A frame's report the browser told no title with leaves it as it was.
    await registry.report(frame, report(frame.url, ['pay']));
    expect((await registry.get(7))?.title).toBe('Enamel mug · Trail & Mug');
    await registry.report({ ...top, tabTitle: 'Cart · Trail & Mug' }, report(top.url, ['checkout']));
    expect((await registry.get(7))?.title).toBe('Cart · Trail & Mug');
  });

  describe('caps each tab, whatever number of frames the page makes', () => {
    const names = (prefix: string, count: number) => Array.from({ length: count }, (_, index) => `${prefix}_${index}`);
    const inner = (frameId: number) => ({ tabId: 7, frameId, url: `https://shop.example/frame${frameId}`, origin: 'https://shop.example' });

    it('lets the frames inside a page share 500 tools; the top frame keeps its own 500, and the inspector says why the rest went', async () => {
      const registry = new TabToolRegistry(memoryStorage());
      await registry.report(top, report(top.url, names('page', 500)));
      await registry.report(inner(1), report('', names('first', 300)));
      await registry.report(inner(2), report('', names('second', 300)));
      await registry.report(top, report(top.url, names('page', 500)));
      const tabTools = (await registry.get(7)) as TabTools;
      expect(tabTools.tools.map((entry) => entry.name)).toEqual([...names('page', 500), ...names('first', 300), ...names('second', 200)]);
      expect(tabTools.dropped).toEqual(
        names('second', 300)
          .slice(200)
          .map((name) => ({ name, reason: 'the frames inside this page together offer more than 500 tools', frameId: 2 })),
      );
    });

    it('lets the frames inside a page share 4,000,000 characters', async () => {
      const registry = new TabToolRegistry(memoryStorage());
      const large = (name: string) => ({ ...tool(name), description: 'd'.repeat(9_900) });
      await registry.report(inner(1), { url: '', tools: names('first', 300).map(large), dropped: [] });
      await registry.report(inner(2), { url: '', tools: names('second', 300).map(large), dropped: [] });
      const tabTools = (await registry.get(7)) as TabTools;
      const kept = tabTools.tools.filter((entry) => entry.frameId === 2).length;
      expect(JSON.stringify(tabTools.tools.map(({ frameId: _frameId, ...reported }) => reported)).length).toBeLessThanOrEqual(4_000_000);
      expect(kept).toBeGreaterThan(0);
      expect(tabTools.dropped).toHaveLength(300 - kept);
      expect(tabTools.dropped[0]).toEqual({
        name: `second_${kept}`,
        reason: 'the tools of the frames inside this page together pass the limit of 4,000,000 characters',
        frameId: 2,
      });
    });

    it('takes tools from at most 50 frames inside a page; a frame past them shows one line saying so', async () => {
      const registry = new TabToolRegistry(memoryStorage());
      for (let frameId = 1; frameId <= 51; frameId += 1) await registry.report(inner(frameId), report('', [`tool_${frameId}`]));
      await registry.report(inner(52), report('', ['a', 'b', 'c']));
      await registry.report(top, report(top.url, ['checkout']));
      const tabTools = (await registry.get(7)) as TabTools;
      expect(tabTools.tools.map((entry) => entry.name)).toEqual(['checkout', ...Array.from({ length: 50 }, (_, index) => `tool_${index + 1}`)]);
      expect(tabTools.dropped).toEqual([
        { name: '(1 tool)', reason: 'more than 50 frames inside this page offer tools', frameId: 51 },
        { name: '(3 tools)', reason: 'more than 50 frames inside this page offer tools', frameId: 52 },
      ]);
    });
  });

  it('keeps at most 100 frames inside a page and 610 refusals among them, however many frames only report refusals', async () => {
    const registry = new TabToolRegistry(memoryStorage());
    const refusals = (frameId: number) => Array.from({ length: 50 }, (_, index) => ({ name: `bad ${frameId}.${index}`, reason: 'the name is not allowed' }));
    for (let frameId = 1; frameId <= 150; frameId += 1) {
      await registry.report({ tabId: 7, frameId, url: `https://shop.example/f${frameId}`, origin: 'https://shop.example' }, { url: '', tools: [], dropped: refusals(frameId) });
    }
    const tabTools = (await registry.get(7)) as TabTools;
    expect(new Set(tabTools.dropped.map((entry) => entry.frameId)).size).toBeLessThanOrEqual(100);
    expect(tabTools.dropped.length).toBeLessThanOrEqual(610 + 100);
    expect(tabTools.dropped.filter((entry) => entry.name.endsWith(' more)'))[0]).toEqual(
      expect.objectContaining({ reason: 'the frames inside this page refused too many tools to list each' }),
    );
  });

  it('asks a frame whose tools were left out for want of room to report again once a frame leaving makes room', async () => {
    const asked: Array<[number, number[]]> = [];
    const registry = new TabToolRegistry(memoryStorage(), (tabId, frameIds) => asked.push([tabId, frameIds]));
    const inner = (frameId: number) => ({ tabId: 7, frameId, url: `https://shop.example/f${frameId}`, origin: 'https://shop.example' });
    await registry.report(inner(1), report('', Array.from({ length: 500 }, (_, index) => `big_${index}`)));
    await registry.report(inner(2), report('', ['pay']));
    expect((await registry.get(7))?.dropped.map((entry) => entry.name)).toEqual(['pay']);
    await registry.frameGone(7, 1);
    expect(asked).toEqual([[7, [2]]]);
    // The frame reports again, as its content script does when asked: now its tool fits.
    await registry.report(inner(2), report('', ['pay']));
    expect((await registry.get(7))?.tools.map((entry) => entry.name)).toEqual(['pay']);
  });

  it('asks frames the tab kept nothing of (past 100 frames inside the page) to report again once frames leaving make room', async () => {
    const asked: number[][] = [];
    const registry = new TabToolRegistry(memoryStorage(), (_tabId, frameIds) => asked.push(frameIds));
    const inner = (frameId: number) => ({ tabId: 7, frameId, url: `https://ads.example/f${frameId}`, origin: 'https://ads.example' });
    const refusal = (frameId: number) => ({ url: '', tools: [], dropped: [{ name: `bad ${frameId}`, reason: 'the name is not allowed' }] });
    for (let frameId = 1; frameId <= 100; frameId += 1) await registry.report(inner(frameId), refusal(frameId));
    await registry.report(inner(101), report('', ['pay']));
    await registry.report(inner(102), report('', ['ship']));
    expect((await registry.get(7))?.tools).toEqual([]);
    await registry.frameGone(7, 1);
    expect(asked).toEqual([[101]]);
    await registry.report(inner(101), report('', ['pay']));
    await registry.documentCommitted(7, 2, Date.now() + 1);
    expect(asked).toEqual([[101], [102]]);
    await registry.report(inner(102), report('', ['ship']));
    expect((await registry.get(7))?.tools.map((entry) => entry.name)).toEqual(['pay', 'ship']);
    // A new page in the tab forgets the frames the old one made.
    await registry.report(inner(103), report('', ['late']));
    await registry.documentCommitted(7, 0, Date.now() + 2);
    await registry.report(top, report(top.url, ['checkout']));
    await registry.frameGone(7, 0);
    expect(asked).toEqual([[101], [102]]);
  });

  it('answers one tab while another tab’s change is still being saved', async () => {
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const storage = memoryStorage();
    const registry = new TabToolRegistry({ load: storage.load, save: async (tabId, entry) => (tabId === 1 ? gate : storage.save(tabId, entry)) });
    const order: string[] = [];
    setTimeout(() => {
      order.push('tab 1 saved');
      openGate();
    }, 0);
    const busy = registry.report({ ...top, tabId: 1 }, report(top.url, ['flood']));
    await registry.report({ ...top, tabId: 2 }, report(top.url, ['add_to_cart']));
    const other = await registry.get(2);
    order.push(`tab 2 answered: ${other?.tools.map((entry) => entry.name).join(', ')}`);
    await busy;
    expect(order).toEqual(['tab 2 answered: add_to_cart', 'tab 1 saved']);
  });

  it('keeps only a frame’s latest report while its tab is busy: the replaced ones are let go and never shown', async () => {
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const storage = memoryStorage();
    let saves = 0;
    const registry = new TabToolRegistry({
      load: storage.load,
      save: async () => {
        saves += 1;
        if (saves === 1) await gate;
      },
    });
    const events: string[] = [];
    registry.onChange((_tabId, tabTools) => events.push(`inspector shows ${tabTools?.tools.map((entry) => entry.name).join(', ')}`));
    setTimeout(() => {
      events.push('first change saved');
      openGate();
    }, 0);
    const first = registry.report(top, report(top.url, ['a']));
    const replaced = ['b1', 'b2'].map((name) => registry.report(frame, report(frame.url, [name])).then(() => events.push(`${name} answered`)));
    const latest = registry.report(frame, report(frame.url, ['b3']));
    await Promise.all([first, ...replaced, latest]);
    expect(events).toEqual(['b1 answered', 'b2 answered', 'first change saved', 'inspector shows a', 'inspector shows a, b3']);
    expect(saves).toBe(2);
  });
});
