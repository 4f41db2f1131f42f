import type { ChatEnding } from '@/lib/agent/session-state';

/** Where the tab's chat went: an update or a reload of the extension cleared it (see `chatsEnded`). */
export function ChatEndedNote({ ending }: { ending: ChatEnding }) {
  return (
    <p class="notice-box tone-neutral" data-testid="chat-ended-note">
      This tab's chat ended when the extension was {ending.cause === 'update' ? 'updated' : 'reloaded'}, which clears every chat.
      {ending.tracesKept && (
        <>
          {' '}
          Its runs are in{' '}
          <a href="traces.html" target="_blank" rel="noopener noreferrer">
            Traces
          </a>
          .
        </>
      )}
    </p>
  );
}
