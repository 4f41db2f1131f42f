import { useState } from 'preact/hooks';
import { formatDuration } from '@/lib/text/format-duration';
import { formatWait, useTimeSince } from '@/components/shared/use-time-since';
import type { ModelUsage } from '@webmcp-agents/local-agent';
import { figure, plural } from '@/lib/text/plural';
import { BusyButton } from './busy-button';
import { FailureBox } from './failure-box';
import type { OptionsModel } from './options-model';
import { ProgressBar } from './progress-bar';
import { useCancelButton } from './use-cancel-button';

/**
 * A "Try it" button and what came of it: the reply and how fast it came. `note`: what it does, said
 * before it is pressed, where that is more than a short reply (a download first).
 */
export function TrialView({ model, note }: { model: OptionsModel; note?: string }) {
  const trial = model.trial.value;
  const usage = trial?.usage;
  const { startButton: tryButton, cancelButton } = useCancelButton(trial?.running === true, model.cancelTrial);
  return (
    <div class="trial" data-testid="trial">
      <div class="row">
        <BusyButton buttonRef={tryButton} busy={trial?.running === true} onClick={() => void model.tryEngine()}>
          {trial?.running ? 'Trying…' : 'Try it'}
        </BusyButton>
        {trial?.running && (
          <button type="button" aria-label="Cancel the trial" aria-keyshortcuts="Escape" {...cancelButton}>
            Cancel
          </button>
        )}
        {/* Counted until the first word: a server may load its model first, for minutes. Not read out at every tick. */}
        {trial?.running && trial.reply === '' && <TrialWait hidden={trial.stalled === true} />}
      </div>
      {note && !trial && (
        <p class="muted" data-testid="trial-note">
          {note}
        </p>
      )}
      {trial?.running && trial.progress && (trial.progress.fraction ?? 0) < 1 && <ProgressBar progress={trial.progress} />}
      {/* What the trial does before its reply, and a second failure like the first, said as they come. */}
      <div aria-live="polite" data-testid="trial-announcer">
        {trial?.running && !trial.stalled && trial.reply === '' && <p class="visually-hidden">Trying…</p>}
        {trial?.running && trial.stalled && <p class="muted">Nothing has come for a minute: check your connection, or press Cancel.</p>}
        {!trial?.running && (trial?.failures ?? 0) > 1 && <p class="muted">{`Failed ${figure(trial!.failures!)} times in a row.`}</p>}
      </div>
      {/* Mounted before the reply comes, so that it is read out; busy while it streams, so that it
          is read once, whole, where the screen reader honours aria-busy. */}
      <div aria-live="polite" aria-busy={trial?.running ? 'true' : undefined} data-testid="trial-result">
        {trial?.running && trial.thinking && <p class="muted" data-testid="trial-thinking">The model is thinking…</p>}
        {trial?.reply.trim() && <blockquote data-testid="trial-reply">{trial.reply}</blockquote>}
        {usage && (
          <p class="muted" data-testid="trial-speed">
            {speedText(usage)}
          </p>
        )}
        {trial?.cancelled && <p class="muted">Cancelled.</p>}
      </div>
      {/* Drawn afresh at each failure, so that one like the last is said, and seen, again. */}
      <FailureBox key={trial?.failures} failure={trial?.failure} />
    </div>
  );
}

/**
 * How long the trial has waited for its first word, once it is a second: mounted as the trial
 * starts, and kept while a stall's note stands in for it (`hidden`), so the count goes on after.
 */
function TrialWait({ hidden }: { hidden: boolean }) {
  const [since] = useState(() => Date.now());
  const waited = useTimeSince(since);
  return hidden || waited < 1_000 ? null : (
    <span class="muted" data-testid="trial-wait">
      {formatWait(waited)}
    </span>
  );
}

function speedText(usage: ModelUsage): string {
  return [
    usage.timeToFirstTokenMs !== undefined && `first token after ${formatDuration(usage.timeToFirstTokenMs)}`,
    usage.decodeTokensPerSecond !== undefined && `${plural(usage.decodeTokensPerSecond, 'token')} per second`,
    usage.completionTokens !== undefined && plural(usage.completionTokens, 'token'),
  ]
    .filter(Boolean)
    .join(' · ');
}
