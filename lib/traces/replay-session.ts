import { errorMessage } from '../messaging/error-message';
import { agentOffOn } from '../settings/agent-off-on';
import { replayTrace } from './replay-trace';
import { guardSite } from './guard-site';
import { replayProgressText } from './replay-progress-text';
import { replayTabTools } from './replay-tab-tools';
import { replayRefusal } from '../service-worker/tab-drivers';
import { replayClientMessageSchema, type ReplayConfirmRequest, type ReplayServerMessage } from './trace-protocol';
import type { TraceServiceBackground } from './trace-service';
import type { StoredTrace } from './trace-schema';

/** The ends of a viewer's replay port that the session uses. */
export interface ReplayPort {
  post(message: ReplayServerMessage): void;
  onMessage(listener: (message: unknown) => void): void;
  onDisconnect(listener: () => void): void;
}

const defaultToolTimeoutMs = 30_000;
/** How often a replay that waits for the person looks whether its tab is still on its site. */
const siteCheckMs = 500;

/**
 * One viewer's replays: it asks for a run and a tab, answers the confirmations, and gets the
 * replayed steps and their divergences. Closing the viewer cancels the replay.
 */
export function connectReplaySession(port: ReplayPort, background: TraceServiceBackground): void {
  let controller: AbortController | undefined;
  const pending = new Map<string, (allow: boolean) => void>();
  const post = (message: ReplayServerMessage) => {
    try {
      port.post(message);
    } catch {
      // The viewer went away; the disconnect cancels the replay.
    }
  };
  const fail = (message: string) => post({ type: 'failed', error: { name: 'ReplayError', message } });
  const cancel = () => {
    controller?.abort();
    for (const resolve of pending.values()) resolve(false);
    pending.clear();
  };

  // A question the replay no longer waits for (its tab left the site) is withdrawn as declined.
  const confirm = (call: ReplayConfirmRequest, signal: AbortSignal) =>
    new Promise<boolean>((resolve) => {
      pending.set(call.callId, resolve);
      signal.addEventListener('abort', () => {
        pending.delete(call.callId);
        resolve(false);
      }, { once: true });
      post({ type: 'confirm-request', call });
    });

  port.onMessage((raw) => {
    const parsed = replayClientMessageSchema().safeParse(raw);
    if (!parsed.success) return fail('The replay did not understand that message.');
    const message = parsed.data;
    switch (message.type) {
      case 'start': {
        if (controller) return fail('A replay is already running in this viewer.');
        const current = new AbortController();
        controller = current;
        replayInTab(background, { runId: message.runId, tabId: message.tabId, shownOrigin: message.origin, signal: current.signal, confirm, post })
          .catch((error: unknown) => fail(errorMessage(error)))
          .finally(() => {
            if (controller === current) controller = undefined;
          });
        return;
      }
      case 'confirm':
        pending.get(message.callId)?.(message.allow);
        pending.delete(message.callId);
        return;
      case 'cancel':
        return cancel();
    }
  });
  port.onDisconnect(cancel);
}

interface ReplayRequest {
  runId: string;
  tabId: number;
  /** The site the viewer showed for the tab, where it said. */
  shownOrigin?: string;
  signal: AbortSignal;
  /** Asks the person about a call; the question is withdrawn once `signal` aborts. */
  confirm(call: ReplayConfirmRequest, signal: AbortSignal): Promise<boolean>;
  post(message: ReplayServerMessage): void;
}

/** Replays one stored run in a tab through the tool registry, and posts what happens. */
async function replayInTab(background: TraceServiceBackground, { runId, tabId, shownOrigin, signal, confirm, post }: ReplayRequest): Promise<void> {
  const fail = (message: string) => post({ type: 'failed', error: { name: 'ReplayError', message } });
  const trace = await (await background.store()).getTrace(runId);
  if (!trace) return fail('This run is no longer stored.');
  // Only finished replies are played back: with none, every step would read as a difference.
  if (!trace.steps.some((step) => step.complete)) return fail('Nothing to replay: the model finished no reply in this run.');
  // The list offers no private window's tab; a viewer that names one anyway gets the same answer as for a closed tab.
  const tabTools = (await background.isPrivateTab(tabId)) ? undefined : await background.getTabTools(tabId);
  if (!tabTools) return fail('That tab offers no tools now: it was closed, or its page has none.');
  const site = tabTools.origin;
  // The person chose the tab by the site the list showed; recorded calls must not run on another.
  if (shownOrigin !== undefined && site !== shownOrigin) {
    return fail(`The tab you chose now shows ${site || 'another page'}, not ${shownOrigin} as the list said, so nothing was replayed. Refresh the tabs and choose again.`);
  }
  const offProblem = await agentOffProblem(background, site);
  if (offProblem) return fail(`${offProblem}, so nothing is replayed there. Turn it back on in the extension's options.`);
  const timeoutMs = (await background.toolTimeoutMs?.()) ?? defaultToolTimeoutMs;
  // The agent may be running the page's tools here: one driver at a time (see `createTabDrivers`).
  const claim = background.tabDrivers?.take(tabId, 'replay') ?? { release: () => {} };
  if ('busy' in claim) return fail(replayRefusal(claim.busy));
  try {
    await replayClaimed(background, { tabId, signal, confirm, post }, trace, site, timeoutMs);
  } finally {
    claim.release();
  }
}

/** The replay itself, once the tab is the replay's own. */
async function replayClaimed(
  background: TraceServiceBackground,
  { tabId, signal, confirm, post }: Omit<ReplayRequest, 'runId' | 'shownOrigin'>,
  trace: StoredTrace,
  site: string,
  timeoutMs: number,
): Promise<void> {
  const fail = (message: string) => post({ type: 'failed', error: { name: 'ReplayError', message } });
  const guard = guardSite(background, tabId, site, signal);
  // A tool that does not answer in time stops the replay where it stopped the run.
  const timedOut = new AbortController();
  let stopped: string | undefined;
  const onTimeout = (name: string) => {
    stopped = `The replay stopped where the tool "${name}" did not answer within ${timeoutMs / 1000} s, as a live run would.`;
    timedOut.abort();
  };
  const scorer = await background.scorer?.();
  const askEveryCall = (await background.consent?.())?.askEveryCall ?? false;
  // The viewer stays open for the whole replay (closing it cancels), so this hold ends with it;
  // taken once nothing before the replay can fail, or a failed read would keep it for good.
  const releaseWorker = background.keepAwake?.() ?? (() => {});
  const report = await replayTrace({
    trace,
    scorer,
    askEveryCall,
    site,
    signal: AbortSignal.any([guard.signal, timedOut.signal]),
    ...replayTabTools(background, tabId, site, guard, { timeoutMs, onTimeout }),
    confirm: async (call) => {
      const check = async () => guard.check(await background.getTabTools(tabId), call.origin);
      await check();
      // While the person decides, the tab may leave the site (as a live run's question, it is
      // withdrawn then): the replay stops, and says why, rather than ask on about a page gone.
      const asked = new AbortController();
      try {
        return await Promise.race([confirm({ ...call, origin: call.origin ?? site }, AbortSignal.any([guard.signal, asked.signal])), checkEvery(siteCheckMs, check, asked.signal)]);
      } finally {
        asked.abort();
      }
    },
    onEvent: (event) => {
      const text = replayProgressText(event);
      if (text) post({ type: 'progress', step: 'step' in event ? event.step : 0, text });
    },
  }).finally(releaseWorker);
  if (guard.stoppedBecause) return fail(guard.stoppedBecause);
  // An error is no difference of the page's: its steps would only read as missing.
  if (report.finishReason === 'error') return fail(`The replay stopped on an error: ${report.error?.message ?? 'the agent failed'}`);
  post({ type: 'done', finishReason: report.finishReason, stepCount: report.steps.length, divergences: report.divergences, ...(stopped ? { stopped } : {}) });
}

/** Says so when the person has turned the agent off on `site`, whether before or during the replay. */
async function agentOffProblem(background: TraceServiceBackground, site: string): Promise<string | undefined> {
  const consent = await background.consent?.();
  return consent && agentOffOn(consent.disabledSites, site) ? `The agent is off on ${site}` : undefined;
}

/** Runs `check` every `everyMs` until `signal` aborts; never resolves, and rejects with what `check` throws. */
async function checkEvery(everyMs: number, check: () => Promise<unknown>, signal: AbortSignal): Promise<never> {
  while (true) {
    // Answered while a check went on: no listener heard the abort, so it is looked at here.
    signal.throwIfAborted();
    await new Promise<void>((resolve, reject) => {
      const stop = () => {
        clearTimeout(timer);
        reject(signal.reason);
      };
      const timer = setTimeout(() => {
        signal.removeEventListener('abort', stop);
        resolve();
      }, everyMs);
      signal.addEventListener('abort', stop, { once: true });
    });
    await check();
  }
}
