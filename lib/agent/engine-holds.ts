import type { Engine } from '../engines/engine';
import type { EngineHostParts } from './engine-host-parts';

/**
 * Each engine handed to a run with `hold`, and how that run gives its hold back: the run hands back
 * the engine it was given, not its hold, so the host finds the hold by the engine.
 */
export function createEngineHolds({ shared, runs }: Pick<EngineHostParts, 'shared' | 'runs'>) {
  const holds = new WeakMap<Engine, () => void>();
  return {
    /** `engine` was handed to a run that holds it; `release` gives that hold back. */
    keep(engine: Engine, release: () => void): void {
      holds.set(engine, release);
    },
    /** The run that loaded `engine` with `hold` is over: another model may replace it now. */
    release(engine: Engine): void {
      holds.get(engine)?.();
      holds.delete(engine);
      // A tab whose new model waits for the runs still going on says which, and how many.
      if (runs.swapWaits) shared.publishNow();
    },
  };
}
