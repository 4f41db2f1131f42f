import 'fake-indexeddb/auto';
import { forceCloseDatabase } from 'fake-indexeddb';
import { deleteDB, openDB } from 'idb';
import { describe, expect, it, vi } from 'vitest';
import { createStoredRecorder } from '@/lib/traces/stored-recorder';
import { openTraceStore } from '@/lib/traces/trace-store';
import { defaultTraceSettings } from '@/lib/traces/trace-settings';
import { recordShopRun } from './support/record-run';

const freshName = () => `test-traces-${crypto.randomUUID()}`;

describe('the trace store, when another context closes its connection', () => {
  it('keeps the runs recorded after the extension’s storage was cleared, without a new worker', async () => {
    const name = freshName();
    const store = await openTraceStore(name);
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    await recordShopRun({ recorder, runId: 'before', startedAt: Date.now() - 60_000 });
    await recorder.flush();

    // Clearing the extension's storage deletes the database under the open connection.
    await deleteDB(name);
    await recordShopRun({ recorder, runId: 'after' });
    await recorder.flush();

    const runs = await store.listRuns();
    expect(runs.map((run) => run.id)).toEqual(['after']);
    expect((await store.getTrace('after'))?.steps.length).toBeGreaterThan(0);
    store.close();
  });

  it('reads and deletes again through a new connection as well', async () => {
    const name = freshName();
    const store = await openTraceStore(name);
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    await recordShopRun({ recorder, runId: 'kept' });
    await recorder.flush();

    await deleteDB(name);
    expect(await store.countRuns()).toBe(0);
    await recordShopRun({ recorder, runId: 'again' });
    await recorder.flush();
    expect(await store.deleteFinished()).toEqual({ deleted: 1, skippedRunning: 0 });
    expect(await store.listRuns()).toEqual([]);
    store.close();
  });

  it('does a use again in full on a new connection where the connection closed between two of its transactions', async () => {
    const name = freshName();
    const store = await openTraceStore(name);
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    await recordShopRun({ recorder, runId: 'older', startedAt: Date.now() - 60_000 });
    await recordShopRun({ recorder, runId: 'newer' });
    await recorder.flush();

    // Reading every trace lists the runs in one transaction, then reads their steps in another.
    // Between the two, Chrome closes the connection (as it does when the site's data is cleared):
    // the connection says so with its close event, and refuses the second transaction.
    const transaction = IDBDatabase.prototype.transaction;
    let opened = 0;
    const closing = vi.spyOn(IDBDatabase.prototype, 'transaction').mockImplementation(function (this: IDBDatabase, ...args: Parameters<IDBDatabase['transaction']>) {
      opened += 1;
      if (opened === 2) {
        // (Its types take the class for the instance.)
        forceCloseDatabase(this as never);
      }
      return transaction.apply(this, args);
    });
    try {
      const traces = await store.getTraces();
      expect(traces.map((trace) => [trace.run.id, trace.steps.length > 0])).toEqual([
        ['newer', true],
        ['older', true],
      ]);
      // The list, the refused read of the steps, then both again on the new connection.
      expect(opened).toBe(4);
    } finally {
      closing.mockRestore();
      store.close();
    }
  });

  it('stays closed once closed itself: only a connection another context closed opens again', async () => {
    const store = await openTraceStore(freshName());
    store.close();
    await expect(store.countRuns()).rejects.toMatchObject({ name: 'InvalidStateError' });
  });

  it('lets a newer version upgrade the database, and then refuses to write into a schema it does not know', async () => {
    const name = freshName();
    const store = await openTraceStore(name);
    const newer = await openDB(name, 3);
    newer.close();
    await expect(store.countRuns()).rejects.toMatchObject({ name: 'VersionError' });
    store.close();
  });
});
