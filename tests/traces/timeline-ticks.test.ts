import { describe, expect, it } from 'vitest';
import { niceTicks } from '@/components/traces/timeline-chart';
import { formatDuration } from '@/lib/text/format-duration';

const axis = (spanMs: number) => niceTicks(spanMs).map(formatDuration).join(' | ');

describe('the timeline’s axis', () => {
  it('marks times a person counts in, at most six of them', () => {
    expect(axis(1_000)).toBe('0 ms | 200 ms | 400 ms | 600 ms | 800 ms | 1.0 s');
    expect(axis(4_200)).toBe('0 ms | 1.0 s | 2.0 s | 3.0 s | 4.0 s');
    expect(axis(100_000)).toBe('0 ms | 30.0 s | 1 min 0 s | 1 min 30 s');
    expect(axis(7_270_000)).toBe('0 ms | 30 min 0 s | 1 h 0 min | 1 h 30 min | 2 h 0 min');
    expect(axis(3 * 86_400_000)).toBe('0 ms | 24 h 0 min | 48 h 0 min | 72 h 0 min');
  });

  it('gives a run that took no time one step, not the same time over and over', () => {
    expect(axis(1)).toBe('0 ms | 1 ms');
  });
});
