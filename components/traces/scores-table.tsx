import { HiddenCharacters } from '@/components/shared/json-text';
import { compactJson } from '@/lib/sidepanel/compact-json';
import type { TraceStep } from '@/lib/traces/trace-schema';
import { formatScore } from '@/lib/text/format-score';

/**
 * The tools the model was shown at a step, best score first. The prompt lists them in its own
 * order (the page's, when every tool fits), so that order is shown too.
 */
export function ScoresTable({ step }: { step: TraceStep }) {
  if (step.tools.length === 0) {
    // A page whose tools were all left out (a prompt with no room for any) did offer some.
    return <p class="muted">{step.offeredCount ? 'No tool was shown at this step.' : 'The page offered no tools at this step.'}</p>;
  }
  const called = new Set(step.calls.map((call) => call.name));
  const ranked = step.tools.map((tool, index) => ({ tool, position: index + 1 })).sort((a, b) => b.tool.score - a.tool.score || a.position - b.position);
  return (
    // A narrow page scrolls the table sideways, by keyboard too, instead of the whole run.
    <div class="scores-scroll" tabIndex={0} role="region" aria-label={`Tools shown at step ${step.step}, and their scores`}>
      <table class="scores-table" data-testid="scores-table">
        <thead>
          <tr>
            <th>Rank</th>
            <th>Tool</th>
            <th>Score</th>
            <th title="Where the tool stands in the prompt">In prompt</th>
            <th>Description</th>
            <th>Parameters</th>
          </tr>
        </thead>
        <tbody>
          {ranked.map(({ tool, position }, index) => (
            <tr key={tool.name} data-testid="score-row" data-tool={tool.name} class={called.has(tool.name) ? 'called' : ''}>
              <td>{index + 1}</td>
              <td>
                <code>{tool.name}</code>
                {/* In words, not only in bold: bold alone is lost to a screen reader. */}
                {called.has(tool.name) && ' (called)'}
              </td>
              <td class="number" data-testid="score">
                {formatScore(tool.score)}
              </td>
              <td class="number">{position}</td>
              <td class="description" dir="auto">
                <HiddenCharacters text={tool.description} />
              </td>
              <td>
                <code class="parameters">
                  <HiddenCharacters text={compactJson(tool.parameters, 200)} />
                </code>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
