import type { ReadonlySignal } from '@preact/signals';
import type { PanelMessage } from '../agent/agent-port-protocol';
import { createConversationActions } from './conversation-actions';
import type { PanelState } from './panel-state';
import type { PortConnection } from './port-connection';
import { createPostForTab } from './post-for-tab';
import { createTabActions } from './tab-actions';
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
  const postForTab = createPostForTab(panel.tabId, panel.tabClosed, port);
  const tab = createTabActions(panel, subscription, postForTab);
  const conversation = createConversationActions(panel, guards, postForTab);

  return {
    selectTab: tab.selectTab,
    tabWasClosed: tab.tabWasClosed,
    tabReplaced: tab.tabReplaced,
    setDraft: conversation.setDraft,
    send: conversation.send,
    stop: conversation.stop,
    newChat: conversation.newChat,
    undoNewChat: conversation.undoNewChat,
    approve: conversation.approve,
    setAgentOff: tab.setAgentOff,
    stopAllowingSite: tab.stopAllowingSite,
    reloadPage: tab.reloadPage,
    dismissError: conversation.dismissError,
  };
}
