import type { Turn } from './session-state';

/**
 * Puts a step's prose, as the parse of its whole reply read it, in place of what streamed. That
 * prose is the turn's last item, where the step showed any: every earlier step ended with a card
 * (a call, or what the model wrote instead of one), and this step's cards come after its reply.
 */
export function replaceStepProse(turn: Turn, text: string): Turn {
  const items = turn.items.at(-1)?.kind === 'prose' ? turn.items.slice(0, -1) : turn.items;
  return { ...turn, items: text.trim() === '' ? items : [...items, { kind: 'prose', text }] };
}
