import { describeDivergence } from '@/lib/traces/describe-trace';
import type { Divergence } from '@/lib/traces/divergence-schema';
import { JsonText } from '@/components/shared/json-text';
import { formatToolText } from '@/lib/text/format-tool-text';

/** Every place the replay went differently, in step order. */
export function DivergenceList({ divergences }: { divergences: readonly Divergence[] }) {
  return (
    <ul class="divergences" data-testid="divergence-list">
      {divergences.map((divergence, index) => (
        <DivergenceItem key={index} divergence={divergence} withStep />
      ))}
    </ul>
  );
}

export function DivergenceItem({ divergence, withStep }: { divergence: Divergence; withStep?: boolean }) {
  return (
    <li class="divergence" data-testid="divergence" data-step={divergence.step} data-type={divergence.type}>
      {withStep && <span class="divergence-step">Step {divergence.step}: </span>}
      {describeDivergence(divergence)}
      {divergence.type === 'call' && divergence.message && <span class="muted"> {divergence.message}</span>}
      {divergence.type === 'result' && (
        <div class="result-pair">
          <div>
            <p class="muted">Recorded{divergence.recorded.isError ? ' (error)' : ''}</p>
            <pre role="group" aria-label="Recorded result">
              <JsonText text={formatToolText(divergence.recorded.text)} />
            </pre>
          </div>
          <div>
            <p class="muted">Now{divergence.replayed.isError ? ' (error)' : ''}</p>
            <pre role="group" aria-label="Result now">
              <JsonText text={formatToolText(divergence.replayed.text)} />
            </pre>
          </div>
        </div>
      )}
    </li>
  );
}
