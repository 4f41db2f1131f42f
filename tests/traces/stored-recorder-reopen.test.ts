import { describe, expect, it, vi } from 'vitest';
import { defaultTraceSettings } from '@/lib/traces/trace-settings';
import type { TraceStore } from '@/lib/traces/trace-store';
import { recordShopRun } from './support/record-run';
import { openTestStore } from './support/trace-stores';

// The worker's first opening of the trace database fails (a transient IndexedDB error as it starts,
// an upgrade another page blocks); every later one succeeds, as the shared opener lets it.
const opened = vi.hoisted(() => ({ calls: 0, store: undefined as Promise<TraceStore> | undefined }));
vi.mock('@/lib/traces/get-trace-store', () => ({
  getTraceStore: (): Promise<TraceStore> => {
    opened.calls += 1;
    if (opened.calls === 1) return Promise.reject(new Error('The database could not be opened.'));
    return (opened.store ??= openTestStore());
  },
}));

describe('the stored recorder, where the trace database fails to open at first', () => {
  it('opens it again for the next run, and keeps that run', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { createStoredRecorder } = await import('@/lib/traces/stored-recorder');
    const recorder = createStoredRecorder({ loadSettings: async () => defaultTraceSettings });
    await recorder.ready;
    expect(warn).toHaveBeenCalled();
    await recordShopRun({ recorder, runId: 'after-the-failure' });
    await recorder.flush();
    const trace = await (await opened.store!).getTrace('after-the-failure');
    expect(trace?.run).toMatchObject({ outcome: 'answer', request: 'Put two enamel mugs in my cart' });
    warn.mockRestore();
  });

  it('says runs cannot be stored while the database does not open (one a newer version left), and that traces are off where the person turned them off', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const { createStoredRecorder } = await import('@/lib/traces/stored-recorder');
    const newer = Promise.reject(Object.assign(new Error('The runs kept here were written by a newer version of this extension.'), { name: 'VersionError' }));
    newer.catch(() => {});
    const refused = createStoredRecorder({ store: newer, loadSettings: async () => defaultTraceSettings });
    await refused.ready;
    expect(await refused.whyNotKept?.()).toBe('cannot-store');
    // Another failure may pass (a transient error as the worker starts): the run goes on, and is kept if the database opens.
    const failing = Promise.reject(new Error('The database could not be opened.'));
    failing.catch(() => {});
    const transient = createStoredRecorder({ store: failing, loadSettings: async () => defaultTraceSettings });
    await transient.ready;
    expect(await transient.whyNotKept?.()).toBeUndefined();
    // Nor does an opening that hangs (an upgrade another page blocks) hold the run up.
    const hanging = createStoredRecorder({ store: new Promise<never>(() => {}), loadSettings: async () => defaultTraceSettings });
    expect(await hanging.whyNotKept?.()).toBeUndefined();
    const off = createStoredRecorder({ store: openTestStore(), loadSettings: async () => ({ ...defaultTraceSettings, keepTraces: false }) });
    expect(await off.whyNotKept?.()).toBe('traces-off');
    const kept = createStoredRecorder({ store: openTestStore(), loadSettings: async () => defaultTraceSettings });
    expect(await kept.whyNotKept?.()).toBeUndefined();
    warn.mockRestore();
  });
});
