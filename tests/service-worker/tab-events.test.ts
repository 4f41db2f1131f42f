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

/** Events whose one reason answers only when the test says (`answer`), its first check asked already. */
async function checkOut() {
  const committed = new FakeEvent<[number]>();
  const events = createTabEvents();
  let resolveCheck: (holds: boolean) => void = () => {};
  const asked = vi.fn(() => new Promise<boolean>((resolve) => (resolveCheck = resolve)));
  events.listen(committed, () => {});
  events.neededWhile(asked);
  await vi.advanceTimersByTimeAsync(delay);
  return { committed, events, asked, answer: (holds: boolean) => resolveCheck(holds) };
}

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

  it('takes every listener off once no reason holds, so no page or tab closing starts the worker', async () => {
    const committed = new FakeEvent<[number]>();
    const removed = new FakeEvent<[number]>();
    const events = createTabEvents();
    events.listen(committed, () => {});
    events.listen(removed, () => {});
    events.listen(removed, () => {});
    events.neededWhile(() => false);
    events.neededWhile(async () => false);
    await vi.advanceTimersByTimeAsync(delay - 1);
    expect(committed.wakesWorker).toBe(true);
    await vi.advanceTimersByTimeAsync(1);
    expect(committed.wakesWorker).toBe(false);
    expect(removed.wakesWorker).toBe(false);
  });

  it('keeps them while one reason holds, or cannot tell', async () => {
    for (const reason of [() => true, async () => true, () => { throw new Error('storage is gone'); }, () => Promise.reject(new Error('no answer'))]) {
      const committed = new FakeEvent<[number]>();
      const events = createTabEvents();
      events.listen(committed, () => {});
      events.neededWhile(() => false);
      events.neededWhile(reason);
      await vi.advanceTimersByTimeAsync(delay * 3);
      expect(committed.wakesWorker).toBe(true);
    }
  });

  it('hears them again, and every event after, as soon as a reason begins', async () => {
    const committed = new FakeEvent<[number]>();
    const heard: number[] = [];
    const events = createTabEvents();
    let followed = false;
    events.listen(committed, (tabId) => heard.push(tabId));
    events.neededWhile(() => followed);
    await vi.advanceTimersByTimeAsync(delay);
    expect(committed.wakesWorker).toBe(false);

    followed = true;
    events.needed();
    expect(committed.wakesWorker).toBe(true);
    committed.fire(9);
    expect(heard).toEqual([9]);
    await vi.advanceTimersByTimeAsync(delay * 3);
    expect(committed.wakesWorker).toBe(true);
  });

  it('lets an answer asked before something began following take nothing off', async () => {
    const committed = new FakeEvent<[number]>();
    const events = createTabEvents();
    let answer: (holds: boolean) => void = () => {};
    events.listen(committed, () => {});
    // The registry is still reading its tabs back when a page reports tools.
    events.neededWhile(() => new Promise<boolean>((resolve) => (answer = resolve)));
    await vi.advanceTimersByTimeAsync(delay);
    events.needed();
    answer(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(committed.wakesWorker).toBe(true);
  });

  it('still asks after a reason began, and lets go once it ended', async () => {
    const committed = new FakeEvent<[number]>();
    const events = createTabEvents();
    let holds = true;
    events.listen(committed, () => {});
    events.neededWhile(() => holds);
    // A reason begins, a check is asked for, and the reason ends before it runs.
    events.needed();
    events.recheck();
    holds = false;
    events.needed();
    await vi.advanceTimersByTimeAsync(delay);
    expect(committed.wakesWorker).toBe(false);
  });

  it('asks again after a check that a beginning reason made out of date', async () => {
    const { committed, events, asked, answer } = await checkOut();
    // A page reports tools while the check is out, and takes them back at once: no other change comes.
    events.needed();
    answer(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(committed.wakesWorker).toBe(true);
    await vi.advanceTimersByTimeAsync(delay);
    expect(asked).toHaveBeenCalledTimes(2);
    answer(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(committed.wakesWorker).toBe(false);
  });

  it('asks one check at a time behind a slow reason, and once more for what came meanwhile', async () => {
    const { committed, asked, answer } = await checkOut();
    for (let tabId = 0; tabId < 20; tabId += 1) {
      committed.fire(tabId);
      await vi.advanceTimersByTimeAsync(delay);
    }
    expect(asked).toHaveBeenCalledTimes(1);
    answer(true);
    await vi.advanceTimersByTimeAsync(delay);
    expect(asked).toHaveBeenCalledTimes(2);
  });

  it('takes off and adds back each listener on its own: one the browser refuses leaves the others right', async () => {
    const refusing = { addListener: vi.fn(), removeListener: vi.fn(() => { throw new Error('No such event.'); }) };
    const committed = new FakeEvent<[number]>();
    const events = createTabEvents();
    let holds = false;
    events.listen(refusing, () => {});
    events.listen(committed, () => {});
    events.neededWhile(() => holds);
    await vi.advanceTimersByTimeAsync(delay);
    expect(committed.wakesWorker).toBe(false);
    holds = true;
    expect(() => events.needed()).not.toThrow();
    expect(committed.wakesWorker).toBe(true);
  });

  it('asks again after each event it hears: the tab that closed took the last tools with it', async () => {
    const removed = new FakeEvent<[number]>();
    const tabsWithTools = new Set([3]);
    const events = createTabEvents();
    events.listen(removed, (tabId) => tabsWithTools.delete(tabId));
    events.neededWhile(() => tabsWithTools.size > 0);
    await vi.advanceTimersByTimeAsync(delay * 2);
    expect(removed.wakesWorker).toBe(true);

    removed.fire(3);
    await vi.advanceTimersByTimeAsync(delay);
    expect(removed.wakesWorker).toBe(false);
  });

  it('asks once for changes that come together, and not at all while it hears nothing', async () => {
    const committed = new FakeEvent<[number]>();
    const events = createTabEvents();
    const asked = vi.fn(() => false);
    events.listen(committed, () => {});
    events.neededWhile(asked);
    for (let tabId = 0; tabId < 50; tabId += 1) committed.fire(tabId);
    events.recheck();
    await vi.advanceTimersByTimeAsync(delay);
    expect(asked).toHaveBeenCalledTimes(1);
    events.recheck();
    await vi.advanceTimersByTimeAsync(delay * 3);
    expect(asked).toHaveBeenCalledTimes(1);
  });

  it('still asks after a listener that throws', async () => {
    const committed = new FakeEvent<[number]>();
    const events = createTabEvents();
    let followed = true;
    events.listen(committed, () => {
      followed = false;
      throw new Error('a bug in a listener');
    });
    events.neededWhile(() => followed);
    expect(() => committed.fire(1)).toThrow('a bug in a listener');
    await vi.advanceTimersByTimeAsync(delay);
    expect(committed.wakesWorker).toBe(false);
  });
});
