import type { EngineStatus } from '@/lib/agent/session-state';

/** Why the model could not load (no WebGPU, out of memory, …) and what the person can do about it. */
export function EngineErrorBox({ engine }: { engine: EngineStatus }) {
  return (
    <div class="notice-box tone-error" data-testid="engine-error" role="alert">
      <strong>The model could not load.</strong>
      {engine.error && <p>{engine.error}</p>}
      {engine.hint && <p class="hint">{engine.hint}</p>}
    </div>
  );
}
