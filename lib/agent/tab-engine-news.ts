import type { ReplyTurns } from '../engines/reply-turns';
import type { EngineStatus } from './session-state';
import { createTabCounts } from './tab-counts';
import { waitingWords } from './waiting-words';

/** A reply that failed in a tab, with what to do about it. */
export interface ReplyFailure {
  error: string;
  hint?: string;
  /** The reply had brought no word when it failed. */
  beforeFirstWord?: true;
  /** The latest reply of the run had brought nothing when it failed: a server gone between two replies was not reached. */
  beforeReply?: true;
  /** The engine's code for the failure (`server-down`: the server stopped since the last request). */
  errorCode?: string;
}

/**
 * What each tab's panel is told of the shared engine beyond its status: every tab runs its own
 * requests on the one engine, so each hears of its own waits, replies, speed and failures.
 */
export function createTabEngineNews() {
  return {
    /** Tabs whose load waits for a swap, which may wait for other tabs' runs. */
    waitingForSwap: createTabCounts(),
    /** Tabs with a reply on the way: the others' panels say the model is ready, not generating. */
    replying: createTabCounts(),
    /** Tabs whose replies wait for their turn (an engine with `replyTurns`) while another tab's goes on. */
    waitingForTurn: createTabCounts(),
    /** The turns each such tab waits for. */
    turnsWaitedFor: new Map<number, ReplyTurns>(),
    /** The tab whose reply has a turn, where a tab asked for it. */
    turnHolders: new Map<ReplyTurns, number>(),
    /** Tabs whose reply was asked for and has brought nothing yet, with when it was asked for (see `firstWordSince`). */
    firstWordWaits: new Map<number, { since: number; thinking?: true }>(),
    /** Tabs whose reply had begun and has brought nothing for a while, with when it last did (see `quietSince`). */
    quietReplies: new Map<number, number>(),
    /**
     * Tabs whose run has had something of a reply (a word, a thought, a call), since its load: a
     * failure reported now came while answering, one reported before it, before answering.
     */
    answering: new Set<number>(),
    /** Tabs whose reply now going (the run's latest) has brought something: see `answering`, for one reply. */
    replyBegun: new Set<number>(),
    /** Each tab's last reply speed: a panel shows its own tab's, not whichever tab's reply ended last. */
    speeds: new Map<number, number>(),
    /**
     * A reply that failed (the server answered 500, the GPU was lost) is the news of the tab that
     * asked; the other tabs' panels go on saying what the engine does.
     */
    replyFailures: new Map<number, ReplyFailure>(),
  };
}

export type TabEngineNews = ReturnType<typeof createTabEngineNews>;

/** What the runs going on tell a waiting tab: whether a swap waits for them, and which tabs hold the engine. */
export interface RunsView {
  swapWaits: boolean;
  holdingTabs: readonly number[];
  /** The engine the settings name while runs go on with the one before: what a tab with no run uses next. */
  described?: EngineStatus;
}

/**
 * The status as `tabId`'s panel shows it: the shared one, except while that tab's request waits for
 * another tab's run to end before its model can replace the one loaded, or its reply waits for
 * another tab's, and that the model generates only for the tabs it is replying to (the others see
 * it ready). The speed is the tab's own, and so is a reply that failed there. While it waits,
 * `waitingForTab` is the tab it waits for, where one is known, and `waitingForMore` how many other
 * tabs' runs a new model waits for besides.
 */
export function statusForTab(tabId: number, shared: EngineStatus, news: TabEngineNews, runs: RunsView): EngineStatus {
  const own: EngineStatus = { ...shared, tokensPerSecond: news.speeds.get(tabId) };
  const noProgress = { progress: undefined, tokensPerSecond: undefined };
  if (runs.swapWaits && news.waitingForSwap.has(tabId)) {
    // Where several runs hold it the load waits for them all; the first is the one named, the others counted.
    const [other, ...more] = runs.holdingTabs.filter((holding) => holding !== tabId);
    const waited = { ...(other === undefined ? {} : { waitingForTab: other }), ...(more.length > 0 ? { waitingForMore: more.length } : {}) };
    return { ...own, ...noProgress, state: 'loading', progressText: waitingWords('run', { others: more.length }), ...waited };
  }
  // Another tab loading the model already loaded does not stop this tab's reply, nor its wait.
  const inUse = shared.state === 'loading' || shared.state === 'ready' || shared.state === 'generating';
  if (inUse && news.waitingForTurn.has(tabId)) {
    const turns = news.turnsWaitedFor.get(tabId);
    const other = turns && news.turnHolders.get(turns);
    return { ...own, ...noProgress, state: 'generating', progressText: waitingWords('reply'), ...(other === undefined ? {} : { waitingForTab: other }) };
  }
  if (inUse && news.replying.has(tabId)) {
    const wait = news.firstWordWaits.get(tabId);
    const quiet = news.quietReplies.get(tabId);
    const waited =
      wait !== undefined ? { firstWordSince: wait.since, ...(wait.thinking ? { thinking: true as const } : {}) } : quiet !== undefined ? { quietSince: quiet } : {};
    return { ...own, state: 'generating', progress: undefined, progressText: undefined, ...waited };
  }
  // A load going on, or an engine that cannot load, is every tab's news; a failed reply, its tab's own.
  const failure = news.replyFailures.get(tabId);
  if (failure && shared.state !== 'loading' && shared.state !== 'error') {
    return { ...own, state: 'error', ...failure, errorDuring: 'reply', tokensPerSecond: undefined };
  }
  if (runs.described && !runs.holdingTabs.includes(tabId)) return runs.described;
  if (shared.state === 'generating' && news.replying.size > 0) return { ...own, state: 'ready' };
  return own;
}
