// How long the extension waits before redoing work on a page's main thread, shared by the content
// script's reader and the page-world bridge: both redo theirs at each change of the page's tools.

/** When a piece of work ended, and how long it took (`performance.now()` times). */
export interface WorkDone {
  endedAt: number;
  tookMs: number;
}

/**
 * The most of the page's main thread the work may take while its tools keep changing: it follows
 * the last run no sooner than four times the work that run did, so that a page with hundreds of
 * tools, one of which a framework registers again at every render, keeps its own time. A change
 * after a quiet spell (a tool the agent just called) is handled after the quiet period alone. A
 * run's time counts its waits for the page's `getTools()`, which is work on the same thread.
 */
const workShare = 0.2;
/** However long the last run took, a change shows within this. */
const longestWaitMs = 3_000;

/** The wait before the next run: `quietMs`, or longer after a costly run that ended lately. */
export function waitAfterWork(quietMs: number, last: WorkDone, now: number): number {
  const rest = (last.tookMs * (1 - workShare)) / workShare;
  return Math.min(Math.max(quietMs, last.endedAt + rest - now), Math.max(quietMs, longestWaitMs));
}
