import 'fake-indexeddb/auto';
import { openTraceStore, type TraceStore } from '@/lib/traces/trace-store';

/** A fresh trace database of its own, in fake-indexeddb, for one test. */
export function openTestStore(): Promise<TraceStore> {
  return openTraceStore(`test-traces-${crypto.randomUUID()}`);
}
