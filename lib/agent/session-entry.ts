import { z } from 'zod';
import { lazySchema } from '../messaging/lazy-schema';
import type { Turn } from './session-state';
import type { StoredConversation, StoredSession } from './session-store';

/**
 * A conversation as its tab's key holds it: its turns by id, each turn under a key of its own
 * (see `createSessionStore`), and everything else as the conversation has it.
 */
// Built the first time a stored chat is read back (see lazySchema).
const conversationEntrySchema = lazySchema(() =>
  z.object({
    turns: z.array(z.string()),
    history: z.array(z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() })),
    historyOrigin: z.string().optional(),
    historyReadUntrusted: z.boolean().optional(),
    runGoingOn: z.object({ readUntrusted: z.boolean() }).optional(),
    turnsLeftOut: z.number().int().min(1).optional().catch(undefined),
  }),
);

export const sessionEntrySchema = lazySchema(() => conversationEntrySchema().extend({ previous: conversationEntrySchema().optional().catch(undefined) }));

type ConversationEntry = z.infer<ReturnType<typeof conversationEntrySchema>>;
export type SessionEntry = z.infer<ReturnType<typeof sessionEntrySchema>>;

export function entryOf({ turns, ...rest }: StoredConversation): ConversationEntry {
  return { ...rest, turns: turns.map((turn) => turn.id) };
}

/**
 * The session an entry makes with the turns it names; none where the current conversation lacks
 * a turn or one does not read. One put aside that lacks one costs only the Undo offer.
 */
export function sessionFrom({ previous, ...current }: SessionEntry, turnOf: (turnId: string) => Turn | undefined): StoredSession | undefined {
  const conversation = conversationFrom(current, turnOf);
  const aside = previous && conversationFrom(previous, turnOf);
  return conversation && { ...conversation, ...(aside ? { previous: aside } : {}) };
}

function conversationFrom({ turns: turnIds, ...rest }: ConversationEntry, turnOf: (turnId: string) => Turn | undefined): StoredConversation | undefined {
  const turns = turnIds.map(turnOf);
  return turns.every((turn) => turn !== undefined) ? { ...rest, turns } : undefined;
}

/**
 * Whether a tab's key already holds this entry. Histories never change in place (a change makes a
 * new one), so comparing them by identity is enough; the turns are their own keys.
 */
export function sameSessionEntry(stored: SessionEntry, entry: SessionEntry): boolean {
  if (!sameConversationEntry(stored, entry)) return false;
  if (stored.previous === undefined || entry.previous === undefined) return stored.previous === entry.previous;
  return sameConversationEntry(stored.previous, entry.previous);
}

function sameConversationEntry(stored: ConversationEntry, entry: ConversationEntry): boolean {
  return (
    stored.history === entry.history &&
    stored.historyOrigin === entry.historyOrigin &&
    stored.historyReadUntrusted === entry.historyReadUntrusted &&
    stored.runGoingOn?.readUntrusted === entry.runGoingOn?.readUntrusted &&
    stored.turnsLeftOut === entry.turnsLeftOut &&
    stored.turns.length === entry.turns.length &&
    stored.turns.every((turnId, index) => turnId === entry.turns[index])
  );
}
