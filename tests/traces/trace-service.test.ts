import { describe, expect, it } from 'vitest';
import { createTraceClient } from '@/lib/traces/trace-client';
import { createStoredRecorder } from '@/lib/traces/stored-recorder';
import { defaultTraceSettings } from '@/lib/traces/trace-settings';
import type { TraceStore } from '@/lib/traces/trace-store';
import { recordShopRun } from './support/record-run';
import { createShopPage } from './support/shop-page';
import { createTestService } from './support/test-service';
import { openTestStore } from './support/trace-stores';

async function storeWithRuns(count: number): Promise<TraceStore> {
  const store = await openTestStore();
  const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
  for (let index = 1; index <= count; index += 1) await recordShopRun({ recorder, runId: `run-${index}`, startedAt: index * 60_000 });
  await recorder.flush();
  return store;
}

describe('the trace service', () => {
  it('lists runs newest first and gets one with its steps', async () => {
    const { service } = createTestService(await storeWithRuns(2));
    const list = await service.handle({ type: 'traces-list' });
    expect(list.ok && list.data).toMatchObject({ runs: [{ id: 'run-2' }, { id: 'run-1' }] });
    const got = await service.handle({ type: 'traces-get', runId: 'run-1' });
    expect(got.ok && 'trace' in got.data && got.data.trace?.steps.length).toBe(4);
  });

  it('exports runs that import into another store identical, field for field', async () => {
    const source = await storeWithRuns(2);
    const exported = await createTestService(source).service.handle({ type: 'traces-export' });
    if (!exported.ok || !('file' in exported.data)) throw new Error('The export failed.');
    const text = JSON.stringify(exported.data.file);

    const target = await openTestStore();
    const imported = await createTestService(target).service.handle({ type: 'traces-import', file: JSON.parse(text) });
    expect(imported).toEqual({ ok: true, data: { imported: 2 } });
    expect(await target.getTraces()).toEqual(await source.getTraces());
    // Importing the same file again replaces those runs rather than doubling them.
    await createTestService(target).service.handle({ type: 'traces-import', file: JSON.parse(text) });
    expect(await target.getTraces()).toEqual(await source.getTraces());
  });

  it('stores an imported run that was still going on when exported as interrupted, so it can be deleted', async () => {
    const exported = await createTestService(await storeWithRuns(1)).service.handle({ type: 'traces-export' });
    if (!exported.ok || !('file' in exported.data)) throw new Error('The export failed.');
    const file = structuredClone(exported.data.file);
    delete (file.runs[0]!.run as { outcome?: string }).outcome;
    const target = await openTestStore();
    const { service } = createTestService(target);
    expect(await service.handle({ type: 'traces-import', file })).toEqual({ ok: true, data: { imported: 1 } });
    expect((await target.listRuns())[0]?.outcome).toBe('interrupted');
    expect(await service.handle({ type: 'traces-delete-all' })).toEqual({ ok: true, data: { deleted: 1, skippedRunning: 0 } });
  });

  it('refuses a malformed file with a message that says what is wrong, and changes nothing', async () => {
    const store = await storeWithRuns(1);
    const { service } = createTestService(store);
    const before = await store.getTraces();
    const exported = await service.handle({ type: 'traces-export' });
    if (!exported.ok || !('file' in exported.data)) throw new Error('The export failed.');
    const damaged = structuredClone(exported.data.file) as { runs: Array<{ steps: Array<Record<string, unknown>> }> };
    damaged.runs[0]!.steps[1]!.raw = 42;

    expect(await service.handle({ type: 'traces-import', file: damaged })).toEqual({
      ok: false,
      error: { name: 'TraceFileError', message: 'The trace file is damaged: runs[0].steps[1].raw: Invalid input: expected string, received number.' },
    });
    expect(await service.handle({ type: 'traces-import', file: { runs: [] } })).toMatchObject({
      ok: false,
      error: { message: expect.stringContaining('not a trace file') },
    });
    expect(await store.getTraces()).toEqual(before);
  });

  it('deletes finished runs but keeps one still going on', async () => {
    const store = await storeWithRuns(2);
    const recorder = createStoredRecorder({ store, loadSettings: async () => defaultTraceSettings });
    recorder.startRun({ runId: 'live', tabId: 1, url: '', origin: '', engineId: 'replay', model: '', request: 'still going', startedAt: 10 });
    await recorder.flush();
    const { service } = createTestService(store);
    expect(await service.handle({ type: 'traces-delete', runIds: ['run-1', 'nope'] })).toEqual({ ok: true, data: { deleted: 1, skippedRunning: 0 } });
    expect(await service.handle({ type: 'traces-delete-all' })).toEqual({ ok: true, data: { deleted: 1, skippedRunning: 1 } });
    expect((await store.listRuns()).map((run) => run.id)).toEqual(['live']);
    expect(await store.getTrace('run-1')).toBeUndefined();
  });

  it('answers a request it does not understand with an error, not an exception', async () => {
    const { service } = createTestService(await openTestStore());
    expect(await service.handle({ type: 'traces-get' })).toMatchObject({ ok: false, error: { name: 'TraceRequestError' } });
    expect(await service.handle(null)).toMatchObject({ ok: false });
  });

  it('lists the tabs with tools, and replays a run in one over the port', async () => {
    const store = await storeWithRuns(1);
    const page = createShopPage({ rename: { from: 'add_to_cart', to: 'add_item' } });
    const { service, openReplayPort } = createTestService(store, new Map([[7, page]]));
    const client = createTraceClient({ store: async () => store, request: (request) => service.handle(request), openReplayPort });
    expect(await client.replayTabs()).toEqual([{ tabId: 7, url: page.url, origin: page.origin, toolCount: 2 }]);

    const messages: string[] = [];
    const done = await new Promise<unknown>((resolve) => {
      client.replay('run-1', 7, {
        onMessage: (message) => {
          messages.push(message.type);
          if (message.type === 'done' || message.type === 'failed') resolve(message);
        },
        onLost: () => resolve('lost'),
      });
    });
    expect(messages).toContain('progress');
    expect(done).toMatchObject({
      type: 'done',
      divergences: expect.arrayContaining([expect.objectContaining({ type: 'call', step: 3, name: 'add_to_cart', replayed: 'unknown-tool' })]),
    });
  });

  it('replays nothing on a site where the person turned the agent off', async () => {
    const store = await storeWithRuns(1);
    const page = createShopPage({});
    const { openReplayPort, service } = createTestService(store, new Map([[7, page]]), {
      consent: async () => ({ askEveryCall: false, disabledSites: [page.origin] }),
    });
    const client = createTraceClient({ store: async () => store, request: (request) => service.handle(request), openReplayPort });
    const failed = await new Promise((resolve) => client.replay('run-1', 7, { onMessage: resolve, onLost: () => resolve('lost') }));
    expect(failed).toMatchObject({ type: 'failed', error: { message: expect.stringContaining(`The agent is off on ${page.origin}`) } });
    expect(page.cart).toEqual([]);
  });

  it('says why a replay cannot start in a tab without tools', async () => {
    const store = await storeWithRuns(1);
    const { service, openReplayPort } = createTestService(store);
    const client = createTraceClient({ store: async () => store, request: (request) => service.handle(request), openReplayPort });
    const failed = await new Promise((resolve) => client.replay('run-1', 99, { onMessage: resolve, onLost: () => resolve('lost') }));
    expect(failed).toEqual({ type: 'failed', error: { name: 'ReplayError', message: 'That tab offers no tools now: it was closed, or its page has none.' } });
  });
});
