import type { TraceStore } from './trace-store';

export type TraceWriteQueue = ReturnType<typeof createTraceWriteQueue>;

/**
 * The recorder's writes, one after another in the order the changes were taken, each to the store
 * once it has opened and none before `first` settles (the runs a stopped worker left are marked
 * interrupted before anything new is written). A write that fails is reported; the next still goes.
 */
export function createTraceWriteQueue(storeReady: Promise<TraceStore>, first: Promise<void>, report: (error: unknown) => void) {
  let writing = first;
  return {
    enqueue(write: (store: TraceStore) => Promise<unknown>): Promise<void> {
      writing = writing.then(async () => void (await write(await storeReady))).catch(report);
      return writing;
    },
    /** Settles once every write queued so far has. */
    settled: (): Promise<void> => writing,
  };
}
