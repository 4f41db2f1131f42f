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
  // However long the slow reading took, a change shows within 3 s (see waitAfterWork).
  await vi.advanceTimersByTimeAsync(3_000);
  expect(await listed(source)).toEqual(['a', 'b', 'c']);
  await expect(source.execute('c', {}, new AbortController().signal)).resolves.toBe('ran');
});

it('still posts a tool added later when the polyfill’s first getTools() hangs, and drops that call’s late answer', async () => {
  vi.useFakeTimers();
  let names = ['a'];
  let calls = 0;
  let answerFirst: () => void = () => {};
  const { source, change } = startPolyfillPage(async () => {
    calls += 1;
    const listing = names.map(tool);
    // The first call comes while the polyfill starts, and is not answered for a long while.
    if (calls === 1) await new Promise<void>((resolve) => (answerFirst = resolve));
    return listing;
  });
  await vi.advanceTimersByTimeAsync(500);
  names = ['a', 'b'];
  change();
  await vi.advanceTimersByTimeAsync(10_000);
  expect(await listed(source)).toEqual(['a', 'b']);
  answerFirst();
  await vi.advanceTimersByTimeAsync(10_000);
  expect(await listed(source)).toEqual(['a', 'b']);
});

it('posts the tools of a polyfill slow to answer its first getTools() once they come, with nothing else changing', async () => {
  vi.useFakeTimers();
  let calls = 0;
  const { source } = startPolyfillPage(async () => {
    calls += 1;
    // Loading its registry the first time takes five seconds; later calls answer at once.
    if (calls === 1) await new Promise((resolve) => setTimeout(resolve, 5_000));
    return [tool('a'), tool('b')];
  });
  await vi.advanceTimersByTimeAsync(4_000);
  expect(await listed(source)).toEqual([]);
  await vi.advanceTimersByTimeAsync(10_000);
  expect(await listed(source)).toEqual(['a', 'b']);
});

it('shows the last listing of a polyfill whose getTools() always takes longer than the bridge waits, says so, and does not ask it over and over', async () => {
  vi.useFakeTimers();
  let calls = 0;
  const { source } = startPolyfillPage(async () => {
    calls += 1;
    await new Promise((resolve) => setTimeout(resolve, 4_000));
    return [tool('a')];
  });
  await vi.advanceTimersByTimeAsync(20_000);
  const listing = await source.list();
  expect(listing.offered.map((entry) => (entry.tool as { name: string }).name)).toEqual(['a']);
  expect(listing.refused).toContainEqual(expect.objectContaining({ reason: expect.stringContaining('took longer than 3 s') }));
  const callsSoFar = calls;
  await vi.advanceTimersByTimeAsync(60_000);
  expect(calls).toBe(callsSoFar);
});

it('leaves the page most of its thread when its tools change at every render: a post that took long waits four times as long', async () => {
  vi.useFakeTimers();
  let render = 0;
  // Hundreds of tools take the polyfill 40 ms to list, and a framework registers one again at every render.
  const { source, change } = startPolyfillPage(async () => {
    await new Promise((resolve) => setTimeout(resolve, 40));
    return [tool('checkout'), { name: 'cart', description: `The cart, render ${render}.` }];
  });
  await vi.advanceTimersByTimeAsync(200);
  const postedAt: number[] = [];
  source.watch(() => postedAt.push(performance.now()));
  const renders = setInterval(() => {
    render += 1;
    change();
  }, 5);
  await vi.advanceTimersByTimeAsync(2_000);
  clearInterval(renders);
  const gaps = postedAt.slice(1).map((at, index) => at - postedAt[index]!);
  expect(gaps.length).toBeGreaterThanOrEqual(5);
  // Each post takes 40 ms and the next starts no sooner than 160 ms after it ended.
  for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(200);
});

it('copies no more than ten times the tools a frame may offer, and says how many it left', async () => {
  vi.useFakeTimers();
  const { source } = startPolyfillPage(async () => Array.from({ length: 5_003 }, (_, index) => tool(`tool_${index}`)));
  await vi.advanceTimersByTimeAsync(200);
  const listing = await source.list();
  expect(listing.offered).toHaveLength(5_000);
  expect(listing.refused).toEqual([{ name: '(more)', reason: '3 more tools were not read' }]);
});

it('says how many tools it left first among those it could not read, so the content script’s cut to 100 keeps it', async () => {
  vi.useFakeTimers();
  const cyclic: Record<string, unknown> = { type: 'object' };
  cyclic.properties = { self: cyclic };
  const { source } = startPolyfillPage(async () =>
    Array.from({ length: 5_003 }, (_, index) => (index < 150 ? { ...tool(`broken_${index}`), inputSchema: cyclic } : tool(`tool_${index}`))),
  );
  await vi.advanceTimersByTimeAsync(200);
  const listing = await source.list();
  expect(listing.refused).toHaveLength(100);
  expect(listing.refused[0]).toEqual({ name: '(more)', reason: '3 more tools were not read' });
  expect(listing.refused[1]?.name).toBe('broken_0');
});

it('gives a polyfilled tool’s null result as its value: only the browser’s own null means the page went away', async () => {
  vi.useFakeTimers();
  const source = createBridgeSource();
  stops.push(() => source.close());
  setupMainWorldBridge();
  // A polyfill that hands back what the tool returned: no such order.
  const context = Object.assign(new EventTarget(), { getTools: async () => [tool('find_order')], executeTool: async () => null });
  Object.defineProperty(navigator, 'modelContext', { value: context, configurable: true });
  await vi.advanceTimersByTimeAsync(200);
  await expect(source.execute('find_order', {}, new AbortController().signal)).resolves.toBe('null');
});
