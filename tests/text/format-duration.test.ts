import { describe, expect, it } from 'vitest';
import { formatDuration } from '@/lib/text/format-duration';

describe('a duration as a person reads it', () => {
  it('says milliseconds, seconds, minutes and hours, each where it reads best', () => {
    expect([0, 120, 3_400, 125_000, 7_270_000].map(formatDuration)).toEqual(['0 ms', '120 ms', '3.4 s', '2 min 5 s', '2 h 1 min']);
    // Three days are hours too: a run's length, not a date.
    expect(formatDuration(3 * 86_400_000)).toBe('72 h 0 min');
  });

  it('never rounds up into a unit it has outgrown: no "1000 ms", "60.0 s" or "60 min"', () => {
    expect([999.4, 999.6, 59_940, 59_960, 3_599_400, 3_599_600].map(formatDuration)).toEqual(['999 ms', '1.0 s', '59.9 s', '1 min 0 s', '59 min 59 s', '1 h 0 min']);
  });

  it('says nothing of what is no duration', () => {
    expect([-1, Number.NaN, Number.POSITIVE_INFINITY].map(formatDuration)).toEqual(['', '', '']);
  });
});
