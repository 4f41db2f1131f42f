import { storage } from 'wxt/utils/storage';
import { chatEndingSchema, type ChatEnding } from './session-state';

/**
 * Chrome clears session storage, and with it every tab's chat, when the extension is updated or
 * reloaded. Which tabs had a chat is kept apart on disk, as tab numbers only (no words, no
 * address, no private window's tab), so that after an update their panels can say where the chat
 * went instead of opening empty. Tab numbers mean nothing in a new browser session: the list is
 * forgotten when the browser starts.
 */
const tabsWithChatsItem = storage.defineItem<number[]>('local:tabsWithChats', { fallback: [] });

/** Tabs whose chat an update ended, and how: their panels say so until the next request there. */
const endedChatsItem = storage.defineItem<Record<string, unknown>>('session:chatsEndedByUpdate', { fallback: {} });

/** Writes the tabs that have a chat, when they changed since the last write of this worker. */
export function createTabsWithChatsNote(isPrivateTab: (tabId: number) => Promise<boolean>) {
  let written: string | undefined;
  return async (tabIds: Iterable<number>): Promise<void> => {
    const ids = [...new Set(tabIds)].sort((a, b) => a - b);
    const kept = (await Promise.all(ids.map(async (id) => ((await isPrivateTab(id).catch(() => true)) ? undefined : id)))).filter(
      (id): id is number => id !== undefined,
    );
    const key = kept.join(',');
    if (key === written) return;
    await tabsWithChatsItem.setValue(kept);
    written = key;
  };
}

/** The tabs that had a chat before this start of the worker, read once: the list is removed. */
export async function takeTabsWithChats(): Promise<number[]> {
  const ids = await tabsWithChatsItem.getValue();
  await tabsWithChatsItem.removeValue();
  return (ids ?? []).filter((id) => Number.isInteger(id));
}

export async function forgetTabsWithChats(): Promise<void> {
  await tabsWithChatsItem.removeValue();
}

export async function loadEndedChats(): Promise<Map<number, ChatEnding>> {
  const stored = await endedChatsItem.getValue();
  const ended = new Map<number, ChatEnding>();
  for (const [key, value] of Object.entries(stored ?? {})) {
    const ending = chatEndingSchema().safeParse(value);
    if (Number.isInteger(Number(key)) && ending.success) ended.set(Number(key), ending.data);
  }
  return ended;
}

export async function saveEndedChats(ended: ReadonlyMap<number, ChatEnding>): Promise<void> {
  if (ended.size === 0) await endedChatsItem.removeValue();
  else await endedChatsItem.setValue(Object.fromEntries(ended));
}
