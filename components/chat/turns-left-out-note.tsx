import type { SessionState } from '@/lib/agent/session-state';
import { plural } from '@/lib/text/plural';

/**
 * Above a chat whose first requests were not kept when the extension's worker stopped: the chat had
 * grown past what the browser keeps for the extension meanwhile. Said, so that the same chat does
 * not look different after a pause the person never saw, and where their runs are.
 */
export function TurnsLeftOutNote({ leftOut }: { leftOut: NonNullable<SessionState['turnsLeftOut']> }) {
  const first = leftOut.count === 1 ? 'first request' : `first ${plural(leftOut.count, 'request')}`;
  return (
    <p class="notice-box tone-neutral" data-testid="turns-left-out-note">
      This chat's {first} {leftOut.count === 1 ? 'is' : 'are'} no longer shown: the chat grew longer than the browser keeps for the extension while it rests.
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
