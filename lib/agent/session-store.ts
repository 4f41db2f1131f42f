import type { ChatMessage } from '@webmcp-agents/chat';
import { storage } from 'wxt/utils/storage';
import { z } from 'zod';
import { boundStoredSessions } from './bound-stored-sessions';
import { closeOpenCards } from './close-open-cards';
import { noticeFor } from './turn-notices';
import { unfinishedRequestNote } from './unfinished-request-note';
import { withExchange } from './with-exchange';
import { turnSchema, type Turn } from './session-state';

const storedConversationSchema = z.object({
  turns: z.array(turnSchema),
  history: z.array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() })),
  historyOrigin: z.string().optional(),
  historyReadUntrusted: z.boolean().optional(),
  runGoingOn: z.object({ readUntrusted: z.boolean() }).optional(),
});

// A conversation put aside that does not read (a later build's turns, say) costs only the Undo offer.
const storedSessionSchema = storedConversationSchema.extend({ previous: storedConversationSchema.optional().catch(undefined) });

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
 * Each tab's conversation lives under its own key in session storage: it outlives the panel and the
 * service worker, not the browser. A write sets only the tabs whose conversation changed, so a reply
 * streaming in one tab does not rewrite every other tab's chat three times a second.
 *
 * Earlier builds kept every tab in one item (`agentSessions`), which nothing reads: updating or
 * reloading the extension clears session storage, so a build never finds another build's chats.
 */
const keyPrefix = 'agentSession:';
const keyOf = (tabId: number) => `session:${keyPrefix}${tabId}` as const;

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
 */
export function createSessionStore(read: () => Map<number, StoredSession>, { delayMs = 300, budget, noteTabsWithChats }: SessionStoreOptions = {}) {
  // What each tab's key holds, as last written or read; undefined where that is not known (a write
  // that failed, a value that did not read), so that the next write sets or removes it.
  const written = new Map<number, StoredSession | undefined>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let due = Number.POSITIVE_INFINITY;
  const write = async () => {
    timer = undefined;
    due = Number.POSITIVE_INFINITY;
    const sessions = read();
    // Bounded across all tabs each time, from sizes measured once per turn: a tab that grows past
    // the budget makes another leave out its oldest turns, and that tab is written too.
    const bounded = Object.entries(boundStoredSessions(sessions, budget)).map(([tabId, session]) => [Number(tabId), session] as const);
    const changed = bounded.filter(([tabId, session]) => !sameStoredSession(written.get(tabId), session));
    const gone = [...written.keys()].filter((tabId) => !sessions.has(tabId));
    // Noted before the write goes out, so a write that starts meanwhile sends only what is newer.
    gone.forEach((tabId) => written.delete(tabId));
    changed.forEach(([tabId, session]) => written.set(tabId, session));
    try {
      if (gone.length > 0) await storage.removeItems(gone.map(keyOf));
      if (changed.length > 0) await storage.setItems(changed.map(([tabId, value]) => ({ key: keyOf(tabId), value })));
    } catch (error) {
      for (const tabId of [...gone, ...changed.map(([tabId]) => tabId)]) written.set(tabId, undefined);
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
      for (const [key, value] of Object.entries(saved)) {
        if (!key.startsWith(keyPrefix)) continue;
        const tabId = Number(key.slice(keyPrefix.length));
        if (!Number.isInteger(tabId)) continue;
        const parsed = storedSessionSchema.safeParse(value);
        // As stored: a tab whose run is marked interrupted differs from it, and is written again.
        written.set(tabId, parsed.success ? parsed.data : undefined);
        if (parsed.success) sessions.set(tabId, restoredSession(parsed.data, now));
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

function restoredSession(stored: z.infer<typeof storedSessionSchema>, now: number): StoredSession {
  const { previous, ...current } = stored;
  return {
    ...conversationFrom(current, now),
    ...(previous === undefined ? {} : { previous: conversationFrom(previous, now) }),
  };
}

function conversationFrom(parsed: z.infer<typeof storedConversationSchema>, now: number): StoredConversation {
  const { turns, history, historyOrigin, historyReadUntrusted, runGoingOn } = parsed;
  const ended = turns.map((turn) => interruptIfRunning(turn, now));
  // The run the worker stopped under: the model reads that it ended and what its tools did, as
  // after Stop, so "continue" means something and nothing done is done again.
  const cut = runGoingOn ? ended.find((turn, index) => turn !== turns[index]) : undefined;
  const cutReadUntrusted = cut !== undefined && runGoingOn!.readUntrusted && cut.items.some((item) => item.kind === 'tool');
  return {
    turns: ended,
    history: cut ? withExchange(history, cut.request, { role: 'assistant', content: unfinishedRequestNote(cut) }) : history,
    ...(historyOrigin === undefined ? {} : { historyOrigin }),
    ...(historyReadUntrusted || cutReadUntrusted ? { historyReadUntrusted: true } : {}),
  };
}

export function interruptIfRunning(turn: Turn, now: number): Turn {
  if (turn.outcome) return turn;
  return { ...closeOpenCards(turn, 'interrupted'), outcome: 'interrupted', notice: noticeFor('interrupted'), endedAt: now };
}

/**
 * Whether a tab's key already holds this conversation. Turns and histories never change in place
 * (a change makes a new one, see `boundStoredSessions`), so comparing them by identity is enough.
 */
function sameStoredSession(stored: StoredSession | undefined, session: StoredSession): boolean {
  if (stored === undefined || !sameConversation(stored, session)) return false;
  if (stored.previous === undefined || session.previous === undefined) return stored.previous === session.previous;
  return sameConversation(stored.previous, session.previous);
}

function sameConversation(stored: StoredConversation, conversation: StoredConversation): boolean {
  return (
    stored.history === conversation.history &&
    stored.historyOrigin === conversation.historyOrigin &&
    stored.historyReadUntrusted === conversation.historyReadUntrusted &&
    stored.runGoingOn?.readUntrusted === conversation.runGoingOn?.readUntrusted &&
    stored.turns.length === conversation.turns.length &&
    stored.turns.every((turn, index) => turn === conversation.turns[index])
  );
}
