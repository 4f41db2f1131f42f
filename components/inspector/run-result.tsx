import { formatToolText } from '@/lib/devtools/format-tool-text';
import type { RunState } from './inspector-model';

/** A run's outcome: the result (JSON pretty-printed) or the error, and the time it took. */
export function RunResult({ run }: { run: RunState | undefined }) {
  if (!run) return null;
  if (run.running) return <p class="run-status">Running…</p>;
  const output = run.output;
  if (!output) return null;
  return (
    <div class={output.isError ? 'run-result error' : 'run-result'}>
      {/* Only this line is announced: a long result read aloud would drown everything else. */}
      <p class="run-meta" role="status">
        {output.isError ? 'Error' : 'Result'}
        {run.durationMs !== undefined && ` · took ${run.durationMs} ms`}
      </p>
      <pre class="run-text">{formatToolText(output.text)}</pre>
    </div>
  );
}
