import type { TraceStore } from './trace-store';

export type TraceWriteQueue = ReturnType<typeof createTraceWriteQueue>;

/**
 * The recorder's writes, one after another in the order the changes were taken, each to the store
 * once it has opened (`openStore`, asked again by each write) and none before `first` settles (the
 * runs a stopped worker left are marked interrupted before anything new is written). A write that
 * fails, or finds no store, is reported; the next still goes.
 */
export function createTraceWriteQueue(openStore: () => Promise<TraceStore>, first: Promise<void>, report: (error: unknown) => void) {
  let writing = first;
  return {
    enqueue(write: (store: TraceStore) => Promise<unknown>): Promise<void> {
      writing = writing.then(async () => void (await write(await openStore()))).catch(report);
      return writing;
    },
    /** Settles once every write queued so far has. */
    settled: (): Promise<void> => writing,
  };
}
