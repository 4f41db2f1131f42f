import { jsonBytes } from '../text/utf8-length';
import { capText } from '../traces/trace-limits';
import type { StoredConversation, StoredSession } from './session-store';
import type { Turn } from './session-state';

/**
 * Bytes of conversation written to session storage, which holds 10 MB for everything: past it a
 * write fails whole, and every conversation would then be lost with the worker.
 */
export const storedSessionsBudget = 8_000_000;

/** One stretch of prose as stored; the panel shows all of it until the worker restarts. */
export const storedProseCharacters = 200_000;

/**
 * The conversations as they are written: long prose cut (with a note saying so), and past the
 * budget the oldest turns left out. First those of the conversations "New chat" put aside, which
 * cost only the Undo offer: the largest first, down to the whole conversation. Only then those of
 * the live conversations, the largest first, never a conversation's last turn.
 */
export function boundStoredSessions(
  sessions: ReadonlyMap<number, StoredSession>,
  budget = storedSessionsBudget,
): Record<string, StoredSession> {
  const tabs = [...sessions].map(([tabId, { previous, ...session }]) => ({
    tabId,
    // Everything else of the session is kept as it is: the history's site above all, without which
    // a restarted worker would make the model forget the conversation.
    current: boundable(session),
    // One put aside with no turn has nothing to bring back.
    aside: previous?.turns.length ? boundable(previous) : undefined,
  }));
  const asides = tabs.flatMap(({ aside }) => (aside ? [aside] : []));
  const currents = tabs.map(({ current }) => current);
  let total = [...asides, ...currents].reduce((sum, conversation) => sum + sizeOf(conversation), 0);
  total = leaveOutOldestTurns(asides, { total, budget, keep: 0 });
  leaveOutOldestTurns(currents, { total, budget, keep: 1 });
  return Object.fromEntries(
    tabs.map(({ tabId, current, aside }) => [tabId, { ...current.stored, ...(aside?.stored.turns.length ? { previous: aside.stored } : {}) }]),
  );
}

/**
 * While the total passes the budget, leaves out the oldest turn of the largest conversation that
 * has more than `keep`; one left with no turn goes whole, its history with it. Answers the new total.
 */
function leaveOutOldestTurns(conversations: Boundable[], { total, budget, keep }: { total: number; budget: number; keep: number }): number {
  while (total > budget) {
    const largest = conversations.filter((conversation) => conversation.stored.turns.length > keep).sort((a, b) => sizeOf(b) - sizeOf(a))[0];
    if (!largest) break;
    largest.stored.turns = largest.stored.turns.slice(1);
    total -= largest.turnSizes.shift() ?? 0;
    if (largest.stored.turns.length === 0) total -= largest.historySize;
  }
  return total;
}

/** A conversation as it is written, with what each of its parts weighs. */
interface Boundable {
  stored: StoredConversation;
  turnSizes: number[];
  historySize: number;
}

function boundable(conversation: StoredConversation): Boundable {
  const stored = { ...conversation, turns: conversation.turns.map(capProse) };
  return { stored, turnSizes: conversation.turns.map(storedSize), historySize: jsonBytes(conversation.history) };
}

const sizeOf = (conversation: Boundable) => conversation.turnSizes.reduce((sum, size) => sum + size, conversation.historySize);

function capProse(turn: Turn): Turn {
  if (!turn.items.some((item) => item.kind === 'prose' && item.text.length > storedProseCharacters)) return turn;
  return {
    ...turn,
    items: turn.items.map((item) => (item.kind === 'prose' ? { ...item, text: capText(item.text, storedProseCharacters) } : item)),
  };
}

/** Turns never change in place (a change makes a new turn), so each is measured once. */
const turnSizes = new WeakMap<Turn, number>();

function storedSize(turn: Turn): number {
  let size = turnSizes.get(turn);
  if (size === undefined) {
    size = jsonBytes(capProse(turn));
    turnSizes.set(turn, size);
  }
  return size;
}

