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
});
