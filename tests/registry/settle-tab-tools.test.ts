import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { settleCeilingMs, settleTabTools, type TabToolsSubscription } from '../../lib/registry/settle-tab-tools';

/** A tab whose tools change when told, as the registry announces them. */
function tab() {
  const listeners = new Set<(tabId: number) => void>();
  const subscribe: TabToolsSubscription = (listener) => {
    listeners.add(listener);
    return () => listeners.delete(listener);
  };
  return { subscribe, listening: () => listeners.size, change: (tabId: number) => listeners.forEach((listener) => listener(tabId)) };
}

/** Resolves `settle`'s time in fake milliseconds, or undefined if it has not settled after `withinMs`. */
async function settledAfter(settle: Promise<void>, withinMs: number, during: (elapsed: number) => void = () => {}): Promise<number | undefined> {
  let settledAt: number | undefined;
  void settle.then(() => (settledAt = Date.now()));
  const started = Date.now();
  for (let elapsed = 0; elapsed < withinMs && settledAt === undefined; elapsed += 10) {
    during(elapsed);
    await vi.advanceTimersByTimeAsync(10);
  }
  return settledAt === undefined ? undefined : settledAt - started;
}

describe('settleTabTools', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('settles once the tab has been quiet a moment after a change', async () => {
    const page = tab();
    const elapsed = await settledAfter(settleTabTools(page.subscribe, 1), 2000, (at) => at === 50 && page.change(1));
    expect(elapsed).toBeGreaterThanOrEqual(110);
    expect(elapsed).toBeLessThan(200);
    expect(page.listening()).toBe(0);
  });

  it('settles at the ceiling however the tab keeps changing: frames that report in turn never leave it quiet', async () => {
    const page = tab();
    const elapsed = await settledAfter(settleTabTools(page.subscribe, 1), 10_000, (at) => at % 30 === 0 && page.change(1));
    expect(elapsed).toBe(settleCeilingMs);
    expect(page.listening()).toBe(0);
  });

  it('ends the wait at once when the run is stopped', async () => {
    const page = tab();
    const stop = new AbortController();
    const elapsed = await settledAfter(settleTabTools(page.subscribe, 1, { signal: stop.signal }), 10_000, (at) => {
      page.change(1);
      if (at === 100) stop.abort();
    });
    expect(elapsed).toBeLessThanOrEqual(110);
    expect(page.listening()).toBe(0);
  });

  it('does not wait at all for a run already stopped', async () => {
    const page = tab();
    const stop = new AbortController();
    stop.abort();
    expect(await settledAfter(settleTabTools(page.subscribe, 1, { signal: stop.signal }), 100)).toBe(0);
    expect(page.listening()).toBe(0);
  });
});
