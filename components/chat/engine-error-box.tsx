import type { EngineStatus } from '@/lib/agent/session-state';

/** Why the model could not load or stopped mid-reply (no WebGPU, out of memory, …), and what to do. */
export function EngineErrorBox({ engine }: { engine: EngineStatus }) {
  return (
    <div class="notice-box tone-error" data-testid="engine-error" role="alert">
      <strong>{engine.errorDuring === 'reply' ? 'The model stopped in the middle of a reply.' : 'The model could not load.'}</strong>
      {engine.error && <p>{engine.error}</p>}
      {engine.hint && <p class="hint">{engine.hint}</p>}
    </div>
  );
}
