import { changingCallRan } from '@/lib/agent/changing-call-ran';
import type { Turn, TurnOutcome } from '@/lib/agent/session-state';
import { noticeFor, splitErrorLead } from '@/lib/agent/turn-notices';
import { formatDuration } from '@/lib/text/format-duration';
import { optionsPlaceFor } from '@/lib/sidepanel/options-place';
import { focusRequestBox } from './focus-request-box';
import { OpenOptionsButton } from './open-options-button';
import { useCopied } from './use-copied';

const tones: Record<TurnOutcome, 'info' | 'neutral' | 'warning' | 'error'> = {
  answer: 'info',
  stopped: 'neutral',
  navigated: 'neutral',
  interrupted: 'warning',
  'max-steps': 'warning',
  'repeated-call': 'warning',
  'tool-timeout': 'warning',
  'no-answer': 'warning',
  error: 'error',
};

/** A notice whose remedy is a setting ("raise "Maximum steps per request" in the options") comes with the way there. */
const sendsToOptions = /\bin the (?:extension's )?options\b/i;

interface TurnFooterProps {
  turn: Turn & { outcome: TurnOutcome };
  /** Sends a request; given where the turn may be tried again now (the latest, with nothing running). */
  onTryAgain?: (request: string) => unknown;
  /** Puts a request back in the request box; given to the latest turn. */
  onEditRequest?: (request: string) => void;
}

/** How a finished turn ended, how long it took, and where its trace is (or that a private window keeps none). */
export function TurnFooter({ turn, onTryAgain, onEditRequest }: TurnFooterProps) {
  // The background words every ending; its generic wording stands in should a turn lack one. A turn
  // the agent being off ended says so in the past once the agent is on again (a request may be sent).
  const notice = turn.agentOff && onTryAgain ? agentBackOnNotice(turn.outcome) : (turn.notice ?? noticeFor(turn.outcome));
  const took = turn.endedAt !== undefined ? formatDuration(turn.endedAt - turn.startedAt) : '';
  return (
    <footer class="turn-footer">
      {notice && (
        <div class={`turn-notice tone-${tones[turn.outcome]}`} data-testid="turn-notice" data-outcome={turn.outcome}>
          <p>
            <NoticeWords notice={notice} />
          </p>
          {onTryAgain && mayTryAgain(turn) && <TryAgainButton turn={turn} onTryAgain={onTryAgain} />}
          {onEditRequest && turn.requestTooLong && (
            <button type="button" class="button" data-testid="edit-request" aria-describedby={`request-${turn.id}`} onClick={() => onEditRequest(turn.request)}>
              Edit the request
            </button>
          )}
          {(turn.engineFailed || turn.loadFailed || sendsToOptions.test(notice)) && <OpenOptionsButton testId="turn-open-options" place={optionsPlaceFor(notice)} />}
        </div>
      )}
      <p class="turn-meta">
        {took && <span>{took}</span>}
        <CopyReplyButton turn={turn} />
        {turn.runId && (
          <a data-testid="trace-link" href={`traces.html?run=${encodeURIComponent(turn.runId)}`} target="_blank" rel="noopener noreferrer">
            Trace
          </a>
        )}
        {/* Where the link would be: the person may look for the run in the trace viewer. */}
        {turn.notRecorded && <span data-testid="not-recorded">{notRecordedWords[turn.notRecorded]}</span>}
      </p>
    </footer>
  );
}

/**
 * The model failed, or the extension restarted, not the request: once it is fixed (a server
 * started, a connection back), or asked again where it gave no answer or was cut off, the same
 * words may work; so may they once the agent is on again where it was off. Only where no tool
 * that changes anything ran yet: sending them again would do
 * that again (one the page says only reads, a search, changed nothing).
 */
function mayTryAgain(turn: Turn & { outcome: TurnOutcome }): boolean {
  const failed = turn.outcome === 'interrupted' || turn.agentOff || (turn.outcome === 'error' && (turn.loadFailed || turn.engineFailed || turn.noAnswer || turn.cutOff));
  return Boolean(failed) && changingCallRan(turn) === undefined;
}

/** A turn the agent being off ended, once it is on again. */
function agentBackOnNotice(outcome: TurnOutcome): string {
  return `The agent was off on this site, so this request ${outcome === 'error' ? 'did not run' : 'stopped'}. It is on again.`;
}

/** Sends the turn's request again, so the person need not type it again. Its description is the request. */
function TryAgainButton({ turn, onTryAgain }: { turn: Turn; onTryAgain: (request: string) => unknown }) {
  return (
    <button
      type="button"
      class="button"
      data-testid="try-again"
      aria-describedby={`request-${turn.id}`}
      onClick={() => {
        onTryAgain(turn.request);
        // The button goes with the new turn: keep the keyboard in the request box.
        focusRequestBox();
      }}
    >
      Try again
    </button>
  );
}

/**
 * Copies the model's last words in the turn, once it ended, as it wrote them (Markdown): a link
 * keeps its address, which the panel shows only as its host, and a table its columns.
 */
function CopyReplyButton({ turn }: { turn: Turn & { outcome: TurnOutcome } }) {
  const [copied, copy] = useCopied();
  const last = turn.items.at(-1);
  if (last?.kind !== 'prose' || last.text.trim() === '') return null;
  const what = turn.outcome === 'answer' ? 'answer' : 'reply';
  return (
    <>
      {/* While it says "Copied", that is its name too: a name must hold the words it shows. */}
      <button type="button" class="meta-button" data-testid="copy-answer" aria-label={copied === 'copied' ? undefined : `Copy the ${what}, in Markdown`} onClick={() => copy(last.text)}>
        {copied === 'copied' ? 'Copied' : 'Copy'}
      </button>
      <span class="visually-hidden" role="status">
        {copied === 'copied' ? `${what === 'answer' ? 'Answer' : 'Reply'} copied.` : copied === 'failed' ? `The browser would not copy the ${what}: select it and copy it by hand.` : ''}
      </span>
    </>
  );
}

const notRecordedWords: Record<NonNullable<Turn['notRecorded']>, string> = {
  'private-window': 'Not recorded (private window)',
  'traces-off': 'Not recorded (traces are off)',
  'cannot-store': 'Not recorded (traces cannot be stored here)',
};

/** A notice, its lead ("Nothing was done.") set apart from the engine's words, as a banner's title is. */
function NoticeWords({ notice }: { notice: string }) {
  const { lead, rest } = splitErrorLead(notice);
  return lead ? (
    <>
      <strong class="notice-lead">{lead}</strong>
      {rest}
    </>
  ) : (
    <>{notice}</>
  );
}
