import { sessionEntrySchema, sessionFrom } from './session-entry';
import { itemKeyParts, itemPrefix, keyParts, numberIn, sessionPrefix, turnPrefix } from './session-keys';
import { restoredSession } from './restored-session';
import { turnItemSchema } from './session-state';
import type { StoredSession } from './session-store';
import { turnFrom, turnHeadSchema } from './stored-turn';
import { writtenTab, writtenTurn, type WrittenTab } from './written-tabs';

/**
 * Every tab's conversation in a snapshot of session storage, restored for a new worker (see
 * `restoredSession`), with `written` told what each key holds so the next write sets only what
 * changed. A key under this store's names that no build writes is handed to `stray`.
 */
export function sessionsFromSnapshot(
  saved: Record<string, unknown>,
  written: Map<number, WrittenTab>,
  stray: (key: string) => void,
  now: number,
): Map<number, StoredSession> {
  noteTurnsAndItems(saved, written, stray);
  return sessionsOfEntries(saved, written, stray, now);
}

/** Every turn and item found is noted, named or not, so that one nothing names is removed at the next write. */
function noteTurnsAndItems(saved: Record<string, unknown>, written: Map<number, WrittenTab>, stray: (key: string) => void): void {
  for (const [key, value] of Object.entries(saved)) {
    if (key.startsWith(turnPrefix)) {
      const { tabId, turnId } = keyParts(key.slice(turnPrefix.length));
      if (tabId === undefined || turnId === undefined) {
        stray(key);
        continue;
      }
      const parsed = turnHeadSchema().safeParse(value);
      writtenTurn(written, tabId, turnId).head = parsed.success ? parsed.data : undefined;
    } else if (key.startsWith(itemPrefix)) {
      const { tabId, turnId, item } = itemKeyParts(key.slice(itemPrefix.length));
      if (tabId === undefined || turnId === undefined || item === undefined) {
        stray(key);
        continue;
      }
      const parsed = turnItemSchema().safeParse(value);
      writtenTurn(written, tabId, turnId).items.set(item, parsed.success ? parsed.data : undefined);
    }
  }
}

/** Each tab's entry with the turns it names, once those are noted; a tab whose entry or a turn does not read has none. */
function sessionsOfEntries(saved: Record<string, unknown>, written: Map<number, WrittenTab>, stray: (key: string) => void, now: number): Map<number, StoredSession> {
  const sessions = new Map<number, StoredSession>();
  for (const [key, value] of Object.entries(saved)) {
    if (!key.startsWith(sessionPrefix)) continue;
    const tabId = numberIn(key.slice(sessionPrefix.length));
    if (tabId === undefined) {
      stray(key);
      continue;
    }
    const tab = writtenTab(written, tabId);
    const parsed = sessionEntrySchema().safeParse(value);
    const turnOf = (turnId: string) => {
      const turn = tab.turns.get(turnId);
      return turn?.head && turnFrom(turn.head, turn.items);
    };
    const session = parsed.success ? sessionFrom(parsed.data, turnOf) : undefined;
    // As stored: a tab whose run is marked interrupted differs from it, and is written again.
    tab.entry = session ? parsed.data : undefined;
    if (session) sessions.set(tabId, restoredSession(session, now));
  }
  return sessions;
}
