import { useRef } from 'preact/hooks';
import type { EngineStatus } from '@/lib/agent/session-state';
import { OpenOptionsButton } from './open-options-button';

/**
 * Why the model could not load or stopped mid-reply (no WebGPU, out of memory, …), and what to do.
 * Announced once: the same error shown again (another tab, the panel reopened) is only shown.
 */
export function EngineErrorBox({ engine }: { engine: EngineStatus | undefined }) {
  const announced = useRef<string | undefined>(undefined);
  // A new load starts over: the same failure again is news again.
  if (engine?.state === 'loading') announced.current = undefined;
  if (engine?.state !== 'error') return null;
  const key = `${engine.errorDuring}\u0000${engine.error}\u0000${engine.hint}`;
  const fresh = announced.current !== key;
  announced.current = key;
  return (
    <div class="notice-box tone-error" data-testid="engine-error" role={fresh ? 'alert' : undefined}>
      <strong>{headings[engine.errorDuring ?? 'load']}</strong>
      {engine.error && <p>{engine.error}</p>}
      {engine.hint && <p class="hint">{engine.hint}</p>}
      <p>
        <OpenOptionsButton />
      </p>
    </div>
  );
}

const headings: Record<NonNullable<EngineStatus['errorDuring']>, string> = {
  check: 'The chosen engine cannot run on this computer.',
  load: 'The model could not load.',
  reply: 'The model stopped in the middle of a reply.',
};
