import { deleteFinishedRuns, deleteRunsAndSteps } from './delete-runs';
import { endUnfinishedRuns } from './end-unfinished-runs';
import { getTrace, getTraces, listRuns } from './read-traces';
import { openTraceDatabase, type TraceDatabaseConnection } from './trace-database';
import type { StoredTrace, TraceOutcome, TraceRun, TraceStep } from './trace-schema';
import { replaceTraces, writeRunsAndSteps } from './write-traces';

/** The extension's one trace database; tests and benchmarks open their own by name. */
const traceDatabaseName = 'webmcp-agent-traces';

/** The IndexedDB store of every kept run: the background writes it, the viewer reads it too. */
export interface TraceStore {
  /** Writes run records and steps in one transaction. */
  write(runs: readonly TraceRun[], steps: readonly TraceStep[]): Promise<void>;
  /** Every run record, newest first. */
  listRuns(): Promise<TraceRun[]>;
  countRuns(): Promise<number>;
  /** A run and its steps; only the steps from `fromStep` on when given (a live run read again). */
  getTrace(runId: string, fromStep?: number): Promise<StoredTrace | undefined>;
  /** The named runs with their steps (all runs when `runIds` is absent), newest first. */
  getTraces(runIds?: readonly string[]): Promise<StoredTrace[]>;
  /** Replaces each run and all its steps, as an import does. */
  putTraces(traces: readonly StoredTrace[]): Promise<void>;
  /** Deletes runs and their steps, as retention chose them; an id not stored is passed over. */
  deleteRuns(runIds: readonly string[]): Promise<void>;
  /**
   * Deletes the named runs and their steps (every run when `runIds` is absent), but never a run
   * still going on: its recorder would only write it back. Which runs have ended is read in the
   * same transaction, so a run that starts meanwhile is never caught.
   */
  deleteFinished(runIds?: readonly string[]): Promise<{ deleted: number; skippedRunning: number }>;
  /**
   * How many times runs were put or deleted through this store (imports, deletions). Retention
   * keeps a running total of the bytes kept; a change it did not make means reading them again.
   */
  changeCount(): number;
  /** Gives every run still without an outcome (except `except`) this one; returns how many. */
  endUnfinished(outcome: TraceOutcome, except: ReadonlySet<string>): Promise<number>;
  close(): void;
}

/** A connection's refusal to start a transaction once it is closing (IndexedDB's InvalidStateError). */
function closing(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'InvalidStateError';
}

/**
 * Opens (and on first use creates) the trace database. A connection that another context closes
 * (clearing the extension's storage deletes the database) is opened again at the next use, so the
 * runs after it are kept without waiting for the worker to start again.
 */
export async function openTraceStore(name: string = traceDatabaseName): Promise<TraceStore> {
  let current: Promise<TraceDatabaseConnection> | undefined;
  let changes = 0;
  // Closed here (close()), the store is done: only a connection another context closed opens again.
  let closed = false;

  const connection = (): Promise<TraceDatabaseConnection> => {
    if (closed) return Promise.reject(new DOMException('The trace store is closed.', 'InvalidStateError'));
    if (current) return current;
    const opening: Promise<TraceDatabaseConnection> = openTraceDatabase(name, () => {
      if (current === opening) current = undefined;
    });
    current = opening;
    // A failed opening is tried again at the next use rather than kept.
    opening.catch(() => {
      if (current === opening) current = undefined;
    });
    return opening;
  };

  /** Runs `use` on the open connection; once more on a new one where the connection closed under it. */
  async function withDatabase<T>(use: (database: TraceDatabaseConnection) => Promise<T>): Promise<T> {
    const opening = connection();
    const database = await opening;
    try {
      return await use(database);
    } catch (error) {
      // The connection closed between two transactions of this use: another context asked for it
      // (`blocking` came), or Chrome closed it (the site's data cleared), which refuses the next
      // transaction before its close event says so. The one refused was not written, and every
      // use puts or deletes whole records, so doing it again in full is safe.
      if (closed || (current === opening && !closing(error))) throw error;
      if (current === opening) {
        current = undefined;
        // Closing, or refusing for another reason: either way this use goes on a new connection.
        database.close();
      }
      return use(await connection());
    }
  }

  await connection();
  return {
    write: (runs, steps) => withDatabase((database) => writeRunsAndSteps(database, runs, steps)),
    listRuns: () => withDatabase(listRuns),
    countRuns: () => withDatabase((database) => database.count('runs')),
    getTrace: (runId, fromStep) => withDatabase((database) => getTrace(database, runId, fromStep)),
    getTraces: (runIds) => withDatabase((database) => getTraces(database, runIds)),
    putTraces(traces) {
      changes += 1;
      return withDatabase((database) => replaceTraces(database, traces));
    },
    deleteRuns(runIds) {
      changes += 1;
      return withDatabase((database) => deleteRunsAndSteps(database, runIds));
    },
    deleteFinished(runIds) {
      changes += 1;
      return withDatabase((database) => deleteFinishedRuns(database, runIds));
    },
    endUnfinished: (outcome, except) => withDatabase((database) => endUnfinishedRuns(database, outcome, except)),
    changeCount: () => changes,
    close() {
      closed = true;
      const closing = current;
      current = undefined;
      void closing?.then((database) => database.close(), () => {});
    },
  };
}
