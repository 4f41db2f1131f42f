import type { InspectorModel } from './inspector-model';

/** "What would the agent see": the tools `rankTools` would show a small model for a request. */
export function AgentPreview({ model }: { model: InspectorModel }) {
  const ranking = model.ranking.value;
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
        <ol class="ranking">
          {ranking.map(({ tool, score }) => (
            <li key={tool.name}>
              <span class="ranking-name">{tool.name}</span> <span class="ranking-score">score {score}</span>
              <div class="ranking-description">{tool.description}</div>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
