import type { Turn, TurnOutcome } from '@/lib/agent/session-state';
import { formatDuration } from '@/lib/sidepanel/format-duration';

const defaultNotices: Record<TurnOutcome, string | undefined> = {
  answer: undefined,
  stopped: 'Stopped.',
  interrupted: 'Interrupted.',
  'max-steps': 'Stopped after too many steps.',
  'repeated-call': 'Stopped: the model repeated the same call.',
  'tool-timeout': 'A tool took too long to answer.',
  navigated: 'The page changed, so the run ended.',
  error: 'Something went wrong.',
};

const tones: Record<TurnOutcome, 'info' | 'neutral' | 'warning' | 'error'> = {
  answer: 'info',
  stopped: 'neutral',
  navigated: 'neutral',
  interrupted: 'warning',
  'max-steps': 'warning',
  'repeated-call': 'warning',
  'tool-timeout': 'warning',
  error: 'error',
};

/** How a finished turn ended, how long it took, and where its trace is. */
export function TurnFooter({ turn }: { turn: Turn & { outcome: TurnOutcome } }) {
  const notice = turn.notice ?? defaultNotices[turn.outcome];
  const took = turn.endedAt !== undefined ? formatDuration(turn.endedAt - turn.startedAt) : '';
  return (
    <footer class="turn-footer">
      {notice && (
        <p class={`turn-notice tone-${tones[turn.outcome]}`} data-testid="turn-notice" data-outcome={turn.outcome}>
          {notice}
        </p>
      )}
      <p class="turn-meta">
        {took && <span>{took}</span>}
        {turn.runId && (
          <a data-testid="trace-link" href={`traces.html?run=${encodeURIComponent(turn.runId)}`} target="_blank" rel="noopener noreferrer">
            Trace
          </a>
        )}
      </p>
    </footer>
  );
}
