// A request's run in a tab: what it needs is loaded (the settings, the page's tools, the engine),
// the run is recorded where traces are kept, each of its events shows in its turn, and its
// exchange goes into the history.
import { errorLeads } from './turn-notices';
import type { ToolDescriptor } from '@webmcp-agents/chat';
import type { AgentEvent } from '@webmcp-agents/local-agent';
import type { Engine } from '../engines/engine';
import type { Settings } from '../settings';
import { originOf } from '../text/origin-of';
import { whyRecorderKeepsNone } from '../traces/trace-recorder';
import type { ActiveRun, TabRunHost } from './active-run';
import type { SessionMessage } from './agent-port-protocol';
import { applyAgentEvent, updateCard } from './apply-agent-event';
import { calledTools } from './called-tools';
import { watchRepeatedStop } from './repeated-stop';
import { enterSite, readPageAtSend, takeSite } from './request-site';
import { runTabAgent } from './run-tab-agent';
import type { SessionHistory } from './session-history';
import type { Turn, TurnOutcome } from './session-state';
import { outcomeOf, toolsCalledInCutReply } from './turn-outcome';

/** What a request's run needs of the tab's session, beyond what its calls need. */
export interface RequestHost extends TabRunHost {
  readonly history: SessionHistory;
  /** Whether `active` is of the conversation shown: neither "New chat" nor its Undo came since it began. */
  inConversation(active: ActiveRun): boolean;
  /** The turn before `active`'s in the conversation, if any. */
  turnBefore(active: ActiveRun): Turn | undefined;
}

/** The page a run is on: the site it took, its address (see `addressOfRun`), and the tools it offered as the run began. */
type RunPage = { origin: string; address: string; tools?: readonly ToolDescriptor[] };

/** The run's turn as it is now, and how it changes (shown, published and saved: see `TabSession.send`). */
type TurnAccess = { current: () => Turn; setTurn: (next: Turn, message?: SessionMessage) => void };

/** Loads what a run needs and runs it; answers how the turn ended. */
export async function runRequest(host: RequestHost, request: string, active: ActiveRun, turn: TurnAccess): Promise<[TurnOutcome, string?]> {
  const { world, tabId } = host;
  const { signal } = active.controller;
  const [settings, page, privateWindow, notKept] = await Promise.all([
    world.loadSettings(),
    readPageAtSend(world, tabId, signal),
    world.isPrivateTab(tabId),
    whyRecorderKeepsNone(world.recorder),
  ]);
  active.privateWindow = privateWindow;
  active.notRecorded = privateWindow ? 'private-window' : notKept;
  // Where the run ends on its site anyway, the model is not loaded for it.
  const off = takeSite(active, settings, page.tools, page.sentOn);
  if (off) return off;
  const engine = await world.loadEngine(settings, tabId, signal);
  // The engine's own message and what to do about it end the request: they stay with it when a
  // later error replaces the one the panel shows above the conversation.
  if ('error' in engine) {
    if (signal.aborted) return [active.stopReason ?? 'stopped', active.stopDetail];
    active.loadFailed = true;
    return ['error', `${errorLeads.nothingDone} ${engine.error}`];
  }

  try {
    // A page that had not reported may have while the model loaded; one still loading is given
    // until its first report, or a short while from the request on.
    await page.firstReport;
    const tools = page.tools ?? (await world.getTabTools(tabId));
    // A run stopped by then (a navigation) takes no site it learned late.
    if (!page.tools && signal.aborted) return [active.stopReason ?? 'stopped', active.stopDetail];
    const siteOff = enterSite(host.history, active, settings, tools, page.sentOn);
    if (siteOff) return siteOff;
    const origin = active.page?.origin ?? '';
    return await runWith(host, engine, request, settings, { origin, address: addressOfRun(origin, tools?.url, page.address), tools: tools?.tools }, active, turn);
  } finally {
    // Another tab's new model may load now.
    world.releaseEngine(engine);
  }
}

/**
 * The page's address for the run's trace: the tab's as the request was sent, which follows a
 * single-page app's moves (a report keeps the address its document loaded at), where it is of the
 * run's site; else the report's.
 */
function addressOfRun(origin: string, reported: string | undefined, current: string | undefined): string {
  if (current !== undefined && originOf(current) === origin) return current;
  return reported ?? current ?? '';
}

/** Runs the agent with the loaded engine, recording the run; answers how the turn ended. */
async function runWith(
  host: RequestHost,
  engine: Engine,
  request: string,
  settings: Settings,
  { origin, address, tools }: RunPage,
  active: ActiveRun,
  { current, setTurn }: TurnAccess,
): Promise<[TurnOutcome, string?]> {
  // From here on the run's exchange goes into the history when it ends (as `SessionHistory.remember`
  // does, on a known site): a model that never loaded leaves none.
  active.remembered = origin !== '';
  const turn = current();
  const reader = `${engine.id}:${engine.modelId}:${engine.format.id}`;
  const { history, requests: requestsRead } = host.history.forRun(origin, engine.contextTokens, { tools, request, reader, replyTokens: settings.replyTokens });
  // The tools the request before called, where the model reads that request again.
  const recentTools = history.length > 0 ? calledTools(host.turnBefore(active)) : [];
  const runId = startRecording(host, engine, request, { origin, address }, active, turn, recentTools);
  setTurn(runId ? { ...turn, runId, requestsRead } : { ...turn, notRecorded: active.notRecorded, requestsRead });
  // The loop's own words for why it stopped a model that kept asking for the same thing.
  const repeatedStop = watchRepeatedStop();
  // The last step's reply as the model wrote it: one that stops in its thoughts is told apart.
  let stepRaw = '';
  let thoughtApart = false;
  // What the last step read, which a follow-up may read again (see SessionHistory.forRun).
  let lastStart: Extract<AgentEvent, { type: 'step-start' }> | undefined;
  const conversation = { history, recentTools, pageHasTools: (tools?.length ?? 0) > 0 };
  const result = await runTabAgent(host, request, conversation, settings, engine, active, origin, (event, faceOf) => {
    if (runId) host.world.recorder.record(runId, event);
    repeatedStop.see(event);
    if (event.type === 'step-start') [stepRaw, thoughtApart, lastStart] = ['', false, event];
    if (event.type === 'text-delta') stepRaw += event.text;
    if (event.type === 'step-end') {
      thoughtApart = Boolean(event.thoughts);
      host.world.reportUsage(host.tabId, event.usage);
    }
    const before = current();
    const next = applyAgentEvent(before, event, faceOf);
    if (next === before) return;
    setTurn(next, event.type === 'prose-delta' ? { type: 'prose-delta', tabId: host.tabId, turnId: before.id, text: event.text } : undefined);
  }, (change) => setTurn(updateCard(current(), change.callId, change)));
  if (host.inConversation(active) && origin !== '') {
    // The page's tools as the run began, as the next run's are read: where the page changed them
    // meanwhile and kept them so, the next run's differ, and it reads the short history.
    const read = lastStart && { prompt: lastStart.messages, allToolsShown: !lastStart.notShownCount, reader, contextTokens: engine.contextTokens, tools };
    host.history.remember(current(), result, active, read);
  }
  // A reply cut off while it wrote calls: they did not run, and the panel shows no card of them.
  const cutCalls = result.error?.code === 'reply-cut-off' && lastStart ? toolsCalledInCutReply(stepRaw, new Set(lastStart.tools.map(({ tool }) => tool.name)), engine.format) : [];
  return outcomeOf(host, result, active, settings, repeatedStop.notice, { text: stepRaw, thoughtApart, contextTokens: engine.contextTokens, cutCalls }, current());
}

/**
 * Starts the run's trace; answers its id, or undefined where it leaves none. Only a run that
 * started has a trace for the turn's link to open. A private window's run has none (the trace
 * store outlasts the window, and the browser, on disk), nor has any run where the person keeps
 * no traces.
 */
function startRecording(
  host: RequestHost,
  engine: Engine,
  request: string,
  { origin, address }: RunPage,
  active: ActiveRun,
  turn: Turn,
  recentTools: readonly string[],
): string | undefined {
  if (active.notRecorded) return undefined;
  const runId = crypto.randomUUID();
  host.world.recorder.startRun({
    runId,
    tabId: host.tabId,
    url: address,
    origin,
    engineId: engine.id,
    model: engine.modelId,
    format: engine.format.id,
    // A replay ranks the page's tools as this run did.
    ...(recentTools.length > 0 ? { recentTools } : {}),
    request,
    startedAt: turn.startedAt,
  });
  return runId;
}
