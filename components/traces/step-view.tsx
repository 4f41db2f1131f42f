import { useSignal } from '@preact/signals';
import { formatDuration } from '@/lib/text/format-duration';
import type { Divergence } from '@/lib/traces/divergence-schema';
import type { TraceStep } from '@/lib/traces/trace-schema';
import { CallList } from './call-list';
import { DivergenceItem } from './divergence-list';
import { NotShownTable } from './not-shown-table';
import { PromptMessages } from './prompt-messages';
import { RawOutputView, ThoughtsView } from './raw-output-view';
import { ScoresTable } from './scores-table';

interface StepViewProps {
  step: TraceStep;
  divergences: readonly Divergence[];
  open?: boolean;
  /** The error the run ended with, given for its last step (see RawOutputView). */
  endedWith?: string;
  /** The run goes on, and this is its last step: a reply not complete is still being written. */
  writing?: boolean;
}

/**
 * One step, folded to a line until opened: scores, prompt, raw output, calls, problems, results.
 * The body is built only once opened: a step's prompt alone can run to hundreds of thousands of
 * characters, and a long run has many steps.
 */
export function StepView({ step, divergences, open, endedWith, writing = false }: StepViewProps) {
  const opened = useSignal(Boolean(open));
  return (
    <details
      class={`step ${divergences.length ? 'diverged' : ''}`}
      data-testid="step"
      data-step={step.step}
      open={open}
      onToggle={(event) => {
        opened.value = event.currentTarget.open;
      }}
    >
      <summary data-testid="step-summary">{summaryLine(step, divergences.length, writing)}</summary>
      {divergences.length > 0 && (
        <ul class="divergences" data-testid="step-divergences">
          {divergences.map((divergence, index) => (
            <DivergenceItem key={index} divergence={divergence} />
          ))}
        </ul>
      )}
      <UsageLine step={step} />
      {opened.value && (
        <>
          <h3>Tools shown, and their scores</h3>
          <ScoresTable step={step} />
          <NotShownTable step={step} />
          <h3>Prompt</h3>
          <PromptMessages messages={step.messages} />
          {step.thoughts !== undefined && <ThoughtsView thoughts={step.thoughts} />}
          <h3>Raw output</h3>
          <RawOutputView step={step} endedWith={endedWith} writing={writing} />
          <h3>Calls and results</h3>
          <CallList step={step} writing={writing} />
        </>
      )}
    </details>
  );
}

function summaryLine(step: TraceStep, divergenceCount: number, writing: boolean): string {
  const parts = [`Step ${step.step}`];
  if (step.modelMs !== undefined) parts.push(`model ${formatDuration(step.modelMs)}`);
  parts.push(step.calls.length ? step.calls.map((call) => call.name).join(', ') : writing && !step.complete && !step.stopped ? 'being written' : withoutCalls(step));
  // A call the person declined was their answer, not a mistake of the model's.
  const declined = step.problems.filter((problem) => problem.kind === 'declined').length;
  const problems = step.problems.length - declined;
  if (problems) parts.push(`${problems} problem${problems === 1 ? '' : 's'}`);
  if (declined) parts.push(declined === 1 ? 'declined by you' : `${declined} declined by you`);
  // Its raw output runs on past the calls read: the cut fell inside a copy no one read.
  if (step.loopKept) parts.push('cut off while writing the same calls over and over: what it wrote after that was not read');
  if (step.refits) parts.push(`prompt fitted again ${step.refits === 1 ? 'once' : `${step.refits} times`}: the model found it too long`);
  if (divergenceCount) parts.push(`${divergenceCount} difference${divergenceCount === 1 ? '' : 's'} in the replay`);
  return parts.join(' · ');
}

/**
 * A step without a call answered (or wrote nothing to show: only its thinking), was stopped or
 * cut off, or held only calls that could not be read or run: a call to a tool the page does not
 * offer is that, the third time too, when the run stopped at it.
 */
function withoutCalls(step: TraceStep): string {
  if (step.stopped) return 'stopped';
  if (!step.complete) return step.raw !== '' ? 'cut off' : step.thoughts ? 'cut off while thinking' : 'no reply';
  if (step.problems.length === 0) return step.prose.trim() === '' ? 'no answer' : 'answer';
  if (step.problems.some((problem) => problem.kind === 'parse')) return 'unreadable call';
  // A repeat that names a tool is the third call to a missing one; one that names none, of an unreadable call.
  const namesMissingTool = (problem: TraceStep['problems'][number]) => problem.kind === 'unknown-tool' || (problem.kind === 'repeated' && problem.name !== undefined);
  return step.problems.some(namesMissingTool) ? 'call to an unknown tool' : 'unreadable call';
}

function UsageLine({ step }: { step: TraceStep }) {
  const { usage } = step;
  const figures = [
    step.modelMs !== undefined ? `model ${formatDuration(step.modelMs)}` : undefined,
    usage.timeToFirstTokenMs !== undefined ? `first token after ${formatDuration(usage.timeToFirstTokenMs)}` : undefined,
    usage.promptTokens !== undefined ? `${usage.promptTokens} tokens in` : undefined,
    usage.completionTokens !== undefined ? `${usage.completionTokens} tokens out` : undefined,
    usage.prefillTokensPerSecond !== undefined ? `prefill ${usage.prefillTokensPerSecond.toFixed(1)} tokens/s` : undefined,
    usage.decodeTokensPerSecond !== undefined ? `decode ${usage.decodeTokensPerSecond.toFixed(1)} tokens/s` : undefined,
  ].filter((figure) => figure !== undefined);
  return figures.length ? (
    <p class="usage muted" data-testid="step-usage">
      {figures.join(' · ')}
    </p>
  ) : null;
}
