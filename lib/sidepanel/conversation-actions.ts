// The actions about the conversation in the tab followed (the draft, requests, New chat,
// approvals), apart from those about the tab itself.
import type { ActionGuards, ApprovalDecision } from './panel-actions';
import type { PanelState } from './panel-state';
import type { PostForTab } from './post-for-tab';

/** The panel's actions on the conversation: each writes the panel's signals, or asks the background. */
export function createConversationActions(panel: PanelState, guards: ActionGuards, postForTab: PostForTab) {
  const { draft, lastError, unconfirmed, approvals, undo } = panel;

  return {
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
    dismissError() {
      lastError.value = undefined;
    },
  };
}
