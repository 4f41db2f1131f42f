// Its own file: the one rule that stops a replay midway, apart from the session's messaging.
import { agentOffOn } from '../settings/agent-off-on';
import { siteOfAddress } from '../text/origin-of';
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
      // A tab that lists no tools was closed, or shows a page that offers none: neither is a change
      // of the page's tools to report as differences.
      if (!guard.stoppedBecause && !now) guard.stoppedBecause = await whereToolsWent(background, tabId, site);
      if (!guard.stoppedBecause && now && now.origin !== site) guard.stoppedBecause = leftSite(site, now.origin);
      const off = [site, frameSite].find((checked) => checked !== undefined && agentOffOn(disabledSites, checked));
      if (!guard.stoppedBecause && off) guard.stoppedBecause = `The agent was turned off on ${off}, so the replay stopped there.`;
      if (guard.stoppedBecause) stop.abort();
      guard.signal.throwIfAborted();
      return disabledSites;
    },
  };
  return guard;
}

/**
 * Why a tab that lists no tools no longer shows the replay's site: it was closed, or went to a page
 * of another site, or of none (about:blank); undefined while it shows that site (a page that
 * reloads lists none for a moment).
 */
async function whereToolsWent(background: TraceServiceBackground, tabId: number, site: string): Promise<string | undefined> {
  if (!(await background.listTabIds()).includes(tabId)) return 'The tab was closed, so the replay stopped.';
  // A page with no web address (a file) is known by its report alone.
  if (siteOfAddress(site) === undefined) return undefined;
  const address = await background.pageAddress?.(tabId);
  if (address === undefined) return undefined;
  const now = siteOfAddress(address);
  return now === site ? undefined : leftSite(site, now);
}

function leftSite(site: string, now: string | undefined): string {
  const other = now || 'another page';
  return `The tab went from ${site} to ${other}, so the replay stopped, as a run does when its page changes. Nothing was run on ${other}.`;
}

/** What `guardSite` gives: the replay's signal, why it stopped, and the check before each step and call. */
export type SiteGuard = ReturnType<typeof guardSite>;
