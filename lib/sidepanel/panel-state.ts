import { signal } from '@preact/signals';
import type { SessionState } from '../agent/session-state';
import { createApprovalsSent } from './approvals-sent';
import { createNewChatUndo } from './new-chat-undo';
import { keepDraftsStored } from './keep-drafts-stored';
import type { DraftStorage } from '../agent/stored-drafts';
import { createTabDrafts } from './tab-drafts';
import { createUnconfirmedRequest } from './unconfirmed-request';

export type ConnectionState = 'connecting' | 'connected' | 'reconnecting';

/**
 * The side panel's signals: what the background says is received into them, the person's actions
 * change them, and so does the connection as it rests or is lost. The model hands them to
 * components read-only. With `draftStorage`, what is typed and not sent outlives the panel.
 */
export function createPanelState(draftStorage?: DraftStorage) {
  const draft = signal('');
  const tabId = signal<number | undefined>(undefined);
  const drafts = createTabDrafts(draftStorage?.write);
  if (draftStorage) keepDraftsStored(tabId, draft, draftStorage);
  return {
    tabId,
    session: signal<SessionState | undefined>(undefined),
    /** The tab a panel fixed to it (`sidepanel.html?tabId=N`) follows is closed: nothing more goes to it. */
    tabClosed: signal(false),
    connection: signal<ConnectionState>('connecting'),
    lastError: signal<string | undefined>(undefined),
    invalidMessages: signal(0),
    draft,
    drafts,
    unconfirmed: createUnconfirmedRequest(draft, tabId, drafts),
    approvals: createApprovalsSent(),
    undo: createNewChatUndo(),
  };
}

export type PanelState = ReturnType<typeof createPanelState>;
