import 'fake-indexeddb/auto';
import { deleteDB, openDB } from 'idb';
import { describe, expect, it } from 'vitest';
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
