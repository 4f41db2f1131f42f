// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { createAdapterDiscovery } from '@/lib/webmcp/bridge/adapter-discovery';

/** A polyfill's context: what `document.modelContext` of a page without the browser's holds. */
function context(name: string) {
  const tool = { name, description: `The ${name} tool.`, inputSchema: { type: 'object', properties: {} } };
  return { getTools: async () => [tool], executeTool: async () => 'ok', addEventListener() {}, removeEventListener() {} };
}

afterEach(() => {
  delete (document as unknown as Record<string, unknown>).modelContext;
  delete (navigator as unknown as Record<string, unknown>).modelContext;
});

describe('the bridge looking for the contexts a page installs', () => {
  it('does not read the getter a polyfill puts on navigator for older pages beside its document.modelContext (it warns at each read)', async () => {
    // The bridge starts before any script of the page.
    const discovery = createAdapterDiscovery(() => {});
    const installed = context('search');
    let reads = 0;
    Object.defineProperty(document, 'modelContext', { value: installed, configurable: true });
    Object.defineProperty(navigator, 'modelContext', { get: () => (reads++, installed), configurable: true });
    discovery.discover();
    discovery.discover();
    expect(reads).toBe(0);
    expect(discovery.adapters()).toHaveLength(1);
    expect(await discovery.adapters()[0]!.list()).toEqual([expect.objectContaining({ name: 'search' })]);
  });

  it('still finds a context an older page puts on navigator alone, getter or value', async () => {
    const discovery = createAdapterDiscovery(() => {});
    const older = context('legacy_search');
    Object.defineProperty(navigator, 'modelContext', { get: () => older, configurable: true });
    discovery.discover();
    expect(await discovery.adapters()[0]!.list()).toEqual([expect.objectContaining({ name: 'legacy_search' })]);
  });

  it('still finds a second context a page keeps as a plain value on navigator', async () => {
    const discovery = createAdapterDiscovery(() => {});
    Object.defineProperty(document, 'modelContext', { value: context('search'), configurable: true });
    Object.defineProperty(navigator, 'modelContext', { value: context('legacy_search'), configurable: true });
    discovery.discover();
    expect(discovery.adapters()).toHaveLength(2);
  });
});
