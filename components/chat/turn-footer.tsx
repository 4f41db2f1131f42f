import type { Turn, TurnOutcome } from '@/lib/agent/session-state';
import { noticeFor } from '@/lib/agent/turn-notices';
import { formatDuration } from '@/lib/sidepanel/format-duration';
import { OpenOptionsButton } from './open-options-button';

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

/** A notice whose remedy is a setting ("raise the step limit in the options") comes with the way there. */
const sendsToOptions = /\bin the (?:extension's )?options\b/i;

/** How a finished turn ended, how long it took, and where its trace is. */
export function TurnFooter({ turn }: { turn: Turn & { outcome: TurnOutcome } }) {
  // The background words every ending; its generic wording stands in should a turn lack one.
  const notice = turn.notice ?? noticeFor(turn.outcome);
  const took = turn.endedAt !== undefined ? formatDuration(turn.endedAt - turn.startedAt) : '';
  return (
    <footer class="turn-footer">
      {notice && (
        <div class={`turn-notice tone-${tones[turn.outcome]}`} data-testid="turn-notice" data-outcome={turn.outcome}>
          <p>{notice}</p>
          {(turn.engineFailed || sendsToOptions.test(notice)) && <OpenOptionsButton testId="turn-open-options" />}
        </div>
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
