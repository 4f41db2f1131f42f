import type { Engine } from '../engines/engine';

/**
 * What waits for the runs going on with the engine to end: engines replaced while another tab's
 * run still used them, swaps that wait before they unload a model, and a description of the engine
 * held back. The run tracker says when (`release`), once no run goes on.
 */
export function createAfterRunsEnd() {
  // Engines replaced while another tab's run still used them.
  const retired: Engine[] = [];
  // Swaps that wait for the runs to end before they unload a model.
  const swapsWaiting: Array<() => void> = [];
  // Told once the runs end (a description of the engine held back, see `describe`).
  let afterRunsEnd: (() => void) | undefined;
  return {
    /** The runs ended: lets go the retired engines, resumes the swaps, then tells what was to be told. */
    release(): void {
      for (const engine of retired.splice(0)) void engine.unload?.().catch(() => {});
      for (const resume of swapsWaiting.splice(0)) resume();
      const tell = afterRunsEnd;
      afterRunsEnd = undefined;
      tell?.();
    },
    unloadAfterRuns(engine: Engine): void {
      retired.push(engine);
    },
    untilRunsEnd(): Promise<void> {
      return new Promise<void>((resolve) => swapsWaiting.push(resolve));
    },
    get swapWaits(): boolean {
      return swapsWaiting.length > 0;
    },
    whenRunsEnd(tell: (() => void) | undefined): void {
      afterRunsEnd = tell;
    },
  };
}
