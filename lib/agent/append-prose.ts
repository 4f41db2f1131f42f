import type { Turn } from './session-state';

/** Adds streamed prose to a turn: to its last prose item, or as a new one after a tool card. */
export function appendProse(turn: Turn, text: string): Turn {
  const last = turn.items.at(-1);
  if (last?.kind === 'prose') {
    return { ...turn, items: [...turn.items.slice(0, -1), { kind: 'prose', text: last.text + text }] };
  }
  return { ...turn, items: [...turn.items, { kind: 'prose', text }] };
}
