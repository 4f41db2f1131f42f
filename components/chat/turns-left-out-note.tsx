import type { SessionState } from '@/lib/agent/session-state';
import { plural } from '@/lib/text/plural';

/**
 * Above a chat whose first requests were not kept when the extension's worker stopped: all chats
 * together had grown past what the browser keeps for the extension, and this one was the largest.
 * Said, so that the same chat does not look different after a pause the person never saw, and
 * where their runs are.
 */
export function TurnsLeftOutNote({ leftOut }: { leftOut: NonNullable<SessionState['turnsLeftOut']> }) {
  const first = leftOut.count === 1 ? 'first request' : `first ${plural(leftOut.count, 'request')}`;
  return (
    <p class="notice-box tone-neutral" data-testid="turns-left-out-note">
      This chat's {first} {leftOut.count === 1 ? 'is' : 'are'} no longer shown: the extension's chats grew past what the browser keeps for it, and the oldest
      requests of the largest chat were let go.
      {leftOut.tracesKept && (
        <>
          {' '}
          {leftOut.count === 1 ? 'Its run is' : 'Their runs are'} in{' '}
          <a href="traces.html" target="_blank" rel="noopener noreferrer">
            Traces
          </a>
          .
        </>
      )}
    </p>
  );
}
