import type { JSONSchema } from '@webmcp-agents/chat';
import { compactSchema } from '@webmcp-agents/local-agent';

/**
 * The schema as the page gave it, and as a small model is shown it (`forModel`: the agent's plain
 * version of it, see `toolsForAgent`), with both sizes.
 */
export function SchemaView({ schema, forModel = schema }: { schema: JSONSchema; forModel?: JSONSchema }) {
  const given = JSON.stringify(schema);
  const compacted = compactSchema(forModel);
  const compactText = JSON.stringify(compacted);
  return (
    <div class="schema">
      <h4>As given ({given.length.toLocaleString('en-US')} characters)</h4>
      <pre class="schema-given" role="group" aria-label="Input schema as given">{JSON.stringify(schema, null, 2)}</pre>
      <h4>Compacted for the model ({compactText.length.toLocaleString('en-US')} characters)</h4>
      <pre class="schema-compact" role="group" aria-label="Input schema compacted for the model">{JSON.stringify(compacted, null, 2)}</pre>
    </div>
  );
}

/** The output schema as the page gave it, with its size: the agent never reads it. */
export function OutputSchemaView({ schema }: { schema: JSONSchema }) {
  const given = JSON.stringify(schema);
  return (
    <div class="schema">
      <h4>Output schema ({given.length.toLocaleString('en-US')} characters)</h4>
      <pre class="schema-output" role="group" aria-label="Output schema">{JSON.stringify(schema, null, 2)}</pre>
      <p class="muted">The agent is not shown it; a run here checks the result against it.</p>
    </div>
  );
}
