import { HiddenCharacters } from '@/components/shared/json-text';
import { segmentRawOutput } from '@/lib/traces/segment-raw-output';
import type { TraceStep } from '@/lib/traces/trace-schema';

const partTitles = { call: 'Read as a tool call', think: 'Reasoning, not shown to the person', prose: 'Prose, shown to the person' } as const;

/**
 * What the model wrote, with the parts the parser read as calls or reasoning highlighted.
 * `endedWith` is the error the run ended with, given for its last step: why a reply cut off there
 * ended (its length limit reached, an engine lost). `writing`: the run goes on and this is its last
 * step, so a reply not complete is one still being written, not one cut off.
 */
export function RawOutputView({ step, endedWith, writing = false }: { step: TraceStep; endedWith?: string; writing?: boolean }) {
  const segments = segmentRawOutput(step.raw, step.parsed?.calls.length ?? 0);
  return (
    <div class="raw-output">
      {!step.complete && (
        <p class="muted" data-testid="cut-off-notice">
          {writing && !step.stopped ? 'The model is still writing this reply: what it wrote so far.' : cutOffNotice(step, endedWith)}
        </p>
      )}
      <pre data-testid="raw-output" role="group" aria-label="Raw output">
        {segments.map((segment, index) =>
          segment.kind === 'prose' ? (
            <HiddenCharacters key={index} text={segment.text} />
          ) : (
            <mark key={index} class={`part-${segment.kind}`} data-part={segment.kind} title={partTitles[segment.kind]}>
              <HiddenCharacters text={segment.text} />
            </mark>
          ),
        )}
      </pre>
      {step.parsed && step.parsed.text && (
        <p class="parsed-prose" data-testid="parsed-prose">
          <span class="muted">Prose: </span>
          <HiddenCharacters text={step.parsed.text} />
        </p>
      )}
    </div>
  );
}

/**
 * The model's thoughts kept apart from its reply (a server's reasoning, or a `<think>` its template
 * opened in the prompt, taken out of the reply's text): the model never reads them again, and the
 * person saw only that it was thinking.
 */
export function ThoughtsView({ thoughts }: { thoughts: string }) {
  return (
    <>
      <h3>Thoughts</h3>
      <p class="muted">Kept apart from the reply: the person saw only that the model was thinking, and the model does not read them again.</p>
      <pre class="thoughts" data-testid="thoughts" role="group" aria-label="Thoughts">
        <HiddenCharacters text={thoughts} />
      </pre>
    </>
  );
}

/** Why a reply the trace holds unfinished ends where it does. */
function cutOffNotice(step: TraceStep, endedWith: string | undefined): string {
  const why = step.stopped ? undefined : endedWith;
  const how = step.stopped ? 'the run was stopped' : 'the run ended';
  if (step.raw === '' && step.thoughts) return why ? `No reply: the model was still thinking. ${why}` : `No reply: ${how} while the model was still thinking.`;
  if (step.raw === '') return why ? `No reply. ${why}` : `No reply: ${how} before the model wrote anything.`;
  return why ? `The reply ends here. ${why}` : `The reply was cut off here: ${how} while the model was writing.`;
}
