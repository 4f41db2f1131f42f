import type { SessionMessage } from './agent-port-protocol';
import { appendProse } from './append-prose';
import type { SessionState } from './session-state';

/**
 * The side panel's copy of a tab's session, brought up to date by one message from the
 * background. Messages for another tab leave it as it is.
 */
export function applySessionMessage(state: SessionState | undefined, message: SessionMessage): SessionState | undefined {
  switch (message.type) {
    case 'snapshot':
      return message.state;
    case 'error':
      return state;
    default:
      if (!state || state.tabId !== message.tabId) return state;
  }
  switch (message.type) {
    case 'turn': {
      const index = state.turns.findIndex((turn) => turn.id === message.turn.id);
      const turns = index === -1 ? [...state.turns, message.turn] : state.turns.with(index, message.turn);
      return { ...state, turns, running: turns.some((turn) => !turn.outcome) };
    }
    case 'prose-delta': {
      const turns = state.turns.map((turn) => (turn.id === message.turnId ? appendProse(turn, message.text) : turn));
      return { ...state, turns };
    }
    case 'engine':
      return { ...state, engine: message.engine };
  }
}
