import { computed, createModel, effect, type ReadonlySignal } from '@preact/signals';
import type { SessionState } from '../agent/session-state';
import type { AgentPort } from './agent-port';
import { createPanelActions } from './panel-actions';
import { createPanelState, type ConnectionState } from './panel-state';
import { createPortConnection } from './port-connection';
import { receiveSessionMessage } from './receive-session-message';
import { sessionShell } from './session-shell';
import { waitingCallIds } from './waiting-call-ids';
import type { DraftStorage } from '../agent/stored-drafts';
import { createTabSubscription } from './tab-subscription';

export type { ConnectionState } from './panel-state';
export type { ApprovalDecision } from './panel-actions';

export interface PanelModelOptions {
  connect: () => AgentPort;
  /** The service worker is stopped after 30 s idle; a heartbeat keeps it up during long work. */
  heartbeatMs?: number;
  reconnectDelayMs?: number;
  /**
   * Listens for the background's word that a tab's session changed while this panel rested (see
   * `PanelWake`); returns a function that stops. Without it, the panel never rests.
   */
  onWake?: (listener: (tabId: number | undefined) => void) => () => void;
  /** Where each tab's unsent request is kept while the panel is closed; without it, only while it is open. */
  draftStorage?: DraftStorage;
}

/**
 * The side panel's state for the tab it follows: components read the signals, actions write.
 * Every message from the background is validated and applied with `applySessionMessage`.
 */
export const PanelModel = createModel((options: PanelModelOptions) => {
  const panel = createPanelState(options.draftStorage);
  const { tabId, session, tabClosed, connection, lastError, invalidMessages, draft, unconfirmed, approvals, undo } = panel;

  // A closed tab's run ended with it, whatever its last snapshot said while it went.
  const running = computed(() => !tabClosed.value && (session.value?.running === true || unconfirmed.request.value !== undefined));
  // No request goes to an engine the check before any load found cannot run here (no WebGPU): the
  // panel says why and where to pick another, and the snapshot after a settings change lets it through.
  const engineCannotRun = computed(() => session.value?.engine.state === 'error' && session.value.engine.errorDuring === 'check');
  // Only while the new chat is empty and quiet: a request sent in it ends the offer.
  const canUndoNewChat = computed(() => session.value?.canUndoNewChat === true && !tabClosed.value && !running.value && undo.state.value !== 'asked');
  const canSend = computed(
    () =>
      connection.value === 'connected' &&
      session.value !== undefined &&
      // A page without tools leaves the model nothing to do: no request loads it (a download, the
      // first time) for nothing, and one that registers tools later is asked at once. Only where
      // the tab's chat was held on the page's site is there that chat to ask about.
      (session.value.toolCount > 0 || session.value.askAboutChat === true) &&
      !session.value.agentOff &&
      !engineCannotRun.value &&
      !tabClosed.value &&
      !running.value,
  );
  // What the panel shows around the conversation, which a streamed reply does not change.
  const shell = sessionShell(session);
  const hasTurns = computed(() => (session.value?.turns.length ?? 0) > 0);
  const latestTurn = computed(() => session.value?.turns.at(-1));
  // A call of the conversation waits for the person's Allow or Deny.
  const waitingForPerson = computed(() => waitingCallIds(session.value).size > 0);
  const needsHeartbeat = computed(
    () => !tabClosed.value && (running.value || session.value?.engine.state === 'loading' || session.value?.engine.state === 'generating'),
  );

  // Asked for its port only once a tab is followed: the connection below opens (and subscribes)
  // while it is being made, before any tab is.
  const subscription = createTabSubscription(tabId, tabClosed, () => port);
  const port = createPortConnection({
    connect: options.connect,
    reconnectDelayMs: options.reconnectDelayMs,
    // An idle panel lets its port go with the stopped worker, and the worker sleep: the person
    // acting, or the background's word that this tab changed, connects it again.
    stayConnected: () => !tabClosed.value && (options.onWake === undefined || session.value === undefined || needsHeartbeat.value),
    onOpen: () => subscription.post(),
    // The stopped worker took the model with it: the next request loads it again.
    onRest: () => {
      undo.forgetUnanswered();
      const current = session.value;
      if (current && current.engine.state !== 'error') {
        session.value = { ...current, engine: { ...current.engine, state: 'idle', tokensPerSecond: undefined, progress: undefined, progressText: undefined, firstWordSince: undefined, thinking: undefined } };
      }
    },
    onLost: () => {
      connection.value = 'reconnecting';
      unconfirmed.returnAll();
      undo.forgetUnanswered();
    },
    onMessage: (raw) => receiveSessionMessage(panel, raw, () => port.confirm()),
  });

  effect(() => {
    if (!needsHeartbeat.value) return;
    const timer = setInterval(() => port.post({ type: 'heartbeat' }), options.heartbeatMs ?? 10_000);
    return () => clearInterval(timer);
  });
  // Captured by the model, so disposing the model closes the port and its timers.
  effect(() => () => port.close());
  effect(() =>
    options.onWake?.((changedTabId) => {
      if (changedTabId === undefined || changedTabId === tabId.peek()) port.wake();
    }),
  );

  return {
    tabId: tabId as ReadonlySignal<number | undefined>,
    session: session as ReadonlySignal<SessionState | undefined>,
    /** The session without its turns: read by what does not show them, it changes far less often. */
    shell,
    hasTurns,
    latestTurn,
    waitingForPerson,
    tabClosed: tabClosed as ReadonlySignal<boolean>,
    connection: connection as ReadonlySignal<ConnectionState>,
    lastError: lastError as ReadonlySignal<string | undefined>,
    invalidMessages: invalidMessages as ReadonlySignal<number>,
    draft: draft as ReadonlySignal<string>,
    approvalsSent: approvals.sent,
    running,
    canSend,
    engineCannotRun,
    canUndoNewChat,
    /** This panel pressed New chat, and the offer to undo it is the one that press made. */
    newChatStartedHere: undo.startedHere,
    /** Undo brought the conversation back (until the next request, New chat or another tab). */
    newChatUndone: undo.undone,
    ...createPanelActions(panel, { running, canSend, canUndoNewChat }, port, subscription),
  };
});

export type PanelModel = InstanceType<typeof PanelModel>;
