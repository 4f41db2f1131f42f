import { stepsOf, type TraceDatabaseConnection } from './trace-database';
import { createTimeSlices } from './time-slices';
import type { StoredTrace, TraceRun, TraceStep } from './trace-schema';

/** Writes what the recorder took of its runs, run records and steps, in one transaction. */
export async function writeRunsAndSteps(database: TraceDatabaseConnection, runs: readonly TraceRun[], steps: readonly TraceStep[]): Promise<void> {
  if (runs.length === 0 && steps.length === 0) return;
  const transaction = database.transaction(['runs', 'steps'], 'readwrite');
  const puts = [...runs.map((run) => transaction.objectStore('runs').put(run)), ...steps.map((step) => transaction.objectStore('steps').put(step))];
  await Promise.all([...puts, transaction.done]);
}

/**
 * Replaces each run and all its steps, as an import does, in one transaction: a step the stored run
 * had and the imported one lacks goes, and each step is filed under the run it came with. Each
 * request copies its record at once, on this thread: a large file's thousands of them are asked a
 * slice of time at a time, the worker's other tasks running between (the transaction stays open,
 * as it waits on its own requests). A record that cannot be copied undoes the whole import.
 */
export async function replaceTraces(database: TraceDatabaseConnection, traces: readonly StoredTrace[]): Promise<void> {
  const transaction = database.transaction(['runs', 'steps'], 'readwrite');
  const runStore = transaction.objectStore('runs');
  const stepStore = transaction.objectStore('steps');
  const requests: Promise<unknown>[] = [];
  // Its failure is the transaction's, awaited below.
  const nextSlice = createTimeSlices(() => requests.at(-1)!.catch(() => {}));
  try {
    for (const { run, steps } of traces) {
      requests.push(stepStore.delete(stepsOf(run.id)), runStore.put(run));
      for (const step of steps) requests.push(stepStore.put({ ...step, runId: run.id }));
      await nextSlice();
    }
  } catch (error) {
    try {
      transaction.abort();
    } catch {
      // It has ended already.
    }
    await Promise.allSettled([...requests, transaction.done]);
    throw error;
  }
  await Promise.all([...requests, transaction.done]);
}
