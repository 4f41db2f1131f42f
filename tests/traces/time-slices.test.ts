import { describe, expect, it } from 'vitest';
import { createTimeSlices } from '@/lib/traces/time-slices';

describe('createTimeSlices', () => {
  /** Which came first after `nextSlice` was asked: the pause's end, or a task queued before it. */
  async function firstAfter(nextSlice: () => Promise<void>): Promise<string> {
    const order: string[] = [];
    setTimeout(() => order.push('other task'), 0);
    await nextSlice();
    order.push('job');
    await new Promise((resolve) => setTimeout(resolve, 0));
    return order[0]!;
  }

  it('lets the worker\'s other tasks in once a slice\'s 10 ms have gone, and not before', async () => {
    let now = 1_000;
    const nextSlice = createTimeSlices(undefined, () => now);
    now += 9;
    expect(await firstAfter(nextSlice)).toBe('job');
    now += 1;
    expect(await firstAfter(nextSlice)).toBe('other task');
    // A new slice starts after the pause.
    now += 5;
    expect(await firstAfter(nextSlice)).toBe('job');
  });
});
