import { useRef } from 'preact/hooks';
import type { EngineStatus } from '@/lib/agent/session-state';
import { hintWithNextTry } from '@/lib/engines/describe-failure';
import { engineName, isServerEngine } from '@/lib/engines/engine-labels';
import { optionsPlaceFor } from '@/lib/sidepanel/options-place';
import { OpenOptionsButton } from './open-options-button';

/**
 * Why the model could not load or answer (no WebGPU, out of memory, a server down), and what to do.
 * Announced once: the same error shown again (another tab, the panel reopened, or the load that
 * fails as the check before it said it would) is only shown. `saidInTurn`: the panel's latest request
 * ended with this very error in its notice, so the box would only repeat it.
 */
export function EngineErrorBox({ engine, saidInTurn = false }: { engine: EngineStatus | undefined; saidInTurn?: boolean }) {
  const announced = useRef<{ key?: string; during?: EngineStatus['errorDuring'] }>({});
  // A new load starts over: the same failure again is news again, unless only the check before
  // any load had said it (the person was told then, and hears how the request ended).
  if (engine?.state === 'loading' && announced.current.during !== 'check') announced.current = {};
  // A model that loaded proved the last error over: the same one later is news.
  if (engine?.state === 'ready') announced.current = {};
  if (engine?.state !== 'error') return null;
  const key = `${engine.error}\u0000${engine.hint}`;
  const fresh = announced.current.key !== key;
  announced.current = { key, during: engine.errorDuring };
  // The request that failed says so in its own notice: that was the news.
  if (saidInTurn) return null;
  const title = heading(engine);
  return (
    <div class="notice-box tone-error" data-testid="engine-error" role={fresh ? 'alert' : undefined}>
      <strong>{title}</strong>
      {/* An engine's own words may be the heading's already ("… cannot run on this computer."). */}
      {engine.error && engine.error !== title && <p>{engine.error}</p>}
      {engine.hint && <p class="hint">{firstTryHere(engine.hint)}</p>}
      <p>
        <OpenOptionsButton place={optionsPlaceFor(`${engine.error ?? ''} ${engine.hint ?? ''}`)} />
      </p>
    </div>
  );
}

/**
 * The box tells of a load or reply this panel's latest request did not end with (the panel opening
 * loads the model ahead, the options' Download now, another tab's request): here the next try is a
 * request, not the same one again.
 */
function firstTryHere(hint: string): string {
  return hintWithNextTry(hint, 'send a request');
}

const headings: Record<'load' | 'reply', string> = {
  load: 'The model could not load.',
  reply: 'The model could not answer.',
};

/**
 * A server's model is not loaded here: the extension connects to it (as the options' Connect does).
 * A server out of reach could not be connected to; one that answered and refused (a key, a model it
 * lacks) could not be used.
 */
function heading(engine: EngineStatus): string {
  const during = engine.errorDuring ?? 'load';
  // Named: the engine may be the default, which nobody chose, on a first visit.
  if (during === 'check') return `${engineName(engine.engineId)} cannot run on this computer.`;
  if (!isServerEngine(engine.engineId)) return headings[during];
  if (during === 'reply') return 'The model server could not answer.';
  if (engine.errorCode === 'server-down') return 'Could not connect to the model server.';
  return engine.errorCode === 'server-silent' ? 'The model server did not answer.' : 'The model server could not be used.';
}
