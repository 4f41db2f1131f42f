import { signal } from '@preact/signals';
import { describe, expect, it } from 'vitest';
import type { ReplayState } from '../../lib/traces/replay-state';
import type { TraceClient } from '../../lib/traces/trace-client';
import type { ReplayTab } from '../../lib/traces/trace-protocol';
import type { StoredTrace } from '../../lib/traces/trace-schema';
import { TraceReplay } from '../../lib/traces/trace-replay';
import { announceReplayTabsChanged } from '../../lib/traces/viewer-news';

const tab = (tabId: number, origin: string): ReplayTab => ({ tabId, url: `${origin}/`, origin, toolCount: 1 });

/** A replay of a run from tab 7 on the shop, with the tabs the client lists (or a failure, or how it answers). */
function replayWith(tabs: ReplayTab[] | Error | (() => Promise<ReplayTab[]>)) {
  const signals = {
    openRunId: signal<string | undefined>('run-1'),
    openTrace: signal<StoredTrace | null | undefined>({ run: { id: 'run-1', tabId: 7, origin: 'https://shop.example' }, steps: [] } as unknown as StoredTrace),
    replayTabs: signal<ReplayTab[]>([]),
    replayTabId: signal<number | undefined>(undefined),
    replayTabLeft: signal<number | undefined>(undefined),
    replay: signal<ReplayState>({ status: 'idle' }),
  };
  const client = { replayTabs: typeof tabs === 'function' ? tabs : async () => (tabs instanceof Error ? Promise.reject(tabs) : tabs) } as unknown as TraceClient;
  return { signals, replay: new TraceReplay({ client }, signals) };
}

describe('TraceReplay.loadTabs', () => {
  it('chooses the run’s own tab while it shows the same site, else the first tab on that site', async () => {
    const own = replayWith([tab(3, 'https://shop.example'), tab(7, 'https://shop.example')]);
    await own.replay.loadTabs();
    expect(own.signals.replayTabId.value).toBe(7);
    const moved = replayWith([tab(7, 'https://other.example'), tab(4, 'https://shop.example')]);
    await moved.replay.loadTabs();
    expect(moved.signals.replayTabId.value).toBe(4);
  });

  it('keeps a tab chosen before while it is still listed', async () => {
    const { signals, replay } = replayWith([tab(3, 'https://shop.example'), tab(7, 'https://shop.example')]);
    signals.replayTabId.value = 3;
    await replay.loadTabs();
    expect(signals.replayTabId.value).toBe(3);
  });

  it('lists no tabs, quietly, when the client cannot say which', async () => {
    const { signals, replay } = replayWith(new Error('no background'));
    await replay.loadTabs();
    expect(signals.replayTabs.value).toEqual([]);
    expect(signals.replayTabId.value).toBeUndefined();
  });

  it('keeps the latest list where an earlier one answers late, which tells of the tabs as they were (a page not yet reported)', async () => {
    const answers: Array<(tabs: ReplayTab[]) => void> = [];
    const { signals, replay } = replayWith(() => new Promise<ReplayTab[]>((resolve) => answers.push(resolve)));
    const earlier = replay.loadTabs();
    const later = replay.loadTabs();
    answers[1]!([tab(7, 'https://shop.example')]);
    await later;
    answers[0]!([]);
    await earlier;
    expect(signals.replayTabs.value).toEqual([tab(7, 'https://shop.example')]);
    expect(signals.replayTabId.value).toBe(7);
  });
});

describe('TraceReplay.followTabs', () => {
  /** A replay whose client counts its reads, each answered when the test says. */
  function followed() {
    const answers: Array<(tabs: ReplayTab[]) => void> = [];
    const made = replayWith(() => new Promise<ReplayTab[]>((resolve) => answers.push(resolve)));
    const stop = made.replay.followTabs();
    return { ...made, answers, stop };
  }
  /** Until the channel's news reached the replay (it comes as a task of its own). */
  const heard = () => new Promise((resolve) => setTimeout(resolve, 20));

  it('reads the list again as a tab’s tools change, with no Refresh, and chooses the run’s tab that came', async () => {
    const { signals, answers, stop } = followed();
    announceReplayTabsChanged();
    await heard();
    expect(answers).toHaveLength(1);
    answers[0]!([tab(7, 'https://shop.example')]);
    await heard();
    expect(signals.replayTabs.value).toEqual([tab(7, 'https://shop.example')]);
    expect(signals.replayTabId.value).toBe(7);
    stop();
  });

  it('reads once more after a burst of changes, not once for each', async () => {
    const { answers, stop } = followed();
    for (let change = 0; change < 5; change++) announceReplayTabsChanged();
    await heard();
    expect(answers).toHaveLength(1);
    answers[0]!([]);
    await heard();
    expect(answers).toHaveLength(2);
    answers[1]!([]);
    await heard();
    expect(answers).toHaveLength(2);
    stop();
  });

  it('puts no other tab in place of a chosen one that went: the picker asks again, and says why, until that tab comes back (a reload)', async () => {
    const { signals, answers, stop } = followed();
    signals.replayTabId.value = 7;
    const answer = async (tabs: ReplayTab[]) => {
      announceReplayTabsChanged();
      await heard();
      answers.at(-1)!(tabs);
      await heard();
      return [signals.replayTabId.value, signals.replayTabLeft.value !== undefined];
    };
    expect(await answer([tab(3, 'https://shop.example')])).toEqual([undefined, true]);
    // Another tab that comes is not chosen for the person.
    expect(await answer([tab(3, 'https://shop.example'), tab(4, 'https://shop.example')])).toEqual([undefined, true]);
    // The tab chosen, back on the run's site, is chosen again.
    expect(await answer([tab(3, 'https://shop.example'), tab(7, 'https://shop.example')])).toEqual([7, false]);
    stop();
  });

  it('chooses no tab by the run before while the run opened is still being read', async () => {
    const { signals, answers, stop } = followed();
    signals.openRunId.value = 'run-2';
    announceReplayTabsChanged();
    await heard();
    answers[0]!([tab(7, 'https://shop.example')]);
    await heard();
    expect(signals.replayTabs.value).toEqual([tab(7, 'https://shop.example')]);
    expect(signals.replayTabId.value).toBeUndefined();
    stop();
  });

  it('reads nothing while no run is open, nor once stopped', async () => {
    const { signals, answers, stop } = followed();
    signals.openRunId.value = undefined;
    announceReplayTabsChanged();
    await heard();
    expect(answers).toHaveLength(0);
    signals.openRunId.value = 'run-1';
    stop();
    announceReplayTabsChanged();
    await heard();
    expect(answers).toHaveLength(0);
  });
});

describe('TraceReplay.refreshTabs after the chosen tab went', () => {
  it('chooses again at the person’s asking: the run’s own tab, and the note goes', async () => {
    const { signals, replay } = replayWith([tab(3, 'https://shop.example'), tab(7, 'https://shop.example')]);
    signals.replayTabLeft.value = 5;
    await replay.refreshTabs();
    expect([signals.replayTabId.value, signals.replayTabLeft.value]).toEqual([7, undefined]);
  });
});
