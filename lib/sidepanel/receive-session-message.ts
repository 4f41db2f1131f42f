import { batch } from '@preact/signals';
import { sessionMessageSchema, type SessionMessage } from '../agent/agent-port-protocol';
import { applySessionMessage } from '../agent/apply-session-message';
import type { SessionState } from '../agent/session-state';
import type { PanelState } from './panel-state';

/**
 * A message from the background, unchecked: one that is not a session message is counted, not
 * applied. `confirm` says the background is alive, so the next loss reconnects soonest.
 */
export function receiveSessionMessage(panel: PanelState, raw: unknown, confirm: () => void): void {
  const parsed = sessionMessageSchema().safeParse(raw);
  if (!parsed.success) {
    panel.invalidMessages.value += 1;
    return;
  }
  confirm();
  batch(() => {
    panel.connection.value = 'connected';
    receive(panel, parsed.data);
  });
}

/**
 * The browser tells no address of a tab Chrome unloaded to save memory: the panel that showed its
 * page as it went to sleep goes on naming it (by its address: the site's settings are not read).
 */
function withAddressKept(shown: SessionState | undefined, message: SessionMessage): SessionMessage {
  if (message.type !== 'snapshot' || !message.state.pageAsleep || message.state.url !== '' || !shown?.url) return message;
  return { ...message, state: { ...message.state, url: shown.url } };
}

function receive(panel: PanelState, message: SessionMessage): void {
  const { session, unconfirmed, undo } = panel;
  if (message.type === 'error') {
    // The answer to what was asked for a tab the panel has turned away from since is that tab's.
    if (message.tabId !== undefined && message.tabId !== panel.tabId.value) return unconfirmed.refusedIn(message.tabId, message.message);
    panel.lastError.value = message.message;
    unconfirmed.returnToDraft();
    undo.forgetUnanswered();
    return;
  }
  // A snapshot of the tab this panel followed before must not replace the current one.
  if (message.type === 'snapshot' && message.state.tabId !== panel.tabId.value) return;
  if (message.type === 'snapshot') undo.followSnapshot(message.state);
  if (message.type === 'turn') undo.reset();
  unconfirmed.confirmBy(message);
  const next = applySessionMessage(session.value, withAddressKept(session.value, message));
  if (next === session.value) return;
  session.value = next;
  panel.approvals.keepWaitingIn(next);
}
