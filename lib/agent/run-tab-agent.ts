// A run of the agent loop in a tab: the page's tools read fresh at every step, each call checked
// against the sites where the agent is off, run in its frame within the tool timeout, and asked
// about where the person must say yes first.
import type { ChatMessage, ToolDescriptor, ToolOutput } from '@webmcp-agents/chat';
import {
  runLocalAgent,
  type AgentEvent,
  type Approval,
  type ParsedCall,
  type RunLocalAgentResult,
  type ToolCallContext,
  type ToolWithdrawn,
} from '@webmcp-agents/local-agent';
import type { Engine } from '../engines/engine';
import { siteOfReport } from '../registry/report-site';
import { pageChangedMessage } from '../registry/execute-tab-tool';
import { toolOriginOf, toolTargetOf } from '../registry/tool-target';
import { agentOffOn, type Settings } from '../settings';
import { withReadableFailure } from '../webmcp/hidden-tool-error';
import type { ActiveRun, Settled, TabRunHost } from './active-run';
import { approvalReason, isAllowableSite, type ApprovalReason } from './approval-policy';
import { assumedContextTokens } from './fit-history';
import { reportsOtherSite } from './request-site';
import { toolSummary } from './tool-summary';
import { agentOffNotice } from './turn-notices';
import { waitForDecision } from './wait-for-decision';
import { withContextFullWords } from './context-full-words';

/** How a call that waits for the person's yes shows on its card. */
type WaitingCard = { callId: string; state: 'waiting'; approvalReason: ApprovalReason; siteChoice?: false; origin?: string; description?: string };

/** What the run changes on a call's card itself: it waits for the person, or it was handed to the page. */
type CardChange = WaitingCard | { callId: string; sent: true };

/** One run in the tab as its calls are checked: where it works, and what it may offer the person. */
interface TabRun {
  host: TabRunHost;
  active: ActiveRun;
  settings: Settings;
  /** The tab's site as its tools were last read. */
  topOrigin?: string;
  /** The site the run works on: the tab's when it began, or the first the page reports. */
  runOrigin: string;
  /** "Allow on this site" may be offered. */
  siteChoice: boolean;
  changeCard: (change: CardChange) => void;
}

/** Runs the agent loop for one request in the tab, with the engine loaded for it. */
export function runTabAgent(
  host: TabRunHost,
  request: string,
  /** What the model reads again of the conversation, and the tools its last request called. */
  { history, recentTools }: { history: ChatMessage[]; recentTools: readonly string[] },
  settings: Settings,
  engine: Engine,
  active: ActiveRun,
  /** The tab's site when the run began ('' where neither the page's address nor its tools named one). */
  origin: string,
  onEvent: (event: AgentEvent) => void,
  changeCard: (change: CardChange) => void,
): Promise<RunLocalAgentResult> {
  // A private window's tab is never allowed for good: the choice would outlast the window.
  const run: TabRun = { host, active, settings, runOrigin: origin, siteChoice: isAllowableSite(origin) && !active.privateWindow, changeCard };
  const contextTokens = engine.contextTokens ?? assumedContextTokens;
  const result = runLocalAgent({
    request,
    history,
    recentTools,
    model: engine.model,
    format: engine.format,
    signal: active.controller.signal,
    maxSteps: settings.maxSteps,
    toolOutputLimit: settings.toolOutputLimit,
    // Older tool results give way before the prompt outgrows what the model reads at once.
    contextTokens,
    scorer: host.world.scorerFor(settings),
    onEvent,
    getTools: () => readTools(run),
    executeTool: (call, context) => executeChecked(run, call, context),
    needsApproval: (call, { tool }) => judgeCall(run, call, tool),
    approve: (call, context) => askPerson(run, call, context),
  });
  // A request that alone fills the context, or one with nothing before it, is told apart from a conversation grown
  // too long. The engine may have learned its context only by now (a server that did not say it at first).
  return result.then((ended) => {
    const worded = withContextFullWords(ended, { request, history, contextTokens: engine.contextTokens, engineId: engine.id });
    // The panel offers to put it back in the request box, to shorten it.
    if (worded.tooLong) active.requestTooLong = true;
    return worded.result;
  });
}

/**
 * The page's tools for the next step. The person's list of sites where the agent is off is read
 * again at every step and before every call: a page may report its tools only once the run
 * started, a frame of such a site may sit in another site's page, and the list may change while
 * the run goes on.
 */
async function readTools(run: TabRun): Promise<ToolDescriptor[]> {
  const { host } = run;
  if (host.toolRan) await host.world.settleTools(host.tabId, run.active.controller.signal);
  host.toolRan = false;
  // Stopped while the tools settled: the run has ended, and nothing of the page is read for it.
  if (run.active.controller.signal.aborted) return [];
  const [tabTools, { disabledSites }] = await Promise.all([host.world.getTabTools(host.tabId), host.world.loadSettings()]);
  if (!tabTools) return [];
  // A sandboxed page is named by its address's site (see siteOfReport).
  const topOrigin = siteOfReport(tabTools);
  run.topOrigin = topOrigin;
  // The tab is on another site than the run began on, whether or not the browser said so
  // yet: nothing of this run may reach that site's tools.
  run.runOrigin ||= topOrigin;
  if (reportsOtherSite(tabTools, run.runOrigin)) {
    host.documentChanged();
    return [];
  }
  if (agentOffOn(disabledSites, topOrigin)) {
    host.stop('stopped', agentOffNotice(topOrigin));
    return [];
  }
  return tabTools.tools.filter((tool) => !agentOffOn(disabledSites, toolOriginOf(tool) ?? topOrigin));
}

/** Runs a call, unless the agent is now off on the tab's site or the tool's own. */
async function executeChecked(run: TabRun, call: ParsedCall, context: ToolCallContext): Promise<ToolOutput> {
  const { host, active } = run;
  const { disabledSites } = await host.world.loadSettings();
  const off = [run.topOrigin, toolOriginOf(context.tool)].find((origin) => origin !== undefined && agentOffOn(disabledSites, origin));
  if (off !== undefined) {
    host.stop('stopped', agentOffNotice(off));
    return { text: agentOffNotice(off), isError: true };
  }
  // From here on, what strangers wrote may be steering the model (see approvalReason).
  if (context.tool.annotations?.untrustedContentHint) active.readUntrusted = true;
  // Should the run end from here on, the card says the tool may have done its work; a run stopped
  // during the read above never hands the call over (see executeTabTool).
  if (!context.signal.aborted) run.changeCard({ callId: context.callId, sent: true });
  return executeWithTimeout(host, call, context, active, run.settings);
}

// "Allow on this site" is the tab's site: a frame of another site embedded in it always asks,
// and its card says where the tool comes from.
function otherSiteOf(run: TabRun, tool: ToolDescriptor): string | undefined {
  const own = toolOriginOf(tool);
  return own !== undefined && own !== run.topOrigin ? own : undefined;
}

/**
 * Whether the call must be asked about, runs at once, or does not run: its tool is no longer as
 * the step showed it (see `toolNow`).
 */
async function judgeCall(run: TabRun, call: ParsedCall, tool: ToolDescriptor): Promise<ApprovalReason | null | ToolWithdrawn> {
  const now = await toolNow(run, tool);
  if (now !== 'same') return { withdrawn: notRunMessage(call.name, now, 'after this step showed it') };
  return approvalFor(run, tool);
}

// The confirmation policy and the sites allowed are read again before every call, as the sites
// where the agent is off are: the person may take an allowance back, or ask to confirm every
// call, while they watch the run.
async function approvalFor(run: TabRun, tool: ToolDescriptor): Promise<ApprovalReason | null> {
  const { host } = run;
  const [current, allowed] = await Promise.all([host.world.loadSettings(), host.world.isSiteAllowed(host.tabId)]);
  return approvalReason(tool, current, { siteAllowed: allowed && !otherSiteOf(run, tool), readUntrusted: run.active.readUntrusted });
}

/**
 * Shows the call's card waiting and waits for the person's answer, or until the question no longer
 * stands; answers whether the call may run.
 */
async function askPerson(run: TabRun, call: ParsedCall, { callId, tool }: ToolCallContext): Promise<Approval> {
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
  });
  // The worker stays up while the person decides, even from another tab, but not for good:
  // a run nobody answers ends, and lets go of the model.
  const decision = await waitForDecision(host, run.active, callId, call.name, () => settledMeanwhile(run, call.name, tool));
  if (decision === 'allowed') return true;
  if (typeof decision === 'object') return decision;
  // The page's last change may have come as the person answered: a yes holds only for the tool they saw.
  const now = decision === 'deny' ? 'same' : await toolNow(run, tool);
  if (now !== 'same') return { withdrawn: notRunMessage(call.name, now, 'while the user was being asked about this call') };
  // "Allow on this site" never covers a consequential tool: those ask every time.
  if (decision === 'allow-site' && reason === 'not-read-only' && offerSite) await host.world.allowSite(host.tabId);
  return decision !== 'deny';
}

/**
 * Whether a question ended without the person: the tool went or changed (see `toolNow`), or the
 * call needs no yes now (its site allowed meanwhile).
 */
async function settledMeanwhile(run: TabRun, name: string, tool: ToolDescriptor): Promise<Settled | undefined> {
  const now = await toolNow(run, tool);
  if (now !== 'same') return { withdrawn: notRunMessage(name, now, 'while the user was being asked about this call') };
  return (await approvalFor(run, tool)) === null ? 'allowed' : undefined;
}

/**
 * The tool as the tab offers it now where the call would run (its frame, its document): the same
 * as the step showed it, changed (what it does, its parameters, its hints), or removed. A call is
 * judged, asked about and run only for the tool the model and the person were shown: a page that
 * marks a tool consequential, or swaps in another of the same name, while the model writes its
 * call or the person decides, gets that call not run, and the model sees the new tool next step.
 */
async function toolNow(run: TabRun, tool: ToolDescriptor): Promise<ToolNow> {
  const tabTools = await run.host.world.getTabTools(run.host.tabId);
  const { frameId, documentId } = toolTargetOf(tool);
  const inFrame = (tabTools?.tools ?? []).filter((candidate) => candidate.name === tool.name && (frameId === undefined || toolTargetOf(candidate).frameId === frameId));
  const now = inFrame.find((candidate) => {
    const shown = toolTargetOf(candidate).documentId;
    return documentId === undefined || shown === undefined || shown === documentId;
  });
  // The frame shows another document, whose tool of that name is another tool.
  if (!now) return inFrame.length > 0 ? 'page-changed' : 'removed';
  return shownFace(now) === shownFace(tool) ? 'same' : 'changed';
}

type ToolNow = 'same' | 'changed' | 'removed' | 'page-changed';

/** What the model and the person are shown of a tool, and what its approval is judged on. */
function shownFace({ title, description, inputSchema, annotations }: ToolDescriptor): string {
  return JSON.stringify([title, description, inputSchema, annotations]);
}

/** What the model reads, and the call's card shows, of a call whose tool went or changed `when`. */
function notRunMessage(name: string, why: Exclude<ToolNow, 'same'>, when: string): string {
  if (why === 'page-changed') return pageChangedMessage(name);
  if (why === 'removed') return `The page removed the tool ${name} ${when}, so it did not run.`;
  return `The page changed the tool ${name} (what it does, its parameters or its hints) ${when}, so it did not run. The next step shows it as it is now: call it again if the request still needs it.`;
}

async function executeWithTimeout(host: TabRunHost, call: ParsedCall, context: ToolCallContext, active: ActiveRun, settings: Settings): Promise<ToolOutput> {
  const { tool, signal } = context;
  const timeoutMs = settings.toolTimeoutSeconds * 1000;
  host.toolRan = true;
  const topFrameForm = (tool as { source?: unknown }).source === 'declarative' && (toolTargetOf(tool).frameId ?? 0) === 0;
  const lastTool: NonNullable<ActiveRun['lastTool']> = { name: call.name, callId: context.callId, topFrameForm };
  active.lastTool = lastTool;
  const timer = setTimeout(() => host.stop('tool-timeout', `the tool "${call.name}" did not answer within ${settings.toolTimeoutSeconds} s`), timeoutMs);
  try {
    // The call runs in the frame, and the document, whose tool was chosen and judged for approval.
    const options = { signal, timeoutMs: timeoutMs + 1000, ...toolTargetOf(tool) };
    return withReadableFailure(call.name, await host.world.executeTabTool(host.tabId, call.name, call.arguments, options));
  } finally {
    clearTimeout(timer);
    lastTool.endedAt = Date.now();
  }
}
