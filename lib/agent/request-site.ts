// The site a request's run takes: it decides which chat the model reads, whether the exchange is
// remembered, whether "Allow on this site" is offered, and whether the agent may run at all.
import { siteOfReport } from '../registry/report-site';
import { settleCeilingMs } from '../registry/settle-tab-tools';
import { agentOffOn, type Settings } from '../settings';
import { siteOfAddress } from '../text/origin-of';
import type { ActiveRun } from './active-run';
import type { AgentWorld, TabToolList } from './agent-world';
import type { SessionHistory } from './session-history';
import type { TurnOutcome } from './session-state';
import { agentOffNotice } from './turn-notices';

/** The tab's page as the request is sent. */
export interface PageAtSend {
  /** Its tools, where it has reported them. */
  tools: TabToolList | undefined;
  /** The tab's address as the request was sent, where it is known. */
  address: string | undefined;
  /** The site of the page the request was sent on, where its address names one. */
  sentOn: string | undefined;
  /** Resolves once a page still loading has reported its tools, or has not within a short while. */
  firstReport: Promise<void>;
}

/**
 * The tab's page as the request is sent. A web page's site is its address's, known at once: most
 * pages offer no tools and never report. Only a page that has not reported yet is waited for: one
 * still loading may report any moment, and is waited for while the model loads; one whose address
 * names no site (a file, about:blank) has its site only from its report, so it is waited for first.
 */
export async function readPageAtSend(world: AgentWorld, tabId: number, signal: AbortSignal): Promise<PageAtSend> {
  const [tools, address, loading] = await Promise.all([world.getTabTools(tabId), world.pageAddress?.(tabId), world.pageLoading?.(tabId)]);
  const sentOn = siteOfAddress(address);
  const noWait = Promise.resolve();
  if (tools) return { tools, address, sentOn, firstReport: noWait };
  if (sentOn !== undefined) return { tools, address, sentOn, firstReport: loading ? firstReportOf(world, tabId, signal) : noWait };
  await firstReportOf(world, tabId, signal);
  return { tools: await world.getTabTools(tabId), address, sentOn, firstReport: noWait };
}

/**
 * Resolves once the tab's page has reported its tools, or after a short while. A report that
 * landed after the tools were first read, before this listened, announces nothing more: the tools
 * are read again once it listens, so that such a page is not waited out.
 */
function firstReportOf(world: AgentWorld, tabId: number, signal: AbortSignal): Promise<void> {
  const reported = new AbortController();
  const settled = world.settleTools(tabId, AbortSignal.any([signal, reported.signal]), settleCeilingMs);
  world.getTabTools(tabId).then(
    (tools) => tools && reported.abort(),
    () => {},
  );
  return settled;
}

/** How a turn ends before its run began: its outcome, and the notice shown with it. */
type SiteRefusal = [TurnOutcome, string?];

/**
 * The run takes the tab's site: its report's where the page reported (see siteOfReport), else its
 * address's ('' where neither names one). Answers how the turn ends where the agent is off on that
 * site, or where the tools are of another site than the request was sent on (`sentOn`): the tab
 * has gone on, and the new site's first report may come before the browser says so; what was
 * asked on one site must neither reach another's tools nor end or join its history.
 */
export function takeSite(active: ActiveRun, settings: Settings, tools: TabToolList | undefined, sentOn: string | undefined): SiteRefusal | undefined {
  if (tools && sentOn !== undefined && reportsOtherSite(tools, sentOn)) return ['navigated'];
  const origin = (tools ? siteOfReport(tools) : sentOn) ?? '';
  active.page = { ...(tools?.title ? { title: tools.title } : {}), origin };
  if (agentOffOn(settings.disabledSites, origin)) {
    active.agentOff = true;
    return ['error', agentOffNotice(origin)];
  }
  return undefined;
}

/** As `takeSite`, once the run is about to begin: it enters the site's history, which it reads. */
export function enterSite(history: SessionHistory, active: ActiveRun, settings: Settings, tools: TabToolList | undefined, sentOn: string | undefined): SiteRefusal | undefined {
  const off = takeSite(active, settings, tools, sentOn);
  if (off) return off;
  active.readUntrusted = history.enter(active.page?.origin ?? '');
  return undefined;
}

/** Whether a tab's tools are of another site than `site` (see siteOfReport). */
export function reportsOtherSite(tools: Pick<TabToolList, 'origin' | 'url'>, site: string): boolean {
  return siteOfReport(tools) !== site;
}
