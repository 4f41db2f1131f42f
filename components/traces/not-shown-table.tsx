import type { TraceStep } from '@/lib/traces/trace-schema';
import { plural } from '@/lib/text/plural';
import { formatScore } from '@/lib/text/format-score';

/**
 * How many tools the page offered at a step, and those the model was not shown with their scores,
 * best first: the answer to "why did the model not get my tool?". Traces recorded before these
 * were kept show nothing here.
 */
export function NotShownTable({ step }: { step: TraceStep }) {
  const { offeredCount, notShownCount, notShown = [] } = step;
  if (offeredCount === undefined || notShownCount === undefined || offeredCount === 0) return null;
  const onPage = `${plural(offeredCount, 'tool')} on the page`;
  if (notShownCount === 0) {
    return (
      <p class="muted" data-testid="not-shown-summary">
        {onPage}; all shown.
      </p>
    );
  }
  // A call the model made to a tool it was not shown is marked, as a called tool is above.
  const asked = new Set(step.problems.flatMap((problem) => (problem.kind === 'unknown-tool' && problem.name ? [problem.name] : [])));
  const unlisted = notShownCount - notShown.length;
  return (
    <>
      <p data-testid="not-shown-summary">
        {onPage}; {notShownCount} not shown{notShown.length > 0 ? ':' : '.'}
      </p>
      {notShown.length > 0 && (
        <div class="scores-scroll" tabIndex={0} role="region" aria-label={`Tools not shown at step ${step.step}, and their scores`}>
          <table class="scores-table" data-testid="not-shown-table">
            <thead>
              <tr>
                <th>Tool</th>
                <th>Score</th>
              </tr>
            </thead>
            <tbody>
              {notShown.map((tool, index) => (
                <tr key={index} data-testid="not-shown-row" data-tool={tool.name} class={asked.has(tool.name) ? 'called' : ''}>
                  <td>
                    <code>{tool.name}</code>
                    {asked.has(tool.name) && ' (asked for)'}
                  </td>
                  <td class="number">{formatScore(tool.score)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {unlisted > 0 && notShown.length > 0 && (
        <p class="muted" data-testid="not-shown-rest">
          And {unlisted} more, none scored above {formatScore(notShown.at(-1)!.score)}.
        </p>
      )}
    </>
  );
}
