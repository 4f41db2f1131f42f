import type { EngineStatus } from '@/lib/agent/session-state';
import { formatMegabytes } from '@/lib/text/format-bytes';
import type { PanelModel } from '@/lib/sidepanel/panel-model';

// An error is said by when it came (errorLabels).
const stateLabels: Record<Exclude<EngineStatus['state'], 'error'>, string> = {
  idle: 'Loads on your first request',
  loading: 'Loading',
  ready: 'Ready',
  generating: 'Generating',
};

const errorLabels: Record<NonNullable<EngineStatus['errorDuring']>, string> = {
  check: 'Cannot run here',
  load: 'Could not load',
  reply: 'Failed while answering',
};


/** Which engine and model answer, and what they are doing now. */
export function StatusLine({ model }: { model: PanelModel }) {
  const engine = model.session.value?.engine;
  if (!engine) {
    return (
      <div class="status-line" data-testid="status-line">
        <span class="status-state">Waiting for the agent…</span>
      </div>
    );
  }
  return (
    <div class="status-line" data-testid="status-line" data-engine-state={engine.state}>
      <span class="status-engine">{engine.engineLabel}</span>
      <span class="status-model" title={engine.model}>{engine.model}</span>
      <EngineActivity engine={engine} />
    </div>
  );
}

function EngineActivity({ engine }: { engine: EngineStatus }) {
  if (engine.state === 'loading') {
    const progress = engine.progress !== undefined ? Math.min(1, Math.max(0, engine.progress)) : undefined;
    return (
      <span class="status-loading">
        <progress data-testid="progress" max={1} value={progress} aria-label="Loading the model" title={engine.progressText} />
        {progress !== undefined && <span class="status-percent">{Math.round(progress * 100)}%</span>}
        {engine.progressText && <span class="status-detail">{engine.progressText}</span>}
      </span>
    );
  }
  if (engine.state === 'generating' && engine.tokensPerSecond !== undefined) {
    return <span class="status-state">{engine.tokensPerSecond.toFixed(1)} tokens/s</span>;
  }
  if (engine.state === 'idle' && engine.downloadMB !== undefined) {
    return <span class="status-state state-idle">Downloads about {formatMegabytes(engine.downloadMB)} on your first request, once</span>;
  }
  const label = engine.state === 'error' ? errorLabels[engine.errorDuring ?? 'load'] : stateLabels[engine.state];
  return <span class={`status-state state-${engine.state}`}>{label}</span>;
}
