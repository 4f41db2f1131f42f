import type { IDBPTransaction } from 'idb';
import { stepsOf, type TraceDatabase, type TraceDatabaseConnection } from './trace-database';

type Deletion = IDBPTransaction<TraceDatabase, ['runs', 'steps'], 'readwrite'>;

/**
 * The requests that delete runs and their steps; no run is read first. They go in ascending order
 * of run id: Chromium deleted step ranges taken in descending order several times slower.
 */
function deleteRequests(transaction: Deletion, runIds: readonly string[]): Promise<unknown>[] {
  const sorted = [...runIds].sort();
  return [...sorted.map((id) => transaction.objectStore('runs').delete(id)), ...sorted.map((id) => transaction.objectStore('steps').delete(stepsOf(id)))];
}

/** Deletes runs and their steps in one transaction; an id not stored is passed over. */
export async function deleteRunsAndSteps(database: TraceDatabaseConnection, runIds: readonly string[]): Promise<void> {
  const transaction = database.transaction(['runs', 'steps'], 'readwrite');
  await Promise.all([...deleteRequests(transaction, runIds), transaction.done]);
}

/**
 * Deletes the named runs that have ended (every one when `runIds` is absent), with their steps.
 * Which have ended is read in the same transaction as the deletion, so a run that starts meanwhile is never caught.
 */
export async function deleteFinishedRuns(database: TraceDatabaseConnection, runIds?: readonly string[]): Promise<{ deleted: number; skippedRunning: number }> {
  const transaction = database.transaction(['runs', 'steps'], 'readwrite');
  const runStore = transaction.objectStore('runs');
  const stored = await runStore.getAll();
  const named = runIds && new Set(runIds);
  const runs = named ? stored.filter((run) => named.has(run.id)) : stored;
  const finished = runs.filter((run) => run.outcome !== undefined).map((run) => run.id);
  // Nothing stays: two requests clear both stores, where deleting run by run took seconds for a thousand runs.
  const requests = finished.length === stored.length ? [runStore.clear(), transaction.objectStore('steps').clear()] : deleteRequests(transaction, finished);
  await Promise.all([...requests, transaction.done]);
  return { deleted: finished.length, skippedRunning: runs.length - finished.length };
}
