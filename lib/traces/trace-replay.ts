// The replay panel's part of the viewer apart from its model: the tabs a run can replay in, and the replay going on.
import type { ReadonlySignal, Signal } from '@preact/signals';
import { attemptAction } from './attempt-action';
import { replayStateAfter, type ReplayState } from './replay-state';
import type { ReplayTab } from './trace-protocol';
import type { ReplayHandlers } from './trace-client';
import type { StoredTrace } from './trace-schema';
import type { TraceViewerOptions } from './trace-viewer-options';
import { onReplayTabsChanged } from './viewer-news';
import { readsOneAtATime } from './reads-one-at-a-time';

/** The viewer's signals the replay reads (the open run) and writes (its own). */
export interface ReplaySignals {
  readonly openRunId: ReadonlySignal<string | undefined>;
  readonly openTrace: ReadonlySignal<StoredTrace | null | undefined>;
  readonly replayTabs: Signal<ReplayTab[]>;
  readonly replayTabId: Signal<number | undefined>;
  readonly replayTabLeft: Signal<number | undefined>;
  readonly replay: Signal<ReplayState>;
}

/** Replays the open run in a tab of the person's choice, through the viewer's client. */
export class TraceReplay {
  private handle?: { confirm(callId: string, allow: boolean): void; cancel(): void };
  /** How many tab lists were asked for: each answer knows whether a later one was asked since. */
  private tabLists = 0;
  /** The list read as the tabs changed, one read at a time (see `followTabs`). */
  private readonly readFollowed = readsOneAtATime(() => this.loadTabs(true));

  constructor(
    private readonly options: Pick<TraceViewerOptions, 'client'>,
    private readonly signals: ReplaySignals,
  ) {}

  /**
   * The tabs a run can be replayed in; the run's own tab first choice while it shows the same
   * site. `followed`: read as the tabs changed, not at the person's asking: a tab chosen that went
   * is not replaced by another under them (a Replay pressed then would run in a tab they never
   * chose); the picker asks again, and says why, until that tab comes back (a reload, the site's
   * page again) or the person chooses.
   */
  async loadTabs(followed = false): Promise<void> {
    // Only the latest list counts: an earlier one answered late tells of tabs as they were before.
    const mine = ++this.tabLists;
    const tabs = (await attemptAction(() => this.options.client.replayTabs())) ?? [];
    if (mine !== this.tabLists) return;
    const { openRunId, openTrace, replayTabs, replayTabId, replayTabLeft } = this.signals;
    // Redrawn only where the list changed: every tab's page load anywhere is news to the viewer.
    if (JSON.stringify(tabs) !== JSON.stringify(replayTabs.value)) replayTabs.value = tabs;
    if (tabs.some((tab) => tab.tabId === replayTabId.value)) return;
    // The run on show is still being read: the one before is no guide to which tab fits it.
    const run = openTrace.value?.run;
    if (run?.id !== openRunId.value) return;
    const chosen = replayTabId.value ?? replayTabLeft.value;
    if (followed && chosen !== undefined) {
      // The tab chosen went: none in its place, until it comes back on the run's site.
      const back = tabs.some((tab) => tab.tabId === chosen && tab.origin === run?.origin);
      replayTabLeft.value = back ? undefined : chosen;
      replayTabId.value = back ? chosen : undefined;
      return;
    }
    const sameSite = tabs.filter((tab) => tab.origin === run?.origin);
    replayTabId.value = (sameSite.find((tab) => tab.tabId === run?.tabId) ?? sameSite[0])?.tabId;
    replayTabLeft.value = undefined;
  }

  /**
   * Reads the list again each time a tab's tools change (a page loads, takes them back, leaves or
   * closes) while a run is open, so the list shows the tab as it is without Refresh. Pages report
   * in bursts: one read goes at a time, and one more follows it where they changed meanwhile.
   * Returns how to stop.
   */
  followTabs(): () => void {
    return onReplayTabsChanged(() => {
      if (this.signals.openRunId.value !== undefined) void this.readFollowed();
    });
  }

  /**
   * The person looked at the open tabs again: why the last replay failed spoke of the tabs as they
   * were (one closed, one busy), and goes. How a finished one went stays.
   */
  async refreshTabs(): Promise<void> {
    await this.loadTabs();
    if (this.signals.replay.value.status === 'failed') this.signals.replay.value = { status: 'idle' };
  }

  start(): void {
    const { replay } = this.signals;
    const runId = this.signals.openRunId.value;
    const tabId = this.signals.replayTabId.value;
    if (!runId || tabId === undefined || replay.value.status === 'running') return;
    // The list may be stale: the tab must still show the site the person chose it by.
    const shown = this.signals.replayTabs.value.find((tab) => tab.tabId === tabId);
    replay.value = { status: 'running', progress: 'Starting the replay' };
    const handlers: ReplayHandlers = {
      onMessage: (message) => {
        const next = replayStateAfter(message);
        replay.value = next.status === 'done' && shown ? { ...next, ran: { url: shown.url, at: Date.now() } } : next;
        if (message.type !== 'done' && message.type !== 'failed') return;
        this.handle = undefined;
        // The replay ran tools in the tab: the list names it as it is now (its tools, its page),
        // as it follows the tabs: a tab chosen that went is not replaced under the person.
        void this.loadTabs(true);
      },
      onLost: () => (replay.value = { status: 'failed', message: 'The extension stopped the replay (its background restarted).' }),
    };
    this.handle = this.options.client.replay(runId, tabId, handlers, shown?.origin);
  }

  answerConfirm(allow: boolean): void {
    const state = this.signals.replay.value;
    if (state.status !== 'running' || !state.confirm) return;
    this.handle?.confirm(state.confirm.callId, allow);
    this.signals.replay.value = { status: 'running', progress: allow ? `Running ${state.confirm.name}` : `Skipped ${state.confirm.name}` };
  }

  reset(): void {
    this.handle?.cancel();
    this.handle = undefined;
    this.signals.replay.value = { status: 'idle' };
  }

  /** The person's Cancel: the replay stops, and the panel says so. */
  cancel(): void {
    if (this.signals.replay.value.status !== 'running') return;
    this.reset();
    this.signals.replay.value = { status: 'idle', cancelled: true };
  }
}
