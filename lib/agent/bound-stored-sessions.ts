import type { ChatMessage } from '@webmcp-agents/chat';
import { sessionStorageBytes } from '../text/session-storage-bytes';
import { capText } from '../traces/trace-limits';
import type { StoredConversation, StoredSession } from './session-store';
import type { Turn } from './session-state';
import { turnHeadOf, type TurnItem } from './stored-turn';

/**
 * Bytes of conversation written to session storage, all tabs together, as Chrome counts them
 * (`sessionStorageBytes`): it holds 10 MB for everything, and past that a write fails whole, so
 * what it held would be lost with the worker.
 */
const storedSessionsBudget = 8_000_000;

/**
 * Storage counts each key's name with its value, and every turn has a key for its head and one for
 * each of its items, `agentItem:<tab id>:<turn id>:<index>`: about 55 bytes with a 36-character
 * turn id, which Chrome counts as 56, counted here as 64.
 */
const keyBytes = 64;

/** A turn's id is written again in its tab's entry, as an element of the list of its turns. */
const listedBytes = (turnId: string) => 32 + sessionStorageBytes(turnId);

/** One stretch of prose as stored; the panel shows all of it until the worker restarts. */
export const storedProseCharacters = 200_000;

/**
 * The conversations as they are written: long prose cut (with a note saying so), and past the
 * budget the oldest turns left out, and counted (`turnsLeftOut`). First those of the conversations "New chat" put aside, which
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
    // Counted, so that the panel can say the chat begins later than it did (see `turnsLeftOut`).
    largest.stored.turnsLeftOut = (largest.stored.turnsLeftOut ?? 0) + 1;
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
  const stored = { ...conversation, turns: conversation.turns.map(storedTurn) };
  return { stored, turnSizes: conversation.turns.map(storedSize), historySize: historySize(conversation.history) };
}

const sizeOf = (conversation: Boundable) => conversation.turnSizes.reduce((sum, size) => sum + size, conversation.historySize);

const tooLong = (item: TurnItem) => item.kind === 'prose' && item.text.length > storedProseCharacters;

function capProse(turn: Turn): Turn {
  return turn.items.some(tooLong) ? { ...turn, items: turn.items.map(storedItem) } : turn;
}

/**
 * Turns, their items and histories never change in place (a change makes a new one), so each is
 * cut and measured once: a write costs the turns that changed, and of those the items that did,
 * not every tab's chat. The stored turn is kept too, so a turn written once is the same object at
 * the next write, which tells the writer that its keys need not be written again (see
 * `createSessionStore`). A turn weighs what its keys hold, its head and each of its items, and the keys themselves.
 */
const storedTurns = new WeakMap<Turn, { turn: Turn; size: number }>();
const cutProse = new WeakMap<TurnItem, TurnItem>();
const itemSizes = new WeakMap<TurnItem, number>();
const historySizes = new WeakMap<ChatMessage[], number>();

function storedTurnOf(turn: Turn): { turn: Turn; size: number } {
  let stored = storedTurns.get(turn);
  if (stored === undefined) {
    const cut = capProse(turn);
    stored = { turn: cut, size: cut.items.reduce((sum, item) => sum + itemSize(item), sessionStorageBytes(turnHeadOf(cut)) + keyBytes + listedBytes(cut.id)) };
    storedTurns.set(turn, stored);
  }
  return stored;
}

/** An item as stored, cut once: one that stays the same object is not written again (see `createSessionStore`). */
function storedItem(item: TurnItem): TurnItem {
  if (item.kind !== 'prose' || !tooLong(item)) return item;
  let cut = cutProse.get(item);
  if (cut === undefined) {
    cut = { ...item, text: capText(item.text, storedProseCharacters) };
    cutProse.set(item, cut);
  }
  return cut;
}

function itemSize(item: TurnItem): number {
  let size = itemSizes.get(item);
  if (size === undefined) {
    size = sessionStorageBytes(item) + keyBytes;
    itemSizes.set(item, size);
  }
  return size;
}

const storedTurn = (turn: Turn): Turn => storedTurnOf(turn).turn;
const storedSize = (turn: Turn): number => storedTurnOf(turn).size;

function historySize(history: ChatMessage[]): number {
  let size = historySizes.get(history);
  if (size === undefined) {
    size = sessionStorageBytes(history);
    historySizes.set(history, size);
  }
  return size;
}

