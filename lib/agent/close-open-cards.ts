import type { Turn } from './session-state';

/**
 * A turn that ended while a call waited for the person or ran in the page: those cards must not
 * keep saying "Waiting for you" or "Running" (with buttons that no longer do anything).
 */
export function closeOpenCards(turn: Turn, reason: 'interrupted' | 'ended'): Turn {
  const open = turn.items.some((item) => item.kind === 'tool' && (item.state === 'waiting' || item.state === 'running'));
  if (!open) return turn;
  return {
    ...turn,
    items: turn.items.map((item) => {
      if (item.kind !== 'tool') return item;
      // The page may still finish it: saying "failed" would invite running it twice. After a
      // restart a card without its `sent` mark may have been handed over all the same: the mark
      // is saved only after the call goes to the page, and the worker may have stopped between.
      if (item.state === 'running' && (item.sent || reason === 'interrupted')) {
        const ended = reason === 'interrupted' ? 'The extension restarted' : 'The request ended';
        // A tool the page says only reads changed nothing, answered or not: calling it again is safe.
        const after = item.readOnly ? 'the page says this tool only reads, so calling it again changes nothing.' : 'the tool may still have done its work. Check the page before asking again.';
        return { ...item, state: 'unanswered', result: `${ended} before the page answered: ${after}` };
      }
      // Nobody said no: the request ended first (a Stop, a timeout, a restart).
      if (item.state === 'waiting') return { ...item, state: 'not-run', result: 'Not run: the request ended before you answered.' };
      // Still being checked (the sites where the agent is off, whether to ask), as the worker that
      // ran it knows: the page never had it.
      if (item.state === 'running') return { ...item, state: 'not-run', result: 'Not run: the request ended first.' };
      return item;
    }),
  };
}
