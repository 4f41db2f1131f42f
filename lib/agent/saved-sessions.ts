import { createSessionStore, type SessionStoreOptions, type StoredSession } from './session-store';
import type { TabSession } from './tab-session';

/**
 * The tabs' conversations in session storage: those an earlier worker kept, read back once
 * (`load`) and taken up by each tab's session as it is made, and the store that writes every
 * session's as it changes. A conversation no session took up yet is written as it was read.
 */
export function createSavedSessions(sessions: ReadonlyMap<number, TabSession>, noteTabsWithChats: SessionStoreOptions['noteTabsWithChats']) {
  let stored: Map<number, StoredSession> | undefined;
  const store = createSessionStore(
    () => new Map([...(stored ?? []), ...[...sessions].map(([tabId, session]) => [tabId, session.stored()] as const)]),
    { noteTabsWithChats },
  );
  return {
    store,
    /** The conversations an earlier worker kept, once `load` read them: none where they could not be read. */
    stored: () => stored,
    load: (): Promise<void> =>
      store.load().then(
        (loaded) => void (stored = loaded),
        () => void (stored = new Map()),
      ),
  };
}
