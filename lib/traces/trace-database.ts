import { openDB, type DBSchema, type IDBPDatabase, type IDBPObjectStore, type StoreNames } from 'idb';
import { traceAddress } from './trace-address';
import type { TraceRun, TraceStep } from './trace-schema';

export interface TraceDatabase extends DBSchema {
  runs: { key: string; value: TraceRun; indexes: { startedAt: number } };
  /** Keyed `[runId, step]`, so a run's steps come back in order from one key range. */
  steps: { key: [string, number]; value: TraceStep };
}

export type TraceDatabaseConnection = IDBPDatabase<TraceDatabase>;

/** A run's steps, or only those from `fromStep` on. */
export const stepsOf = (runId: string, fromStep = -Infinity) => IDBKeyRange.bound([runId, fromStep], [runId, Infinity]);

/** Rewrites each stored run's address as a trace keeps it now (see `traceAddress`), within the upgrade. */
async function keepAddressesWithoutQuery(runs: IDBPObjectStore<TraceDatabase, ArrayLike<StoreNames<TraceDatabase>>, 'runs', 'versionchange'>): Promise<void> {
  for (let cursor = await runs.openCursor(); cursor; cursor = await cursor.continue()) {
    // A record that does not read as a run is left as it is: the viewer lists it as unreadable.
    if (typeof cursor.value?.url !== 'string') continue;
    const url = traceAddress(cursor.value.url);
    if (url !== cursor.value.url) await cursor.update({ ...cursor.value, url });
  }
}

/**
 * Opens the trace database, creating its stores on first use and bringing an older version's runs
 * up to date. `closed` is called once the connection closes without being asked to here: another
 * context deletes the database or upgrades it, or the browser ends the connection.
 */
export async function openTraceDatabase(name: string, closed: () => void = () => {}): Promise<TraceDatabaseConnection> {
  const database: TraceDatabaseConnection = await openDB<TraceDatabase>(name, traceDatabaseVersion, {
    upgrade(db, oldVersion, _newVersion, transaction) {
      if (oldVersion < 1) {
        db.createObjectStore('runs', { keyPath: 'id' }).createIndex('startedAt', 'startedAt');
        db.createObjectStore('steps', { keyPath: ['runId', 'step'] });
      }
      // Version 1 kept a page's whole address: its query string and fragment go, as from new runs.
      if (oldVersion === 1) void keepAddressesWithoutQuery(transaction.objectStore('runs'));
    },
    // Another context deletes the database (storage cleared) or upgrades its schema: let it.
    blocking() {
      database.close();
      closed();
    },
    terminated: closed,
  }).catch((error: unknown) => {
    throw (error as { name?: unknown } | null)?.name === 'VersionError' ? newerDatabase() : error;
  });
  return database;
}

const traceDatabaseVersion = 2;

/**
 * The database a newer version of the extension left (one installed before this, then taken back):
 * this version cannot read it, nor may it undo its changes; what a person can do, in words.
 */
function newerDatabase(): Error {
  // Its name stays the browser's: a context that reads the error by name still knows it.
  return Object.assign(
    new Error('The runs kept here were written by a newer version of this extension, which this one cannot read: update the extension to see them, or remove it and add it again to start afresh (which deletes them). Until then no run is recorded.'),
    { name: 'VersionError' },
  );
}
