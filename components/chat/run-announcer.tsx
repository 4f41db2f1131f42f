import { useRef } from 'preact/hooks';
import type { Turn } from '@/lib/agent/session-state';

/**
 * What a screen reader should hear about the run without looking for it: a call that waits for
 * the person, and how the request ended. One polite live region, off screen. Only what changes
 * while the panel watches is said: a turn that had already ended when it came into view (a tab
 * switch, the panel opening) stays silent.
 */
export function RunAnnouncer({ turn }: { turn: Turn | undefined }) {
  const heard = useRef<{ turnId?: string; text: string; shown: string }>({ text: '', shown: '' });
  const text = turn ? announcementFor(turn) : '';
  const last = heard.current;
  if (turn?.id !== last.turnId) {
    heard.current = { turnId: turn?.id, text, shown: turn && !turn.outcome ? text : '' };
  } else if (text !== last.text) {
    heard.current = { ...last, text, shown: text };
  }
  return (
    <p class="visually-hidden" aria-live="polite" data-testid="announcement">
      {heard.current.shown}
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
