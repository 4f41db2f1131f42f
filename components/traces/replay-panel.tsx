import { useEffect } from 'preact/hooks';
import { compactJson } from '@/lib/sidepanel/compact-json';
import { firstDivergentStep } from '@/lib/traces/find-divergences';
import type { ReplayCall } from '@/lib/traces/replay-trace';
import type { TraceViewerModel } from '@/lib/traces/trace-viewer-model';
import { DivergenceList } from './divergence-list';

/** Replays the open run in a tab with the recorded replies, and says where it went differently. */
export function ReplayPanel({ model }: { model: TraceViewerModel }) {
  const run = model.openTrace.value?.run;
  const runId = run?.id;
  useEffect(() => {
    if (runId) void model.loadReplayTabs();
  }, [model, runId]);
  if (!run) return null;
  const state = model.replay.value;
  return (
    <section class="replay" data-testid="replay-panel" data-status={state.status}>
      <h2>Replay</h2>
      <p class="muted">
        Runs this request again in a tab, with the model's recorded replies and the page's tools as they are now. Tools that are not read-only
        wait for your yes.
      </p>
      <div class="replay-controls">
        <ReplayTabPicker model={model} origin={run.origin} />
        <button type="button" onClick={() => void model.loadReplayTabs()} data-testid="replay-refresh">
          Refresh tabs
        </button>
        {state.status === 'running' ? (
          <button type="button" onClick={() => model.cancelReplay()} data-testid="replay-cancel">
            Cancel
          </button>
        ) : (
          <button type="button" class="primary" disabled={model.replayTabId.value === undefined} onClick={() => model.startReplay()} data-testid="replay-start">
            Replay
          </button>
        )}
      </div>
      <ReplayStatus model={model} />
    </section>
  );
}

/** The open tabs whose page offers tools; one on another site than the run's says so. */
function ReplayTabPicker({ model, origin }: { model: TraceViewerModel; origin: string }) {
  const tabs = model.replayTabs.value;
  if (tabs.length === 0) {
    return (
      <span class="muted" data-testid="replay-no-tabs">
        No open tab offers tools. Open {origin || 'the page'} in a tab, then refresh.
      </span>
    );
  }
  return (
    <select
      aria-label="Tab to replay in"
      data-testid="replay-tab"
      value={model.replayTabId.value ?? ''}
      onChange={(event) => (model.replayTabId.value = Number(event.currentTarget.value))}
    >
      {model.replayTabId.value === undefined && <option value="">Choose a tab</option>}
      {tabs.map((tab) => (
        <option key={tab.tabId} value={tab.tabId}>
          {`Tab ${tab.tabId} · ${tab.url} · ${tab.toolCount} tools${tab.origin === origin ? '' : ' (another site)'}`}
        </option>
      ))}
    </select>
  );
}

/** A tool that may change the page runs in the replay only with the person's yes. */
function ReplayConfirm({ model, call }: { model: TraceViewerModel; call: ReplayCall }) {
  return (
    <div class="replay-confirm" role="alertdialog" data-testid="replay-confirm" data-name={call.name}>
      <p>
        The replay wants to run <code>{call.name}</code> with <code>{compactJson(call.arguments)}</code>. It is not marked read-only, so it may
        change the page.
      </p>
      <button type="button" class="primary" onClick={() => model.answerConfirm(true)} data-testid="replay-allow">
        Run it
      </button>
      <button type="button" onClick={() => model.answerConfirm(false)} data-testid="replay-skip">
        Skip it
      </button>
    </div>
  );
}

function ReplayStatus({ model }: { model: TraceViewerModel }) {
  const state = model.replay.value;
  switch (state.status) {
    case 'idle':
      return null;
    case 'running':
      return (
        <div>
          <p class="replay-progress" data-testid="replay-progress">
            {state.progress}…
          </p>
          {state.confirm && <ReplayConfirm model={model} call={state.confirm} />}
        </div>
      );
    case 'failed':
      return (
        <p class="notice tone-error" data-testid="replay-error">
          {state.message}
        </p>
      );
    case 'done': {
      const first = firstDivergentStep(state.divergences);
      return (
        <div data-testid="replay-result" data-divergences={state.divergences.length} data-first-step={first ?? ''}>
          <p class={first === undefined ? 'replay-same' : 'replay-different'}>
            {first === undefined
              ? `The replay went as recorded (${state.stepCount} steps).`
              : `The replay went differently at step ${first}: ${state.divergences.length} difference${state.divergences.length === 1 ? '' : 's'}.`}
          </p>
          {state.divergences.length > 0 && <DivergenceList divergences={state.divergences} />}
        </div>
      );
    }
  }
}
