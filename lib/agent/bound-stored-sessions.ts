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
 * budget the oldest turns left out, from the tab that holds the most, never a conversation's last
 * turn. A conversation "New chat" put aside counts with its tab, and gives up its turns first.
 */
export function boundStoredSessions(
  sessions: ReadonlyMap<number, StoredSession>,
  budget = storedSessionsBudget,
): Record<string, StoredSession> {
  const tabs = [...sessions].map(([tabId, { previous, ...session }]) => {
    // Everything else of the session is kept as it is: the history's site above all, without which
    // a restarted worker would make the model forget the conversation.
    const current = boundable(session);
    const aside = previous && boundable(previous);
    // The conversation put aside is the older one: its turns go first.
    return { tabId, current, aside, conversations: aside ? [aside, current] : [current] };
  });
  const tabSize = (tab: (typeof tabs)[number]) => tab.conversations.reduce((sum, conversation) => sum + sizeOf(conversation), 0);
  let total = tabs.reduce((sum, tab) => sum + tabSize(tab), 0);
  while (total > budget) {
    const largest = tabs.filter((tab) => tab.conversations.some(canGiveUpTurn)).sort((a, b) => tabSize(b) - tabSize(a))[0];
    if (!largest) break;
    const conversation = largest.conversations.find(canGiveUpTurn)!;
    conversation.stored.turns = conversation.stored.turns.slice(1);
    total -= conversation.turnSizes.shift() ?? 0;
  }
  return Object.fromEntries(
    tabs.map(({ tabId, current, aside }) => [tabId, { ...current.stored, ...(aside ? { previous: aside.stored } : {}) }]),
  );
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
const canGiveUpTurn = (conversation: Boundable) => conversation.stored.turns.length > 1;

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

