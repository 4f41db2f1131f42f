import { assertNever } from '@webmcp-agents/chat';
import type { SessionMessage } from './agent-port-protocol';
import { appendProse } from './append-prose';
import type { SessionState, Turn } from './session-state';

/**
 * The side panel's copy of a tab's session, brought up to date by one message from the
 * background. Messages for another tab leave it as it is.
 */
export function applySessionMessage(state: SessionState | undefined, message: SessionMessage): SessionState | undefined {
  switch (message.type) {
    case 'snapshot':
      return keepUnchangedTurns(state, message.state);
    case 'error':
      return state;
    case 'turn':
    case 'prose-delta':
    case 'engine':
      return state && state.tabId === message.tabId ? applyToTab(state, message) : state;
    default:
      // The panel parses every message by its schema first: no other type gets here.
      return assertNever(message);
  }
}

function applyToTab(state: SessionState, message: Extract<SessionMessage, { type: 'turn' | 'prose-delta' | 'engine' }>): SessionState {
  switch (message.type) {
    case 'turn': {
      const index = state.turns.findIndex((turn) => turn.id === message.turn.id);
      const turns = index === -1 ? [...state.turns, message.turn] : state.turns.with(index, withUnchangedItems(state.turns[index]!, message.turn));
      // A turn in the conversation means a request was sent in it: the one put aside is gone.
      const { canUndoNewChat: _gone, ...rest } = state;
      return { ...rest, turns, running: turns.some((turn) => !turn.outcome) };
    }
    case 'prose-delta': {
      const turns = state.turns.map((turn) => (turn.id === message.turnId ? appendProse(turn, message.text) : turn));
      return { ...state, turns };
    }
    case 'engine':
      return { ...state, engine: message.engine };
    default:
      return assertNever(message);
  }
}

/**
 * A snapshot of the conversation the panel shows already (sent again after every reconnect) keeps
 * the turn objects that did not change, so the panel renders none of them again.
 */
function keepUnchangedTurns(state: SessionState | undefined, next: SessionState): SessionState {
  if (!state || state.tabId !== next.tabId || state.turns.length === 0) return next;
  const shown = new Map(state.turns.map((turn) => [turn.id, turn]));
  const turns = next.turns.map((turn) => {
    const old = shown.get(turn.id);
    return old && samePlainData(old, turn) ? old : turn;
  });
  return { ...next, turns };
}

/**
 * A turn sent again whole (a card's state changed) keeps the items shown already that did not
 * change: a run of many calls with long results renders only the card that changed.
 */
function withUnchangedItems(shown: Turn, next: Turn): Turn {
  let kept = false;
  const items = next.items.map((item, at) => {
    const old = shown.items[at];
    if (old === undefined || !samePlainData(old, item)) return item;
    kept = true;
    return old;
  });
  return kept ? { ...next, items } : next;
}

// Turns are plain data, parsed by one schema: equal JSON is an equal turn, or item.
function samePlainData(a: unknown, b: unknown): boolean {
  return a === b || JSON.stringify(a) === JSON.stringify(b);
}
