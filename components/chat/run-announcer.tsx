import type { Turn } from '@/lib/agent/session-state';

/**
 * What a screen reader should hear about the run without looking for it: a call that waits for
 * the person, and how the request ended. One polite live region, off screen.
 */
export function RunAnnouncer({ turn }: { turn: Turn | undefined }) {
  return (
    <p class="visually-hidden" aria-live="polite" data-testid="announcement">
      {turn ? announcementFor(turn) : ''}
    </p>
  );
}

function announcementFor(turn: Turn): string {
  const waiting = turn.items.find((item) => item.kind === 'tool' && item.state === 'waiting');
  if (waiting?.kind === 'tool') return `${waiting.name} waits for your approval.`;
  if (!turn.outcome) return '';
  if (turn.outcome === 'answer') return 'The answer is ready.';
  return turn.notice ?? '';
}
