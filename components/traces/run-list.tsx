import { formatMoment, outcomeLabel } from '@/lib/traces/describe-trace';
import { plural } from '@/lib/text/plural';
import type { TraceRun } from '@/lib/traces/trace-schema';
import type { TraceViewerModel } from '@/lib/traces/trace-viewer-model';
import { formatDuration } from '@/lib/sidepanel/format-duration';
import { ShowOrExplain } from './show-or-explain';

/** Every kept run that passes the filters, newest first. */
export function RunList({ model }: { model: TraceViewerModel }) {
  const runs = model.visibleRuns.value;
  if (!model.loaded.value) return <p class="muted">Loading runs…</p>;
  if (model.runs.value.length === 0) {
    return (
      <p class="muted" data-testid="no-runs">
        No runs yet. Every request from the side panel that reaches the model is recorded here; one that stopped
        before the model loaded (the model could not load, or the agent is off on the site) has no trace.
      </p>
    );
  }
  return (
    <>
      <p class="muted run-count" data-testid="run-count">
        {runs.length === model.runs.value.length ? plural(runs.length, 'run') : `${runs.length} of ${plural(model.runs.value.length, 'run')}`}
      </p>
      {/* Focusable from script only: focus lands here after a deletion took the focused button away. */}
      <ul class="run-list" tabIndex={-1} data-testid="run-list">
        {runs.map((run) => (
          <ShowOrExplain key={run.id} fallback={(message) => <UnreadableRunItem run={run} message={message} onOpen={() => void model.open(run.id)} />}>
            <RunItem run={run} selected={run.id === model.openRunId.value} onOpen={() => void model.open(run.id)} />
          </ShowOrExplain>
        ))}
      </ul>
    </>
  );
}

function RunItem({ run, selected, onOpen }: { run: TraceRun; selected: boolean; onOpen: () => void }) {
  const took = run.endedAt !== undefined ? formatDuration(run.endedAt - run.startedAt) : '';
  return (
    <li data-testid="run-item" data-run-id={run.id} data-outcome={run.outcome ?? 'running'} class={selected ? 'selected' : ''}>
      <button type="button" class="run-button" onClick={onOpen} aria-current={selected ? 'true' : undefined}>
        <span class="run-request" data-testid="run-request" dir="auto">
          {run.request || '(empty request)'}
        </span>
        <span class="run-meta">
          <span class={`outcome outcome-${run.outcome ?? 'running'}`}>{outcomeLabel(run.outcome)}</span>
          <span>{run.origin || '(no site)'}</span>
          <span>{formatMoment(run.startedAt)}</span>
          <span>
            {run.stepCount} step{run.stepCount === 1 ? '' : 's'}
            {took && ` · ${took}`}
          </span>
        </span>
      </button>
    </li>
  );
}

/** A run whose record cannot be drawn is still listed, so it can be opened, exported or deleted. */
function UnreadableRunItem({ run, message, onOpen }: { run: TraceRun; message: string; onOpen: () => void }) {
  return (
    <li data-testid="run-item" data-run-id={run.id} data-unreadable="true">
      <button type="button" class="run-button" onClick={onOpen}>
        <span class="run-request">{`Run ${String(run.id)}`}</span>
        <span class="run-meta">
          <span>{`Its record could not be shown: ${message}`}</span>
        </span>
      </button>
    </li>
  );
}
