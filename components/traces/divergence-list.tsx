import { describeDivergence } from '@/lib/traces/describe-trace';
import type { Divergence } from '@/lib/traces/divergence-schema';
import { JsonText } from '@/components/shared/json-text';
import { formatToolText } from '@/lib/text/format-tool-text';
import { changedLines } from '@/lib/text/changed-lines';
import { Fragment } from 'preact';
import { useMemo } from 'preact/hooks';

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
      {divergence.type === 'result' && <ResultPair recorded={divergence.recorded} replayed={divergence.replayed} />}
    </li>
  );
}

/**
 * The recorded result and the result now, side by side, each line that differs from the other
 * side marked (`<mark>`), so that a quantity that changed in a long JSON result is found at once.
 */
function ResultPair({ recorded, replayed }: { recorded: { text: string; isError?: boolean }; replayed: { text: string; isError?: boolean } }) {
  // Worked out once a pair: the replay panel is drawn again as tabs change elsewhere.
  const { before, after, changed } = useMemo(() => {
    const lines = { before: formatToolText(recorded.text).split('\n'), after: formatToolText(replayed.text).split('\n') };
    return { ...lines, changed: changedLines(lines.before, lines.after) };
  }, [recorded.text, replayed.text]);
  return (
    <div class="result-pair">
      <ResultSide title="Recorded" label="Recorded result" isError={recorded.isError} lines={before} changed={changed?.before} />
      <ResultSide title="Now" label="Result now" isError={replayed.isError} lines={after} changed={changed?.after} />
    </div>
  );
}

/** One side of a result pair: its title, and its lines as written, those in `changed` marked. */
function ResultSide({ title, label, isError, lines, changed }: { title: string; label: string; isError: boolean | undefined; lines: readonly string[]; changed: ReadonlySet<number> | undefined }) {
  return (
    <div>
      <p class="muted">
        {title}
        {isError ? ' (error)' : ''}
      </p>
      <pre role="group" aria-label={label}>
        <MarkedLines lines={lines} changed={changed} />
      </pre>
    </div>
  );
}

/** The lines of a result as written, those in `changed` marked; a copy of them reads as the result. */
function MarkedLines({ lines, changed }: { lines: readonly string[]; changed: ReadonlySet<number> | undefined }) {
  return (
    <>
      {lines.map((line, index) => (
        <Fragment key={index}>
          {index > 0 && '\n'}
          {changed?.has(index) ? (
            <mark class="changed-line" data-testid="changed-line">
              <JsonText text={line} />
            </mark>
          ) : (
            <JsonText text={line} />
          )}
        </Fragment>
      ))}
    </>
  );
}
