import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createTabEvents, type BrowserEvent } from '@/lib/service-worker/tab-events';

/** An event as Chrome keeps it: the worker is started for it while it has a listener. */
class FakeEvent<Args extends unknown[]> implements BrowserEvent<(...args: Args) => void> {
  readonly listeners = new Set<(...args: Args) => void>();
  addListener(listener: (...args: Args) => void): void {
    this.listeners.add(listener);
  }
  removeListener(listener: (...args: Args) => void): void {
    this.listeners.delete(listener);
  }
  get wakesWorker(): boolean {
    return this.listeners.size > 0;
  }
  fire(...args: Args): void {
    for (const listener of this.listeners) listener(...args);
  }
}

const delay = 2_000;

describe('createTabEvents', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hears an event at once, as the worker starts, even one it takes off later', async () => {
    const committed = new FakeEvent<[number]>();
    const heard: number[] = [];
    createTabEvents().listen(committed, (tabId) => heard.push(tabId));
    committed.fire(4);
    expect(heard).toEqual([4]);
  });

  it('takes every listener off once nothing follows a tab, so no page or tab closing starts the worker', async () => {
    const committed = new FakeEvent<[number]>();
    const removed = new FakeEvent<[number]>();
    const events = createTabEvents();
    events.listen(committed, () => {});
    events.listen(removed, () => {});
    events.listen(removed, () => {});
    events.followWhile(() => false);
    events.followWhile(async () => false);
    await vi.advanceTimersByTimeAsync(delay - 1);
    expect(committed.wakesWorker).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(committed.wakesWorker).toBe(false);
    expect(removed.wakesWorker).toBe(false);
  });

  it('keeps them while one reason says a tab is followed, or cannot tell', async () => {
    for (const reason of [() => true, async () => true, () => { throw new Error('storage is gone'); }, () => Promise.reject(new Error('no answer'))]) {
      const committed = new FakeEvent<[number]>();
      const events = createTabEvents();
      events.listen(committed, () => {});
      events.followWhile(() => false);
      events.followWhile(reason);
      await vi.advanceTimersByTimeAsync(delay * 3);
      expect(committed.wakesWorker).toBe(true);
    }
  });

  it('hears them again, and every event after, as soon as something follows a tab', async () => {
    const committed = new FakeEvent<[number]>();
    const heard: number[] = [];
    const events = createTabEvents();
    let followed = false;
    events.listen(committed, (tabId) => heard.push(tabId));
    events.followWhile(() => followed);
    await vi.advanceTimersByTimeAsync(delay);
    expect(committed.wakesWorker).toBe(false);

    followed = true;
    events.follow();
    expect(committed.wakesWorker).toBe(true);
    committed.fire(9);
    expect(heard).toEqual([9]);
    await vi.advanceTimersByTimeAsync(delay * 3);
    expect(committed.wakesWorker).toBe(true);
  });

  it('lets an answer asked before something began following take nothing off', async () => {
    const committed = new FakeEvent<[number]>();
    const events = createTabEvents();
    let answer: (follows: boolean) => void = () => {};
    events.listen(committed, () => {});
    // The registry is still reading its tabs back when a page reports tools.
    events.followWhile(() => new Promise<boolean>((resolve) => (answer = resolve)));
    await vi.advanceTimersByTimeAsync(delay);
    events.follow();
    answer(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(committed.wakesWorker).toBe(true);
  });

  it('still asks after something began following, and lets go once that stopped', async () => {
    const committed = new FakeEvent<[number]>();
    const events = createTabEvents();
    const tabsWithTools = new Set([3]);
    events.listen(committed, () => {});
    events.followWhile(() => tabsWithTools.size > 0);
    // A page reports that it offers no tools any more: the registry lets its tab go.
    events.follow();
    tabsWithTools.delete(3);
    events.recheck();
    events.follow();
    await vi.advanceTimersByTimeAsync(delay);
    expect(committed.wakesWorker).toBe(false);
  });

  it('asks again after each event it hears: the tab that closed took the last tools with it', async () => {
    const removed = new FakeEvent<[number]>();
    const tabsWithTools = new Set([3]);
    const events = createTabEvents();
    events.listen(removed, (tabId) => tabsWithTools.delete(tabId));
    events.followWhile(() => tabsWithTools.size > 0);
    await vi.advanceTimersByTimeAsync(delay * 2);
    expect(removed.wakesWorker).toBe(true);

    removed.fire(3);
    await vi.advanceTimersByTimeAsync(delay);
    expect(removed.wakesWorker).toBe(false);
  });

  it('asks once for changes that come together, and not at all while it hears nothing', async () => {
    const committed = new FakeEvent<[number]>();
    const events = createTabEvents();
    const follows = vi.fn(() => false);
    events.listen(committed, () => {});
    events.followWhile(follows);
    for (let tabId = 0; tabId < 50; tabId += 1) committed.fire(tabId);
    events.recheck();
    await vi.advanceTimersByTimeAsync(delay);
    expect(follows).toHaveBeenCalledTimes(1);
    events.recheck();
    await vi.advanceTimersByTimeAsync(delay * 3);
    expect(follows).toHaveBeenCalledTimes(1);
  });

  it('still asks after a listener that throws', async () => {
    const committed = new FakeEvent<[number]>();
    const events = createTabEvents();
    let followed = true;
    events.listen(committed, () => {
      followed = false;
      throw new Error('a bug in a listener');
    });
    events.followWhile(() => followed);
    expect(() => committed.fire(1)).toThrow('a bug in a listener');
    await vi.advanceTimersByTimeAsync(delay);
    expect(committed.wakesWorker).toBe(false);
  });
});
