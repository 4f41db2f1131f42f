import { segmentRawOutput } from '@/lib/traces/segment-raw-output';
import type { TraceStep } from '@/lib/traces/trace-schema';

const partTitles = { call: 'Read as a tool call', think: 'Reasoning, not shown to the person', prose: 'Prose, shown to the person' } as const;

/** What the model wrote, with the parts the parser read as calls or reasoning highlighted. */
export function RawOutputView({ step }: { step: TraceStep }) {
  const segments = segmentRawOutput(step.raw, step.parsed?.calls.length ?? 0);
  return (
    <div class="raw-output">
      {!step.complete && (
        <p class="muted">
          {step.raw === ''
            ? 'No reply: the run ended before the model wrote anything.'
            : 'The reply was cut off here: the run ended while the model was writing.'}
        </p>
      )}
      <pre data-testid="raw-output">
        {segments.map((segment, index) =>
          segment.kind === 'prose' ? (
            segment.text
          ) : (
            <mark key={index} class={`part-${segment.kind}`} data-part={segment.kind} title={partTitles[segment.kind]}>
              {segment.text}
            </mark>
          ),
        )}
      </pre>
      {step.parsed && step.parsed.text && (
        <p class="parsed-prose" data-testid="parsed-prose">
          <span class="muted">Prose: </span>
          {step.parsed.text}
        </p>
      )}
    </div>
  );
}
