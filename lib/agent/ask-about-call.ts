// Whether a call of a run must be asked about, and the question itself: judged on the tool as the
// step showed it, put to the person on the call's card, and ended early where it no longer stands.
import { pause, type ToolDescriptor } from '@webmcp-agents/chat';
import type { Approval, ParsedCall, ToolCallContext, ToolWithdrawn } from '@webmcp-agents/local-agent';
import { toolOriginOf } from '../registry/tool-target';
import { withdrawnFrom } from '../registry/tool-now';
import type { Settled } from './active-run';
import { approvalReason, type ApprovalReason } from './approval-policy';
import type { TabRun } from './tab-run';
import { toolSummary } from './tool-summary';
import { waitForDecision } from './wait-for-decision';
import { whileAsked } from './withdrawn-words';

/**
 * The site of the frame that offers `tool`, where it is another than the tab's: such a tool always
 * asks, its card says where it comes from, and what it answers counts as strangers' text.
 */
export function otherSiteOf(run: TabRun, tool: ToolDescriptor): string | undefined {
  const own = toolOriginOf(tool);
  return own !== undefined && own !== run.topOrigin ? own : undefined;
}

/**
 * Whether the call must be asked about, runs at once, or does not run: its tool is no longer as
 * the step showed it (see `toolNow`).
 */
export async function judgeCall(run: TabRun, tool: ToolDescriptor): Promise<ApprovalReason | null | ToolWithdrawn> {
  // An earlier call of this step may have changed the page's tools, which the page reports a
  // moment later: the tools settle first, as before the next step.
  const { host } = run;
  if (host.toolRan) {
    await host.world.settleTools(host.tabId, run.active.controller.signal);
    host.toolRan = false;
  }
  return (await withdrawnSince(run, tool, 'after this step showed it')) ?? approvalFor(run, tool);
}

// The confirmation policy and the sites allowed are read again before every call, as the sites
// where the agent is off are: the person may take an allowance back, or ask to confirm every
// call, while they watch the run.
async function approvalFor(run: TabRun, tool: ToolDescriptor): Promise<ApprovalReason | null> {
  const { host } = run;
  const [current, allowed] = await Promise.all([host.world.loadSettings(), host.world.isSiteAllowed(host.tabId)]);
  const otherSite = otherSiteOf(run, tool) !== undefined;
  return approvalReason(tool, current, { siteAllowed: allowed && !otherSite, readUntrusted: run.active.readUntrusted, otherSite });
}

/**
 * Shows the call's card waiting and waits for the person's answer, or until the question no longer
 * stands; answers whether the call may run.
 */
export async function askPerson(run: TabRun, call: ParsedCall, { callId, tool }: ToolCallContext): Promise<Approval> {
  const { host } = run;
  const otherSite = otherSiteOf(run, tool);
  const reason = (await approvalFor(run, tool)) ?? 'not-read-only';
  // Stopped while the settings were read: the ended turn must not show a card waiting for nobody.
  if (run.active.controller.signal.aborted) return false;
  const offerSite = run.siteChoice && !otherSite;
  const description = toolSummary(tool);
  run.changeCard({
    callId,
    state: 'waiting',
    approvalReason: reason,
    ...(offerSite ? {} : { siteChoice: false as const }),
    ...(otherSite ? { origin: otherSite } : {}),
    ...(description ? { description } : {}),
    ...(reason === 'read-untrusted' && run.active.untrustedRead ? { untrustedRead: run.active.untrustedRead } : {}),
  });
  // The worker stays up while the person decides, even from another tab, but not for good:
  // a run nobody answers ends, and lets go of the model.
  const decision = await waitForDecision(host, run.active, callId, call.name, () => settledMeanwhile(run, tool));
  if (decision === 'allowed') {
    // Said on the card and in the trace: the person did not say yes to this call, here. Only a call
    // asked about for the options' "confirm every call", or for its site, can need no yes later.
    return { allowed: reason === 'confirm-all' ? optionsChangedMeanwhile : siteAllowedMeanwhile };
  }
  if (typeof decision === 'object') return decision;
  // The page's last change may have come as the person answered: a yes holds only for the tool they saw.
  const withdrawn = decision === 'deny' ? undefined : await withdrawnSince(run, tool, whileAsked);
  if (withdrawn) return withdrawn;
  // "Allow on this site" never covers a consequential tool: those ask every time.
  if (decision === 'allow-site' && reason === 'not-read-only' && offerSite) await host.world.allowSite(host.tabId, run.runOrigin);
  return decision !== 'deny';
}

/**
 * Whether a question ended without the person: the tool went or changed (see `toolNow`), or the
 * call needs no yes now (its site allowed meanwhile).
 */
async function settledMeanwhile(run: TabRun, tool: ToolDescriptor): Promise<Settled | undefined> {
  return (await withdrawnSince(run, tool, whileAsked)) ?? ((await approvalFor(run, tool)) === null ? 'allowed' : undefined);
}

const siteAllowedMeanwhile = 'the site was allowed while this question waited (in another tab, or in the options)';
const optionsChangedMeanwhile = 'the options stopped asking before such calls while this question waited';

/**
 * Why the call may not run where its tool is no longer as the step showed it (`when` it changed or
 * went; see toolNow). A tab that lists nothing at all is not a page that took its tool away: its
 * page is going (a reload, another page, the tab closing), as its goodbye says before the browser's
 * word of the next page. The run waits a moment for that word, which ends it as any run whose page
 * changes ends, rather than tell the model the tool was removed and ask it for another step.
 */
async function withdrawnSince(run: TabRun, tool: ToolDescriptor, when: string): Promise<ToolWithdrawn | undefined> {
  const tabTools = () => run.host.world.getTabTools(run.host.tabId);
  const now = await tabTools();
  const withdrawn = withdrawnFrom(now, tool, when);
  if (!withdrawn || now !== undefined) return withdrawn;
  await pause(pageGoingWaitMs, run.active.controller.signal);
  // No word of a new page came: the tab as it is now says whether the tool is there.
  return withdrawnFrom(await tabTools(), tool, when);
}

/** How long a run whose tab lists nothing waits for the browser's word of the page that replaces it. */
const pageGoingWaitMs = 2_000;
