import type { TraceBuilder } from './trace-builder';
import type { TraceRun, TraceStep } from './trace-schema';
import type { TraceWriteQueue } from './trace-write-queue';

/**
 * When the recorder writes what its runs changed: each change asks for a write within a delay, and
 * a write already waiting on a delay no longer than that stands, so a streaming reply waits while a
 * step's structure goes out at once. A flush, however it came, writes every run's changes together.
 * `written` is told the runs of each batch once it is stored.
 */
export function createChangeFlusher(builders: ReadonlyMap<string, TraceBuilder>, writes: TraceWriteQueue, written: (runs: readonly TraceRun[]) => void = () => {}) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let timerDelay = Infinity;

  const flush = (): Promise<void> => {
    clearTimeout(timer);
    timer = undefined;
    timerDelay = Infinity;
    const runs: TraceRun[] = [];
    const steps: TraceStep[] = [];
    for (const builder of builders.values()) {
      const changes = builder.takeChanges();
      if (changes.run) runs.push(changes.run);
      steps.push(...changes.steps);
    }
    if (runs.length === 0 && steps.length === 0) return writes.settled();
    return writes.enqueue(async (store) => {
      await store.write(runs, steps);
      written(runs);
    });
  };

  const schedule = (delay: number) => {
    if (timer !== undefined && timerDelay <= delay) return;
    clearTimeout(timer);
    timerDelay = delay;
    timer = setTimeout(() => void flush(), delay);
  };

  return { flush, schedule };
}
