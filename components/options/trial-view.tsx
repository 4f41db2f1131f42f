import { FailureBox } from './failure-box';
import type { OptionsModel } from './options-model';
import { ProgressBar } from './progress-bar';

/** A "Try it" button and what came of it: the reply and how fast it came. */
export function TrialView({ model }: { model: OptionsModel }) {
  const trial = model.trial.value;
  const usage = trial?.usage;
  return (
    <div class="trial" data-testid="trial">
      <button type="button" disabled={trial?.running} onClick={() => void model.tryEngine()}>
        {trial?.running ? 'Trying…' : 'Try it'}
      </button>
      {trial?.running && trial.progress && trial.progress.fraction < 1 && <ProgressBar progress={trial.progress} />}
      {trial?.reply && <blockquote data-testid="trial-reply">{trial.reply}</blockquote>}
      {usage && (
        <p class="muted" data-testid="trial-speed">
          {[
            usage.timeToFirstTokenMs !== undefined && `first token after ${Math.round(usage.timeToFirstTokenMs)} ms`,
            usage.decodeTokensPerSecond !== undefined && `${usage.decodeTokensPerSecond} tokens per second`,
            usage.completionTokens !== undefined && `${usage.completionTokens} tokens`,
          ]
            .filter(Boolean)
            .join(' · ')}
        </p>
      )}
      <FailureBox failure={trial?.failure} />
    </div>
  );
}
