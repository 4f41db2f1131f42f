import { describe, expect, it } from 'vitest';
import { readsOneAtATime } from '@/lib/traces/reads-one-at-a-time';

describe('readsOneAtATime', () => {
  it('answers calls made while a read goes on with one read that begins after it', async () => {
    const ends: Array<() => void> = [];
    const read = readsOneAtATime(() => new Promise<void>((resolve) => ends.push(resolve)));
    const first = read();
    const second = read();
    const third = read();
    expect(ends).toHaveLength(1);
    expect(third).toBe(second);
    ends[0]!();
    await first;
    await Promise.resolve();
    expect(ends).toHaveLength(2);
    ends[1]!();
    await second;
    expect(ends).toHaveLength(2);
  });

  it('reads again after a read that failed', async () => {
    let reads = 0;
    const read = readsOneAtATime(async () => {
      reads += 1;
      if (reads === 1) throw new Error('no answer');
    });
    const first = read();
    const second = read();
    await expect(first).rejects.toThrow('no answer');
    await second;
    expect(reads).toBe(2);
  });
});
