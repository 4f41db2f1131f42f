import { selectRunsToRemove, storedSize } from './select-runs-to-remove';
import type { TraceSettings } from './trace-settings';
import type { TraceStore } from './trace-store';

/** However quiet the limits look, every this many runs the retention check reads every run. */
const fullCheckEvery = 25;

/**
 * Keeps the stored runs within the settings' limits, checked as each run ends. Reading every run
 * record to check the limits costs more than recording a run, so the full check runs only when a
 * limit may have been passed, when runs were imported or deleted since (the running total no longer
 * holds), or every so often.
 */
export function createRetentionCheck(loadSettings: () => Promise<TraceSettings>) {
  let keptBytes: number | undefined;
  let runsSinceCheck = 0;
  let changesSeen: number | undefined;
  return async (store: TraceStore, endedRunBytes: number): Promise<void> => {
    const settings = await loadSettings();
    runsSinceCheck += 1;
    if (store.changeCount() !== changesSeen) keptBytes = undefined;
    const bytesBound = (keptBytes ?? Infinity) + endedRunBytes;
    keptBytes = bytesBound;
    const mayExceed = bytesBound > settings.maxMegabytes * 1024 * 1024 || (await store.countRuns()) > settings.maxRuns;
    if (!mayExceed && runsSinceCheck < fullCheckEvery) return;
    const runs = await store.listRuns();
    const remove = new Set(selectRunsToRemove(runs, settings));
    if (remove.size > 0) await store.deleteRuns([...remove]);
    keptBytes = runs.reduce((sum, run) => sum + (remove.has(run.id) ? 0 : storedSize(run)), 0);
    changesSeen = store.changeCount();
    runsSinceCheck = 0;
  };
}
