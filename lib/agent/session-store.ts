import type { ChatMessage } from '@webmcp-agents/chat';
import { storage } from 'wxt/utils/storage';
import { boundStoredSessions } from './bound-stored-sessions';
import { keyOf } from './session-keys';
import type { Turn } from './session-state';
import { planSessionWrite } from './session-write-plan';
import { sessionsFromSnapshot } from './sessions-from-snapshot';
import { createWriteTimer } from './write-timer';
import { forget, type WrittenTab } from './written-tabs';

/**
 * A conversation's turns, and what the model reads again: the last exchanges, made on `historyOrigin`,
 * one of whose answers came from a run that read text strangers wrote where `historyReadUntrusted`.
 * `runGoingOn`: a run whose exchange the history will keep was going on when this was written.
 * `turnsLeftOut`: how many of its first turns were not kept, the conversation past what storage holds.
 */
export type StoredConversation = {
  turns: Turn[];
  history: ChatMessage[];
  historyOrigin?: string;
  historyReadUntrusted?: boolean;
  runGoingOn?: { readUntrusted: boolean };
  turnsLeftOut?: number;
};

/** A tab's conversation, and the one "New chat" put aside, which Undo brings back until the next request. */
export type StoredSession = StoredConversation & { previous?: StoredConversation };

export interface SessionStoreOptions {
  /** How long streamed prose waits to be written; default 300 ms. */
  delayMs?: number;
  /** Bytes all tabs' conversations may take together (see `boundStoredSessions`). */
  budget?: number;
  /** Told after each write which tabs have something to lose (a chat, or one to bring back). */
  noteTabsWithChats?: ((tabIds: number[]) => Promise<void>) | undefined;
}

/**
 * Reads and writes every tab's conversation (`read` gives them as they are now). Streamed prose is
 * written at most every `delayMs`, anything else (a tool card, the end of a turn) at the next turn
 * of the event loop, so a worker that dies loses as little as possible.
 *
 * Each tab's conversation lives in session storage: it outlives the panel and the service worker,
 * not the browser. The tab's key holds what the conversation is made of, each of its turns has a key
 * of its own, and so has each item of a turn (its prose, its tool cards; see `session-keys`); a write
 * sets only the keys whose value changed: while a reply streams, that is the streaming prose alone,
 * not every turn of a long chat (nor of every other tab's), nor a long tool result before it in the
 * same turn, three times a second. Keys go out in one write with the keys that name them (a turn with
 * the tab's key, an item with its turn's), so storage never names a key it lacks; keys no longer named are removed after.
 */
export function createSessionStore(read: () => Map<number, StoredSession>, { delayMs = 300, budget, noteTabsWithChats }: SessionStoreOptions = {}) {
  const written = new Map<number, WrittenTab>();
  // One write at a time, each from what the one before left: a turn one write removes is never
  // set again by another that went out meanwhile, which would leave its tab naming a turn it lacks.
  let writing: Promise<void> = Promise.resolve();
  // Keys found under this store's names that no build writes (`agentItem:1:<turn id>:01`): removed at the next write.
  let strays: Array<`session:${string}`> = [];
  const write = (): Promise<void> => {
    const next = writing.then(writeChanges);
    writing = next.catch(() => {});
    return next;
  };
  const writeChanges = async () => {
    const sessions = read();
    // Bounded across all tabs each time, from sizes measured once per turn: a tab that grows past
    // the budget makes another leave out its oldest turns, and that tab's entry is written too.
    const bounded = Object.entries(boundStoredSessions(sessions, budget)).map(([tabId, session]) => [Number(tabId), session] as const);
    const strayKeys = strays;
    strays = [];
    const { sets, removes } = planSessionWrite(written, sessions, bounded);
    try {
      if (sets.length > 0) await storage.setItems(sets.map((change) => ({ key: keyOf(change), value: change.value })));
      if (removes.length + strayKeys.length > 0) await storage.removeItems([...removes.map(keyOf), ...strayKeys]);
    } catch (error) {
      for (const change of [...sets, ...removes]) forget(written, change);
      strays.push(...strayKeys);
      throw error;
    }
    const withChats = [...sessions].filter(([, { turns, previous }]) => turns.length > 0 || Boolean(previous?.turns.length));
    await noteTabsWithChats?.(withChats.map(([tabId]) => tabId));
  };
  const timer = createWriteTimer(write);
  return {
    /** Reads every tab's conversation; a run that was going when the worker stopped is marked interrupted. */
    async load(now = Date.now()): Promise<Map<number, StoredSession>> {
      const saved = await storage.snapshot('session');
      const stray = (key: string) => void strays.push(`session:${key}`);
      return sessionsFromSnapshot(saved, written, stray, now);
    },
    /** Soon, for changes that come many times a second. */
    schedule: () => timer.within(delayMs),
    /** At once, for changes that must survive the worker stopping. */
    urgent: () => timer.within(0),
    flush: timer.flush,
  };
}
