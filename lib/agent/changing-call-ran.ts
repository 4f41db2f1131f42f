import type { ToolCard, Turn } from './session-state';

/**
 * The first call of the turn that may have changed the page: one that reached it, of a tool the
 * page does not say only reads. Sending the same request again would make it again. Calls refused
 * before they reached the page (an unknown tool, bad arguments, unreadable, declined, not run) did nothing.
 */
export function changingCallRan(turn: Pick<Turn, 'items'>): ToolCard | undefined {
  const card = turn.items.find((item) => item.kind === 'tool' && !item.readOnly && !refusedStates.has(item.state));
  return card?.kind === 'tool' ? card : undefined;
}

const refusedStates = new Set<ToolCard['state']>(['unknown', 'invalid', 'unreadable', 'declined', 'not-run']);
