import { describe, expect, it } from 'vitest';
import { describeRemovalAhead } from '../../lib/traces/describe-export';
import { selectRunsToRemove } from '../../lib/traces/select-runs-to-remove';

const megabyte = 1024 * 1024;
const now = Date.UTC(2026, 10, 30, 12);
const run = (id: string, ago: number, megabytes: number) => ({ id, startedAt: now - ago, sizeBytes: megabytes * megabyte, outcome: 'answer' });

describe('describeRemovalAhead', () => {
  it('names as many runs as retention removes once the next run ends', () => {
    const runs = [run('a', 3000, 4), run('b', 2000, 4), run('c', 1000, 4)];
    const settings = { maxRuns: 100, maxMegabytes: 10 };
    const removed = selectRunsToRemove([...runs, { id: 'next', startedAt: now, sizeBytes: 1000, outcome: 'answer' }], settings);
    expect(removed).toEqual(['a']);
    expect(describeRemovalAhead(runs, settings, now)).toBe(' Runs are kept up to 10 MB: when the next run ends, the oldest run here, or more, will be removed to make room for it, unless you raise the limit below.');
  });

  it('names both limits where the one on runs alone would remove fewer: raising it alone would keep nothing more', () => {
    // Four runs of 6 MB and a limit of 3 runs: the count removes 2 of them, the 10 MB limit 3.
    const runs = [run('a', 4000, 6), run('b', 3000, 6), run('c', 2000, 6), run('d', 1000, 6)];
    expect(describeRemovalAhead(runs, { maxRuns: 3, maxMegabytes: 10 }, now)).toBe(
      ' Only the last 3 runs are kept, up to 10 MB: when the next run ends, the 3 oldest runs here, or more, will be removed to make room for it, unless you raise the limits below.',
    );
    // The count alone: its own words.
    expect(describeRemovalAhead(runs, { maxRuns: 3, maxMegabytes: 1_000 }, now)).toBe(
      ' Only the last 3 runs are kept: when the next run ends, the 2 oldest runs here will be removed to make room for it, unless you raise the limit below.',
    );
  });
});
