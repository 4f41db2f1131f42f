// @vitest-environment happy-dom
import { cleanupWebMCPPolyfill, initializeWebMCPPolyfill } from '@mcp-b/webmcp-polyfill';
import { afterEach, describe, expect, it } from 'vitest';
import { createAdapterDiscovery } from '@/lib/webmcp/bridge/adapter-discovery';

const placeOrder = { name: 'place_order', description: 'Place the order.', inputSchema: { type: 'object', properties: {} }, annotations: { consequentialHint: true }, execute: async () => 'ok' };
const annotationsOf = async (discovery: ReturnType<typeof createAdapterDiscovery>) =>
  ((await discovery.adapters()[0]!.list()) as Array<{ annotations?: unknown }>).map((tool) => tool.annotations);
// Read where happy-dom lets the polyfill put it (the page's navigator; Chrome's pages read document.modelContext too).
const modelContext = () => (navigator as unknown as { modelContext: { registerTool(tool: object): Promise<void> } }).modelContext;

// The polyfill installs itself only in a secure context.
Object.defineProperty(globalThis, 'isSecureContext', { value: true, configurable: true });
afterEach(() => cleanupWebMCPPolyfill());

describe('a consequential tool on a page with the real @mcp-b/webmcp-polyfill 5.1 (which lists no consequentialHint)', () => {
  it('keeps the hint the page registered, where the polyfill was set up by an earlier script', async () => {
    const discovery = createAdapterDiscovery(() => {});
    initializeWebMCPPolyfill();
    // The bridge looks between two scripts.
    discovery.discover();
    await modelContext().registerTool(placeOrder);
    expect(await annotationsOf(discovery)).toEqual([expect.objectContaining({ consequentialHint: true })]);
  });

  it('keeps the output schema the page registered, which the polyfill does not list', async () => {
    const discovery = createAdapterDiscovery(() => {});
    initializeWebMCPPolyfill();
    discovery.discover();
    const outputSchema = { type: 'object', properties: { orderId: { type: 'string' } }, required: ['orderId'] };
    await modelContext().registerTool({ ...placeOrder, outputSchema });
    await modelContext().registerTool({ ...placeOrder, name: 'track_order' });
    const listed = (await discovery.adapters()[0]!.list()) as Array<{ name: string; outputSchema?: unknown }>;
    expect(listed.map(({ name, outputSchema }) => ({ name, outputSchema }))).toEqual([
      { name: 'place_order', outputSchema },
      { name: 'track_order', outputSchema: undefined },
    ]);
  });

  it('asks every time where it was registered in the script that set the polyfill up, unseen', async () => {
    const discovery = createAdapterDiscovery(() => {});
    initializeWebMCPPolyfill();
    await modelContext().registerTool(placeOrder);
    discovery.discover();
    expect(await annotationsOf(discovery)).toEqual([expect.objectContaining({ consequenceUnknown: true })]);
  });
});

describe('a polyfill that keeps its own records of the tools readable, without the hints it does not list', () => {
  function install() {
    const records = new Map<string, { name: string; description: string; inputSchema: object; annotations: Record<string, boolean>; execute(): unknown }>();
    const context = {
      tools: records,
      async registerTool(tool: typeof placeOrder) {
        const { readOnlyHint = false } = tool.annotations as { readOnlyHint?: boolean };
        records.set(tool.name, { ...tool, annotations: { readOnlyHint } });
      },
      async getTools() {
        return [...records.values()].map(({ name, description, inputSchema, annotations }) => ({ name, description, inputSchema, annotations }));
      },
      async executeTool() {
        return 'ok';
      },
    };
    Object.defineProperty(navigator, 'modelContext', { value: context, configurable: true });
    return context;
  }
  afterEach(() => delete (navigator as unknown as { modelContext?: unknown }).modelContext);

  it('reads the hints from what the page registered, not from those records', async () => {
    const discovery = createAdapterDiscovery(() => {});
    const context = install();
    discovery.discover();
    await context.registerTool(placeOrder);
    expect(await annotationsOf(discovery)).toEqual([expect.objectContaining({ consequentialHint: true })]);
  });

  it('still asks every time for a tool registered before it was found, whatever its records say', async () => {
    const discovery = createAdapterDiscovery(() => {});
    const context = install();
    await context.registerTool(placeOrder);
    discovery.discover();
    expect(await annotationsOf(discovery)).toEqual([expect.objectContaining({ consequenceUnknown: true })]);
  });
});
