// @vitest-environment happy-dom
import { afterEach, expect, it, vi } from 'vitest';
import { setupMainWorldBridge } from '@/lib/webmcp/bridge/main-world-bridge';
import { createBridgeSource, type BridgeSource } from '@/lib/webmcp/bridge-source';

const stops: Array<() => void> = [];
afterEach(() => {
  stops.splice(0).forEach((stop) => stop());
  vi.useRealTimers();
  // Each test's page starts without a context: the bridge takes what is there at its start for the browser's own.
  delete (navigator as { modelContext?: unknown }).modelContext;
});

/**
 * Both halves as the browser starts them, then a polyfill whose `getTools()` is `getTools`;
 * `change` is the polyfill saying its tools changed. The content script's half is closed after the test.
 */
function startPolyfillPage(getTools: () => Promise<unknown[]>): { source: BridgeSource; change: () => void } {
  const source = createBridgeSource();
  stops.push(() => source.close());
  setupMainWorldBridge();
  const context = Object.assign(new EventTarget(), { getTools, executeTool: async () => 'ran' });
  Object.defineProperty(navigator, 'modelContext', { value: context, configurable: true });
  return { source, change: () => context.dispatchEvent(new Event('toolchange')) };
}

const tool = (name: string) => ({ name, description: `Tool ${name}.` });
const listed = async (source: BridgeSource) => (await source.list()).offered.map((entry) => (entry.tool as { name: string }).name);

it('passes on a polyfilled tool’s long error cut to 2,000 characters, saying so', async () => {
  const source = createBridgeSource();
  stops.push(() => source.close());
  setupMainWorldBridge();
  const context = Object.assign(new EventTarget(), {
    getTools: async () => [{ name: 'pay', description: 'Pays.' }],
    executeTool: async () => {
      throw new Error(`Card declined. ${'z'.repeat(4_985)}`);
    },
  });
  Object.defineProperty(navigator, 'modelContext', { value: context, configurable: true });
  window.dispatchEvent(new Event('load'));
  // Until the bridge has found the tool: on a busy machine that takes longer than any fixed pause.
  await vi.waitFor(async () => expect((await source.list()).offered).toHaveLength(1));
  const error = await source.execute('pay', {}, new AbortController().signal).then(
    () => undefined,
    (thrown: Error) => thrown,
  );
  const kept = error?.message.indexOf('\n') ?? -1;
  expect(error?.message.length).toBeLessThanOrEqual(2_000);
  expect(error?.message.startsWith('Card declined. zzz')).toBe(true);
  expect(error?.message.slice(kept)).toBe(`\n… (cut: ${5_000 - kept} of 5000 characters not shown)`);
});

it('leaves the latest listing last when a slow getTools() ends after a quicker, later one', async () => {
  vi.useFakeTimers();
  let names = ['a'];
  let slow: Promise<void> | undefined;
  let release: () => void = () => {};
  const { source, change } = startPolyfillPage(async () => {
    const listing = names.map(tool);
    // A polyfill that loads its definitions lazily, once.
    if (slow) await slow;
    return listing;
  });
  await vi.advanceTimersByTimeAsync(100);
  expect(await listed(source)).toEqual(['a']);
  names = ['a', 'b'];
  slow = new Promise((resolve) => (release = resolve));
  change();
  await vi.advanceTimersByTimeAsync(100);
  slow = undefined;
  names = ['a', 'b', 'c'];
  change();
  await vi.advanceTimersByTimeAsync(100);
  release();
  await vi.advanceTimersByTimeAsync(100);
  expect(await listed(source)).toEqual(['a', 'b', 'c']);
  await expect(source.execute('c', {}, new AbortController().signal)).resolves.toBe('ran');
});
