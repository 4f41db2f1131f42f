import { describe, expect, it } from 'vitest';
import type { StoredTrace } from '@/lib/traces/trace-schema';
import { openStoreWithMugs, openTestStore } from './support/trace-stores';

/** Copies of the recorded shop run "mugs" under new ids. */
async function copiesOfMugs(count: number): Promise<StoredTrace[]> {
  const mugs = (await (await openStoreWithMugs()).getTrace('mugs'))!;
  return Array.from({ length: count }, (_, index) => {
    const id = `copy-${index}`;
    return { run: { ...mugs.run, id }, steps: mugs.steps.map((step) => ({ ...step, runId: id })) };
  });
}

describe('putTraces', () => {
  it('stores every run of a large import, its requests asked a slice of time at a time in one transaction', async () => {
    const store = await openTestStore();
    const traces = await copiesOfMugs(600);
    await store.putTraces(traces);
    expect((await store.listRuns()).length).toBe(600);
    expect(await store.getTrace('copy-599')).toEqual(traces[599]);
  });

  it('stores nothing of an import with a record that cannot be stored, and says why', async () => {
    const store = await openTestStore();
    const traces = await copiesOfMugs(3);
    (traces[1]!.steps[0] as unknown as Record<string, unknown>)['raw'] = () => 'not a record';
    await expect(store.putTraces(traces)).rejects.toThrow(/clone/i);
    expect(await store.listRuns()).toEqual([]);
  });
});
