import { loadEndedChats, saveEndedChats } from './chats-across-update';
import type { ChatEnding } from './session-state';

/**
 * Tabs whose chat an update of the extension ended, told so in their panels until their next
 * request. Kept in session storage as it changes, so a worker started later still tells them.
 */
export function createEndedChats() {
  let endedChats = new Map<number, ChatEnding>();
  const saveSoon = () => void saveEndedChats(endedChats).catch(() => {});
  return {
    /** Reads back what an earlier worker kept; none, where that cannot be read. */
    load: (): Promise<void> =>
      loadEndedChats().then(
        (loaded) => void (endedChats = loaded),
        () => {},
      ),
    get: (tabId: number): ChatEnding | undefined => endedChats.get(tabId),
    /** Whether any tab is told that its chat ended. */
    any: (): boolean => endedChats.size > 0,
    /** Notes an ending; `save` keeps it. */
    set(tabId: number, ending: ChatEnding): void {
      endedChats.set(tabId, ending);
    },
    save: (): Promise<void> => saveEndedChats(endedChats),
    /** The tab's panel says no more that its chat ended: a request was sent there, New chat pressed, or the tab closed. */
    forget(tabId: number): void {
      if (endedChats.delete(tabId)) saveSoon();
    },
    /** The tab has a new id (see `tabReplaced`): its panel goes on saying how its chat ended. */
    move(removedTabId: number, addedTabId: number): void {
      const ending = endedChats.get(removedTabId);
      if (ending) {
        endedChats.delete(removedTabId);
        endedChats.set(addedTabId, ending);
        saveSoon();
      }
    },
  };
}

export type EndedChats = ReturnType<typeof createEndedChats>;
