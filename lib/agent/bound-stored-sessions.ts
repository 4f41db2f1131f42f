import { jsonBytes } from '../text/utf8-length';
import { capText } from '../traces/trace-limits';
import type { StoredSession } from './session-store';
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
 * budget the oldest turns left out, from the tab that holds the most, never a tab's last turn.
 */
export function boundStoredSessions(
  sessions: ReadonlyMap<number, StoredSession>,
  budget = storedSessionsBudget,
): Record<string, StoredSession> {
  const tabs = [...sessions].map(([tabId, session]) => {
    const turns = session.turns.map(capProse);
    // Everything else of the session is kept as it is: the history's site above all, without which
    // a restarted worker would make the model forget the conversation.
    const kept: StoredSession = { ...session, turns };
    return { tabId, session: kept, turnSizes: session.turns.map(storedSize), historySize: jsonBytes(session.history) };
  });
  const tabSize = (tab: (typeof tabs)[number]) => tab.turnSizes.reduce((sum, size) => sum + size, tab.historySize);
  let total = tabs.reduce((sum, tab) => sum + tabSize(tab), 0);
  while (total > budget) {
    const largest = tabs.filter((tab) => tab.session.turns.length > 1).sort((a, b) => tabSize(b) - tabSize(a))[0];
    if (!largest) break;
    largest.session.turns = largest.session.turns.slice(1);
    total -= largest.turnSizes.shift() ?? 0;
  }
  return Object.fromEntries(tabs.map((tab) => [tab.tabId, tab.session]));
}

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

