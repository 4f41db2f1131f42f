// A long job in the service worker, done in steps, so that it never holds the worker for long.

/** How long a job's steps run before the worker's other tasks get their turn. */
const sliceMs = 10;

/** Lets the worker's other tasks run (an agent run's stream, a panel's message), if a slice's time is up. */
export type NextSlice = () => Promise<void>;

/** Never lets anything in: for a job small enough, or a caller with nothing else to do. */
export const inOneGo: NextSlice = async () => {};

/**
 * For a job of many steps (checking the runs of a large imported file): called after each step, it
 * waits for `pause` (by default, a task of its own) once `sliceMs` have gone since the last, so
 * that other work waits no longer than that, and the job pays for a few dozen pauses, not one per
 * step.
 */
export function createTimeSlices(pause: () => Promise<unknown> = nextTask, now: () => number = () => performance.now()): NextSlice {
  let sliceStart = now();
  return async () => {
    if (now() - sliceStart < sliceMs) return;
    await pause();
    sliceStart = now();
  };
}

const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));
