// Its own file: the one rule that stops a replay midway, apart from the session's messaging.
import { agentOffOn } from '../settings/agent-off-on';
import type { TabTools, TraceServiceBackground } from './trace-service';

/**
 * As a live run ends when its page changes, a replay stops once its tab `tabId` is closed or leaves
 * the site it started on, or the person turns the agent off there. `check` runs before every step
 * and every call, and answers the sites where the agent is off, as it read them; the signal it
 * gives aborts the replay, and `stoppedBecause` says why in words.
 */
export function guardSite(background: TraceServiceBackground, tabId: number, site: string, signal: AbortSignal) {
  const stop = new AbortController();
  const guard = {
    signal: AbortSignal.any([signal, stop.signal]),
    stoppedBecause: undefined as string | undefined,
    /** `frameSite`: the site of the frame whose tool is about to run, where it is not the tab's. */
    async check(now: TabTools | undefined, frameSite?: string): Promise<readonly string[]> {
      const disabledSites = (await background.consent?.())?.disabledSites ?? [];
      // A closed tab lists no tools: that is no change of the page's to report as differences.
      if (!guard.stoppedBecause && !now && !(await background.listTabIds()).includes(tabId)) {
        guard.stoppedBecause = 'The tab was closed, so the replay stopped.';
      }
      if (!guard.stoppedBecause && now && now.origin !== site) {
        const other = now.origin || 'another page';
        guard.stoppedBecause = `The tab went from ${site} to ${other}, so the replay stopped, as a run does when its page changes. Nothing was run on ${other}.`;
      }
      const off = [site, frameSite].find((checked) => checked !== undefined && agentOffOn(disabledSites, checked));
      if (!guard.stoppedBecause && off) guard.stoppedBecause = `The agent was turned off on ${off}, so the replay stopped there.`;
      if (guard.stoppedBecause) stop.abort();
      guard.signal.throwIfAborted();
      return disabledSites;
    },
  };
  return guard;
}

/** What `guardSite` gives: the replay's signal, why it stopped, and the check before each step and call. */
export type SiteGuard = ReturnType<typeof guardSite>;
