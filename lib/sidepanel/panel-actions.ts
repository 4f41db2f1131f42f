import type { ReadonlySignal } from '@preact/signals';
import type { PanelMessage } from '../agent/agent-port-protocol';
import type { PanelState } from './panel-state';
import type { PortConnection } from './port-connection';
import { createTabDrafts } from './tab-drafts';
import type { TabSubscription } from './tab-subscription';

export type ApprovalDecision = Extract<PanelMessage, { type: 'approve' }>['decision'];

/** What the actions check before they ask the background (see the model's computed signals). */
export interface ActionGuards {
  running: ReadonlySignal<boolean>;
  canSend: ReadonlySignal<boolean>;
  canUndoNewChat: ReadonlySignal<boolean>;
}

/** What the components call: each writes the panel's signals, or asks the background for the tab followed. */
export function createPanelActions(
  panel: PanelState,
  guards: ActionGuards,
  port: Pick<PortConnection, 'post'>,
  subscription: TabSubscription,
) {
  const { tabId, session, draft, lastError, unconfirmed, approvals, undo } = panel;
  const drafts = createTabDrafts();

  function postForTab(build: (tabId: number) => PanelMessage): boolean {
    return tabId.value !== undefined && port.post(build(tabId.value));
  }

  return {
    /** Follow a tab; subscribing again to the same tab asks for a fresh snapshot. */
    selectTab(nextTabId: number) {
      if (nextTabId !== tabId.value) {
        if (tabId.value !== undefined) draft.value = drafts.turn(tabId.value, nextTabId, draft.value);
        tabId.value = nextTabId;
        subscription.turnedToTab();
        session.value = undefined;
        unconfirmed.forget();
        approvals.clear();
        lastError.value = undefined;
        undo.reset();
      }
      subscription.renew();
    },
    setDraft(text: string) {
      draft.value = text;
    },
    /** Sends the draft, or `text` when given (a request tried again), leaving the draft as it is. Returns whether it went out. */
    send(text?: string) {
      const request = (text ?? draft.value).trim();
      if (!request || !guards.canSend.value) return false;
      const sent = postForTab((id) => ({ type: 'send', tabId: id, text: request.slice(0, 20_000) }));
      if (!sent) return false;
      unconfirmed.sent(request.slice(0, 20_000));
      lastError.value = undefined;
      if (text === undefined) draft.value = '';
      return true;
    },
    stop() {
      postForTab((id) => ({ type: 'stop', tabId: id }));
    },
    newChat() {
      if (guards.running.value) return;
      undo.pressed(postForTab((id) => ({ type: 'new-chat', tabId: id })));
    },
    /** Brings back the conversation "New chat" put aside, while the background offers that. */
    undoNewChat() {
      if (guards.canUndoNewChat.value && postForTab((id) => ({ type: 'undo-new-chat', tabId: id }))) undo.asked();
    },
    approve(callId: string, decision: ApprovalDecision) {
      if (approvals.sent.value.has(callId)) return;
      const sent = postForTab((id) => ({ type: 'approve', tabId: id, callId, decision }));
      if (sent) approvals.add(callId);
    },
    /**
     * Turns the agent off on the site the panel shows, or back on: the background changes the
     * settings (see `disabledSitesWith`), stops a run there, and the panel follows their change.
     */
    setAgentOff(off: boolean) {
      const origin = session.value?.origin;
      return origin !== undefined && origin !== '' && postForTab((id) => ({ type: 'set-agent-off', tabId: id, origin, off }));
    },
    /** Reloads the tab's page, for a page the extension cannot reach yet. */
    reloadPage() {
      postForTab((id) => ({ type: 'reload-page', tabId: id }));
    },
    dismissError() {
      lastError.value = undefined;
    },
  };
}

export type PanelActions = ReturnType<typeof createPanelActions>;
