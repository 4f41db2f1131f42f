import { describe, expect, it } from 'vitest';
import { selectRunsToRemove } from '@/lib/traces/select-runs-to-remove';

const run = (id: string, startedAt: number, sizeBytes = 1_000) => ({ id, startedAt, sizeBytes, outcome: 'answer' });
const running = (id: string, startedAt: number, sizeBytes: number) => ({ id, startedAt, sizeBytes });
const megabyte = 1024 * 1024;

describe('selectRunsToRemove', () => {
  it('removes the oldest runs beyond the last N', () => {
    const runs = [run('b', 2), run('d', 4), run('a', 1), run('c', 3)];
    expect(selectRunsToRemove(runs, { maxRuns: 2, maxMegabytes: 50 })).toEqual(['b', 'a']);
  });

  it('removes the oldest runs once the newer ones fill M megabytes, even a smaller older one', () => {
    const runs = [run('new', 3, 0.6 * megabyte), run('middle', 2, 0.6 * megabyte), run('old', 1, 10)];
    expect(selectRunsToRemove(runs, { maxRuns: 100, maxMegabytes: 1 })).toEqual(['middle', 'old']);
  });

  it('never removes a run still going on, and always keeps the newest finished run', () => {
    const runs = [running('running', 5, 2 * megabyte), run('huge', 4, 3 * megabyte), run('older', 3)];
    expect(selectRunsToRemove(runs, { maxRuns: 1, maxMegabytes: 1 })).toEqual(['older']);
  });

  it('removes nothing within the limits', () => {
    expect(selectRunsToRemove([run('a', 1), run('b', 2)], { maxRuns: 2, maxMegabytes: 1 })).toEqual([]);
    expect(selectRunsToRemove([], { maxRuns: 1, maxMegabytes: 1 })).toEqual([]);
  });

  it('counts a run dated in the future as the oldest, so that it cannot push out every run recorded after it', () => {
    const now = Date.UTC(2026, 0, 1);
    const runs = [run('mine-1', now - 2_000), run('mine-2', now - 1_000), run('from-the-future', 8.64e15, 2_000 * megabyte)];
    expect(selectRunsToRemove(runs, { maxRuns: 100, maxMegabytes: 50 }, now)).toEqual(['from-the-future']);
  });

  it('keeps to the size limit beside a record that gives no size (damaged, or from another version), counting it as none', () => {
    const sizeless = { id: 'sizeless', startedAt: 4, outcome: 'answer' } as unknown as ReturnType<typeof run>;
    const runs = [sizeless, run('new', 3, 0.6 * megabyte), run('middle', 2, 0.6 * megabyte), run('old', 1, 10)];
    expect(selectRunsToRemove(runs, { maxRuns: 100, maxMegabytes: 1 })).toEqual(['middle', 'old']);
  });
});
