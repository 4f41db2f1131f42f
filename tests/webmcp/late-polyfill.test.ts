// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setupMainWorldBridge } from '@/lib/webmcp/bridge/main-world-bridge';
import { createBridgeSource, type BridgeSource } from '@/lib/webmcp/bridge-source';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const stops: Array<() => void> = [];
afterEach(() => {
  stops.splice(0).forEach((stop) => stop());
  // Each test's page starts without a context: the bridge takes what is there at its start for the browser's own.
  delete (navigator as { modelContext?: unknown }).modelContext;
});

/** Both halves as the browser starts them, at document_start; the content script's half is closed after the test. */
function startBridge(): BridgeSource {
  const source = createBridgeSource();
  stops.push(() => source.close());
  setupMainWorldBridge();
  return source;
}

/** A strict polyfill of modelContext with one tool, as @mcp-b/webmcp-polyfill installs itself. */
function installPolyfill(name: string): void {
  const context = Object.assign(new EventTarget(), {
    getTools: async () => [{ name, description: 'A tool of a polyfill that came late.', window }],
    executeTool: async () => 'ok',
  });
  Object.defineProperty(navigator, 'modelContext', { value: context, configurable: true });
}

/** What the browser's own `load` looks like: trusted, unlike anything a page dispatches. */
function browserLoad(): Event {
  return Object.defineProperty(new Event('load'), 'isTrusted', { value: true });
}

const listed = async (source: BridgeSource) => (await source.list()).offered.map(({ tool }) => (tool as { name: string }).name);

describe('a polyfill set up after the page loaded', () => {
  it('is listed when the page’s own load handler sets it up', async () => {
    Object.defineProperty(document, 'readyState', { value: 'loading', configurable: true });
    const source = startBridge();
    // A page script's load handler, added after the bridge's (which started at document_start).
    window.addEventListener('load', () => installPolyfill('from_load_handler'), { once: true });
    delete (document as { readyState?: unknown }).readyState;
    window.dispatchEvent(browserLoad());
    await vi.waitFor(async () => expect(await listed(source)).toEqual(['from_load_handler']), { timeout: 500 });
  });

  it('is listed within about a second when a chunk loaded after the page sets it up', async () => {
    const source = startBridge();
    await sleep(300);
    installPolyfill('from_lazy_chunk');
    await vi.waitFor(async () => expect(await listed(source)).toEqual(['from_lazy_chunk']), { timeout: 1_500, interval: 50 });
  });

  it('is listed at once when the background asks the page for its tools, whenever it came', async () => {
    const source = startBridge();
    await sleep(50);
    installPolyfill('from_tag_manager');
    // The side panel opens on the tab (tools-request): the content script asks the silent bridge.
    source.refresh();
    await sleep(150);
    // Well before the bridge's own next look, a second after load.
    expect(await listed(source)).toEqual(['from_tag_manager']);
  });
});
