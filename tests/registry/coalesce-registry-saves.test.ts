import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeBrowser } from 'wxt/testing/fake-browser';
import { coalesceRegistrySaves } from '@/lib/registry/coalesce-registry-saves';
import type { TabEntry } from '@/lib/registry/frame-tools';
import { TabToolRegistry, type RegistryStorage } from '@/lib/registry/tab-tool-registry';
import { wireToolRegistry } from '@/lib/registry/wire-tool-registry';
import { createTabEvents } from '@/lib/service-worker/tab-events';

// The inspector's port and tab replacement are not what this file checks (fakeBrowser has neither).
vi.mock('@/lib/messaging/port-channel', () => ({ acceptChannels: vi.fn() }));
Object.assign(fakeBrowser.tabs, { onReplaced: { addListener: () => {}, removeListener: () => {} } });

/** Storage as session storage behaves (values copied in and out), counting its writes. */
function memoryStorage(): RegistryStorage & { saved: Map<number, TabEntry>; writes: number } {
  const saved = new Map<number, TabEntry>();
  return {
    saved,
    writes: 0,
    load: async () => new Map(structuredClone([...saved])),
    async save(tabId, entry) {
      this.writes += 1;
      if (entry) saved.set(tabId, structuredClone(entry));
      else saved.delete(tabId);
    },
  };
}

const top = { tabId: 7, frameId: 0, url: 'https://shop.example/', origin: 'https://shop.example' };
const tool = (name: string) => ({ name, description: `The ${name} tool.`, inputSchema: { type: 'object' }, origin: top.origin, source: 'native' as const });
const entryWith = (...names: string[]): TabEntry => ({ frames: { 0: { url: top.url, origin: top.origin, tools: names.map(tool), dropped: [], updatedAt: 1 } } });
const savedNames = (storage: { saved: Map<number, TabEntry> }) => storage.saved.get(7)?.frames[0]?.tools.map((entry) => entry.name);

describe('the registry’s saves, a tab at most every 1.5 s while its tools keep changing', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes a tab whose tools change every 100 ms at most once every 1.5 s, and its latest tools once they stop', async () => {
    const storage = memoryStorage();
    const saves = coalesceRegistrySaves(storage, 1_500);
    for (let change = 0; change < 50; change += 1) {
      await saves.save(7, entryWith(`tool_${change}`));
      await vi.advanceTimersByTimeAsync(100);
    }
    // Five seconds of changes: the first written at once, then one every 1.5 s.
    expect(storage.writes).toBeLessThanOrEqual(5);
    await vi.advanceTimersByTimeAsync(1_500);
    expect(savedNames(storage)).toEqual(['tool_49']);
  });

  it('writes a tab that appears or goes at once, and never a change that waited after the tab went', async () => {
    const storage = memoryStorage();
    const saves = coalesceRegistrySaves(storage, 1_500);
    await saves.save(7, entryWith('search'));
    expect(savedNames(storage)).toEqual(['search']);
    await saves.save(7, entryWith('search', 'add_to_cart'));
    await saves.save(7, undefined);
    expect(storage.saved.has(7)).toBe(false);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(storage.saved.has(7)).toBe(false);
    // The tab's page reports again: it is a new tab to the storage, written at once.
    await saves.save(7, entryWith('checkout'));
    expect(savedNames(storage)).toEqual(['checkout']);
  });

  it('writes a change after a quiet spell at once', async () => {
    const storage = memoryStorage();
    const saves = coalesceRegistrySaves(storage, 1_500);
    await saves.save(7, entryWith('search'));
    await vi.advanceTimersByTimeAsync(2_000);
    await saves.save(7, entryWith('search', 'add_to_cart'));
    expect(savedNames(storage)).toEqual(['search', 'add_to_cart']);
  });

  it('knows the tabs it loaded: their next change waits its turn like any other', async () => {
    const storage = memoryStorage();
    await coalesceRegistrySaves(storage, 1_500).save(7, entryWith('search'));
    const restarted = coalesceRegistrySaves(storage, 1_500);
    await restarted.load();
    await restarted.save(7, entryWith('search', 'add_to_cart'));
    await restarted.save(7, entryWith('search', 'add_to_cart', 'checkout'));
    expect(storage.writes).toBe(2);
    await vi.advanceTimersByTimeAsync(1_500);
    expect(savedNames(storage)).toEqual(['search', 'add_to_cart', 'checkout']);
  });
});

describe('a worker stopped while a page’s tools kept changing', () => {
  beforeEach(() => {
    vi.restoreAllMocks();
    fakeBrowser.reset();
    // The toolbar's title, which says what the badge counts, begins with the manifest's.
    vi.spyOn(fakeBrowser.runtime, 'getManifest').mockReturnValue({ manifest_version: 3, name: 'test', version: '1', action: { default_title: 'Open the WebMCP agent' } });
  });

  it('leaves the next worker the tab, which it asks to report again: the page’s latest tools come back', async () => {
    const storage = memoryStorage();
    const first = new TabToolRegistry(coalesceRegistrySaves(storage));
    for (let change = 0; change < 10; change += 1) await first.report(top, { url: top.url, tools: [tool(`tool_${change}`)], dropped: [] });
    expect(storage.writes).toBe(1);

    // The worker stops before its next write; the next one starts, as the background wires it.
    vi.spyOn(fakeBrowser.tabs, 'query').mockResolvedValue([{ id: 7 }] as never);
    const asked = vi.spyOn(fakeBrowser.tabs, 'sendMessage').mockResolvedValue({ ok: true, value: null } as never);
    const second = new TabToolRegistry(coalesceRegistrySaves(storage));
    wireToolRegistry(second, { navigations: createTabEvents(), tabRemovals: createTabEvents() });
    await vi.waitFor(() => expect(asked).toHaveBeenCalledWith(7, expect.objectContaining({ type: 'tools-request' }), {}));
    expect((await second.get(7))?.tools.map((entry) => entry.name)).toEqual(['tool_0']);
    // The page answers with what it offers now.
    await second.report(top, { url: top.url, tools: [tool('tool_9')], dropped: [] });
    expect((await second.get(7))?.tools.map((entry) => entry.name)).toEqual(['tool_9']);
  });
});
