import { useRef } from 'preact/hooks';
import { outcomeLabel } from '@/lib/traces/describe-trace';
import type { TraceViewerModel } from '@/lib/traces/trace-viewer-model';

/**
 * Says which run the detail pane now shows when the person opens another from the list (focus
 * stays on the list, so nothing else would tell a screen reader the pane changed). The run the
 * page was opened on (`traces.html?run=…`, `initialRunId`) is not said: its title and heading say it.
 */
export function OpenedRunAnnouncer({ model, initialRunId }: { model: TraceViewerModel; initialRunId?: string }) {
  const trace = model.openTrace.value;
  // Said once a run: an unfinished run's steps, read again as it goes on, are not news to repeat.
  const heard = useRef<{ runId?: string; text: string }>({ runId: initialRunId, text: '' });
  const runId = trace?.run.id;
  // The run shown is gone (deleted): nothing is said of it any more, and a run opened after is said.
  if (trace === null) heard.current = { text: '' };
  else if (trace && runId !== heard.current.runId) {
    heard.current = { runId, text: describeOpened(trace.run.request, outcomeLabel(trace.run.outcome), trace.steps.length) };
  }
  return (
    <p class="visually-hidden" aria-live="polite" data-testid="opened-run-announcer">
      {heard.current.text}
    </p>
  );
}

function describeOpened(request: string, outcome: string, steps: number): string {
  const shortRequest = request.length > 80 ? `${request.slice(0, 79)}…` : request;
  return `Showing "${shortRequest}": ${outcome}, ${steps === 1 ? '1 step' : `${steps} steps`}.`;
}
