import { formatDuration } from '@/lib/text/format-duration';
import { HiddenCharacters, JsonText, looksLikeJson } from '@/components/shared/json-text';
import type { TraceCall, TraceProblem, TraceStep } from '@/lib/traces/trace-schema';
import { resultReadText } from '@/lib/text/result-read-text';

/** The calls of a step: arguments, the person's answer, what the page returned, what went wrong. */
export function CallList({ step, writing = false }: { step: TraceStep; writing?: boolean }) {
  const general = step.problems.filter((problem) => !problem.callId);
  if (step.calls.length === 0 && general.length === 0) {
    return <p class="muted" data-testid="no-calls">{writing && !step.complete && !step.stopped ? 'No call yet: the model is still writing.' : withoutCalls(step)}</p>;
  }
  return (
    <div class="step-calls" data-testid="step-calls">
      {step.calls.map((call) => (
        <CallView key={call.callId} call={call} problem={step.problems.find((problem) => problem.callId === call.callId)} />
      ))}
      {general.length > 0 && (
        <ul class="problems" data-testid="step-problems">
          {general.map((problem, index) => (
            <li key={index} data-testid="problem" data-kind={problem.kind}>
              <ProblemKind problem={problem} /> <HiddenCharacters text={problem.message} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function CallView({ call, problem }: { call: TraceCall; problem: TraceProblem | undefined }) {
  const { approval, result } = call;
  return (
    <section class="call" data-testid="call" data-name={call.name} data-call-id={call.callId}>
      <h4>
        <code>
          <HiddenCharacters text={call.name} />
        </code>{' '}
        <span class="muted">call {call.callId}</span>
      </h4>
      {/* Named: Chrome makes a box that scrolls a stop for Tab, which a screen reader would read out whole, unnamed. */}
      <pre class="call-arguments json" data-testid="call-arguments" role="group" aria-label={`Arguments of ${call.name}`}>
        <JsonText text={JSON.stringify(call.arguments, null, 2)} />
      </pre>
      {approval && (
        <p class="approval" data-testid="call-approval" data-approved={String(approval.approved ?? '')}>
          {approvalText(approval)}
        </p>
      )}
      {problem && (
        <p class="problem" data-testid="problem" data-kind={problem.kind}>
          <ProblemKind problem={problem} /> <HiddenCharacters text={problem.message} />
        </p>
      )}
      {result && (
        <div class={`call-result ${result.isError ? 'is-error' : ''}`}>
          <p class="muted">
            {result.isError ? 'The tool failed in' : result.noAnswer ? 'No answer came back after' : 'The page returned in'} {formatDuration(result.durationMs)}
            {result.length > result.text.length && ` (kept ${result.text.length.toLocaleString('en-US')} of ${result.length.toLocaleString('en-US')} characters)`}:
          </p>
          <pre class={looksLikeJson(result.text) ? 'json' : undefined} data-testid="call-result" role="group" aria-label={`Result of ${call.name}`}>
            <JsonText text={result.text} />
          </pre>
          {call.read && (
            <p class="muted" data-testid="call-read">
              {readText(call.read)}
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/** In the side panel card's words: the prompt could carry only part of the result. */
function readText(read: NonNullable<TraceCall['read']>): string {
  const said = resultReadText(read);
  return `${said.charAt(0).toUpperCase()}${said.slice(1)}${read.characters === 0 ? ': the prompt had no room for them.' : '.'}`;
}

/** How the question ended: answered (by the person), or settled without an answer, and after how long. */
function approvalText(approval: NonNullable<TraceCall['approval']>): string {
  if (approval.approved === undefined || approval.answeredAt === undefined) return 'Waited for an answer; none came.';
  const after = formatDuration(approval.answeredAt - approval.askedAt);
  if (approval.withdrawn) return `Asked; the page changed or removed the tool ${after} later, before an answer.`;
  if (approval.allowedBecause) return `Asked; ran ${after} later without an answer: ${approval.allowedBecause}.`;
  return `${approval.approved ? 'Allowed' : 'Declined'} after ${after}.`;
}

/**
 * A problem's label, red where the model went wrong; a call the person declined, or whose tool the
 * page took away while they were asked, is how the run went, not a fault, and is labelled plainly.
 */
function ProblemKind({ problem }: { problem: TraceProblem }) {
  const fault = !(problem.kind === 'declined' || (problem.kind === 'unknown-tool' && problem.withdrawn));
  return (
    <span class={fault ? 'problem-kind' : 'problem-kind not-a-fault'} data-testid="problem-kind" data-fault={String(fault)}>
      {problemLabel(problem)}
    </span>
  );
}

function problemLabel(problem: TraceProblem): string {
  switch (problem.kind) {
    case 'parse':
      return 'Unreadable call:';
    case 'unknown-tool':
      return problem.withdrawn ? 'Not run:' : 'Unknown tool:';
    case 'invalid-arguments':
      return 'Invalid arguments:';
    case 'declined':
      return 'Declined:';
    case 'repeated':
      return 'Repeated:';
    case 'duplicate':
      // The model wrote the same call twice in one reply: its slip, in red, though the words are a withdrawn call's.
      return 'Not run:';
  }
}

function withoutCalls(step: TraceStep): string {
  if (!step.complete) return step.raw !== '' ? 'The reply was cut off before any call.' : step.thoughts ? 'No reply, so no call: the model was still thinking.' : 'No reply, so no call.';
  if (step.prose.trim() !== '') return 'No calls at this step: the model answered.';
  return step.raw.trim() === '' && !step.thoughts ? 'No calls at this step, and no answer: the reply was empty.' : 'No calls at this step, and no answer: the model wrote only its thinking.';
}
