import { useMemo, useState } from 'preact/hooks';
import { validateArgs } from '@webmcp-agents/local-agent';
import { formValuesToArgs, initialFieldValues } from '@/lib/devtools/form-values-to-args';
import { schemaToForm } from '@/lib/devtools/schema-to-form';
import type { PageTool } from '@/lib/registry/types';
import { FieldInput } from './field-input';
import { toolKey, type InspectorModel } from './inspector-model';
import { RunResult } from './run-result';

/**
 * A form generated from the tool's input schema. The arguments are checked with `validateArgs`
 * (the agent's own check, so the same messages) before the tool runs in the page.
 */
export function ToolRunner({ model, tool }: { model: InspectorModel; tool: PageTool }) {
  const fields = useMemo(() => schemaToForm(tool.inputSchema), [tool.inputSchema]);
  const [values, setValues] = useState(() => initialFieldValues(fields));
  const [problem, setProblem] = useState<string | null>(null);
  const run = model.runs.value[toolKey(tool)];
  const submit = (event: Event) => {
    event.preventDefault();
    const read = formValuesToArgs(fields, values);
    const message = read.ok ? validateArgs(tool.inputSchema, read.args) : read.message;
    setProblem(message);
    if (read.ok && message === null) model.runTool(tool, read.args);
  };
  return (
    <form class="runner" noValidate onSubmit={submit}>
      {fields.length === 0 && <p class="muted">This tool takes no arguments.</p>}
      {fields.map((field) => (
        <FieldInput key={field.name} idPrefix={`field-${toolKey(tool)}`} field={field} value={values[field.name] ?? ''} onChange={(value) => setValues({ ...values, [field.name]: value })} />
      ))}
      <div class="runner-buttons">
        <button type="submit" class="button primary" disabled={run?.running}>
          Run in page
        </button>
        {run?.running && (
          <button type="button" class="button" onClick={() => model.stopRun(tool)}>
            Stop
          </button>
        )}
      </div>
      {problem && (
        <p class="problem" role="alert">
          {problem}
        </p>
      )}
      <RunResult run={run} />
    </form>
  );
}
