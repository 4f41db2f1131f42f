import type { ChatMessage } from '@webmcp-agents/chat';
import { storage } from 'wxt/utils/storage';
import { boundStoredSessions } from './bound-stored-sessions';
import { entryOf, sameSessionEntry, sessionEntrySchema, sessionFrom, type SessionEntry } from './session-entry';
import { itemKeyParts, itemPrefix, keyOf, keyParts, numberIn, sessionPrefix, turnPrefix, type KeyChange } from './session-keys';
import { restoredSession } from './restored-session';
import { turnItemSchema, type Turn } from './session-state';
import { sameTurnHead, turnFrom, turnHeadOf, turnHeadSchema, type TurnHead, type TurnItem } from './stored-turn';
import { forget, writtenTab, writtenTurn, type WrittenTab, type WrittenTurn } from './written-tabs';

export { interruptIfRunning } from './restored-session';

/**
 * A conversation's turns, and what the model reads again: the last exchanges, made on `historyOrigin`,
 * one of whose answers came from a run that read text strangers wrote where `historyReadUntrusted`.
 * `runGoingOn`: a run whose exchange the history will keep was going on when this was written.
 */
export type StoredConversation = {
  turns: Turn[];
  history: ChatMessage[];
  historyOrigin?: string;
  historyReadUntrusted?: boolean;
  runGoingOn?: { readUntrusted: boolean };
};

/** A tab's conversation, and the one "New chat" put aside, which Undo brings back until the next request. */
export type StoredSession = StoredConversation & { previous?: StoredConversation };

/**
 * Each tab's conversation lives in session storage: it outlives the panel and the service worker,
 * not the browser. The tab's key holds what the conversation is made of, each of its turns has a key
 * of its own, and so has each item of a turn (its prose, its tool cards; see `session-keys`); a write
 * sets only the keys whose value changed: while a reply streams, that is the streaming prose alone,
 * not every turn of a long chat (nor of every other tab's), nor a long tool result before it in the
 * same turn, three times a second. Keys go out in one write with the keys that name them (a turn with
 * the tab's key, an item with its turn's), so storage never names a key it lacks; keys no longer named are removed after.
 */
export interface SessionStoreOptions {
  /** How long streamed prose waits to be written; default 300 ms. */
  delayMs?: number;
  /** Bytes all tabs' conversations may take together (see `boundStoredSessions`). */
  budget?: number;
  /** Told after each write which tabs have something to lose (a chat, or one to bring back). */
  noteTabsWithChats?: ((tabIds: number[]) => Promise<void>) | undefined;
}

/** A turn as it is to be written: its head, and its items by index. */
interface TurnToWrite {
  head: TurnHead;
  items: Map<number, TurnItem>;
}

/**
 * Reads and writes every tab's conversation (`read` gives them as they are now). Streamed prose is
 * written at most every `delayMs`, anything else (a tool card, the end of a turn) at the next turn
 * of the event loop, so a worker that dies loses as little as possible.
 */
export function createSessionStore(read: () => Map<number, StoredSession>, { delayMs = 300, budget, noteTabsWithChats }: SessionStoreOptions = {}) {
  const written = new Map<number, WrittenTab>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let due = Number.POSITIVE_INFINITY;
  // One write at a time, each from what the one before left: a turn one write removes is never
  // set again by another that went out meanwhile, which would leave its tab naming a turn it lacks.
  let writing: Promise<void> = Promise.resolve();
  // Keys found under this store's names that no build writes (`agentItem:1:<turn id>:01`): removed at the next write.
  let strays: Array<`session:${string}`> = [];
  const write = (): Promise<void> => {
    timer = undefined;
    due = Number.POSITIVE_INFINITY;
    const next = writing.then(writeChanges);
    writing = next.catch(() => {});
    return next;
  };
  const writeChanges = async () => {
    const sessions = read();
    // Bounded across all tabs each time, from sizes measured once per turn: a tab that grows past
    // the budget makes another leave out its oldest turns, and that tab's entry is written too.
    const bounded = Object.entries(boundStoredSessions(sessions, budget)).map(([tabId, session]) => [Number(tabId), session] as const);
    const sets: KeyChange[] = [];
    const removes: KeyChange[] = [];
    const strayKeys = strays;
    strays = [];
    for (const [tabId, session] of bounded) {
      const before = written.get(tabId);
      const now = writtenTabOf(session);
      if (before?.entry === undefined || !sameSessionEntry(before.entry, now.entry)) sets.push({ tabId, value: now.entry });
      for (const [turnId, turn] of now.turns) {
        const { sets: turnSets, removes: turnRemoves } = turnChanges(tabId, turnId, before?.turns.get(turnId), turn);
        sets.push(...turnSets);
        removes.push(...turnRemoves);
      }
      for (const [turnId, turn] of before?.turns ?? []) if (!now.turns.has(turnId)) removes.push(...turnKeys(tabId, turnId, turn));
      written.set(tabId, now);
    }
    for (const [tabId, before] of written) {
      if (sessions.has(tabId)) continue;
      removes.push({ tabId }, ...[...before.turns].flatMap(([turnId, turn]) => turnKeys(tabId, turnId, turn)));
      written.delete(tabId);
    }
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
  const scheduleIn = (ms: number) => {
    if (Date.now() + ms >= due) return;
    if (timer) clearTimeout(timer);
    due = Date.now() + ms;
    timer = setTimeout(() => void write().catch(() => {}), ms);
  };
  return {
    /** Reads every tab's conversation; a run that was going when the worker stopped is marked interrupted. */
    async load(now = Date.now()): Promise<Map<number, StoredSession>> {
      const saved = await storage.snapshot('session');
      const sessions = new Map<number, StoredSession>();
      const stray = (key: string) => void strays.push(`session:${key}`);
      // Every turn and item found is noted, named or not, so that one nothing names is removed at the next write.
      for (const [key, value] of Object.entries(saved)) {
        if (key.startsWith(turnPrefix)) {
          const { tabId, turnId } = keyParts(key.slice(turnPrefix.length));
          if (tabId === undefined || turnId === undefined) {
            stray(key);
            continue;
          }
          const parsed = turnHeadSchema.safeParse(value);
          writtenTurn(written, tabId, turnId).head = parsed.success ? parsed.data : undefined;
        } else if (key.startsWith(itemPrefix)) {
          const { tabId, turnId, item } = itemKeyParts(key.slice(itemPrefix.length));
          if (tabId === undefined || turnId === undefined || item === undefined) {
            stray(key);
            continue;
          }
          const parsed = turnItemSchema.safeParse(value);
          writtenTurn(written, tabId, turnId).items.set(item, parsed.success ? parsed.data : undefined);
        }
      }
      for (const [key, value] of Object.entries(saved)) {
        if (!key.startsWith(sessionPrefix)) continue;
        const tabId = numberIn(key.slice(sessionPrefix.length));
        if (tabId === undefined) {
          stray(key);
          continue;
        }
        const tab = writtenTab(written, tabId);
        const parsed = sessionEntrySchema.safeParse(value);
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
    },
    /** Soon, for changes that come many times a second. */
    schedule: () => scheduleIn(delayMs),
    /** At once, for changes that must survive the worker stopping. */
    urgent: () => scheduleIn(0),
    async flush() {
      if (timer) clearTimeout(timer);
      await write().catch(() => {});
    },
  };
}

/**
 * The keys of a turn to set and remove: its head where what it says changed, each item that is not
 * the one written, and the items past its end (a step's prose taken back). By identity: items
 * never change in place, and one that stays the same object, a finished tool card, is never written again.
 */
function turnChanges(tabId: number, turnId: string, before: WrittenTurn | undefined, now: TurnToWrite): { sets: KeyChange[]; removes: KeyChange[] } {
  const sets: KeyChange[] = [];
  if (before?.head === undefined || !sameTurnHead(before.head, now.head)) sets.push({ tabId, turnId, value: now.head });
  for (const [item, value] of now.items) if (before?.items.get(item) !== value) sets.push({ tabId, turnId, item, value });
  const removes = [...(before?.items.keys() ?? [])].filter((item) => !now.items.has(item)).map((item) => ({ tabId, turnId, item }));
  return { sets, removes };
}

/** Every key of a turn: its head and its items. */
function turnKeys(tabId: number, turnId: string, turn: WrittenTurn): KeyChange[] {
  return [{ tabId, turnId }, ...[...turn.items.keys()].map((item) => ({ tabId, turnId, item }))];
}

/**
 * A session as its keys hold it: the entry naming its turns, and the turns (those put aside too)
 * by id, each as its head and its items.
 */
function writtenTabOf({ previous, ...current }: StoredSession): { entry: SessionEntry; turns: Map<string, TurnToWrite> } {
  const turns = new Map(
    [...current.turns, ...(previous?.turns ?? [])].map((turn) => [turn.id, { head: turnHeadOf(turn), items: new Map(turn.items.entries()) }] as const),
  );
  return { entry: { ...entryOf(current), ...(previous === undefined ? {} : { previous: entryOf(previous) }) }, turns };
}
