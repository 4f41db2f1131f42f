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

/** Conversations live in session storage: they outlive the panel and the service worker, not the browser. */
const sessionsItem = storage.defineItem<Record<string, unknown>>('session:agentSessions', { fallback: {} });

/** Reads every tab's conversation; a run that was going when the worker stopped is marked interrupted. */
export async function loadStoredSessions(now = Date.now()): Promise<Map<number, StoredSession>> {
  const stored = await sessionsItem.getValue();
  const sessions = new Map<number, StoredSession>();
  for (const [key, value] of Object.entries(stored ?? {})) {
    const parsed = storedSessionSchema.safeParse(value);
    if (parsed.success && Number.isInteger(Number(key))) {
      const { previous, ...current } = parsed.data;
      sessions.set(Number(key), {
        ...conversationFrom(current, now),
        ...(previous === undefined ? {} : { previous: conversationFrom(previous, now) }),
      });
    }
  }
  return sessions;
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
 * Writes sessions: streamed prose at most every `delayMs`, anything else (a tool card, the end
 * of a turn) at the next turn of the event loop, so a worker that dies loses as little as possible.
 * `noteTabsWithChats` is then told which tabs have something to lose (a chat, or one to bring back).
 */
export function createSessionWriter(read: () => Map<number, StoredSession>, delayMs = 300, noteTabsWithChats?: (tabIds: number[]) => Promise<void>) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let due = Number.POSITIVE_INFINITY;
  const write = async () => {
    timer = undefined;
    due = Number.POSITIVE_INFINITY;
    const sessions = read();
    await sessionsItem.setValue(boundStoredSessions(sessions));
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
