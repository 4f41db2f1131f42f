import type { InspectorModel } from './inspector-model';

/** "What would the agent see": the tools `rankTools` would show a small model for a request. */
export function AgentPreview({ model }: { model: InspectorModel }) {
  const ranking = model.ranking.value;
  const best = Math.max(0, ...ranking.map(({ score }) => score));
  return (
    <section class="agent-preview" aria-label="What would the agent see">
      <h2>What would the agent see?</h2>
      <input
        type="search"
        class="agent-query"
        placeholder="Type a request, e.g. add two mugs to the cart"
        aria-label="Request"
        value={model.query.value}
        onInput={(event) => (model.query.value = event.currentTarget.value)}
      />
      {ranking.length > 0 && (
        <>
          <p class="ranking-note" data-testid="ranking-note">
            {ranking.length < model.agentTools.value.length
              ? `The ${ranking.length} best matches of ${model.agentTools.value.length} tools, best first.`
              : `All ${ranking.length} tools fit (the agent shows up to ${model.maxTools}), so it sees them in the page's order.`}
          </p>
          <ol class="ranking">
            {ranking.map(({ tool, score }) => (
              <li key={tool.name} data-best={score > 0 && score === best ? '' : undefined}>
                <span class="ranking-name">{tool.name}</span> <span class="ranking-score">score {formatScore(score)}</span>
                {score > 0 && score === best && <span class="ranking-best"> · best match</span>}
                <div class="ranking-description">{tool.description}</div>
              </li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

function formatScore(score: number): string {
  return Number.isInteger(score) ? String(score) : score.toFixed(2);
}
