import type { TraceDatabaseConnection } from './trace-database';
import type { TraceOutcome } from './trace-schema';

/**
 * Gives every run still without an outcome (except those in `except`, which a recorder holds
 * now) this one, ended when it last changed: a run a stopped service worker cut off would otherwise
 * read as still going on. Returns how many.
 */
export async function endUnfinishedRuns(database: TraceDatabaseConnection, outcome: TraceOutcome, except: ReadonlySet<string>): Promise<number> {
  const transaction = database.transaction('runs', 'readwrite');
  let ended = 0;
  for (let cursor = await transaction.store.openCursor(); cursor; cursor = await cursor.continue()) {
    const run = cursor.value;
    if (run.outcome !== undefined || except.has(run.id)) continue;
    await cursor.update({ ...run, outcome, endedAt: run.updatedAt });
    ended += 1;
  }
  await transaction.done;
  return ended;
}
