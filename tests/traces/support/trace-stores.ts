import 'fake-indexeddb/auto';
import { createStoredRecorder } from '@/lib/traces/stored-recorder';
import { openTraceStore, type TraceStore } from '@/lib/traces/trace-store';
import { defaultTraceSettings } from '@/lib/traces/trace-settings';
import { recordShopRun } from './record-run';

/** A fresh trace database of its own, in fake-indexeddb, for one test. */
export function openTestStore(): Promise<TraceStore> {
  return openTraceStore(`test-traces-${crypto.randomUUID()}`);
}

/** A test store holding the shop run "mugs", recorded an hour ago on https://shop.example: four steps, ended with its answer. */
export async function openStoreWithMugs(): Promise<TraceStore> {
  const store = await openTestStore();
  const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
  await recordShopRun({ recorder, runId: 'mugs', startedAt: Date.now() - 3_600_000 });
  await recorder.flush();
  return store;
}
