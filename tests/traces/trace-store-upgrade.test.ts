import 'fake-indexeddb/auto';
import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { openTraceStore } from '@/lib/traces/trace-store';
import type { TraceRun } from '@/lib/traces/trace-schema';

const run = (id: string, url: string): TraceRun => ({
  id, tabId: 1, url, origin: 'https://shop.example', engineId: 'replay', model: 'recorded', request: 'mugs',
  startedAt: 1_000, endedAt: 2_000, outcome: 'answer', stepCount: 0, sizeBytes: 100, updatedAt: 2_000,
});

/** A trace database as the first version of the extension left it: its runs keep the whole address. */
async function storeOfFirstVersion(name: string, runs: readonly TraceRun[]): Promise<void> {
  const database = await openDB(name, 1, {
    upgrade(db) {
      db.createObjectStore('runs', { keyPath: 'id' }).createIndex('startedAt', 'startedAt');
      db.createObjectStore('steps', { keyPath: ['runId', 'step'] });
    },
  });
  for (const stored of runs) await database.put('runs', stored);
  database.close();
}

describe('the trace store, opened where an older version kept runs', () => {
  it('rewrites their addresses without query string or fragment, and keeps everything else of them', async () => {
    const name = `test-traces-${crypto.randomUUID()}`;
    const secret = run('secret', 'https://shop.example/reset?code=12345&email=ann%40example.com#access_token=abc');
    const plain = run('plain', 'https://shop.example/mugs');
    await storeOfFirstVersion(name, [secret, plain]);

    const store = await openTraceStore(name);
    const runs = await store.listRuns();
    store.close();
    expect(runs.find((stored) => stored.id === 'secret')).toEqual({ ...secret, url: 'https://shop.example/reset' });
    expect(runs.find((stored) => stored.id === 'plain')).toEqual(plain);
  });

  it('leaves a record that does not read as a run as it is, and rewrites the runs after it', async () => {
    const name = `test-traces-${crypto.randomUUID()}`;
    const broken = { ...run('a-broken', ''), url: 42 } as unknown as TraceRun;
    const secret = run('b-secret', 'https://shop.example/reset?code=12345');
    await storeOfFirstVersion(name, [broken, secret]);

    const store = await openTraceStore(name);
    const runs = await store.listRuns();
    store.close();
    expect(runs.find((stored) => stored.id === 'a-broken')).toEqual(broken);
    expect(runs.find((stored) => stored.id === 'b-secret')?.url).toBe('https://shop.example/reset');
  });

  it('says in words that a newer version of the extension wrote them, where it left its database at a later version', async () => {
    const name = `test-traces-${crypto.randomUUID()}`;
    (await openDB(name, 3)).close();
    await expect(openTraceStore(name)).rejects.toMatchObject({
      name: 'VersionError',
      message:
        'The runs kept here were written by a newer version of this extension, which this one cannot read: update the extension to see them, or remove it and add it again to start afresh (which deletes them). Until then no run is recorded.',
    });
  });
});
