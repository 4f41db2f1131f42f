import { stepsOf, type TraceDatabaseConnection } from './trace-database';
import type { StoredTrace, TraceRun } from './trace-schema';

/** Every run record, newest first. */
export const listRuns = async (database: TraceDatabaseConnection): Promise<TraceRun[]> => (await database.getAllFromIndex('runs', 'startedAt')).reverse();

/** A run and its steps (those from `fromStep` on, when a live run is read again), read in one transaction so that they agree. */
export async function getTrace(database: TraceDatabaseConnection, runId: string, fromStep?: number): Promise<StoredTrace | undefined> {
  const transaction = database.transaction(['runs', 'steps']);
  const [run, steps] = await Promise.all([
    transaction.objectStore('runs').get(runId),
    transaction.objectStore('steps').getAll(stepsOf(runId, fromStep)),
  ]);
  return run ? { run, steps } : undefined;
}

/** The named runs (every run when `runIds` is absent), newest first, each with its steps. */
export async function getTraces(database: TraceDatabaseConnection, runIds?: readonly string[]): Promise<StoredTrace[]> {
  const runs = runIds ? (await Promise.all(runIds.map((id) => database.get('runs', id)))).filter((run) => run !== undefined) : await listRuns(database);
  runs.sort((a, b) => b.startedAt - a.startedAt);
  const transaction = database.transaction('steps');
  const steps = await Promise.all(runs.map((run) => transaction.store.getAll(stepsOf(run.id))));
  return runs.map((run, index) => ({ run, steps: steps[index]! }));
}
